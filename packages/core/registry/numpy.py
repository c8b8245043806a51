"""The numpy family (fields: registry/_schema.py)."""

from registry._schema import Op

OPS = [
    Op(
        "__array__",
        method="(dtype: dtype | None = None, *, copy: Any = None) -> Any",
        conj="pass",
        grad="none",
    ),
    Op(
        "as_tensor",
        function=(
            "(data: Any, *, dtype: dtype | None = None, device: Device | None = None) -> Tensor"
        ),
        conj="structural",
        grad="none",
    ),
    Op(
        "from_numpy",
        function="(ndarray: Any) -> Tensor",
        grad="none",
        doc="A tensor sharing memory with a NumPy array (no copy).",
    ),
    Op(
        "numpy",
        method="(*, force: bool = False) -> Any",
        conj="pass",
        grad="none",
    ),
]
