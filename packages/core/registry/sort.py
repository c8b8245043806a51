"""The sort family (fields: registry/_schema.py)."""

from registry._schema import Op

# The namedtuple results (return_types.sort, ...) stay `Any`: the stub has no typed return_types.
OPS = [
    Op(
        "argsort",
        function=(
            "(input: Tensor, dim: int = -1, descending: bool = False, *, "
            "stable: bool = False) -> Tensor"
        ),
        method="(dim: int = -1, descending: bool = False, *, stable: bool = False) -> Tensor",
        dtypes="real, unsigned",
        grad="none",
        doc="The int64 indices that sort `input` along `dim` (sort(...).indices).",
        details="stable=True keeps equal elements in their original order.",
        example=(
            ">>> x = ember.tensor([3, 1, 2])\n"
            ">>> ember.argsort(x).tolist(), ember.argsort(x, descending=True).tolist()\n"
            "([1, 2, 0], [0, 2, 1])"
        ),
    ),
    Op(
        "bucketize",
        function=(
            "(input: Tensor, boundaries: Tensor, *, out_int32: bool = False, right: bool = False, "
            "out: Tensor | None = None) -> Tensor"
        ),
        dtypes="numeric, unsigned",
        grad="none",
        doc="For each value, the index of its bucket among the sorted 1-d `boundaries`.",
        details=(
            "Bucket i holds boundaries[i-1] < v <= boundaries[i]; right=True makes it "
            "boundaries[i-1] <= v < boundaries[i]. int64, or int32 with out_int32=True."
        ),
        example=(
            ">>> b = ember.tensor([1, 3, 5])\n"
            ">>> ember.bucketize(ember.tensor([0, 3, 6]), b).tolist()\n"
            "[0, 1, 3]\n"
            ">>> ember.bucketize(ember.tensor([0, 3, 6]), b, right=True).tolist()\n"
            "[0, 2, 3]"
        ),
    ),
    Op(
        "kthvalue",
        function=(
            "(input: Tensor, k: int, dim: int = -1, keepdim: bool = False, *, "
            "out: Tensor | tuple[Tensor, ...] | list[Tensor] | None = None) -> Any"
        ),
        method="(k: int, dim: int = -1, keepdim: bool = False) -> Any",
        grad="rule",
        doc="The k-th smallest value (1-based) along `dim` and its index, as (values, indices).",
        example=(
            ">>> r = ember.kthvalue(ember.tensor([4.0, 1.0, 3.0, 2.0]), 2)\n"
            ">>> r.values.item(), r.indices.item()\n"
            "(2.0, 3)"
        ),
    ),
    Op(
        "median",
        function=(
            "(input: Tensor, dim: int | None = None, keepdim: bool = False, *, "
            "out: Tensor | tuple[Tensor, ...] | list[Tensor] | None = None) -> Any"
        ),
        method="(dim: int | None = None, keepdim: bool = False) -> Any",
        dtypes="numeric, unsigned",
        grad="rule",
        doc="The lower median (over all elements), or (values, indices) of it along `dim`.",
        details=(
            "Without dim, returns a 0-d tensor; with dim, a namedtuple (values, indices). "
            "NaN propagates (see nanmedian)."
        ),
        example=(
            ">>> ember.median(ember.tensor([4.0, 1.0, 3.0, 2.0])).item()\n"
            "2.0\n"
            ">>> ember.median(ember.tensor([[1, 5, 2], [7, 3, 9]]), dim=1).values.tolist()\n"
            "[2, 7]"
        ),
    ),
    Op(
        "msort",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        dtypes="real, unsigned",
        grad="rule",
        doc="The values sorted ascending along dim 0 (sort(input, dim=0).values).",
        example=(">>> ember.msort(ember.tensor([[3, 1], [2, 4]])).tolist()\n[[2, 1], [3, 4]]"),
    ),
    Op(
        "searchsorted",
        function=(
            "(sorted_sequence: Tensor, values: Tensor, *, out_int32: bool = False, "
            "right: bool = False, side: str | None = None, out: Tensor | None = None, "
            "sorter: Tensor | None = None) -> Tensor"
        ),
        dtypes="numeric, unsigned",
        grad="none",
        doc="Where each value would be inserted into the sorted innermost dim to keep it sorted.",
        details=(
            "Args:\n"
            "    sorted_sequence (Tensor): sorted along its last dim (or unsorted with `sorter`).\n"
            "    values (Tensor): the values to place; leading dims match sorted_sequence's.\n"
            "    out_int32 (bool): int32 indices instead of int64.\n"
            "    right (bool): the last suitable index instead of the first (also side='right').\n"
            "    side (str, optional): 'left' or 'right'; must agree with `right`.\n"
            "    sorter (Tensor, optional): the indices that sort sorted_sequence."
        ),
        example=(
            ">>> s = ember.tensor([1, 3, 5, 7])\n"
            ">>> ember.searchsorted(s, ember.tensor([3, 6])).tolist()\n"
            "[1, 3]\n"
            ">>> ember.searchsorted(s, ember.tensor([3, 6]), right=True).tolist()\n"
            "[2, 3]"
        ),
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
        doc="The values sorted along `dim` and their original indices, as (values, indices).",
        details="stable=True keeps equal elements in their original order; NaN counts as largest.",
        example=(
            ">>> r = ember.sort(ember.tensor([3.0, 1.0, 2.0]), descending=True)\n"
            ">>> r.values.tolist(), r.indices.tolist()\n"
            "([3.0, 2.0, 1.0], [0, 2, 1])"
        ),
    ),
    Op(
        "topk",
        function=(
            "(input: Tensor, k: int, dim: int = -1, largest: bool = True, sorted: bool = True, *, "
            "out: Tensor | tuple[Tensor, ...] | list[Tensor] | None = None) -> Any"
        ),
        method="(k: int, dim: int = -1, largest: bool = True, sorted: bool = True) -> Any",
        grad="rule",
        doc="The k largest (or smallest) values along `dim` and their indices: (values, indices).",
        example=(
            ">>> r = ember.topk(ember.tensor([1.0, 5.0, 3.0, 4.0]), 2)\n"
            ">>> r.values.tolist(), r.indices.tolist()\n"
            "([5.0, 4.0], [1, 3])"
        ),
    ),
    Op(
        "unique_consecutive",
        function=(
            "(input: Tensor, return_inverse: bool = False, return_counts: bool = False, "
            "dim: int | None = None) -> Any"
        ),
        method=(
            "(return_inverse: bool = False, return_counts: bool = False, "
            "dim: int | None = None) -> Any"
        ),
        dtypes="real, unsigned",
        grad="none",
        doc="Collapses each run of equal consecutive elements (or slices along `dim`) to one.",
        details=(
            "Returns the output tensor alone, or a tuple (output, inverse_indices, counts) "
            "holding the parts asked for."
        ),
        example=(
            ">>> out, counts = ember.unique_consecutive(ember.tensor([1, 1, 2, 2, 1]),\n"
            "...                                        return_counts=True)\n"
            ">>> out.tolist(), counts.tolist()\n"
            "([1, 2, 1], [2, 2, 1])"
        ),
    ),
]
