"""The index_gather family (fields: registry/_schema.py)."""

from registry._schema import Op

OPS = [
    Op(
        "argwhere",
        function="(input: Tensor) -> Tensor",
        method="() -> Tensor",
        dtypes="all, unsigned",
        grad="none",
        doc="Same as nonzero(input): a row per nonzero entry.",
        example=(">>> ember.argwhere(ember.tensor([0.0, 3.0, 0.0, 1.0])).tolist()\n[[1], [3]]"),
    ),
    Op(
        "gather",
        function=(
            "(input: Tensor, dim: int, index: Tensor, *, sparse_grad: bool = False, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(dim: int, index: Tensor, *, sparse_grad: bool = False) -> Tensor",
        conj="structural",
        grad="rule",
        doc="out[i][j] = input[index[i][j]][j] for dim=0 (likewise per dim).",
        details=(
            "Args:\n"
            "    input (Tensor): the source.\n"
            "    dim (int): the dim the index picks along.\n"
            "    index (Tensor): int64/int32, same rank as input, no larger apart from `dim`."
        ),
        example=(
            ">>> ember.gather(ember.tensor([[1, 2], [3, 4]]), 1, ember.tensor([[1], [0]])).tolist()\n"  # noqa: E501
            "[[2], [3]]"
        ),
    ),
    Op(
        "index_put",
        function=(
            "(input: Tensor, indices: tuple[Tensor | None, ...] | list[Tensor | None] | None, "
            "values: Tensor, accumulate: bool = False) -> Tensor"
        ),
        method=(
            "(indices: tuple[Tensor | None, ...] | list[Tensor | None] | None, values: Tensor, "
            "accumulate: bool = False) -> Tensor"
        ),
        inplace=(
            "(indices: tuple[Tensor | None, ...] | list[Tensor | None] | None, values: Tensor, "
            "accumulate: bool = False) -> Tensor"
        ),
        grad="rule",
        doc="A copy of input with input[indices] = values (or +=).",
        details=(
            "Args:\n"
            "    input (Tensor): the destination (not modified; see Tensor.index_put_).\n"
            "    indices (tuple of Tensor): one int64/int32 index or bool mask per leading dim.\n"
            "    values (Tensor): broadcast to the indexed shape; must have input's dtype.\n"
            "    accumulate (bool): add instead of assign, summing duplicate indices."
        ),
        example=(
            ">>> idx = (ember.tensor([0, 0, 2]),)\n"
            ">>> ember.index_put(ember.zeros(3), idx, ember.ones(3), accumulate=True).tolist()\n"
            "[2.0, 0.0, 1.0]"
        ),
    ),
    Op(
        "index_select",
        function="(input: Tensor, dim: int, index: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(dim: int, index: Tensor) -> Tensor",
        conj="structural",
        grad="rule",
        doc="Picks entries along `dim` by a 1-d index (a copy).",
        details=(
            "Args:\n"
            "    input (Tensor): the source.\n"
            "    dim (int): the dim to index.\n"
            "    index (Tensor): int64 or int32 indices in [0, size), 0-d or 1-d."
        ),
        example=(
            ">>> ember.index_select(ember.tensor([[1, 2], [3, 4]]), 0, ember.tensor([1, 1])).tolist()\n"  # noqa: E501
            "[[3, 4], [3, 4]]"
        ),
    ),
    Op(
        "masked_fill",
        function="(input: Tensor, mask: Tensor, value: Number | Tensor) -> Tensor",
        method="(mask: Tensor, value: Number | Tensor) -> Tensor",
        inplace="(mask: Tensor, value: Number | Tensor) -> Tensor",
        grad="rule",
        doc="A copy of input with `value` where the bool mask is True.",
        example=(
            ">>> x = ember.tensor([1.0, 2.0, 3.0])\n"
            ">>> ember.masked_fill(x, x > 1.5, 0.0).tolist()\n"
            "[1.0, 0.0, 0.0]"
        ),
    ),
    Op(
        "masked_select",
        function="(input: Tensor, mask: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(mask: Tensor) -> Tensor",
        conj="structural",
        grad="rule",
        doc="The entries where the bool mask is True, as a 1-d copy.",
        example=(
            ">>> x = ember.tensor([[1, 2], [3, 4]])\n"
            ">>> ember.masked_select(x, x % 2 == 0).tolist()\n"
            "[2, 4]"
        ),
    ),
    Op(
        "nonzero",
        function="(input: Tensor, *, out: Tensor | None = None, as_tuple: bool = False) -> Any",
        method="(*, as_tuple: bool = False) -> Any",
        dtypes="all, unsigned",
        grad="none",
        doc="Coordinates of the nonzero entries, one row each (int64).",
        details="With as_tuple=True, one 1-d tensor per dim instead (like numpy.nonzero).",
        example=(">>> ember.nonzero(ember.tensor([[0, 1], [2, 0]])).tolist()\n[[0, 1], [1, 0]]"),
    ),
    Op(
        "scatter",
        function=(
            "(input: Tensor, dim: int, index: Tensor, src: Tensor | Number | None = None, *, "
            "value: Number | None = None, reduce: str | None = None) -> Tensor"
        ),
        method=(
            "(dim: int, index: Tensor, src: Tensor | Number | None = None, *, "
            "value: Number | None = None, "
            "reduce: str | None = None) -> Tensor"
        ),
        inplace=(
            "(dim: int, index: Tensor, src: Tensor | Number | None = None, *, "
            "value: Number | None = None, "
            "reduce: str | None = None) -> Tensor"
        ),
        grad="rule",
        doc="A copy of input with out[index[i][j]][j] = src[i][j] (dim=0).",
        details=(
            "Args:\n"
            "    input (Tensor): the destination (not modified; see Tensor.scatter_).\n"
            "    dim (int): the dim the index writes along.\n"
            "    index (Tensor): int64/int32, same rank as input.\n"
            "    src (Tensor or number): the values, or one value for every index (also `value=`)."
        ),
        example=(
            ">>> ember.scatter(ember.zeros(3), 0, ember.tensor([2, 0]), ember.tensor([5.0, 6.0])).tolist()\n"  # noqa: E501
            "[6.0, 0.0, 5.0]"
        ),
    ),
    Op(
        "scatter_add",
        function=(
            "(input: Tensor, dim: int, index: Tensor, src: Tensor | None = None, *, "
            "value: None = None, reduce: None = None) -> Tensor"
        ),
        method=(
            "(dim: int, index: Tensor, src: Tensor | None = None, *, "
            "value: None = None, "
            "reduce: None = None) -> Tensor"
        ),
        inplace=(
            "(dim: int, index: Tensor, src: Tensor | None = None, *, "
            "value: None = None, "
            "reduce: None = None) -> Tensor"
        ),
        grad="rule",
        doc="Like scatter, but adds src in; duplicates sum.",
        example=(
            ">>> ember.scatter_add(ember.zeros(2), 0, ember.tensor([1, 1]), ember.ones(2)).tolist()\n"  # noqa: E501
            "[0.0, 2.0]"
        ),
    ),
    Op(
        "take",
        function="(input: Tensor, index: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(index: Tensor) -> Tensor",
        conj="structural",
        grad="rule",
        doc="Entries of the flattened input at `index`, shaped like `index`.",
        example=(
            ">>> ember.take(ember.tensor([[1, 2], [3, 4]]), ember.tensor([3, -4])).tolist()\n[4, 1]"
        ),
    ),
    Op(
        "take_along_dim",
        function=(
            "(input: Tensor, indices: Tensor, dim: int | None = None, *, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(indices: Tensor, dim: int | None = None) -> Tensor",
        conj="structural",
        grad="rule",
        doc="gather along `dim` after broadcasting the other dims.",
        details="With dim=None, input and indices are flattened first.",
        example=(
            ">>> x = ember.tensor([[10, 30, 20], [60, 40, 50]])\n"
            ">>> ember.take_along_dim(x, ember.tensor([[1], [0]]), dim=1).tolist()\n"
            "[[30], [60]]"
        ),
    ),
]
