"""The rearrange family (fields: registry/_schema.py)."""

from registry._schema import Op

OPS = [
    Op(
        "atleast_1d",
        function="(*args: Any) -> Any",
        grad="rule",
    ),
    Op(
        "atleast_2d",
        function="(*args: Any) -> Any",
        grad="rule",
    ),
    Op(
        "atleast_3d",
        function="(*args: Any) -> Any",
        grad="rule",
    ),
    Op(
        "broadcast_shapes",
        function="(*args: Any) -> Any",
        grad="none",
    ),
    Op(
        "broadcast_tensors",
        function="(*args: Any) -> Any",
        grad="rule",
    ),
    Op(
        "broadcast_to",
        function="(input: Tensor, size: Sequence[int]) -> Tensor",
        method="(size: Sequence[int] | int) -> Tensor",
        conj="structural",
        grad="rule",
    ),
    Op(
        "column_stack",
        function=(
            "(tensors: tuple[Tensor, ...] | list[Tensor], *, out: Tensor | None = None) -> Tensor"
        ),
        grad="rule",
    ),
    Op(
        "diag",
        function="(input: Tensor, diagonal: int = 0, *, out: Tensor | None = None) -> Tensor",
        method="(diagonal: int = 0) -> Tensor",
        grad="rule",
    ),
    Op(
        "diag_embed",
        function="(input: Tensor, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor",
        method="(offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor",
        grad="rule",
    ),
    Op(
        "diagflat",
        function="(input: Tensor, offset: int = 0) -> Tensor",
        method="(offset: int = 0) -> Tensor",
        grad="rule",
    ),
    Op(
        "diagonal",
        function="(input: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor",
        method="(offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor",
        conj="structural",
        grad="rule",
    ),
    Op(
        "dsplit",
        function="(input: Tensor, indices_or_sections: Any) -> tuple[Tensor, ...]",
        method="(indices_or_sections: Any) -> tuple[Tensor, ...]",
        conj="structural",
        grad="rule",
    ),
    Op(
        "dstack",
        function=(
            "(tensors: tuple[Tensor, ...] | list[Tensor], *, out: Tensor | None = None) -> Tensor"
        ),
        grad="rule",
    ),
    Op(
        "flip",
        function="(input: Tensor, dims: Sequence[int]) -> Tensor",
        method="(*args: Any) -> Tensor",
        conj="structural",
        grad="rule",
    ),
    Op(
        "fliplr",
        function="(input: Tensor) -> Tensor",
        method="() -> Tensor",
        conj="structural",
        grad="rule",
    ),
    Op(
        "flipud",
        function="(input: Tensor) -> Tensor",
        method="() -> Tensor",
        conj="structural",
        grad="rule",
    ),
    Op(
        "hsplit",
        function="(input: Tensor, indices_or_sections: Any) -> tuple[Tensor, ...]",
        method="(indices_or_sections: Any) -> tuple[Tensor, ...]",
        conj="structural",
        grad="rule",
    ),
    Op(
        "hstack",
        function=(
            "(tensors: tuple[Tensor, ...] | list[Tensor], *, out: Tensor | None = None) -> Tensor"
        ),
        grad="rule",
    ),
    Op(
        "kron",
        function="(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Tensor) -> Tensor",
        grad="rule",
    ),
    Op(
        "meshgrid",
        function="(*tensors: Sequence[Tensor], indexing: Any = None) -> Any",
        grad="rule",
    ),
    Op(
        "repeat",
        method="(*args: Any) -> Tensor",
        conj="structural",
        grad="rule",
    ),
    Op(
        "roll",
        function=(
            "(input: Tensor, shifts: int | Sequence[int], "
            "dims: int | Sequence[int] | None = None) -> Tensor"
        ),
        method="(shifts: int | Sequence[int], dims: int | Sequence[int] | None = None) -> Tensor",
        conj="structural",
        grad="rule",
    ),
    Op(
        "tensor_split",
        function="(input: Tensor, indices_or_sections: Any, dim: int = 0) -> tuple[Tensor, ...]",
        method="(indices_or_sections: Any, dim: int = 0) -> tuple[Tensor, ...]",
        conj="structural",
        grad="rule",
    ),
    Op(
        "tile",
        function="(input: Tensor, dims: Sequence[int]) -> Tensor",
        method="(*args: Any) -> Tensor",
        conj="structural",
        grad="rule",
    ),
    Op(
        "tolist",
        method="() -> Any",
        grad="none",
    ),
    Op(
        "trace",
        function="(input: Tensor) -> Tensor",
        method="() -> Tensor",
        grad="rule",
    ),
    Op(
        "tril",
        function="(input: Tensor, diagonal: int = 0, *, out: Tensor | None = None) -> Tensor",
        method="(diagonal: int = 0) -> Tensor",
        inplace="(diagonal: int = 0) -> Tensor",
        grad="rule",
    ),
    Op(
        "triu",
        function="(input: Tensor, diagonal: int = 0, *, out: Tensor | None = None) -> Tensor",
        method="(diagonal: int = 0) -> Tensor",
        inplace="(diagonal: int = 0) -> Tensor",
        grad="rule",
    ),
    Op(
        "vsplit",
        function="(input: Tensor, indices_or_sections: Any) -> tuple[Tensor, ...]",
        method="(indices_or_sections: Any) -> tuple[Tensor, ...]",
        conj="structural",
        grad="rule",
    ),
    Op(
        "vstack",
        function=(
            "(tensors: tuple[Tensor, ...] | list[Tensor], *, out: Tensor | None = None) -> Tensor"
        ),
        grad="rule",
    ),
]
