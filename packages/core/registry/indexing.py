"""The indexing family (fields: registry/_schema.py)."""

from registry._schema import Op

OPS = [
    Op(
        "__getitem__",
        method="(index: Any) -> Tensor",
        conj="structural",
        grad="rule",
    ),
    Op(
        "__iter__",
        method="() -> Any",
        grad="none",
    ),
    Op(
        "__setitem__",
        method="(index: Any, value: Tensor | Number | complex) -> None",
        grad="rule",
    ),
    Op(
        "tensor",
        function=(
            "(data: Any, *, dtype: dtype | None = None, device: Device | None = None, "
            "requires_grad: bool = False, pin_memory: bool = False) -> Tensor"
        ),
        grad="factory",
    ),
]
