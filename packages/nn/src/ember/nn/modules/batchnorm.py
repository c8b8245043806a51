"""Batch normalization modules of ``ember.nn``: BatchNorm1d/2d/3d and SyncBatchNorm.

State and keys follow torch: parameters ``weight``/``bias`` (affine), buffers ``running_mean``,
``running_var`` and ``num_batches_tracked`` (track_running_stats); ``momentum=None`` gives a
cumulative moving average over ``num_batches_tracked`` batches.
"""

from __future__ import annotations

from typing import Any

import ember
from ember._grad_mode import no_grad
from ember._tensor import Tensor
from ember.nn._functional import normalization as N
from ember.nn._functional._checks import check_tensor
from ember.nn.modules.lazy import LazyModuleMixin
from ember.nn.modules.module import Module
from ember.nn.parameter import (
    Parameter,
    UninitializedBuffer,
    UninitializedParameter,
    is_lazy,
)

__all__ = [
    "BatchNorm1d",
    "BatchNorm2d",
    "BatchNorm3d",
    "LazyBatchNorm1d",
    "LazyBatchNorm2d",
    "LazyBatchNorm3d",
    "SyncBatchNorm",
]


class _NormBase(Module):
    """Parameters, running statistics and their reset, shared by batch and instance norm."""

    _version = 2
    weight: Parameter | None
    bias: Parameter | None
    running_mean: Tensor | None
    running_var: Tensor | None
    num_batches_tracked: Tensor | None

    def __init__(
        self,
        num_features: int,
        eps: float = 1e-5,
        momentum: float | None = 0.1,
        affine: bool = True,
        track_running_stats: bool = True,
        device: object = None,
        dtype: ember.dtype | None = None,
        *,
        bias: bool = True,
    ) -> None:
        super().__init__()
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        if affine:
            self.weight = Parameter(ember.empty(num_features, device=device, dtype=dtype))
            if bias:
                self.bias = Parameter(ember.empty(num_features, device=device, dtype=dtype))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        if track_running_stats:
            self.register_buffer("running_mean", ember.zeros(num_features, dtype=dtype))
            self.register_buffer("running_var", ember.ones(num_features, dtype=dtype))
            self.register_buffer("num_batches_tracked", ember.tensor(0, dtype=ember.int64))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)
        self.reset_parameters()

    def reset_running_stats(self) -> None:
        """Running mean 0, running variance 1, no batches tracked."""
        if self.running_mean is not None and self.running_var is not None:
            self.running_mean.zero_()
            self.running_var.fill_(1)
        if self.num_batches_tracked is not None:
            self.num_batches_tracked.zero_()

    def reset_parameters(self) -> None:
        """Resets the running statistics; weight 1 and bias 0."""
        self.reset_running_stats()
        with no_grad():
            if self.weight is not None:
                self.weight.fill_(1.0)
            if self.bias is not None:
                self.bias.zero_()

    def _check_input_dim(self, input: Tensor) -> None:
        raise NotImplementedError

    def extra_repr(self) -> str:
        return (
            f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
            f"affine={self.affine}, bias={self.bias is not None}, "
            f"track_running_stats={self.track_running_stats}"
        )

    def _load_from_state_dict(
        self,
        state_dict: dict[str, Any],
        prefix: str,
        local_metadata: dict[str, Any],
        strict: bool,
        missing_keys: list[str],
        unexpected_keys: list[str],
        error_msgs: list[str],
    ) -> None:
        # Checkpoints from before num_batches_tracked existed (version < 2) load with 0.
        version = local_metadata.get("version")
        key = prefix + "num_batches_tracked"
        if (version is None or version < 2) and self.track_running_stats and key not in state_dict:
            state_dict[key] = (
                self.num_batches_tracked
                if self.num_batches_tracked is not None
                else ember.tensor(0, dtype=ember.int64)
            )
        super()._load_from_state_dict(
            state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs
        )


