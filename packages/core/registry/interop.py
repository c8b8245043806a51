"""The interop family (fields: registry/_schema.py)."""

from registry._schema import Op

OPS = [
    Op(
        "__dlpack__",
        method=(
            "(*, stream: Any = None, max_version: Any = None, dl_device: Any = None, "
            "copy: Any = None) -> Any"
        ),
        conj="pass",
        grad="none",
        doc="A DLPack capsule sharing the tensor's memory (a copy when copy=True).",
    ),
    Op(
        "__dlpack_device__",
        method="() -> Any",
        conj="pass",
        grad="none",
        doc="(device type, device id) in DLPack's numbering: (1, 0) is the CPU.",
    ),
    Op(
        "from_dlpack",
        function="(ext_tensor: Any, *, device: Device | None = None, copy: Any = None) -> Any",
        conj="pass",
        grad="none",
        doc=(
            "A tensor sharing memory with any object that implements __dlpack__ (or a DLPack "
            "capsule): numpy arrays, torch tensors, ... No copy is made unless copy=True."
        ),
        example=(
            ">>> ember.from_dlpack(numpy.arange(3.0))\ntensor([0., 1., 2.], dtype=ember.float64)"
        ),
    ),
    Op(
        "frombuffer",
        function=(
            "(buffer: Any, *, dtype: dtype, count: int = -1, offset: int = 0, "
            "requires_grad: bool = False) -> Tensor"
        ),
        grad="none",
        doc=(
            "A 1-d tensor over the bytes of a buffer-protocol object (bytearray, mmap, ...), "
            "sharing its memory: `count` elements of `dtype` from byte `offset` (-1: to the end). "
            "Read-only buffers give read-only tensors."
        ),
        example=(
            ">>> ember.frombuffer(bytearray(8), dtype=ember.int32)\n"
            "tensor([0, 0], dtype=ember.int32)"
        ),
    ),
]
