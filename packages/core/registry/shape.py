"""The shape family (fields: registry/_schema.py)."""

from registry._schema import Op

OPS = [
    Op(
        "cat",
        function=(
            "(tensors: tuple[Tensor, ...] | list[Tensor], dim: int = 0, *, axis: Any = None, "
            "out: Tensor | None = None) -> Tensor"
        ),
        grad="rule",
    ),
    Op(
        "chunk",
        function="(input: Tensor, chunks: int, dim: int = 0) -> tuple[Tensor, ...]",
        method="(chunks: int, dim: int = 0) -> tuple[Tensor, ...]",
        conj="structural",
        grad="rule",
    ),
    Op(
        "concat",
        function=(
            "(tensors: tuple[Tensor, ...] | list[Tensor], dim: int = 0, *, axis: Any = None, "
            "out: Tensor | None = None) -> Tensor"
        ),
        grad="rule",
    ),
    Op(
        "concatenate",
        function=(
            "(tensors: tuple[Tensor, ...] | list[Tensor], dim: int = 0, *, axis: Any = None, "
            "out: Tensor | None = None) -> Tensor"
        ),
        grad="rule",
    ),
    Op(
        "expand",
        method="(*args: Any) -> Tensor",
        conj="structural",
        grad="rule",
    ),
    Op(
        "expand_as",
        method="(other: Tensor) -> Tensor",
        conj="structural",
        grad="rule",
    ),
    Op(
        "flatten",
        function="(input: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor",
        method="(start_dim: int = 0, end_dim: int = -1) -> Tensor",
        conj="structural",
        grad="rule",
    ),
    Op(
        "moveaxis",
        function=(
            "(input: Tensor, source: int | Sequence[int], "
            "destination: int | Sequence[int]) -> Tensor"
        ),
        method="(source: int | Sequence[int], destination: int | Sequence[int]) -> Tensor",
        conj="structural",
        grad="rule",
    ),
    Op(
        "movedim",
        function=(
            "(input: Tensor, source: int | Sequence[int], "
            "destination: int | Sequence[int]) -> Tensor"
        ),
        method="(source: int | Sequence[int], destination: int | Sequence[int]) -> Tensor",
        conj="structural",
        grad="rule",
    ),
    Op(
        "narrow",
        function="(input: Tensor, dim: int, start: int | Tensor, length: int) -> Tensor",
        method="(dim: int, start: int | Tensor, length: int) -> Tensor",
        conj="structural",
        grad="rule",
    ),
    Op(
        "permute",
        function="(input: Tensor, dims: Sequence[int]) -> Tensor",
        method="(*args: Any) -> Tensor",
        conj="structural",
        grad="rule",
    ),
    Op(
        "reshape",
        function="(input: Tensor, shape: Sequence[int]) -> Tensor",
        method="(*args: Any) -> Tensor",
        conj="structural",
        grad="rule",
    ),
    Op(
        "reshape_as",
        method="(other: Tensor) -> Tensor",
        conj="structural",
        grad="rule",
    ),
    Op(
        "select",
        function="(input: Tensor, dim: int, index: int) -> Tensor",
        method="(dim: int, index: int) -> Tensor",
        conj="structural",
        grad="rule",
    ),
    Op(
        "split",
        function="(tensor: Tensor, split_size_or_sections: Any, dim: int = 0) -> Sequence[Tensor]",
        method="(split_size: int | tuple[int, ...], dim: int = 0) -> Any",
        conj="structural",
        grad="rule",
    ),
    Op(
        "split_with_sizes",
        function="(input: Tensor, split_sizes: Sequence[int], dim: int = 0) -> tuple[Tensor, ...]",
        method="(split_sizes: Sequence[int], dim: int = 0) -> tuple[Tensor, ...]",
        conj="structural",
        grad="rule",
    ),
    Op(
        "squeeze",
        function="(input: Tensor, dim: int | Sequence[int] | None = None) -> Tensor",
        method="(dim: int | Sequence[int] | None = None) -> Tensor",
        inplace="(dim: int | Sequence[int] | None = None) -> Tensor",
        conj="structural",
        grad="rule",
    ),
    Op(
        "stack",
        function=(
            "(tensors: tuple[Tensor, ...] | list[Tensor], dim: int = 0, *, "
            "out: Tensor | None = None) -> Tensor"
        ),
        grad="rule",
    ),
    Op(
        "swapaxes",
        function="(input: Tensor, axis0: int, axis1: int) -> Tensor",
        method="(axis0: int, axis1: int) -> Tensor",
        inplace="(dim0: Any, dim1: Any) -> Tensor",
        conj="structural",
        grad="rule",
    ),
    Op(
        "swapdims",
        function="(input: Tensor, dim0: int, dim1: int) -> Tensor",
        method="(dim0: int, dim1: int) -> Tensor",
        inplace="(dim0: int, dim1: int) -> Tensor",
        conj="structural",
        grad="rule",
    ),
    Op(
        "t",
        function="(input: Tensor) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        conj="structural",
        grad="rule",
    ),
    Op(
        "transpose",
        function="(input: Tensor, dim0: int, dim1: int) -> Tensor",
        method="(dim0: int, dim1: int) -> Tensor",
        inplace="(dim0: int, dim1: int) -> Tensor",
        conj="structural",
        grad="rule",
    ),
    Op(
        "unbind",
        function="(input: Tensor, dim: int = 0) -> tuple[Tensor, ...]",
        method="(dim: int = 0) -> tuple[Tensor, ...]",
        conj="structural",
        grad="rule",
    ),
    Op(
        "unflatten",
        function="(input: Tensor, dim: int, sizes: Sequence[int]) -> Tensor",
        method="(dim: int, sizes: Sequence[int]) -> Tensor",
        conj="structural",
        grad="rule",
    ),
    Op(
        "unsqueeze",
        function="(input: Tensor, dim: int) -> Tensor",
        method="(dim: int) -> Tensor",
        inplace="(dim: int) -> Tensor",
        conj="structural",
        grad="rule",
    ),
    Op(
        "view",
        method="(*args: Any) -> Tensor",
        conj="structural",
        grad="rule",
    ),
    Op(
        "view_as",
        method="(other: Tensor) -> Tensor",
        conj="structural",
        grad="rule",
    ),
]
