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
        doc="beta * input + alpha * (mat1 @ mat2) for 2-d mat1, mat2; input broadcasts.",
        details="With beta=0, input is ignored (NaN and inf in it do not propagate).",
        example=(
            ">>> ember.addmm(ember.ones(2, 2), ember.eye(2), ember.full((2, 2), 3.0), beta=2).tolist()\n"  # noqa: E501
            "[[5.0, 5.0], [5.0, 5.0]]"
        ),
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
        doc="beta * input + alpha * (mat @ vec) for a 2-d mat and 1-d vec; input broadcasts.",
        details="With beta=0, input is ignored (NaN and inf in it do not propagate).",
        example=(
            ">>> m = ember.tensor([[1.0, 2.0], [3.0, 4.0]])\n"
            ">>> ember.addmv(ember.ones(2), m, ember.ones(2), alpha=2).tolist()\n"
            "[7.0, 15.0]"
        ),
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
        doc="beta * input + alpha * bmm(batch1, batch2) for 3-d batches; input broadcasts.",
        details="With beta=0, input is ignored (NaN and inf in it do not propagate).",
        example=(
            ">>> b = ember.ones(4, 2, 3)\n"
            ">>> r = ember.baddbmm(ember.zeros(4, 2, 5), b, ember.ones(4, 3, 5))\n"
            ">>> r.shape, r[0, 0, 0].item()\n"
            "(ember.Size([4, 2, 5]), 3.0)"
        ),
    ),
    Op(
        "bmm",
        function="(input: Tensor, mat2: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(mat2: Tensor) -> Tensor",
        grad="rule",
        doc="Batched matrix product of 3-d tensors: [b, n, m] @ [b, m, p] -> [b, n, p].",
        details="No broadcasting (see matmul); both inputs need the same dtype.",
        example=(
            ">>> ember.bmm(ember.ones(4, 2, 3), ember.ones(4, 3, 5)).shape\nember.Size([4, 2, 5])"
        ),
    ),
    Op(
        "dot",
        function="(input: Tensor, tensor: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(tensor: Tensor) -> Tensor",
        dtypes="numeric+complex, unsigned",
        grad="rule",
        doc="The inner product of two 1-d tensors of the same length and dtype (no conjugation).",
        example=(">>> ember.dot(ember.tensor([1, 2, 3]), ember.tensor([4, 5, 6])).item()\n32"),
    ),
    Op(
        "einsum",
        function=(
            "(equation: str | Tensor, *operands: Tensor | Sequence[Tensor] | Sequence[int]) "
            "-> Tensor"
        ),
        grad="rule",
        doc="Sums products of the operands' elements over the subscripts an equation leaves out.",
        details=(
            "Args:\n"
            "    equation (str): subscripts per operand, comma-separated, then optionally '->' and "
            "the output's;\n"
            "        '...' stands for broadcast dims. Without '->', the output holds the "
            "subscripts seen once,\n"
            "        sorted.\n"
            "    operands (Tensor...): the inputs, as varargs or one list. The sublist form\n"
            "        einsum(op1, [0, 1], op2, [1, 2], [0, 2]) is accepted too."
        ),
        example=(
            ">>> a = ember.tensor([[1.0, 2.0], [3.0, 4.0]])\n"
            '>>> ember.einsum("ij,jk->ik", a, ember.eye(2)).tolist()\n'
            "[[1.0, 2.0], [3.0, 4.0]]\n"
            '>>> ember.einsum("ii", a).item()  # the trace\n'
            "5.0"
        ),
    ),
    Op(
        "ger",
        function="(input: Tensor, vec2: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(vec2: Tensor) -> Tensor",
        dtypes="all, unsigned",
        grad="rule",
        doc="Same as outer: out[i][j] = input[i] * vec2[j].",
        example=(
            ">>> ember.ger(ember.tensor([1, 2]), ember.tensor([1, 10, 100])).tolist()\n"
            "[[1, 10, 100], [2, 20, 200]]"
        ),
    ),
    Op(
        "matmul",
        function="(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Tensor) -> Tensor",
        operators=("__matmul__", "__rmatmul__"),
        dtypes="numeric+complex, unsigned",
        grad="rule",
        doc="Matrix product with numpy's rules: 1-d is a vector, leading (batch) dims broadcast.",
        details=(
            "1-d @ 1-d is a dot product (0-d), 2-d @ 1-d a matrix-vector product; for n-d "
            "inputs the last two dims multiply and the rest broadcast."
        ),
        example=(
            ">>> ember.matmul(ember.ones(5, 2, 3), ember.ones(3, 4)).shape\n"
            "ember.Size([5, 2, 4])\n"
            ">>> (ember.tensor([1, 2]) @ ember.tensor([3, 4])).item()\n"
            "11"
        ),
    ),
    Op(
        "mm",
        function="(input: Tensor, mat2: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(mat2: Tensor) -> Tensor",
        grad="rule",
        doc="The matrix product of two 2-d tensors: [n, m] @ [m, p] -> [n, p] (no broadcasting).",
        example=(
            ">>> ember.mm(ember.tensor([[1, 2], [3, 4]]), ember.tensor([[0, 1], [1, 0]])).tolist()\n"  # noqa: E501
            "[[2, 1], [4, 3]]"
        ),
    ),
    Op(
        "mv",
        function="(input: Tensor, vec: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(vec: Tensor) -> Tensor",
        grad="rule",
        doc="The product of a 2-d matrix [n, m] and a 1-d vector [m] (no broadcasting).",
        example=(
            ">>> ember.mv(ember.tensor([[1, 2], [3, 4]]), ember.tensor([1, 1])).tolist()\n[3, 7]"
        ),
    ),
    Op(
        "outer",
        function="(input: Tensor, vec2: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(vec2: Tensor) -> Tensor",
        dtypes="all, unsigned",
        grad="rule",
        doc="The outer product of two 1-d tensors: out[i][j] = input[i] * vec2[j].",
        example=(
            ">>> ember.outer(ember.tensor([1, 2]), ember.tensor([1, 10, 100])).tolist()\n"
            "[[1, 10, 100], [2, 20, 200]]"
        ),
    ),
    Op(
        "tensordot",
        function=(
            "(a: Tensor, b: Tensor, dims: int | tuple[Sequence[int], Sequence[int]] | "
            "list[Sequence[int]] | Tensor = 2, out: Tensor | None = None) -> Tensor"
        ),
        grad="rule",
        doc="Contracts the last `dims` dims of a with the first of b, or the listed dim pairs.",
        details=(
            "Args:\n"
            "    a, b (Tensor): the operands.\n"
            "    dims (int, pair of lists or 0-d Tensor): how many trailing dims of a to contract "
            "with as many\n"
            "        leading dims of b, or ([dims of a], [dims of b]) to contract pairwise."
        ),
        example=(
            ">>> ember.tensordot(ember.ones(3, 4, 5), ember.ones(4, 5, 6)).shape\n"
            "ember.Size([3, 6])\n"
            ">>> ember.tensordot(ember.ones(3, 4), ember.ones(5, 3), dims=([0], [1])).shape\n"
            "ember.Size([4, 5])"
        ),
    ),
    Op(
        "vdot",
        function="(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Tensor) -> Tensor",
        dtypes="numeric+complex, unsigned",
        grad="rule",
        doc="The inner product of 1-d tensors, conjugating the first: sum(conj(input) * other).",
        example=(">>> ember.vdot(ember.tensor([1j, 2]), ember.tensor([1j, 3])).item()\n(7+0j)"),
    ),
]
