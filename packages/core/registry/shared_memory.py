"""The shared_memory family (fields: registry/_schema.py)."""

from registry._schema import Op

OPS = [
    Op(
        "is_shared",
        method="() -> bool",
        grad="none",
        doc="Whether the tensor's storage is in shared memory.",
        example=(">>> ember.zeros(3).is_shared()\nFalse"),
    ),
    Op(
        "share_memory_",
        method="() -> Any",
        grad="none",
        doc="Moves the tensor's storage to shared memory, in place.",
        example=(">>> t = ember.zeros(3).share_memory_()\n>>> t.is_shared()\nTrue"),
    ),
]
