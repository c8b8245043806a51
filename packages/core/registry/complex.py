"""The complex family (fields: registry/_schema.py)."""

from registry._schema import Op

OPS = [
    Op(
        "__complex__",
        method="() -> complex",
        grad="none",
        doc="The value of a one-element tensor as a Python complex.",
        example=(">>> complex(ember.tensor([1 + 2j]))\n(1+2j)"),
    ),
    Op(
        "angle",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        dtypes="all, unsigned",
        grad="rule",
        doc="The argument of each element, in radians (0 or pi for real input).",
        example=(
            ">>> ember.angle(ember.tensor([-1.0, 2.0], dtype=ember.float64)).tolist()\n"
            "[3.141592653589793, 0.0]\n"
            ">>> ember.angle(ember.tensor([1j], dtype=ember.complex128)).tolist()\n"
            "[1.5707963267948966]"
        ),
    ),
    Op(
        "complex",
        function="(real: Tensor, imag: Tensor, *, out: Tensor | None = None) -> Tensor",
        dtypes="float32, float64",
        grad="rule",
        doc="A complex tensor from float real and imaginary parts (broadcast together).",
        example=(">>> ember.complex(ember.tensor([1.0]), ember.tensor([2.0])).tolist()\n[(1+2j)]"),
    ),
    Op(
        "conj",
        function="(input: Tensor) -> Tensor",
        method="() -> Tensor",
        conj="pass",
        dtypes="all, unsigned",
        grad="rule",
        doc="The complex conjugate as a lazy view: shares storage, sets the conj bit (is_conj()).",
        example=(
            ">>> y = ember.tensor([1 + 2j]).conj()\n>>> y.is_conj()\nTrue\n>>> y.tolist()\n[(1-2j)]"
        ),
    ),
    Op(
        "conj_physical",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all, unsigned",
        grad="rule",
        doc="The complex conjugate, always materialized.",
        example=(
            ">>> y = ember.conj_physical(ember.tensor([1 + 2j]))\n"
            ">>> y.is_conj()\n"
            "False\n"
            ">>> y.tolist()\n"
            "[(1-2j)]"
        ),
    ),
    Op(
        "imag",
        function="(input: Tensor) -> Tensor",
        conj="pass",
        dtypes="complex64, complex128",
        grad="rule",
        doc="The imaginary part of a complex tensor, as a view.",
        example=(">>> ember.imag(ember.tensor([1 + 2j])).tolist()\n[2.0]"),
    ),
    Op(
        "is_complex",
        function="(input: Tensor) -> bool",
        method="() -> bool",
        conj="pass",
        grad="none",
        doc="Whether input has a complex dtype (complex64 or complex128).",
        example=(
            ">>> ember.is_complex(ember.tensor([1j]))\n"
            "True\n"
            ">>> ember.is_complex(ember.tensor([1.0]))\n"
            "False"
        ),
    ),
    Op(
        "is_conj",
        function="(input: Tensor) -> bool",
        method="() -> bool",
        conj="pass",
        grad="none",
        doc="Whether input is a lazy conjugate view (its conj bit is set).",
        example=(
            ">>> x = ember.tensor([1 + 2j])\n>>> x.is_conj()\nFalse\n>>> x.conj().is_conj()\nTrue"
        ),
    ),
    Op(
        "real",
        function="(input: Tensor) -> Tensor",
        conj="pass",
        dtypes="all, unsigned",
        grad="rule",
        doc="The real part of a complex tensor, as a view (a real tensor is returned as is).",
        example=(">>> ember.real(ember.tensor([1 + 2j])).tolist()\n[1.0]"),
    ),
    Op(
        "resolve_conj",
        function="(input: Tensor) -> Tensor",
        method="() -> Tensor",
        conj="pass",
        dtypes="all, unsigned",
        grad="rule",
        doc=(
            "input itself when its conj bit is clear, else a new tensor with the conjugated values."
        ),
        example=(
            ">>> y = ember.tensor([1 + 2j]).conj().resolve_conj()\n"
            ">>> y.is_conj()\n"
            "False\n"
            ">>> y.tolist()\n"
            "[(1-2j)]"
        ),
    ),
    Op(
        "view_as_complex",
        function="(input: Tensor) -> Tensor",
        conj="pass",
        grad="rule",
        doc="A complex view of a float tensor whose last dim has size 2.",
        example=(
            ">>> ember.view_as_complex(ember.tensor([[1.0, 2.0], [3.0, 0.0]])).tolist()\n"
            "[(1+2j), (3+0j)]"
        ),
    ),
    Op(
        "view_as_real",
        function="(input: Tensor) -> Tensor",
        conj="pass",
        dtypes="complex64, complex128",
        grad="rule",
        doc="A real view of a complex tensor with a trailing dim of size 2 (real, imag).",
        example=(">>> ember.view_as_real(ember.tensor([1 + 2j])).tolist()\n[[1.0, 2.0]]"),
    ),
]
