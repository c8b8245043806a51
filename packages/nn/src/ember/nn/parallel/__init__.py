"""``ember.nn.parallel``: torch's data-parallel wrappers, on a build with one CPU device.

ember has no accelerator devices, so ``DataParallel`` behaves as torch's does when no GPU is
visible: it wraps the module (state_dict keys gain the ``module.`` prefix) and calls it unchanged.
``DistributedDataParallel`` needs a process group, which comes with ember-distributed (not built
yet): constructing one raises, as torch does before ``init_process_group``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ember.nn.modules.module import Module

__all__ = ["DataParallel", "DistributedDataParallel", "data_parallel"]


class DataParallel(Module):
    """Wraps ``module`` for multi-device data parallelism; with no accelerator it calls it as is.

    Example:
        >>> model = ember.nn.parallel.DataParallel(ember.nn.Linear(2, 3))
        >>> model(ember.ones(1, 2)).shape
        ember.Size([1, 3])
        >>> sorted(model.state_dict())
        ['module.bias', 'module.weight']
    """

    def __init__(
        self,
        module: Module,
        device_ids: Sequence[int] | None = None,
        output_device: int | None = None,
        dim: int = 0,
    ) -> None:
        super().__init__()
        if device_ids:
            raise RuntimeError(
                f"[DataParallel] device_ids={list(device_ids)} name accelerator devices, but this "
                "build of ember has none (ember.accelerator.is_available() is False)"
            )
        self.module = module
        self.device_ids: list[int] = []
        self.output_device = output_device
        self.dim = dim

    def forward(self, *inputs: Any, **kwargs: Any) -> Any:
        return self.module(*inputs, **kwargs)


def data_parallel(
    module: Module,
    inputs: Any,
    device_ids: Sequence[int] | None = None,
    output_device: int | None = None,
    dim: int = 0,
    module_kwargs: dict[str, Any] | None = None,
) -> Any:
    """Evaluates ``module(inputs)`` over ``device_ids``; with no accelerator, on the CPU.

    Example:
        >>> ember.nn.parallel.data_parallel(ember.nn.Linear(2, 3), ember.ones(1, 2)).shape
        ember.Size([1, 3])
    """
    if device_ids:
        raise RuntimeError(
            f"[data_parallel] device_ids={list(device_ids)} name accelerator devices, but this "
            "build of ember has none (ember.accelerator.is_available() is False)"
        )
    args = inputs if isinstance(inputs, tuple) else (inputs,)
    return module(*args, **(module_kwargs or {}))


class DistributedDataParallel(Module):
    """Needs a process group: ember-distributed is not built yet, so construction raises."""

    def __init__(self, module: Module, *args: Any, **kwargs: Any) -> None:
        del module, args, kwargs
        raise ValueError(
            "[DistributedDataParallel] Default process group has not been initialized: "
            "ember.distributed (init_process_group) is not built yet"
        )
