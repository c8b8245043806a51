"""The construct family (fields: registry/_schema.py)."""

from registry._schema import Op

OPS = [
    Op(
        "as_strided",
        function=(
            "(input: Tensor, size: Sequence[int], stride: Sequence[int], "
            "storage_offset: int | None = None) -> Tensor"
        ),
        method=(
            "(size: Sequence[int], stride: Sequence[int], "
            "storage_offset: int | None = None) -> Tensor"
        ),
        inplace=(
            "(size: Sequence[int], stride: Sequence[int], "
            "storage_offset: int | None = None) -> Tensor"
        ),
        conj="structural",
        grad="rule",
    ),
    Op(
        "block_diag",
        function="(*args: Any) -> Any",
        grad="rule",
    ),
    Op(
        "cartesian_prod",
        function="(*args: Any) -> Any",
        grad="rule",
    ),
    Op(
        "combinations",
        function="(input: Tensor, r: int = 2, with_replacement: bool = False) -> Tensor",
        grad="rule",
    ),
    Op(
        "cross",
        function=(
            "(input: Tensor, other: Tensor, dim: int | None = None, *, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(other: Tensor, dim: int | None = None) -> Tensor",
        grad="rule",
    ),
    Op(
        "repeat_interleave",
        function=(
            "(input: Tensor, repeats: int | Tensor | None = None, dim: int | None = None, *, "
            "output_size: int | None = None) -> Tensor"
        ),
        method=(
            "(repeats: int | Tensor, dim: int | None = None, *, "
            "output_size: int | None = None) -> Tensor"
        ),
        conj="structural",
        grad="rule",
    ),
    Op(
        "rot90",
        function="(input: Tensor, k: int = 1, dims: Sequence[int] = (0, 1)) -> Tensor",
        method="(k: int = 1, dims: Sequence[int] = (0, 1)) -> Tensor",
        conj="structural",
        grad="rule",
    ),
    Op(
        "size",
        method="(dim: int | None = None) -> Any",
        conj="pass",
        grad="none",
    ),
    Op(
        "storage_offset",
        method="() -> int",
        conj="pass",
        grad="none",
    ),
    Op(
        "stride",
        method="(dim: int | None = None) -> Any",
        conj="pass",
        grad="none",
    ),
    Op(
        "tril_indices",
        function=(
            "(row: int, col: int, offset: int = 0, *, dtype: dtype | None = None, "
            "device: Device | None = None, layout: Any = None) -> Tensor"
        ),
        grad="none",
    ),
    Op(
        "triu_indices",
        function=(
            "(row: int, col: int, offset: int = 0, *, dtype: dtype | None = None, "
            "device: Device | None = None, layout: Any = None) -> Tensor"
        ),
        grad="none",
    ),
    Op(
        "unfold",
        method="(dimension: int, size: int, step: int) -> Tensor",
        conj="structural",
        grad="rule",
    ),
]