class _BatchNorm(_NormBase):
    def forward(self, input: Tensor) -> Tensor:
        check_tensor(input, "input", self)
        self._check_input_dim(input)
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            self.num_batches_tracked.add_(1)
            # momentum=None: cumulative average, each batch weighted 1 / batches seen
            if self.momentum is None:
                factor = 1.0 / float(self.num_batches_tracked)
        use_batch_stats = self.training or (self.running_mean is None and self.running_var is None)
        keep = not self.training or self.track_running_stats
        return N.batch_norm(
            input,
            self.running_mean if keep else None,
            self.running_var if keep else None,
            self.weight,
            self.bias,
            use_batch_stats,
            factor,
            self.eps,
        )


class BatchNorm1d(_BatchNorm):
    """Batch normalization over (N, C) or (N, C, L) inputs.

    Example:
        >>> m = nn.BatchNorm1d(3)
        >>> list(m.state_dict())
        ['weight', 'bias', 'running_mean', 'running_var', 'num_batches_tracked']
    """

    def _check_input_dim(self, input: Tensor) -> None:
        if input.dim() not in (2, 3):
            raise ValueError(f"expected 2D or 3D input (got {input.dim()}D input)")


class BatchNorm2d(_BatchNorm):
    """Batch normalization over (N, C, H, W) inputs.

    Example:
        >>> nn.BatchNorm2d(3)(ember.randn(2, 3, 4, 4)).shape
        ember.Size([2, 3, 4, 4])
    """

    def _check_input_dim(self, input: Tensor) -> None:
        if input.dim() != 4:
            raise ValueError(f"expected 4D input (got {input.dim()}D input)")


class BatchNorm3d(_BatchNorm):
    """Batch normalization over (N, C, D, H, W) inputs.

    Example:
        >>> nn.BatchNorm3d(3)(ember.randn(2, 3, 2, 2, 2)).shape
        ember.Size([2, 3, 2, 2, 2])
    """

    def _check_input_dim(self, input: Tensor) -> None:
        if input.dim() != 5:
            raise ValueError(f"expected 5D input (got {input.dim()}D input)")


class SyncBatchNorm(_BatchNorm):
    """Batch normalization synchronized across processes; in one process it is BatchNorm.

    ember has no distributed process groups yet, so the statistics are those of the local
    batch (exactly torch's result with a world size of 1).

    Example:
        >>> nn.SyncBatchNorm(3)(ember.randn(4, 3, 2)).shape
        ember.Size([4, 3, 2])
    """

    def __init__(
        self,
        num_features: int,
        eps: float = 1e-5,
        momentum: float | None = 0.1,
        affine: bool = True,
        track_running_stats: bool = True,
        process_group: Any = None,
        device: object = None,
        dtype: ember.dtype | None = None,
        *,
        bias: bool = True,
    ) -> None:
        super().__init__(
            num_features, eps, momentum, affine, track_running_stats, device, dtype, bias=bias
        )
        self.process_group = process_group

    def _check_input_dim(self, input: Tensor) -> None:
        if input.dim() < 2:
            raise ValueError(f"expected at least 2D input (got {input.dim()}D input)")

    @classmethod
    def convert_sync_batchnorm(cls, module: Module, process_group: Any = None) -> Module:
        """Replaces every BatchNorm*d in ``module`` by a SyncBatchNorm holding the same state.

        Example:
            >>> net = nn.Sequential(nn.BatchNorm1d(3))
            >>> type(nn.SyncBatchNorm.convert_sync_batchnorm(net)[0]).__name__
            'SyncBatchNorm'
        """
        output = module
        if isinstance(module, _BatchNorm) and not isinstance(module, SyncBatchNorm):
            output = SyncBatchNorm(
                module.num_features,
                module.eps,
                module.momentum,
                module.affine,
                module.track_running_stats,
                process_group,
                bias=module.bias is not None,
            )
            if module.affine:
                with no_grad():
                    output.weight = module.weight
                    output.bias = module.bias
            output.running_mean = module.running_mean
            output.running_var = module.running_var
            output.num_batches_tracked = module.num_batches_tracked
            output.training = module.training
            if hasattr(module, "qconfig"):
                output.qconfig = module.qconfig
        for name, child in module.named_children():
            output.add_module(name, cls.convert_sync_batchnorm(child, process_group))
        del module
        return output


