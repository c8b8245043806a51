"""The reduce family (fields: registry/_schema.py)."""

from registry._schema import Op

OPS = [
    Op(
        "all",
        function=(
            "(input: Tensor, dim: Sequence[int] | int | None = None, keepdim: bool = False, *, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(dim: Sequence[int] | int | None = None, keepdim: bool = False) -> Tensor",
        dtypes="all, unsigned",
        grad="none",
        doc="True where every element (over all dims or over `dim`) is nonzero.",
        details="The result is bool, except for uint8 inputs, which give uint8 (as torch).",
        example=(
            ">>> x = ember.tensor([[1, 0], [2, 3]])\n"
            ">>> ember.all(x).item(), ember.all(x, dim=1).tolist()\n"
            "(False, [False, True])"
        ),
    ),
    Op(
        "amax",
        function=(
            "(input: Tensor, dim: int | Sequence[int] | None = None, keepdim: bool = False, *, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(dim: int | Sequence[int] | None = None, keepdim: bool = False) -> Tensor",
        dtypes="real, unsigned",
        grad="rule",
        doc="The largest element over all dims or over `dim` (values only; NaN propagates).",
        details="The gradient is split evenly between tied maxima.",
        example=(
            ">>> x = ember.tensor([[1.0, 5.0], [4.0, 2.0]])\n"
            ">>> ember.amax(x).item(), ember.amax(x, dim=0).tolist()\n"
            "(5.0, [4.0, 5.0])"
        ),
    ),
    Op(
        "amin",
        function=(
            "(input: Tensor, dim: int | Sequence[int] | None = None, keepdim: bool = False, *, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(dim: int | Sequence[int] | None = None, keepdim: bool = False) -> Tensor",
        dtypes="real, unsigned",
        grad="rule",
        doc="The smallest element over all dims or over `dim` (values only; NaN propagates).",
        details="The gradient is split evenly between tied minima.",
        example=(
            ">>> x = ember.tensor([[1.0, 5.0], [4.0, 2.0]])\n"
            ">>> ember.amin(x).item(), ember.amin(x, dim=1).tolist()\n"
            "(1.0, [1.0, 2.0])"
        ),
    ),
    Op(
        "any",
        function=(
            "(input: Tensor, dim: Sequence[int] | int | None = None, keepdim: bool = False, *, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(dim: Sequence[int] | int | None = None, keepdim: bool = False) -> Tensor",
        dtypes="all, unsigned",
        grad="none",
        doc="True where some element (over all dims or over `dim`) is nonzero.",
        details="The result is bool, except for uint8 inputs, which give uint8 (as torch).",
        example=(
            ">>> x = ember.tensor([[0, 0], [0, 3]])\n"
            ">>> ember.any(x).item(), ember.any(x, dim=1).tolist()\n"
            "(True, [False, True])"
        ),
    ),
    Op(
        "nanmean",
        function=(
            "(input: Tensor, dim: int | Sequence[int] | None = None, keepdim: bool = False, *, "
            "dtype: dtype | None = None, out: Tensor | None = None) -> Tensor"
        ),
        method=(
            "(dim: int | Sequence[int] | None = None, keepdim: bool = False, *, "
            "dtype: dtype | None = None) -> Tensor"
        ),
        dtypes="float",
        grad="rule",
        doc="The mean of the non-NaN elements, over all dims or over `dim` (floating inputs).",
        details="A slice that is all NaN gives NaN.",
        example=('>>> ember.nanmean(ember.tensor([1.0, float("nan"), 3.0])).item()\n2.0'),
    ),
    Op(
        "nansum",
        function=(
            "(input: Tensor, dim: int | Sequence[int] | None = None, keepdim: bool = False, *, "
            "dtype: dtype | None = None, out: Tensor | None = None) -> Tensor"
        ),
        method=(
            "(dim: int | Sequence[int] | None = None, keepdim: bool = False, *, "
            "dtype: dtype | None = None) -> Tensor"
        ),
        dtypes="real, unsigned",
        grad="rule",
        doc="The sum with NaN counted as zero, over all dims or over `dim`.",
        example=('>>> ember.nansum(ember.tensor([1.0, float("nan"), 3.0])).item()\n4.0'),
    ),
    Op(
        "prod",
        function=(
            "(input: Tensor, dim: int | None = None, keepdim: bool = False, *, "
            "dtype: dtype | None = None, out: Tensor | None = None) -> Tensor"
        ),
        method=(
            "(dim: int | None = None, keepdim: bool = False, *, "
            "dtype: dtype | None = None) -> Tensor"
        ),
        dtypes="all, unsigned",
        grad="rule",
        doc="The product of the elements, over all dims or along one `dim`.",
        details="Integral and bool inputs give int64 unless dtype= says otherwise (as torch).",
        example=(
            ">>> x = ember.tensor([[1, 2], [3, 4]])\n"
            ">>> ember.prod(x).item(), ember.prod(x, 1).tolist()\n"
            "(24, [2, 12])"
        ),
    ),
    Op(
        "sum",
        function=(
            "(input: Tensor, dim: int | Sequence[int] | None = None, keepdim: bool = False, *, "
            "dtype: dtype | None = None, out: Tensor | None = None) -> Tensor"
        ),
        method=(
            "(dim: int | Sequence[int] | None = None, keepdim: bool = False, *, "
            "dtype: dtype | None = None) -> Tensor"
        ),
        dtypes="all, unsigned",
        grad="rule",
        doc="The sum of the elements, over all dims or over `dim`.",
        details="Integral and bool inputs give int64 unless dtype= says otherwise (as torch).",
        example=(
            ">>> x = ember.tensor([[1, 2], [3, 4]])\n"
            ">>> ember.sum(x).item(), ember.sum(x, dim=0).tolist(), ember.sum(x, 1, True).shape\n"
            "(10, [4, 6], ember.Size([2, 1]))"
        ),
    ),
]
