"""The composite family (fields: registry/_schema.py)."""

from registry._schema import Op

OPS = [
    Op(
        "addcdiv",
        function=(
            "(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Number = 1, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(tensor1: Tensor, tensor2: Tensor, *, value: Number = 1) -> Tensor",
        inplace="(tensor1: Tensor, tensor2: Tensor, *, value: Number = 1) -> Tensor",
        grad="rule",
    ),
    Op(
        "addcmul",
        function=(
            "(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Number = 1, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(tensor1: Tensor, tensor2: Tensor, *, value: Number = 1) -> Tensor",
        inplace="(tensor1: Tensor, tensor2: Tensor, *, value: Number = 1) -> Tensor",
        grad="rule",
    ),
    Op(
        "diff",
        function=(
            "(input: Tensor, n: int = 1, dim: int = -1, prepend: Tensor | None = None, "
            "append: Tensor | None = None, *, out: Tensor | None = None) -> Tensor"
        ),
        method=(
            "(n: int = 1, dim: int = -1, prepend: Tensor | None = None, "
            "append: Tensor | None = None) -> Tensor"
        ),
        grad="rule",
    ),
    Op(
        "dim",
        method="() -> int",
        conj="pass",
        grad="none",
    ),
    Op(
        "float_power",
        function=(
            "(input: Tensor, exponent: Number | Tensor, *, out: Tensor | None = None) -> Tensor"
        ),
        method="(exponent: Number | Tensor) -> Tensor",
        inplace="(exponent: Number | Tensor) -> Tensor",
        grad="rule",
    ),
    Op(
        "heaviside",
        function="(input: Tensor, values: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(values: Tensor) -> Tensor",
        inplace="(values: Tensor) -> Tensor",
        dtypes="real",
        grad="rule",
    ),
    Op(
        "log_softmax",
        function=(
            "(input: Tensor, dim: int, *, dtype: dtype | None = None, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(dim: int, dtype: dtype | None = None) -> Tensor",
        grad="rule",
    ),
    Op(
        "softmax",
        function=(
            "(input: Tensor, dim: int, *, dtype: dtype | None = None, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(dim: int, dtype: dtype | None = None) -> Tensor",
        grad="rule",
    ),
]
