"""The index_scatter family (fields: registry/_schema.py)."""

from registry._schema import Op

OPS = [
    Op(
        "index_add",
        function=(
            "(input: Tensor, dim: int, index: Tensor, source: Tensor, *, alpha: Number = 1, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(dim: int, index: Tensor, source: Tensor, *, alpha: Number = 1) -> Tensor",
        inplace="(dim: int, index: Tensor, source: Tensor, *, alpha: Number = 1) -> Tensor",
        grad="rule",
        doc="A copy of input with alpha * source added along `dim` at `index`.",
        details=(
            "Args:\n"
            "    input (Tensor): the destination (not modified; see Tensor.index_add_).\n"
            "    dim (int): the dim to index.\n"
            "    index (Tensor): int64/int32 positions in [0, input.size(dim)), 0-d or 1-d; "
            "duplicates add up.\n"
            "    source (Tensor): input's dtype and shape, with index.numel() along `dim`.\n"
            "    alpha (number): the factor applied to source."
        ),
        example=(
            ">>> x = ember.zeros(3, 2)\n"
            ">>> ember.index_add(x, 0, ember.tensor([0, 2, 0]), ember.ones(3, 2)).tolist()\n"
            "[[2.0, 2.0], [0.0, 0.0], [1.0, 1.0]]"
        ),
    ),
    Op(
        "index_copy",
        function=(
            "(input: Tensor, dim: int, index: Tensor, source: Tensor, *, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(dim: int, index: Tensor, source: Tensor) -> Tensor",
        inplace="(dim: int, index: Tensor, source: Tensor) -> Tensor",
        grad="rule",
        doc="A copy of input with source's slices written along `dim` at `index`.",
        details="The last of duplicate indices wins.",
        example=(
            ">>> x = ember.zeros(3, 2)\n"
            ">>> ember.index_copy(x, 0, ember.tensor([2]), ember.ones(1, 2)).tolist()\n"
            "[[0.0, 0.0], [0.0, 0.0], [1.0, 1.0]]"
        ),
    ),
    Op(
        "index_fill",
        function="(input: Tensor, dim: int, index: Tensor, value: Number | Tensor) -> Tensor",
        method="(dim: int, index: Tensor, value: Number | Tensor) -> Tensor",
        inplace="(dim: int, index: Tensor, value: Number | Tensor) -> Tensor",
        grad="rule",
        doc="A copy of input with `value` in the slices along `dim` at `index`.",
        details="Negative indices count from the end; value is a number or a 0-d tensor.",
        example=(
            ">>> ember.index_fill(ember.zeros(2, 3), 1, ember.tensor([0, -1]), 5).tolist()\n"
            "[[5.0, 0.0, 5.0], [5.0, 0.0, 5.0]]"
        ),
    ),
    Op(
        "masked_scatter",
        function="(input: Tensor, mask: Tensor, source: Tensor) -> Tensor",
        method="(mask: Tensor, source: Tensor) -> Tensor",
        inplace="(mask: Tensor, source: Tensor) -> Tensor",
        grad="rule",
        doc="A copy of input with source's elements, in order, where mask is True.",
        details=(
            "mask (bool) and input broadcast together; source needs at least as many elements as "
            "mask has\n"
            "True values."
        ),
        example=(
            ">>> mask = ember.tensor([True, False, True])\n"
            ">>> ember.masked_scatter(ember.zeros(3), mask, ember.tensor([1.0, 2.0])).tolist()\n"
            "[1.0, 0.0, 2.0]"
        ),
    ),
    Op(
        "scatter_reduce",
        function=(
            "(input: Tensor, dim: int, index: Tensor, src: Tensor, reduce: str, *, "
            "include_self: bool = True, out: Tensor | None = None) -> Tensor"
        ),
        method=(
            "(dim: int, index: Tensor, src: Tensor, reduce: str, *, "
            "include_self: bool = True) -> Tensor"
        ),
        inplace=(
            "(dim: int, index: Tensor, src: Tensor, reduce: str, *, "
            "include_self: bool = True) -> Tensor"
        ),
        grad="rule",
        doc="Reduces src into a copy of input at index along `dim`.",
        details=(
            "Args:\n"
            "    input (Tensor): the destination (not modified; see Tensor.scatter_reduce_).\n"
            "    dim (int): the dim the index writes along.\n"
            "    index (Tensor): int64/int32, same rank as input.\n"
            "    src (Tensor): input's dtype, at least index's size in every dim.\n"
            "    reduce (str): 'sum', 'prod', 'mean', 'amax' or 'amin'.\n"
            "    include_self (bool): whether input's own values take part in the reduction."
        ),
        example=(
            ">>> x = ember.tensor([1.0, 2.0])\n"
            ">>> idx = ember.tensor([0, 0, 1])\n"
            '>>> ember.scatter_reduce(x, 0, idx, ember.tensor([5.0, 3.0, 1.0]), "amax").tolist()\n'
            "[5.0, 2.0]"
        ),
    ),
]