class _LazyNormBase(LazyModuleMixin, _NormBase):
    """A norm layer whose ``num_features`` is read from the first input (dim 1)."""

    def __init__(
        self,
        eps: float = 1e-5,
        momentum: float | None = 0.1,
        affine: bool = True,
        track_running_stats: bool = True,
        device: object = None,
        dtype: ember.dtype | None = None,
        *,
        bias: bool = True,
    ) -> None:
        # Built empty (affine/track off), then the placeholders replace the real tensors.
        super().__init__(0, eps, momentum, False, False, device, dtype, bias=False)
        self.affine = affine
        self.track_running_stats = track_running_stats
        if affine:
            self.weight = UninitializedParameter(device=device, dtype=dtype)
            if bias:
                self.bias = UninitializedParameter(device=device, dtype=dtype)
        if track_running_stats:
            self.running_mean = UninitializedBuffer(device=device, dtype=dtype)
            self.running_var = UninitializedBuffer(device=device, dtype=dtype)
            self.num_batches_tracked = ember.tensor(0, dtype=ember.int64)

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.num_features != 0:
            super().reset_parameters()

    def _feature_dim(self, input: Tensor) -> int:
        return 1

    def initialize_parameters(self, input: Tensor) -> None:
        """Sets ``num_features`` from the input's channel dim and materializes the state."""
        if not self.has_uninitialized_params():
            return
        check_tensor(input, "input", self)
        self.num_features = int(input.size(self._feature_dim(input)))
        shape = (self.num_features,)
        fresh = False  # whether anything was allocated here (not loaded by load_state_dict)
        with no_grad():
            for p in (self.weight, self.bias):
                if p is not None and is_lazy(p):
                    p.materialize(shape)  # type: ignore[attr-defined]
                    fresh = True
            for name in ("running_mean", "running_var"):
                buf = self._buffers.get(name)
                if isinstance(buf, UninitializedBuffer):
                    if buf.numel() == 0:
                        buf.materialize(shape)
                        fresh = True
                    # the placeholder cannot change class in place: keep a plain tensor view
                    self._buffers[name] = buf.as_subclass(Tensor)
        if fresh:
            self.reset_parameters()


class LazyBatchNorm1d(_LazyNormBase, _BatchNorm):
    """BatchNorm1d with ``num_features`` inferred from the first input.

    Example:
        >>> m = nn.LazyBatchNorm1d()
        >>> _ = m(ember.randn(4, 3))
        >>> type(m).__name__, m.num_features
        ('BatchNorm1d', 3)
    """

    cls_to_become = BatchNorm1d
    _check_input_dim = BatchNorm1d._check_input_dim


class LazyBatchNorm2d(_LazyNormBase, _BatchNorm):
    """BatchNorm2d with ``num_features`` inferred from the first input.

    Example:
        >>> nn.LazyBatchNorm2d()(ember.randn(2, 3, 4, 4)).shape
        ember.Size([2, 3, 4, 4])
    """

    cls_to_become = BatchNorm2d
    _check_input_dim = BatchNorm2d._check_input_dim


class LazyBatchNorm3d(_LazyNormBase, _BatchNorm):
    """BatchNorm3d with ``num_features`` inferred from the first input.

    Example:
        >>> nn.LazyBatchNorm3d()(ember.randn(2, 3, 1, 2, 2)).shape
        ember.Size([2, 3, 1, 2, 2])
    """

    cls_to_become = BatchNorm3d
    _check_input_dim = BatchNorm3d._check_input_dim
