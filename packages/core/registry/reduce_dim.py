"""The reduce_dim family (fields: registry/_schema.py)."""

from registry._schema import Op

OPS = [
    Op(
        "argmax",
        function=(
            "(input: Tensor, dim: int | None = None, keepdim: bool = False, *, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(dim: int | None = None, keepdim: bool = False) -> Tensor",
        grad="none",
    ),
    Op(
        "argmin",
        function=(
            "(input: Tensor, dim: int | None = None, keepdim: bool = False, *, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(dim: int | None = None, keepdim: bool = False) -> Tensor",
        grad="none",
    ),
    Op(
        "count_nonzero",
        function="(input: Tensor, dim: Sequence[int] | int | None = None) -> Tensor",
        method="(dim: Sequence[int] | int | None = None) -> Tensor",
        grad="none",
    ),
    Op(
        "cumprod",
        function=(
            "(input: Tensor, dim: int, *, dtype: dtype | None = None, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(dim: int, *, dtype: dtype | None = None) -> Tensor",
        inplace="(dim: int, *, dtype: dtype | None = None) -> Tensor",
        grad="rule",
    ),
    Op(
        "cumsum",
        function=(
            "(input: Tensor, dim: int, *, dtype: dtype | None = None, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(dim: int, *, dtype: dtype | None = None) -> Tensor",
        inplace="(dim: int, *, dtype: dtype | None = None) -> Tensor",
        grad="rule",
    ),
    Op(
        "logsumexp",
        function=(
            "(input: Tensor, dim: int | Sequence[int], keepdim: bool = False, *, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(dim: int | Sequence[int], keepdim: bool = False) -> Tensor",
        grad="rule",
    ),
    Op(
        "norm",
        function=(
            "(input: Tensor, p: float | str | None = 'fro', "
            "dim: int | Sequence[int] | None = None, keepdim: bool = False, "
            "out: Tensor | None = None, dtype: dtype | None = None) -> Tensor"
        ),
        method=(
            "(p: float | str | None = 'fro', dim: int | Sequence[int] | None = None, "
            "keepdim: bool = False, dtype: dtype | None = None) -> Tensor"
        ),
        grad="rule",
    ),
    Op(
        "std_mean",
        function=(
            "(input: Tensor, dim: int | Sequence[int] | None = None, unbiased: bool | None = None, "
            "keepdim: bool = False, *, correction: Number | None = None) -> tuple[Tensor, Tensor]"
        ),
        grad="rule",
    ),
    Op(
        "var",
        function=(
            "(input: Tensor, dim: int | Sequence[int] | None = None, unbiased: bool | None = None, "
            "keepdim: bool = False, *, correction: Number | None = None, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method=(
            "(dim: int | Sequence[int] | None = None, unbiased: bool | None = None, "
            "keepdim: bool = False, *, correction: Number | None = None) -> Tensor"
        ),
        grad="rule",
    ),
    Op(
        "var_mean",
        function=(
            "(input: Tensor, dim: int | Sequence[int] | None = None, unbiased: bool | None = None, "
            "keepdim: bool = False, *, correction: Number | None = None) -> tuple[Tensor, Tensor]"
        ),
        grad="rule",
    ),
]
