"""``Flatten`` and ``Unflatten``."""

from __future__ import annotations

from collections.abc import Sequence

from ember._tensor import Tensor
from ember.nn._functional._checks import check_tensor
from ember.nn.modules.module import Module

__all__ = ["Flatten", "Unflatten"]


class Flatten(Module):
    """Flattens dims ``start_dim..end_dim`` into one (by default all but the batch dim).

    Example:
        >>> ember.nn.Flatten()(ember.ones(2, 3, 4)).shape
        ember.Size([2, 12])
    """

    _ember_builtin = True
    start_dim: int
    end_dim: int

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input: Tensor) -> Tensor:
        out: Tensor = check_tensor(input, "input", self).flatten(self.start_dim, self.end_dim)
        return out

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    """Splits dim ``dim`` into ``unflattened_size`` (one entry may be -1).

    Example:
        >>> ember.nn.Unflatten(1, (2, 3))(ember.ones(4, 6)).shape
        ember.Size([4, 2, 3])
    """

    _ember_builtin = True
    dim: int
    unflattened_size: tuple[int, ...]

    def __init__(self, dim: int | str, unflattened_size: Sequence[int]) -> None:
        super().__init__()
        if isinstance(dim, str):
            raise NotImplementedError(
                "[Unflatten] named dimensions (a str dim with NamedShape) are not supported: "
                "ember has no named tensors"
            )
        if not isinstance(dim, int):
            raise TypeError(f"invalid argument dim of type {type(dim).__name__}: expected int")
        if not isinstance(unflattened_size, (tuple, list)):
            raise TypeError(
                "unflattened_size must be tuple of ints, but found type "
                f"{type(unflattened_size).__name__}"
            )
        for idx, elem in enumerate(unflattened_size):
            if not isinstance(elem, int):
                raise TypeError(
                    "unflattened_size must be tuple of ints, but found element of type "
                    f"{type(elem).__name__} at pos {idx}"
                )
        self.dim = dim
        self.unflattened_size = unflattened_size  # type: ignore[assignment]

    def forward(self, input: Tensor) -> Tensor:
        out: Tensor = check_tensor(input, "input", self).unflatten(self.dim, self.unflattened_size)
        return out

    def extra_repr(self) -> str:
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"
