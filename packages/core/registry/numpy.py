"""The numpy family: conversions between tensors and NumPy arrays (fields: registry/_schema.py)."""

from registry._schema import Op

OPS = [
    Op(
        "__array__",
        method="(dtype: dtype | None = None, *, copy: bool | None = None) -> Any",
        conj="pass",
        grad="none",
        doc="numpy.asarray(x): the tensor as a NumPy array sharing its memory (a CPU tensor).",
        example=(">>> numpy.asarray(ember.tensor([1, 2])).tolist()\n[1, 2]"),
    ),
    Op(
        "from_numpy",
        function="(ndarray: Any) -> Tensor",
        grad="none",
        doc="A tensor sharing memory with a NumPy array (no copy).",
        example=(
            ">>> a = numpy.arange(3)\n>>> t = ember.from_numpy(a)\n>>> a[0] = 7\n"
            ">>> t.tolist(), t.dtype\n([7, 1, 2], ember.int64)"
        ),
    ),
    Op(
        "numpy",
        method="(*, force: bool = False) -> Any",
        conj="pass",
        grad="none",
        doc="A NumPy array sharing the tensor's memory; force=True detaches, resolves conj first.",
        example=(">>> ember.tensor([1.0, 2.0]).numpy().tolist()\n[1.0, 2.0]"),
    ),
]
