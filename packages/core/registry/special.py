"""The special family (fields: registry/_schema.py)."""

from registry._schema import Op, binary, unary

OPS = [
    Op(
        "_special_bessel_j0",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        grad="none",
        kernel=unary("SpecialBesselJ0", "float", ints_to_float=True),
        doc="The Bessel function of the first kind of order 0 (ember.special.bessel_j0).",
        example=(">>> ember.special.bessel_j0(ember.tensor([0.0])).tolist()\n[1.0]"),
    ),
    Op(
        "_special_bessel_j1",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        grad="none",
        kernel=unary("SpecialBesselJ1", "float", ints_to_float=True),
        doc="The Bessel function of the first kind of order 1 (ember.special.bessel_j1).",
        example=(">>> ember.special.bessel_j1(ember.tensor([0.0])).tolist()\n[0.0]"),
    ),
    Op(
        "_special_erfcx",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        grad="rule",
        kernel=unary("SpecialErfcx", "float", ints_to_float=True),
        doc="The scaled complementary error function exp(x**2) * erfc(x) (special.erfcx).",
        example=(">>> ember.special.erfcx(ember.tensor([0.0])).tolist()\n[1.0]"),
    ),
    Op(
        "_special_i0e",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        grad="rule",
        kernel=unary("SpecialI0e", "float", ints_to_float=True),
        doc="The exponentially scaled modified Bessel function exp(-|x|) * i0(x) (special.i0e).",
        example=(">>> ember.special.i0e(ember.tensor([0.0])).tolist()\n[1.0]"),
    ),
    Op(
        "_special_i1",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        grad="rule",
        kernel=unary("SpecialI1", "float", ints_to_float=True),
        doc="The modified Bessel function of the first kind of order 1 (special.i1).",
        example=(">>> ember.special.i1(ember.tensor([0.0])).tolist()\n[0.0]"),
    ),
    Op(
        "_special_i1e",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        grad="rule",
        kernel=unary("SpecialI1e", "float", ints_to_float=True),
        doc="The exponentially scaled modified Bessel function exp(-|x|) * i1(x) (special.i1e).",
        example=(">>> ember.special.i1e(ember.tensor([0.0])).tolist()\n[0.0]"),
    ),
    Op(
        "_special_ndtri",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        grad="rule",
        kernel=unary("SpecialNdtri", "float", ints_to_float=True),
        doc="The inverse of the standard normal CDF: x with Phi(x) = p (special.ndtri).",
        example=(">>> ember.special.ndtri(ember.tensor([0.5])).tolist()\n[0.0]"),
    ),
    Op(
        "_special_zeta",
        function=(
            "(input: Tensor | Number, other: Tensor | Number, *, "
            "out: Tensor | None = None) -> Tensor"
        ),
        grad="rule",
        kernel=binary("SpecialZeta", "float", ints_to_float=True),
        doc="The Hurwitz zeta function sum over k >= 0 of (k + other)**-input (special.zeta).",
        example=(
            ">>> x = ember.tensor([2.0], dtype=ember.float64)\n"
            ">>> ember.special.zeta(x, 1.0).tolist()\n"
            "[1.6449340668482264]"
        ),
    ),
    Op(
        "i0",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="real, unsigned",
        grad="rule",
        kernel=unary("I0", "float", ints_to_float=True),
        doc="The modified Bessel function of the first kind of order 0 of each element.",
        example=(">>> ember.i0(ember.tensor([0.0])).tolist()\n[1.0]"),
    ),
]
