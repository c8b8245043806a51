"""The sort family (fields: registry/_schema.py)."""

from registry._schema import Op

OPS = [
    Op(
        "argsort",
        function=(
            "(input: Tensor, dim: int = -1, descending: bool = False, *, "
            "stable: bool = False) -> Tensor"
        ),
        method="(dim: int = -1, descending: bool = False, *, stable: bool = False) -> Tensor",
        grad="none",
    ),
    Op(
        "bucketize",
        function=(
            "(input: Tensor, boundaries: Tensor, *, out_int32: bool = False, right: bool = False, "
            "out: Tensor | None = None) -> Tensor"
        ),
        grad="none",
    ),
    Op(
        "kthvalue",
        function=(
            "(input: Tensor, k: int, dim: int = -1, keepdim: bool = False, *, "
            "out: Tensor | tuple[Tensor, ...] | list[Tensor] | None = None) -> Any"
        ),
        method="(k: int, dim: int = -1, keepdim: bool = False) -> Any",
        grad="rule",
    ),
    Op(
        "msort",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        grad="rule",
    ),
    Op(
        "searchsorted",
        function=(
            "(sorted_sequence: Tensor, values: Tensor, *, out_int32: bool = False, "
            "right: bool = False, side: str | None = None, out: Tensor | None = None, "
            "sorter: Tensor | None = None) -> Tensor"
        ),
        grad="none",
    ),
    Op(
        "sort",
        function=(
            "(input: Tensor, dim: int = -1, descending: bool = False, *, "
            "stable: bool | None = False, out: Tensor | tuple[Tensor, "
            "...] | list[Tensor] | None = None) -> Any"
        ),
        method="(dim: int = -1, descending: bool = False, *, stable: bool | None = False) -> Any",
        grad="rule",
    ),
    Op(
        "topk",
        function=(
            "(input: Tensor, k: int, dim: int = -1, largest: bool = True, sorted: bool = True, *, "
            "out: Tensor | tuple[Tensor, ...] | list[Tensor] | None = None) -> Any"
        ),
        method="(k: int, dim: int = -1, largest: bool = True, sorted: bool = True) -> Any",
        grad="rule",
    ),
    Op(
        "unique_consecutive",
        function=(
            "(input: Tensor, return_inverse: Any = False, return_counts: Any = False, "
            "dim: int | None = None) -> Any"
        ),
        method=(
            "(return_inverse: Any = False, return_counts: Any = False, "
            "dim: int | None = None) -> Any"
        ),
        grad="none",
    ),
]
