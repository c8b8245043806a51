"""The construct family: ops that build a new tensor's layout from an input's elements (strided
views, block and product constructions, index grids) (fields: registry/_schema.py)."""

from registry._schema import Op

OPS = [
    Op(
        "as_strided",
        function=(
            "(input: Tensor, size: Sequence[int], stride: Sequence[int], "
            "storage_offset: int | None = None) -> Tensor"
        ),
        method=(
            "(size: Sequence[int], stride: Sequence[int], "
            "storage_offset: int | None = None) -> Tensor"
        ),
        inplace=(
            "(size: Sequence[int], stride: Sequence[int], "
            "storage_offset: int | None = None) -> Tensor"
        ),
        conj="structural",
        grad="rule",
        doc="A view of input's storage with the given size, strides and offset (in elements).",
        example=(
            ">>> ember.arange(6).as_strided((2, 2), (1, 2)).tolist()\n[[0, 2], [1, 3]]\n"
            ">>> ember.arange(6).as_strided((2,), (1,), 4).tolist()\n[4, 5]"
        ),
    ),
    Op(
        "block_diag",
        function="(*args: Tensor) -> Tensor",
        grad="rule",
        doc="A matrix with the tensors (at most 2-d) as blocks down its diagonal, zeros elsewhere.",
        example=(
            ">>> ember.block_diag(ember.tensor([[1, 2]]), ember.tensor([[3]])).tolist()\n"
            "[[1, 2, 0], [0, 0, 3]]"
        ),
    ),
    Op(
        "cartesian_prod",
        function="(*args: Tensor) -> Tensor",
        grad="rule",
        doc="The Cartesian product of 1-d tensors: one row per combination (itertools.product).",
        example=(
            ">>> ember.cartesian_prod(ember.tensor([1, 2]), ember.tensor([3, 4])).tolist()\n"
            "[[1, 3], [1, 4], [2, 3], [2, 4]]"
        ),
    ),
    Op(
        "combinations",
        function="(input: Tensor, r: int = 2, with_replacement: bool = False) -> Tensor",
        grad="rule",
        dtypes="all, unsigned",
        doc="The r-length combinations of a 1-d tensor's elements, one per row (itertools order).",
        example=(
            ">>> ember.combinations(ember.tensor([1, 2, 3])).tolist()\n[[1, 2], [1, 3], [2, 3]]"
        ),
    ),
    Op(
        "cross",
        function=(
            "(input: Tensor, other: Tensor, dim: int | None = None, *, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(other: Tensor, dim: int | None = None) -> Tensor",
        grad="rule",
        dtypes="numeric+complex, unsigned",
        doc="The 3-vector cross product along dim (the first dim of size 3 when dim is None).",
        example=(
            ">>> ember.cross(ember.tensor([1, 0, 0]), ember.tensor([0, 1, 0]), dim=0).tolist()\n"
            "[0, 0, 1]"
        ),
    ),
    Op(
        "repeat_interleave",
        function=(
            "(input: Tensor, repeats: int | Tensor | None = None, dim: int | None = None, *, "
            "output_size: int | None = None) -> Tensor"
        ),
        method=(
            "(repeats: int | Tensor, dim: int | None = None, *, "
            "output_size: int | None = None) -> Tensor"
        ),
        conj="structural",
        grad="rule",
        dtypes="int32, int64",
        doc="Each element (or slice along dim) repeated in place; repeats may differ per element.",
        details=(
            "Args:\n"
            "    input (Tensor): the elements; flattened when dim is None. With no repeats,\n"
            "        input is itself the repeat counts and the result is the repeated indices.\n"
            "    repeats (int or Tensor): one count, or one count per element along dim.\n"
            "    dim (int, optional): the dim to repeat along.\n"
            "    output_size (int, optional): the total length along dim, when known."
        ),
        example=(
            ">>> ember.tensor([1, 2]).repeat_interleave(2).tolist()\n[1, 1, 2, 2]\n"
            ">>> ember.repeat_interleave(ember.tensor([2, 1])).tolist()\n[0, 0, 1]"
        ),
    ),
    Op(
        "rot90",
        function="(input: Tensor, k: int = 1, dims: Sequence[int] = (0, 1)) -> Tensor",
        method="(k: int = 1, dims: Sequence[int] = (0, 1)) -> Tensor",
        conj="structural",
        grad="rule",
        doc="Rotated k times by 90 degrees in the plane of dims, from dims[0] towards dims[1].",
        example=(">>> ember.tensor([[1, 2], [3, 4]]).rot90().tolist()\n[[2, 4], [1, 3]]"),
    ),
    Op(
        "tril_indices",
        function=(
            "(row: int, col: int, offset: int = 0, *, dtype: dtype | None = None, "
            "device: Device | None = None, layout: Any = None) -> Tensor"
        ),
        grad="none",
        doc="The (row, col) indices of a row x col matrix's lower triangle, as a 2 x N tensor.",
        example=(">>> ember.tril_indices(2, 2).tolist()\n[[0, 1, 1], [0, 0, 1]]"),
    ),
    Op(
        "triu_indices",
        function=(
            "(row: int, col: int, offset: int = 0, *, dtype: dtype | None = None, "
            "device: Device | None = None, layout: Any = None) -> Tensor"
        ),
        grad="none",
        doc="The (row, col) indices of a row x col matrix's upper triangle, as a 2 x N tensor.",
        example=(">>> ember.triu_indices(2, 3, 1).tolist()\n[[0, 0, 1], [1, 2, 2]]"),
    ),
    Op(
        "unfold",
        method="(dimension: int, size: int, step: int) -> Tensor",
        conj="structural",
        grad="rule",
        doc="A view of every window of `size` along dimension, `step` apart, as a new last dim.",
        example=(">>> ember.arange(5).unfold(0, 2, 2).tolist()\n[[0, 1], [2, 3]]"),
    ),
]
