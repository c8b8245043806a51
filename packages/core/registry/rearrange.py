"""The rearrange family: ops that move, repeat, split or join elements into new layouts, and the
diagonal/triangle ops (fields: registry/_schema.py)."""

from registry._schema import Op

OPS = [
    Op(
        "atleast_1d",
        function="(*args: Tensor | Sequence[Tensor]) -> Any",
        grad="rule",
        doc="Each tensor with at least 1 dim (0-d become shape (1,)); one tensor in, one out.",
        example=(
            ">>> ember.atleast_1d(ember.tensor(3)).shape\nember.Size([1])\n"
            ">>> [t.dim() for t in ember.atleast_1d(ember.tensor(1), ember.zeros(2, 2))]\n[1, 2]"
        ),
    ),
    Op(
        "atleast_2d",
        function="(*args: Tensor | Sequence[Tensor]) -> Any",
        grad="rule",
        doc="Each tensor with at least 2 dims (new dims of size 1 go first); one in, one out.",
        example=(">>> ember.atleast_2d(ember.zeros(3)).shape\nember.Size([1, 3])"),
    ),
    Op(
        "atleast_3d",
        function="(*args: Tensor | Sequence[Tensor]) -> Any",
        grad="rule",
        doc="Each tensor with at least 3 dims ((n,) becomes (1, n, 1)); one in, one out.",
        example=(
            ">>> ember.atleast_3d(ember.zeros(3)).shape\nember.Size([1, 3, 1])\n"
            ">>> ember.atleast_3d(ember.zeros(2, 3)).shape\nember.Size([2, 3, 1])"
        ),
    ),
    Op(
        "broadcast_shapes",
        function="(*args: int | Sequence[int]) -> Size",
        grad="none",
        doc="The shape that tensors of the given shapes broadcast to (no tensor is made).",
        example=(">>> ember.broadcast_shapes((2, 1), (3,))\nember.Size([2, 3])"),
    ),
    Op(
        "broadcast_tensors",
        function="(*args: Tensor) -> tuple[Tensor, ...]",
        grad="rule",
        doc="Views of the tensors expanded to their common broadcast shape.",
        example=(
            ">>> a, b = ember.broadcast_tensors(ember.zeros(2, 1), ember.zeros(3))\n"
            ">>> a.shape, b.shape\n(ember.Size([2, 3]), ember.Size([2, 3]))"
        ),
    ),
    Op(
        "broadcast_to",
        function="(input: Tensor, size: Sequence[int]) -> Tensor",
        method="(size: Sequence[int] | int) -> Tensor",
        conj="structural",
        grad="rule",
        doc="A view of input expanded to `size` by broadcasting (-1 keeps a size).",
        example=(">>> ember.tensor([1, 2]).broadcast_to((2, 2)).tolist()\n[[1, 2], [1, 2]]"),
    ),
    Op(
        "column_stack",
        function=(
            "(tensors: tuple[Tensor, ...] | list[Tensor], *, out: Tensor | None = None) -> Tensor"
        ),
        grad="rule",
        doc="Joins tensors as columns: 0-d and 1-d ones become (n, 1) columns, then hstack.",
        example=(
            ">>> ember.column_stack([ember.tensor([1, 2]), ember.tensor([3, 4])]).tolist()\n"
            "[[1, 3], [2, 4]]"
        ),
    ),
    Op(
        "diag",
        function="(input: Tensor, diagonal: int = 0, *, out: Tensor | None = None) -> Tensor",
        method="(diagonal: int = 0) -> Tensor",
        grad="rule",
        dtypes="all, unsigned",
        doc="1-d input: a square matrix with it on a diagonal; 2-d input: a diagonal as 1-d.",
        example=(
            ">>> ember.diag(ember.tensor([1, 2])).tolist()\n[[1, 0], [0, 2]]\n"
            ">>> ember.diag(ember.tensor([[1, 2], [3, 4]]), 1).tolist()\n[2]"
        ),
    ),
    Op(
        "diag_embed",
        function="(input: Tensor, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor",
        method="(offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor",
        grad="rule",
        dtypes="all, unsigned",
        doc="Matrices (in dims dim1, dim2) with input's last dim on a diagonal, zeros elsewhere.",
        example=(">>> ember.diag_embed(ember.tensor([[1, 2]])).tolist()\n[[[1, 0], [0, 2]]]"),
    ),
    Op(
        "diagflat",
        function="(input: Tensor, offset: int = 0) -> Tensor",
        method="(offset: int = 0) -> Tensor",
        grad="rule",
        dtypes="all, unsigned",
        doc="A square matrix with the flattened input on diagonal `offset`.",
        example=(">>> ember.diagflat(ember.tensor([[1], [2]])).tolist()\n[[1, 0], [0, 2]]"),
    ),
    Op(
        "diagonal",
        function="(input: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor",
        method="(offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor",
        conj="structural",
        grad="rule",
        doc="A view of a diagonal of dims dim1, dim2, as a new last dim (offset > 0: above).",
        example=(
            ">>> ember.tensor([[1, 2], [3, 4]]).diagonal().tolist()\n[1, 4]\n"
            ">>> ember.tensor([[1, 2], [3, 4]]).diagonal(-1).tolist()\n[3]"
        ),
    ),
    Op(
        "dsplit",
        function="(input: Tensor, indices_or_sections: int | Sequence[int]) -> tuple[Tensor, ...]",
        method="(indices_or_sections: int | Sequence[int]) -> tuple[Tensor, ...]",
        conj="structural",
        grad="rule",
        doc="tensor_split along dim 2 (depth), which must divide evenly when given a count.",
        example=(
            ">>> [p.shape for p in ember.zeros(1, 1, 4).dsplit(2)]\n"
            "[ember.Size([1, 1, 2]), ember.Size([1, 1, 2])]"
        ),
    ),
    Op(
        "dstack",
        function=(
            "(tensors: tuple[Tensor, ...] | list[Tensor], *, out: Tensor | None = None) -> Tensor"
        ),
        grad="rule",
        doc="Joins tensors along dim 2 after making each at least 3-d (atleast_3d).",
        example=(
            ">>> ember.dstack([ember.tensor([1, 2]), ember.tensor([3, 4])]).tolist()\n"
            "[[[1, 3], [2, 4]]]"
        ),
    ),
    Op(
        "flip",
        function="(input: Tensor, dims: Sequence[int]) -> Tensor",
        method="(*args: int | Sequence[int]) -> Tensor",
        conj="structural",
        grad="rule",
        doc="A copy with the order of elements reversed along each of `dims`.",
        example=(
            ">>> ember.tensor([[1, 2], [3, 4]]).flip(0).tolist()\n[[3, 4], [1, 2]]\n"
            ">>> ember.flip(ember.tensor([[1, 2], [3, 4]]), (0, 1)).tolist()\n[[4, 3], [2, 1]]"
        ),
    ),
    Op(
        "fliplr",
        function="(input: Tensor) -> Tensor",
        method="() -> Tensor",
        conj="structural",
        grad="rule",
        doc="flip along dim 1 (left/right); input needs at least 2 dims.",
        example=(">>> ember.tensor([[1, 2], [3, 4]]).fliplr().tolist()\n[[2, 1], [4, 3]]"),
    ),
    Op(
        "flipud",
        function="(input: Tensor) -> Tensor",
        method="() -> Tensor",
        conj="structural",
        grad="rule",
        dtypes="all, unsigned",
        doc="flip along dim 0 (up/down); input needs at least 1 dim.",
        example=(">>> ember.tensor([1, 2, 3]).flipud().tolist()\n[3, 2, 1]"),
    ),
    Op(
        "hsplit",
        function="(input: Tensor, indices_or_sections: int | Sequence[int]) -> tuple[Tensor, ...]",
        method="(indices_or_sections: int | Sequence[int]) -> tuple[Tensor, ...]",
        conj="structural",
        grad="rule",
        doc="tensor_split along dim 1 (dim 0 for 1-d input); a count must divide evenly.",
        example=(">>> [p.tolist() for p in ember.arange(4).hsplit([1])]\n[[0], [1, 2, 3]]"),
    ),
    Op(
        "hstack",
        function=(
            "(tensors: tuple[Tensor, ...] | list[Tensor], *, out: Tensor | None = None) -> Tensor"
        ),
        grad="rule",
        doc="Joins tensors along dim 1 (dim 0 when they are 1-d), after atleast_1d.",
        example=(">>> ember.hstack([ember.tensor([1, 2]), ember.tensor([3])]).tolist()\n[1, 2, 3]"),
    ),
    Op(
        "kron",
        function="(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Tensor) -> Tensor",
        grad="rule",
        dtypes="all, unsigned",
        doc="The Kronecker product: every element of input times the whole of other, as blocks.",
        example=(
            ">>> ember.kron(ember.tensor([1, 2]), ember.tensor([1, 10])).tolist()\n[1, 10, 2, 20]"
        ),
    ),
    Op(
        "meshgrid",
        function=(
            "(*tensors: Tensor | Sequence[Tensor], indexing: str | None = None) "
            "-> tuple[Tensor, ...]"
        ),
        grad="rule",
        doc="Coordinate grids from 1-d tensors; indexing 'ij' (matrix) or 'xy' (Cartesian).",
        example=(
            ">>> a, b = ember.tensor([1, 2]), ember.tensor([3, 4, 5])\n"
            ">>> x, y = ember.meshgrid(a, b, indexing='ij')\n"
            ">>> x.tolist()\n[[1, 1, 1], [2, 2, 2]]\n"
            ">>> y.tolist()\n[[3, 4, 5], [3, 4, 5]]"
        ),
    ),
    Op(
        "repeat",
        method="(*args: int | Sequence[int]) -> Tensor",
        conj="structural",
        grad="rule",
        doc="A copy tiled `repeats[i]` times along each dim (extra leading repeats add dims).",
        example=(
            ">>> ember.tensor([1, 2]).repeat(2).tolist()\n[1, 2, 1, 2]\n"
            ">>> ember.tensor([1, 2]).repeat(2, 1).tolist()\n[[1, 2], [1, 2]]"
        ),
    ),
    Op(
        "roll",
        function=(
            "(input: Tensor, shifts: int | Sequence[int], "
            "dims: int | Sequence[int] | None = None) -> Tensor"
        ),
        method="(shifts: int | Sequence[int], dims: int | Sequence[int] | None = None) -> Tensor",
        conj="structural",
        grad="rule",
        doc="Elements shifted cyclically along dims (over the flattened tensor when dims is None).",
        example=(
            ">>> ember.tensor([1, 2, 3, 4]).roll(1).tolist()\n[4, 1, 2, 3]\n"
            ">>> ember.tensor([[1, 2], [3, 4]]).roll(-1, 1).tolist()\n[[2, 1], [4, 3]]"
        ),
    ),
    Op(
        "tensor_split",
        function=(
            "(input: Tensor, indices_or_sections: Tensor | int | Sequence[int], dim: int = 0) "
            "-> tuple[Tensor, ...]"
        ),
        method=(
            "(indices_or_sections: Tensor | int | Sequence[int], dim: int = 0) "
            "-> tuple[Tensor, ...]"
        ),
        conj="structural",
        grad="rule",
        doc="Views of n nearly equal pieces along dim (an int), or cut before each given index.",
        example=(
            ">>> [p.tolist() for p in ember.arange(5).tensor_split(3)]\n[[0, 1], [2, 3], [4]]\n"
            ">>> [p.tolist() for p in ember.arange(5).tensor_split([1, 3])]\n[[0], [1, 2], [3, 4]]"
        ),
    ),
    Op(
        "tile",
        function="(input: Tensor, dims: Sequence[int]) -> Tensor",
        method="(*args: int | Sequence[int]) -> Tensor",
        conj="structural",
        grad="rule",
        doc="repeat, but too few reps are padded with leading 1s (input keeps its own dims).",
        example=(
            ">>> ember.tensor([[1, 2]]).tile(2).tolist()\n[[1, 2, 1, 2]]\n"
            ">>> ember.tile(ember.tensor([1]), (2, 2)).tolist()\n[[1, 1], [1, 1]]"
        ),
    ),
    Op(
        "trace",
        function="(input: Tensor) -> Tensor",
        method="() -> Tensor",
        grad="rule",
        doc="The sum of the main diagonal of a 2-d tensor (integers sum as int64).",
        example=(">>> ember.tensor([[1, 2], [3, 4]]).trace().item()\n5"),
    ),
    Op(
        "tril",
        function="(input: Tensor, diagonal: int = 0, *, out: Tensor | None = None) -> Tensor",
        method="(diagonal: int = 0) -> Tensor",
        inplace="(diagonal: int = 0) -> Tensor",
        grad="rule",
        doc="The lower triangle of the last two dims (on and below `diagonal`); zeros above.",
        example=(">>> ember.ones(2, 3, dtype=ember.int64).tril().tolist()\n[[1, 0, 0], [1, 1, 0]]"),
    ),
    Op(
        "triu",
        function="(input: Tensor, diagonal: int = 0, *, out: Tensor | None = None) -> Tensor",
        method="(diagonal: int = 0) -> Tensor",
        inplace="(diagonal: int = 0) -> Tensor",
        grad="rule",
        doc="The upper triangle of the last two dims (on and above `diagonal`); zeros below.",
        example=(
            ">>> ember.ones(2, 3, dtype=ember.int64).triu(1).tolist()\n[[0, 1, 1], [0, 0, 1]]"
        ),
    ),
    Op(
        "vsplit",
        function="(input: Tensor, indices_or_sections: int | Sequence[int]) -> tuple[Tensor, ...]",
        method="(indices_or_sections: int | Sequence[int]) -> tuple[Tensor, ...]",
        conj="structural",
        grad="rule",
        doc="tensor_split along dim 0 of an at least 2-d tensor; a count must divide evenly.",
        example=(
            ">>> [p.shape for p in ember.zeros(4, 2).vsplit(2)]\n"
            "[ember.Size([2, 2]), ember.Size([2, 2])]"
        ),
    ),
    Op(
        "vstack",
        function=(
            "(tensors: tuple[Tensor, ...] | list[Tensor], *, out: Tensor | None = None) -> Tensor"
        ),
        grad="rule",
        doc="Joins tensors along dim 0 after making each at least 2-d (atleast_2d).",
        example=(
            ">>> ember.vstack([ember.tensor([1, 2]), ember.tensor([3, 4])]).tolist()\n"
            "[[1, 2], [3, 4]]"
        ),
    ),
]
