"""The select family (fields: registry/_schema.py)."""

from registry._schema import Op

OPS = [
    Op(
        "aminmax",
        function=(
            "(input: Tensor, *, dim: int | None = None, keepdim: bool = False, "
            "out: Tensor | tuple[Tensor, ...] | list[Tensor] | None = None) -> Any"
        ),
        method="(*, dim: int | None = None, keepdim: bool = False) -> Any",
        grad="rule",
        doc="(min, max) over all elements or along `dim`, as a namedtuple.",
        example=(
            ">>> r = ember.aminmax(ember.tensor([[1, 5], [3, 2]]), dim=1)\n"
            ">>> r.min.tolist(), r.max.tolist()\n"
            "([1, 2], [5, 3])"
        ),
    ),
    Op(
        "bincount",
        function="(input: Tensor, weights: Tensor | None = None, minlength: int = 0) -> Tensor",
        method="(weights: Tensor | None = None, minlength: int = 0) -> Tensor",
        dtypes="integral",
        grad="none",
        doc="How often each value of a 1-d non-negative integer tensor occurs.",
        details=(
            "With `weights`, sums the weights instead (float64 unless the weights are float32)."
        ),
        example=(">>> ember.bincount(ember.tensor([0, 1, 1, 3])).tolist()\n[1, 2, 0, 1]"),
    ),
    Op(
        "cummax",
        function=(
            "(input: Tensor, dim: int, *, out: Tensor | tuple[Tensor, "
            "...] | list[Tensor] | None = None) -> Any"
        ),
        method="(dim: int) -> Any",
        grad="rule",
        doc="Running maximum along `dim` and where it was found.",
        example=(">>> ember.cummax(ember.tensor([1, 3, 2, 5]), 0).values.tolist()\n[1, 3, 3, 5]"),
    ),
    Op(
        "cummin",
        function=(
            "(input: Tensor, dim: int, *, out: Tensor | tuple[Tensor, "
            "...] | list[Tensor] | None = None) -> Any"
        ),
        method="(dim: int) -> Any",
        grad="rule",
        doc="Running minimum along `dim` and where it was found.",
        example=(">>> ember.cummin(ember.tensor([3, 1, 2, 0]), 0).indices.tolist()\n[0, 1, 1, 3]"),
    ),
    Op(
        "histc",
        function=(
            "(input: Tensor, bins: int = 100, min: Number = 0.0, max: Number = 0.0, *, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(bins: int = 100, min: Number = 0.0, max: Number = 0.0) -> Tensor",
        dtypes="float",
        grad="none",
        doc="A histogram of `bins` equal bins over [min, max] (floating inputs).",
        details=(
            "min == max (the default 0, 0) uses the data's range. Values outside the range are "
            "skipped."
        ),
        example=(
            ">>> ember.histc(ember.tensor([1.0, 2.0, 1.0]), bins=4, min=0, max=3).tolist()\n"
            "[0.0, 2.0, 1.0, 0.0]"
        ),
    ),
    Op(
        "logcumsumexp",
        function="(input: Tensor, dim: int, *, out: Tensor | None = None) -> Tensor",
        method="(dim: int) -> Tensor",
        grad="rule",
        doc="log(cumsum(exp(input))) along `dim`, without overflow.",
        example=(
            ">>> ember.logcumsumexp(ember.tensor([0.0, 0.0]), 0).tolist()[1]  # log(2)\n"
            "0.6931471824645996"
        ),
    ),
    Op(
        "mode",
        function=(
            "(input: Tensor, dim: int = -1, keepdim: bool = False, *, out: Tensor | tuple[Tensor, "
            "...] | list[Tensor] | None = None) -> Any"
        ),
        method="(dim: int = -1, keepdim: bool = False) -> Any",
        grad="rule",
        doc="The most frequent value along `dim` and an index where it occurs.",
        details="Ties go to the smallest value. Returns a namedtuple (values, indices).",
        example=(">>> ember.mode(ember.tensor([3, 1, 1, 3, 2])).values.item()\n1"),
    ),
    Op(
        "nanmedian",
        function=(
            "(input: Tensor, dim: int | None = None, keepdim: bool = False, *, "
            "out: Tensor | tuple[Tensor, ...] | list[Tensor] | None = None) -> Any"
        ),
        method="(dim: int | None = None, keepdim: bool = False) -> Any",
        dtypes="numeric",
        grad="rule",
        doc="The lower median ignoring NaN (over all elements, or along `dim`).",
        example=('>>> ember.nanmedian(ember.tensor([1.0, float("nan"), 3.0, 2.0])).item()\n2.0'),
    ),
    Op(
        "nanquantile",
        function=(
            "(input: Tensor, q: Tensor | float, dim: int | None = None, keepdim: bool = False, *, "
            "interpolation: str = 'linear', out: Tensor | None = None) -> Tensor"
        ),
        method=(
            "(q: Tensor | float, dim: int | None = None, keepdim: bool = False, *, "
            "interpolation: str = 'linear') -> Tensor"
        ),
        dtypes="float32, float64",
        grad="rule",
        doc="quantile ignoring NaN values.",
        example=('>>> ember.nanquantile(ember.tensor([1.0, float("nan"), 3.0]), 0.5).item()\n2.0'),
    ),
    Op(
        "quantile",
        function=(
            "(input: Tensor, q: Tensor | float, dim: int | None = None, keepdim: bool = False, *, "
            "interpolation: str = 'linear', out: Tensor | None = None) -> Tensor"
        ),
        method=(
            "(q: Tensor | float, dim: int | None = None, keepdim: bool = False, *, "
            "interpolation: str = 'linear') -> Tensor"
        ),
        dtypes="float32, float64",
        grad="rule",
        doc="The q-th quantiles over all elements or along `dim`.",
        details=(
            "Args:\n"
            "    input (Tensor): float32 or float64.\n"
            "    q (float or Tensor): in [0, 1]; a 1-d tensor adds a leading dim of len(q).\n"
            "    dim (int, optional): the dim to reduce; None flattens the input.\n"
            "    keepdim (bool): keep the reduced dim(s) with size 1.\n"
            "    interpolation (str): 'linear', 'lower', 'higher', 'midpoint' or 'nearest'."
        ),
        example=(">>> ember.quantile(ember.tensor([1.0, 2.0, 3.0, 4.0]), 0.5).item()\n2.5"),
    ),
    Op(
        "unique",
        function=(
            "(input: Tensor, sorted: bool = True, return_inverse: bool = False, "
            "return_counts: bool = False, dim: int | None = None) -> Any"
        ),
        method=(
            "(sorted: bool = True, return_inverse: bool = False, return_counts: bool = False, "
            "dim: int | None = None) -> Any"
        ),
        dtypes="real, unsigned",
        grad="none",
        doc="The sorted unique elements (or slices along `dim`).",
        details=(
            "Args:\n"
            "    input (Tensor): the input.\n"
            "    sorted (bool): accepted for torch compatibility; the result is always sorted.\n"
            "    return_inverse (bool): also return, for each element, the index of its unique "
            "value.\n"
            "    return_counts (bool): also return how often each unique value occurs.\n"
            "    dim (int, optional): compare whole slices along this dim instead of elements."
        ),
        example=(">>> ember.unique(ember.tensor([3, 1, 3, 2])).tolist()\n[1, 2, 3]"),
    ),
]
