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
        dtypes="numeric, unsigned",
        grad="none",
        doc="The index of the largest element (of the flattened input, or along `dim`), as int64.",
        details="Ties give the first index; NaN counts as the largest value.",
        example=(
            ">>> x = ember.tensor([[1, 7, 3], [9, 2, 9]])\n"
            ">>> ember.argmax(x).item(), ember.argmax(x, dim=1).tolist()\n"
            "(3, [1, 0])"
        ),
    ),
    Op(
        "argmin",
        function=(
            "(input: Tensor, dim: int | None = None, keepdim: bool = False, *, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(dim: int | None = None, keepdim: bool = False) -> Tensor",
        dtypes="numeric, unsigned",
        grad="none",
        doc="The index of the smallest element (of the flattened input, or along `dim`), as int64.",
        details="Ties give the first index; NaN counts as the smallest value.",
        example=(
            ">>> x = ember.tensor([[4, 1, 1], [0, 5, 2]])\n"
            ">>> ember.argmin(x).item(), ember.argmin(x, dim=1, keepdim=True).tolist()\n"
            "(3, [[1], [0]])"
        ),
    ),
    Op(
        "count_nonzero",
        function="(input: Tensor, dim: Sequence[int] | int | None = None) -> Tensor",
        method="(dim: Sequence[int] | int | None = None) -> Tensor",
        dtypes="all, unsigned",
        grad="none",
        doc="How many elements are nonzero, over all dims or over `dim` (int64).",
        example=(
            ">>> x = ember.tensor([[0, 1, 2], [0, 0, 3]])\n"
            ">>> ember.count_nonzero(x).item(), ember.count_nonzero(x, dim=0).tolist()\n"
            "(3, [0, 1, 2])"
        ),
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
        doc="Running product along `dim`: out[i] = input[0] * ... * input[i].",
        details="Integral and bool inputs give int64 unless dtype= says otherwise (as torch).",
        example=(">>> ember.cumprod(ember.tensor([1, 2, 3, 4]), 0).tolist()\n[1, 2, 6, 24]"),
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
        doc="Running sum along `dim`: out[i] = input[0] + ... + input[i].",
        details="Integral and bool inputs give int64 unless dtype= says otherwise (as torch).",
        example=(
            ">>> ember.cumsum(ember.tensor([[1, 2], [3, 4]]), dim=1).tolist()\n[[1, 3], [3, 7]]"
        ),
    ),
    Op(
        "logsumexp",
        function=(
            "(input: Tensor, dim: int | Sequence[int], keepdim: bool = False, *, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(dim: int | Sequence[int], keepdim: bool = False) -> Tensor",
        grad="rule",
        doc="log(sum(exp(input))) over `dim`, computed without overflow.",
        details="Integral inputs give the default float dtype.",
        example=(
            ">>> x = ember.tensor([1000.0, 1000.0], dtype=ember.float64)\n"
            ">>> round(ember.logsumexp(x, 0).item(), 4)\n"
            "1000.6931"
        ),
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
        dtypes="float+complex",
        grad="rule",
        doc="The p-norm of the elements (all of them, or over `dim`); 'fro' is the 2-norm.",
        details=(
            "Args:\n"
            "    input (Tensor): a floating or complex tensor.\n"
            "    p (float or str): the order: a number (inf and -inf too) or 'fro' ('nuc' raises "
            "NotImplementedError).\n"
            "    dim (int or tuple of ints, optional): the dims to reduce; None reduces all.\n"
            "    keepdim (bool): keep the reduced dims with size 1.\n"
            "    dtype (dtype, optional): compute and return in this dtype."
        ),
        example=(
            ">>> x = ember.tensor([[3.0, 4.0], [0.0, 1.0]])\n"
            ">>> ember.norm(x, dim=1).tolist(), ember.norm(x, p=1).item()\n"
            "([5.0, 1.0], 8.0)"
        ),
    ),
    Op(
        "std_mean",
        function=(
            "(input: Tensor, dim: int | Sequence[int] | None = None, unbiased: bool | None = None, "
            "keepdim: bool = False, *, correction: Number | None = None) -> tuple[Tensor, Tensor]"
        ),
        grad="rule",
        doc="(std, mean) in one pass, over all dims or over `dim` (correction 1 by default).",
        example=(
            ">>> s, m = ember.std_mean(ember.tensor([1.0, 2.0, 3.0, 4.0, 5.0]))\n"
            ">>> round(s.item(), 4), m.item()\n"
            "(1.5811, 3.0)"
        ),
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
        dtypes="float+complex",
        grad="rule",
        doc="The variance, sum((x - mean)^2) / (N - correction), over all dims or over `dim`.",
        details=(
            "correction defaults to 1 (Bessel's); unbiased=False is correction=0. Floating and "
            "complex inputs only (a complex input gives a real variance)."
        ),
        example=(
            ">>> x = ember.tensor([1.0, 2.0, 3.0, 4.0])\n"
            ">>> round(ember.var(x).item(), 4), ember.var(x, correction=0).item()\n"
            "(1.6667, 1.25)"
        ),
    ),
    Op(
        "var_mean",
        function=(
            "(input: Tensor, dim: int | Sequence[int] | None = None, unbiased: bool | None = None, "
            "keepdim: bool = False, *, correction: Number | None = None) -> tuple[Tensor, Tensor]"
        ),
        grad="rule",
        doc="(var, mean) in one pass, over all dims or over `dim` (correction 1 by default).",
        example=(
            ">>> v, m = ember.var_mean(ember.tensor([[1.0, 3.0], [2.0, 6.0]]), dim=1)\n"
            ">>> v.tolist(), m.tolist()\n"
            "([2.0, 8.0], [2.0, 4.0])"
        ),
    ),
]
