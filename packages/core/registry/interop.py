"""The interop family: zero-copy exchange with other libraries through DLPack and the buffer
protocol (fields: registry/_schema.py)."""

from registry._schema import Op

OPS = [
    Op(
        "__dlpack__",
        method=(
            "(*, stream: Any = None, max_version: tuple[int, int] | None = None, "
            "dl_device: tuple[int, int] | None = None, copy: bool | None = None) -> Any"
        ),
        conj="pass",
        grad="none",
        doc="A DLPack capsule sharing the tensor's memory (a copy when copy=True).",
        example=(">>> type(ember.zeros(2).__dlpack__()).__name__\n'PyCapsule'"),
    ),
    Op(
        "__dlpack_device__",
        method="() -> tuple[int, int]",
        conj="pass",
        grad="none",
        doc="(device type, device id) in DLPack's numbering: (1, 0) is the CPU.",
        example=(">>> ember.zeros(2).__dlpack_device__()\n(1, 0)"),
    ),
    Op(
        "from_dlpack",
        function=(
            "(ext_tensor: Any, *, device: Device | None = None, copy: bool | None = None) -> Tensor"
        ),
        conj="pass",
        grad="none",
        dtypes="all, unsigned",
        doc="A tensor sharing memory with an object that has __dlpack__ (or a DLPack capsule).",
        details=(
            "NumPy arrays, torch tensors and other DLPack producers qualify; no copy is made\n"
            "unless copy=True (copy=False refuses when a copy would be needed)."
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
        doc="A 1-d tensor sharing the memory of a buffer-protocol object (bytearray, mmap, ...).",
        details=(
            "Args:\n"
            "    buffer: the object; a read-only buffer gives a read-only tensor.\n"
            "    dtype (dtype): how the bytes are read.\n"
            "    count (int): how many elements (-1: as many as fit after offset).\n"
            "    offset (int): where to start, in bytes.\n"
            "    requires_grad (bool): as in torch."
        ),
        example=(
            ">>> ember.frombuffer(bytearray(8), dtype=ember.int32)\n"
            "tensor([0, 0], dtype=ember.int32)"
        ),
    ),
]
