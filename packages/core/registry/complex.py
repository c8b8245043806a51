"""The complex family (fields: registry/_schema.py)."""

from registry._schema import Op

OPS = [
    Op(
        "__complex__",
        method="() -> complex",
        grad="none",
    ),
    Op(
        "angle",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        grad="rule",
        doc="The argument of each element, in radians (0 or pi for real input).",
    ),
    Op(
        "complex",
        function="(real: Tensor, imag: Tensor, *, out: Tensor | None = None) -> Tensor",
        grad="rule",
        doc="A complex tensor from float real and imaginary parts (broadcast together).",
    ),
    Op(
        "conj",
        function="(input: Tensor) -> Tensor",
        method="() -> Tensor",
        conj="pass",
        grad="rule",
        doc="The complex conjugate as a lazy view: shares storage, sets the conj bit (is_conj()).",
    ),
    Op(
        "conj_physical",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        grad="rule",
        doc="The complex conjugate, always materialized.",
    ),
    Op(
        "imag",
        function="(input: Tensor) -> Tensor",
        conj="pass",
        grad="rule",
        doc="The imaginary part of a complex tensor, as a view.",
    ),
    Op(
        "is_complex",
        function="(input: Tensor) -> bool",
        method="() -> bool",
        conj="pass",
        grad="none",
    ),
    Op(
        "is_conj",
        function="(input: Tensor) -> bool",
        method="() -> bool",
        conj="pass",
        grad="none",
        doc="Whether input is a lazy conjugate view (its conj bit is set).",
    ),
    Op(
        "real",
        function="(input: Tensor) -> Tensor",
        conj="pass",
        grad="rule",
        doc="The real part of a complex tensor, as a view (a real tensor is returned as is).",
    ),
    Op(
        "resolve_conj",
        function="(input: Tensor) -> Tensor",
        method="() -> Tensor",
        conj="pass",
        grad="rule",
        doc=(
            "input itself when its conj bit is clear, else a new tensor with the conjugated values."
        ),
    ),
    Op(
        "view_as_complex",
        function="(input: Tensor) -> Tensor",
        conj="pass",
        grad="rule",
        doc="A complex view of a float tensor whose last dim has size 2.",
    ),
    Op(
        "view_as_real",
        function="(input: Tensor) -> Tensor",
        conj="pass",
        grad="rule",
        doc="A real view of a complex tensor with a trailing dim of size 2 (real, imag).",
    ),
]
