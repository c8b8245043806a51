"""The linalg family (fields: registry/_schema.py)."""

from registry._schema import Op

OPS = [
    Op(
        "addmm",
        function=(
            "(input: Tensor, mat1: Tensor, mat2: Tensor, *, beta: Number = 1, alpha: Number = 1, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(mat1: Tensor, mat2: Tensor, *, beta: Number = 1, alpha: Number = 1) -> Tensor",
        inplace="(mat1: Tensor, mat2: Tensor, *, beta: Number = 1, alpha: Number = 1) -> Tensor",
        grad="rule",
    ),
    Op(
        "addmv",
        function=(
            "(input: Tensor, mat: Tensor, vec: Tensor, *, beta: Number = 1, alpha: Number = 1, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(mat: Tensor, vec: Tensor, *, beta: Number = 1, alpha: Number = 1) -> Tensor",
        inplace="(mat: Tensor, vec: Tensor, *, beta: Number = 1, alpha: Number = 1) -> Tensor",
        grad="rule",
    ),
    Op(
        "baddbmm",
        function=(
            "(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta: Number = 1, "
            "alpha: Number = 1, out: Tensor | None = None) -> Tensor"
        ),
        method="(batch1: Tensor, batch2: Tensor, *, beta: Number = 1, alpha: Number = 1) -> Tensor",
        inplace=(
            "(batch1: Tensor, batch2: Tensor, *, beta: Number = 1, alpha: Number = 1) -> Tensor"
        ),
        grad="rule",
    ),
    Op(
        "bmm",
        function="(input: Tensor, mat2: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(mat2: Tensor) -> Tensor",
        grad="rule",
    ),
    Op(
        "dot",
        function="(input: Tensor, tensor: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(tensor: Tensor) -> Tensor",
        grad="rule",
    ),
    Op(
        "einsum",
        function="(equation: Any, *operands: Any) -> Any",
        grad="rule",
    ),
    Op(
        "ger",
        function="(input: Tensor, vec2: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(vec2: Tensor) -> Tensor",
        grad="rule",
    ),
    Op(
        "matmul",
        function="(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Tensor) -> Tensor",
        operators=("__matmul__", "__rmatmul__"),
        grad="rule",
    ),
    Op(
        "mm",
        function="(input: Tensor, mat2: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(mat2: Tensor) -> Tensor",
        grad="rule",
    ),
    Op(
        "mv",
        function="(input: Tensor, vec: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(vec: Tensor) -> Tensor",
        grad="rule",
    ),
    Op(
        "outer",
        function="(input: Tensor, vec2: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(vec2: Tensor) -> Tensor",
        grad="rule",
    ),
    Op(
        "tensordot",
        function="(a: Any, b: Any, dims: Any = 2, out: Tensor | None = None) -> Any",
        grad="rule",
    ),
    Op(
        "vdot",
        function="(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Tensor) -> Tensor",
        grad="rule",
    ),
]
