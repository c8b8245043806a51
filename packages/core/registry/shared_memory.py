"""The shared_memory family: moving storage to memory other processes can map
(fields: registry/_schema.py)."""

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
        method="() -> Tensor",
        grad="none",
        doc="Moves the tensor's storage to shared memory, in place.",
        details=(
            "The values are kept and every view of the storage sees the move. A no-op when the "
            "storage is\n"
            "already shared. Tensors sent to other processes through ember.multiprocessing are "
            "moved this way\n"
            "and rebuilt there as views of the same memory.\n"
            "\n"
            "Returns:\n"
            "    Tensor: self."
        ),
        example=(">>> t = ember.zeros(3).share_memory_()\n>>> t.is_shared()\nTrue"),
    ),
]
