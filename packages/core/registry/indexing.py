"""The indexing family: Python's subscript and iteration protocols on tensors
(fields: registry/_schema.py)."""

from registry._schema import Op

OPS = [
    Op(
        "__getitem__",
        method="(index: Any) -> Tensor",
        conj="structural",
        grad="rule",
        doc="x[index]: ints, slices, None, ..., bool masks and integer tensors, as NumPy/torch.",
        details=(
            "Basic indices (ints, slices, None, Ellipsis) give a view; a bool mask or an integer\n"
            "tensor/list (advanced indexing) gathers a copy."
        ),
        example=(
            ">>> x = ember.arange(6).reshape(2, 3)\n"
            ">>> x[1].tolist(), x[:, 1:].tolist()\n([3, 4, 5], [[1, 2], [4, 5]])\n"
            ">>> x[x > 3].tolist(), x[:, [0, 2]].tolist()\n([4, 5], [[0, 2], [3, 5]])"
        ),
    ),
    Op(
        "__iter__",
        method="() -> Any",
        grad="none",
        doc="iter(x): the sub-tensors along dim 0, one by one (a 0-d tensor is not iterable).",
        example=(">>> [row.tolist() for row in ember.tensor([[1, 2], [3, 4]])]\n[[1, 2], [3, 4]]"),
    ),
    Op(
        "__setitem__",
        method="(index: Any, value: Tensor | Number | complex) -> None",
        grad="rule",
        doc="x[index] = value: writes value (broadcast, cast to x's dtype) into the indexed part.",
        example=(
            ">>> x = ember.zeros(3)\n>>> x[1:] = 2\n"
            ">>> x[ember.tensor([0])] = ember.tensor([5.0])\n"
            ">>> x.tolist()\n[5.0, 2.0, 2.0]"
        ),
    ),
]
