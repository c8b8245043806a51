"""The shape family: views and joins that change a tensor's geometry, not its values
(fields: registry/_schema.py)."""

from registry._schema import Op

OPS = [
    Op(
        "cat",
        function=(
            "(tensors: tuple[Tensor, ...] | list[Tensor], dim: int = 0, *, "
            "axis: int | None = None, "
            "out: Tensor | None = None) -> Tensor"
        ),
        grad="rule",
        doc="Joins tensors end to end along an existing dim; the other sizes must match.",
        example=(
            ">>> a, b = ember.zeros(2, 3), ember.ones(1, 3)\n"
            ">>> ember.cat([a, b]).shape\nember.Size([3, 3])\n"
            ">>> ember.cat([ember.tensor([1]), ember.tensor([2, 3])]).tolist()\n[1, 2, 3]"
        ),
    ),
    Op(
        "chunk",
        function="(input: Tensor, chunks: int, dim: int = 0) -> tuple[Tensor, ...]",
        method="(chunks: int, dim: int = 0) -> tuple[Tensor, ...]",
        conj="structural",
        grad="rule",
        doc="Views of at most `chunks` pieces of equal size along dim (the last may be smaller).",
        example=(">>> [c.tolist() for c in ember.arange(5).chunk(3)]\n[[0, 1], [2, 3], [4]]"),
    ),
    Op(
        "concat",
        function=(
            "(tensors: tuple[Tensor, ...] | list[Tensor], dim: int = 0, *, "
            "axis: int | None = None, "
            "out: Tensor | None = None) -> Tensor"
        ),
        grad="rule",
        doc="cat under another name: joins tensors along an existing dim.",
        example=(">>> ember.concat([ember.tensor([1]), ember.tensor([2])]).tolist()\n[1, 2]"),
    ),
    Op(
        "concatenate",
        function=(
            "(tensors: tuple[Tensor, ...] | list[Tensor], dim: int = 0, *, "
            "axis: int | None = None, "
            "out: Tensor | None = None) -> Tensor"
        ),
        grad="rule",
        doc="cat under NumPy's name (axis= works too): joins tensors along an existing dim.",
        example=(
            ">>> ember.concatenate([ember.zeros(1, 2), ember.ones(1, 2)], axis=1).shape\n"
            "ember.Size([1, 4])"
        ),
    ),
    Op(
        "expand",
        method="(*args: int | Sequence[int]) -> Tensor",
        conj="structural",
        grad="rule",
        doc="A view with size-1 dims repeated (stride 0) to the given size; -1 keeps a size.",
        example=(
            ">>> ember.tensor([[1], [2]]).expand(2, 3).tolist()\n[[1, 1, 1], [2, 2, 2]]\n"
            ">>> ember.zeros(3).expand(2, -1).shape\nember.Size([2, 3])"
        ),
    ),
    Op(
        "expand_as",
        method="(other: Tensor) -> Tensor",
        conj="structural",
        grad="rule",
        doc="expand to other's size.",
        example=(">>> ember.zeros(1, 3).expand_as(ember.zeros(4, 3)).shape\nember.Size([4, 3])"),
    ),
    Op(
        "flatten",
        function="(input: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor",
        method="(start_dim: int = 0, end_dim: int = -1) -> Tensor",
        conj="structural",
        grad="rule",
        dtypes="all, unsigned",
        doc="Merges dims start_dim..end_dim into one (a view when the strides allow).",
        example=(
            ">>> ember.zeros(2, 3, 4).flatten().shape\nember.Size([24])\n"
            ">>> ember.zeros(2, 3, 4).flatten(1).shape\nember.Size([2, 12])"
        ),
    ),
    Op(
        "moveaxis",
        function=(
            "(input: Tensor, source: int | Sequence[int], "
            "destination: int | Sequence[int]) -> Tensor"
        ),
        method="(source: int | Sequence[int], destination: int | Sequence[int]) -> Tensor",
        conj="structural",
        grad="rule",
        doc="movedim under NumPy's name: moves dims to new positions, the rest keep their order.",
        example=(">>> ember.zeros(2, 3, 4).moveaxis(0, -1).shape\nember.Size([3, 4, 2])"),
    ),
    Op(
        "movedim",
        function=(
            "(input: Tensor, source: int | Sequence[int], "
            "destination: int | Sequence[int]) -> Tensor"
        ),
        method="(source: int | Sequence[int], destination: int | Sequence[int]) -> Tensor",
        conj="structural",
        grad="rule",
        doc="A view with dims `source` moved to positions `destination`, the rest in order.",
        example=(
            ">>> ember.movedim(ember.zeros(2, 3, 4), (0, 1), (2, 0)).shape\nember.Size([3, 4, 2])"
        ),
    ),
    Op(
        "narrow",
        function="(input: Tensor, dim: int, start: int | Tensor, length: int) -> Tensor",
        method="(dim: int, start: int | Tensor, length: int) -> Tensor",
        conj="structural",
        grad="rule",
        doc="A view of `length` elements of dim from index `start` (negative start counts back).",
        example=(">>> ember.arange(6).narrow(0, 2, 3).tolist()\n[2, 3, 4]"),
    ),
    Op(
        "permute",
        function="(input: Tensor, dims: Sequence[int]) -> Tensor",
        method="(*args: int | Sequence[int]) -> Tensor",
        conj="structural",
        grad="rule",
        doc="A view with the dims reordered: result dim i is input dim dims[i].",
        example=(
            ">>> ember.zeros(2, 3, 4).permute(2, 0, 1).shape\nember.Size([4, 2, 3])\n"
            ">>> ember.permute(ember.zeros(2, 3), (1, 0)).shape\nember.Size([3, 2])"
        ),
    ),
    Op(
        "reshape",
        function="(input: Tensor, shape: Sequence[int]) -> Tensor",
        method="(*args: int | Sequence[int]) -> Tensor",
        conj="structural",
        grad="rule",
        doc="The elements in a new shape (one size may be -1): a view when possible, else a copy.",
        example=(
            ">>> ember.arange(6).reshape(2, 3).tolist()\n[[0, 1, 2], [3, 4, 5]]\n"
            ">>> ember.reshape(ember.arange(6), (-1, 2)).shape\nember.Size([3, 2])"
        ),
    ),
    Op(
        "reshape_as",
        method="(other: Tensor) -> Tensor",
        conj="structural",
        grad="rule",
        doc="reshape to other's size.",
        example=(">>> ember.arange(6).reshape_as(ember.zeros(3, 2)).shape\nember.Size([3, 2])"),
    ),
    Op(
        "select",
        function="(input: Tensor, dim: int, index: int) -> Tensor",
        method="(dim: int, index: int) -> Tensor",
        conj="structural",
        grad="rule",
        doc="A view of the slice at `index` of dim, with that dim removed (x[:, i] for dim 1).",
        example=(">>> ember.arange(6).reshape(2, 3).select(1, 2).tolist()\n[2, 5]"),
    ),
    Op(
        "split",
        function=(
            "(tensor: Tensor, split_size_or_sections: int | Sequence[int], dim: int = 0) "
            "-> tuple[Tensor, ...]"
        ),
        method="(split_size: int | Sequence[int], dim: int = 0) -> tuple[Tensor, ...]",
        conj="structural",
        grad="rule",
        doc="Views of pieces along dim, each split_size long (the last may be less) or as sized.",
        example=(
            ">>> [p.tolist() for p in ember.arange(5).split(2)]\n[[0, 1], [2, 3], [4]]\n"
            ">>> [p.tolist() for p in ember.arange(5).split([1, 4])]\n[[0], [1, 2, 3, 4]]"
        ),
    ),
    Op(
        "split_with_sizes",
        function="(input: Tensor, split_sizes: Sequence[int], dim: int = 0) -> tuple[Tensor, ...]",
        method="(split_sizes: Sequence[int], dim: int = 0) -> tuple[Tensor, ...]",
        conj="structural",
        grad="rule",
        doc="Views of pieces of the given sizes along dim; the sizes must add up to its length.",
        example=(
            ">>> [p.tolist() for p in ember.arange(4).split_with_sizes([3, 1])]\n[[0, 1, 2], [3]]"
        ),
    ),
    Op(
        "squeeze",
        function="(input: Tensor, dim: int | Sequence[int] | None = None) -> Tensor",
        method="(dim: int | Sequence[int] | None = None) -> Tensor",
        inplace="(dim: int | Sequence[int] | None = None) -> Tensor",
        conj="structural",
        grad="rule",
        dtypes="all, unsigned",
        doc="A view without size-1 dims (all of them, or those of `dim`; other sizes are kept).",
        example=(
            ">>> ember.zeros(2, 1, 3, 1).squeeze().shape\nember.Size([2, 3])\n"
            ">>> ember.zeros(2, 1, 3, 1).squeeze(1).shape\nember.Size([2, 3, 1])"
        ),
    ),
    Op(
        "stack",
        function=(
            "(tensors: tuple[Tensor, ...] | list[Tensor], dim: int = 0, *, "
            "out: Tensor | None = None) -> Tensor"
        ),
        grad="rule",
        doc="Joins same-shaped tensors along a new dim inserted at `dim`.",
        example=(
            ">>> ember.stack([ember.tensor([1, 2]), ember.tensor([3, 4])]).tolist()\n"
            "[[1, 2], [3, 4]]\n"
            ">>> ember.stack([ember.zeros(2), ember.zeros(2)], dim=1).shape\nember.Size([2, 2])"
        ),
    ),
    Op(
        "swapaxes",
        function="(input: Tensor, axis0: int, axis1: int) -> Tensor",
        method="(axis0: int, axis1: int) -> Tensor",
        inplace="(dim0: int, dim1: int) -> Tensor",
        conj="structural",
        grad="rule",
        doc="transpose under NumPy's name: a view with two dims exchanged.",
        example=(">>> ember.zeros(2, 3, 4).swapaxes(0, 2).shape\nember.Size([4, 3, 2])"),
    ),
    Op(
        "swapdims",
        function="(input: Tensor, dim0: int, dim1: int) -> Tensor",
        method="(dim0: int, dim1: int) -> Tensor",
        inplace="(dim0: int, dim1: int) -> Tensor",
        conj="structural",
        grad="rule",
        doc="transpose under another name: a view with two dims exchanged.",
        example=(">>> ember.zeros(2, 3).swapdims(0, 1).shape\nember.Size([3, 2])"),
    ),
    Op(
        "t",
        function="(input: Tensor) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        conj="structural",
        grad="rule",
        dtypes="all, unsigned",
        doc="The transpose of a tensor of at most 2 dims (0-d and 1-d come back as they are).",
        example=(">>> ember.tensor([[1, 2, 3]]).t().tolist()\n[[1], [2], [3]]"),
    ),
    Op(
        "transpose",
        function="(input: Tensor, dim0: int, dim1: int) -> Tensor",
        method="(dim0: int, dim1: int) -> Tensor",
        inplace="(dim0: int, dim1: int) -> Tensor",
        conj="structural",
        grad="rule",
        doc="A view with dims dim0 and dim1 exchanged (their sizes and strides swap).",
        example=(">>> ember.tensor([[1, 2], [3, 4]]).transpose(0, 1).tolist()\n[[1, 3], [2, 4]]"),
    ),
    Op(
        "unbind",
        function="(input: Tensor, dim: int = 0) -> tuple[Tensor, ...]",
        method="(dim: int = 0) -> tuple[Tensor, ...]",
        conj="structural",
        grad="rule",
        doc="The slices along dim, each a view with that dim removed.",
        example=(
            ">>> [r.tolist() for r in ember.tensor([[1, 2], [3, 4]]).unbind(1)]\n[[1, 3], [2, 4]]"
        ),
    ),
    Op(
        "unflatten",
        function="(input: Tensor, dim: int, sizes: Sequence[int]) -> Tensor",
        method="(dim: int, sizes: Sequence[int]) -> Tensor",
        conj="structural",
        grad="rule",
        doc="Splits dim into several dims of the given sizes (one may be -1): flatten's inverse.",
        example=(">>> ember.zeros(2, 12).unflatten(1, (3, -1)).shape\nember.Size([2, 3, 4])"),
    ),
    Op(
        "unsqueeze",
        function="(input: Tensor, dim: int) -> Tensor",
        method="(dim: int) -> Tensor",
        inplace="(dim: int) -> Tensor",
        conj="structural",
        grad="rule",
        doc="A view with a size-1 dim inserted at `dim` (-1: after the last).",
        example=(
            ">>> ember.zeros(3).unsqueeze(0).shape\nember.Size([1, 3])\n"
            ">>> ember.zeros(3).unsqueeze(-1).shape\nember.Size([3, 1])"
        ),
    ),
    Op(
        "view",
        method="(*args: int | Sequence[int] | dtype) -> Tensor",
        conj="structural",
        grad="rule",
        doc="A view of the storage in a new shape (the strides must allow it) or as another dtype.",
        example=(
            ">>> ember.arange(6).view(3, 2).shape\nember.Size([3, 2])\n"
            ">>> ember.zeros(2, dtype=ember.float32).view(ember.int32).tolist()\n[0, 0]"
        ),
    ),
    Op(
        "view_as",
        method="(other: Tensor) -> Tensor",
        conj="structural",
        grad="rule",
        doc="view to other's size.",
        example=(">>> ember.arange(6).view_as(ember.zeros(2, 3)).shape\nember.Size([2, 3])"),
    ),
]
