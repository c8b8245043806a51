"""The composite family (fields: registry/_schema.py)."""

from registry._schema import Op, binary

OPS = [
    Op(
        "addcdiv",
        function=(
            "(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Number = 1, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(tensor1: Tensor, tensor2: Tensor, *, value: Number = 1) -> Tensor",
        inplace="(tensor1: Tensor, tensor2: Tensor, *, value: Number = 1) -> Tensor",
        dtypes="float+complex",
        grad="rule",
        doc="input + value * tensor1 / tensor2, broadcast (floating or complex dtypes).",
        example=(
            ">>> one, six, three = ember.tensor([1.0]), ember.tensor([6.0]), "
            "ember.tensor([3.0])\n"
            ">>> ember.addcdiv(one, six, three, value=0.5).tolist()\n"
            "[2.0]"
        ),
    ),
    Op(
        "addcmul",
        function=(
            "(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Number = 1, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(tensor1: Tensor, tensor2: Tensor, *, value: Number = 1) -> Tensor",
        inplace="(tensor1: Tensor, tensor2: Tensor, *, value: Number = 1) -> Tensor",
        dtypes="all, unsigned",
        grad="rule",
        doc="input + value * tensor1 * tensor2, broadcast.",
        example=(
            ">>> one, two, three = ember.tensor([1.0]), ember.tensor([2.0]), "
            "ember.tensor([3.0])\n"
            ">>> ember.addcmul(one, two, three, value=2).tolist()\n"
            "[13.0]"
        ),
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
        dtypes="all, unsigned",
        grad="rule",
        doc="The n-th forward difference along dim, after joining prepend and append.",
        example=(
            ">>> x = ember.tensor([1, 4, 9, 16])\n"
            ">>> ember.diff(x).tolist()\n"
            "[3, 5, 7]\n"
            ">>> ember.diff(x, n=2).tolist()\n"
            "[2, 2]"
        ),
    ),
    Op(
        "dim",
        method="() -> int",
        conj="pass",
        grad="none",
        doc="The number of dimensions of the tensor.",
        example=(">>> ember.zeros(2, 3).dim()\n2"),
    ),
    Op(
        "float_power",
        function=(
            "(input: Tensor | Number, exponent: Number | Tensor, *, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(exponent: Number | Tensor) -> Tensor",
        inplace="(exponent: Number | Tensor) -> Tensor",
        dtypes="real, unsigned",
        grad="rule",
        doc="input raised to exponent, computed in float64 (complex128 for complex input).",
        example=(
            ">>> y = ember.float_power(ember.tensor([2, 3]), 2)\n"
            ">>> y.tolist()\n"
            "[4.0, 9.0]\n"
            ">>> y.dtype\n"
            "ember.float64"
        ),
    ),
    Op(
        "heaviside",
        function="(input: Tensor, values: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(values: Tensor) -> Tensor",
        inplace="(values: Tensor) -> Tensor",
        dtypes="real, unsigned",
        grad="rule",
        kernel=binary("Heaviside", "all", bind=False),
        doc="The step function: 0 where input < 0, 1 where input > 0, values where input == 0.",
        example=(
            ">>> ember.heaviside(ember.tensor([-1.0, 0.0, 2.0]), ember.tensor([0.5])).tolist()\n"
            "[0.0, 0.5, 1.0]"
        ),
    ),
    Op(
        "log_softmax",
        function=(
            "(input: Tensor, dim: int, *, dtype: dtype | None = None, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(dim: int, dtype: dtype | None = None) -> Tensor",
        grad="rule",
        doc="log(softmax(input, dim)), computed stably; dtype= casts input first.",
        example=(
            ">>> y = ember.log_softmax(ember.tensor([0.0, 0.0]), dim=0)\n"
            ">>> y.exp().tolist()\n"
            "[0.5, 0.5]"
        ),
    ),
    Op(
        "softmax",
        function=(
            "(input: Tensor, dim: int, *, dtype: dtype | None = None, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(dim: int, dtype: dtype | None = None) -> Tensor",
        grad="rule",
        doc="exp(input) normalized to sum to 1 along dim; dtype= casts input first.",
        example=(
            ">>> ember.softmax(ember.tensor([[1.0, 1.0], [0.0, 0.0]]), dim=1).tolist()\n"
            "[[0.5, 0.5], [0.5, 0.5]]"
        ),
    ),
]
