"""SparseAdam: refused, since ember has no sparse tensors."""

from __future__ import annotations

from typing import Any, NoReturn

from ember._tensor import Tensor

from .optimizer import Optimizer, ParamsT

__all__ = ["SparseAdam"]


class SparseAdam(Optimizer):
    """torch.optim.SparseAdam needs sparse gradients, which ember does not have.

    Constructing it raises ``NotImplementedError``; use :class:`ember.optim.Adam` (dense
    gradients) instead.

    Example:
        >>> ember.optim.SparseAdam([w])  # raises NotImplementedError
    """

    def __init__(
        self,
        params: ParamsT,
        lr: float | Tensor = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        maximize: bool = False,
    ) -> None:
        raise NotImplementedError(
            "SparseAdam: ember has no sparse tensors (nn.Embedding(sparse=True) gradients do "
            "not exist), so SparseAdam cannot run; use ember.optim.Adam with dense gradients"
        )

    def step(self, closure: Any = None) -> NoReturn:
        """Never reached: construction raises."""
        raise NotImplementedError("SparseAdam: ember has no sparse tensors")
