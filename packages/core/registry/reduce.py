"""The reduce family (fields: registry/_schema.py)."""

from registry._schema import Op

OPS = [
    Op(
        "all",
        function=(
            "(input: Tensor, dim: Sequence[int] | int | None = None, keepdim: bool = False, *, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(dim: Sequence[int] | int | None = None, keepdim: bool = False) -> Tensor",
        grad="none",
    ),
    Op(
        "amin",
        function=(
            "(input: Tensor, dim: int | Sequence[int] | None = None, keepdim: bool = False, *, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(dim: int | Sequence[int] | None = None, keepdim: bool = False) -> Tensor",
        grad="rule",
    ),
    Op(
        "any",
        function=(
            "(input: Tensor, dim: Sequence[int] | int | None = None, keepdim: bool = False, *, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(dim: Sequence[int] | int | None = None, keepdim: bool = False) -> Tensor",
        grad="none",
    ),
    Op(
        "nanmean",
        function=(
            "(input: Tensor, dim: int | Sequence[int] | None = None, keepdim: bool = False, *, "
            "dtype: dtype | None = None, out: Tensor | None = None) -> Tensor"
        ),
        method=(
            "(dim: int | Sequence[int] | None = None, keepdim: bool = False, *, "
            "dtype: dtype | None = None) -> Tensor"
        ),
        grad="rule",
    ),
    Op(
        "nansum",
        function=(
            "(input: Tensor, dim: int | Sequence[int] | None = None, keepdim: bool = False, *, "
            "dtype: dtype | None = None, out: Tensor | None = None) -> Tensor"
        ),
        method=(
            "(dim: int | Sequence[int] | None = None, keepdim: bool = False, *, "
            "dtype: dtype | None = None) -> Tensor"
        ),
        grad="rule",
    ),
    Op(
        "prod",
        function=(
            "(input: Tensor, dim: int | None = None, keepdim: bool = False, *, "
            "dtype: dtype | None = None, out: Tensor | None = None) -> Tensor"
        ),
        method=(
            "(dim: int | None = None, keepdim: bool = False, *, "
            "dtype: dtype | None = None) -> Tensor"
        ),
        grad="rule",
    ),
    Op(
        "sum",
        function=(
            "(input: Tensor, dim: int | Sequence[int] | None = None, keepdim: bool = False, *, "
            "dtype: dtype | None = None, out: Tensor | None = None) -> Tensor"
        ),
        method=(
            "(dim: int | Sequence[int] | None = None, keepdim: bool = False, *, "
            "dtype: dtype | None = None) -> Tensor"
        ),
        grad="rule",
    ),
]
