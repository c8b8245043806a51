"""The elementwise family (fields: registry/_schema.py)."""

from registry._schema import Op, binary, compare, predicate, unary

OPS = [
    Op(
        "__len__",
        method="() -> int",
        conj="pass",
        grad="none",
        doc="The size of the first dim; a 0-d tensor has no len() and raises TypeError.",
        example=(">>> len(ember.zeros(4, 2))\n4"),
    ),
    Op(
        "abs",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        operators=("__abs__",),
        dtypes="numeric+complex, unsigned",
        grad="rule",
        kernel=unary("Abs", "numeric"),
        doc="The absolute value of each element (the modulus for complex input).",
        example=(">>> ember.abs(ember.tensor([-2, 0, 3])).tolist()\n[2, 0, 3]"),
    ),
    Op(
        "absolute",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="numeric+complex, unsigned",
        grad="rule",
        kernel=unary("Abs", "numeric"),
        doc="Alias of abs: the absolute value of each element.",
        example=(">>> ember.absolute(ember.tensor([-1.5, 2.0])).tolist()\n[1.5, 2.0]"),
    ),
    Op(
        "acos",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all, unsigned",
        grad="rule",
        kernel=unary("Acos", "float", ints_to_float=True),
        doc=(
            "The inverse cosine of each element, in radians; integers promote to the default float."
        ),
        example=(">>> ember.acos(ember.tensor([1.0, -1.0])).tolist()\n[0.0, 3.1415927410125732]"),
    ),
    Op(
        "acosh",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all, unsigned",
        grad="rule",
        kernel=unary("Acosh", "float", ints_to_float=True),
        doc="The inverse hyperbolic cosine of each element (NaN below 1).",
        example=(">>> ember.acosh(ember.tensor([1.0])).tolist()\n[0.0]"),
    ),
    Op(
        "add",
        function=(
            "(input: Tensor | Number, other: Tensor | Number, *, alpha: Number | None = 1, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(other: Tensor | Number, *, alpha: Number | None = 1) -> Tensor",
        inplace="(other: Tensor | Number, *, alpha: Number | None = 1) -> Tensor",
        operators=("__add__", "__iadd__", "__radd__"),
        dtypes="all, unsigned",
        grad="rule",
        kernel=(
            binary("Add", "all", bind=False),
            binary("AddScaled", "numeric", bind=False, name="add"),
        ),
        doc="input + alpha * other, broadcast, with type promotion.",
        example=(
            ">>> ember.add(ember.tensor([1, 2]), ember.tensor([10, 20]), alpha=2).tolist()\n"
            "[21, 42]"
        ),
    ),
    Op(
        "allclose",
        function=(
            "(input: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08, "
            "equal_nan: bool = False) -> bool"
        ),
        method=(
            "(other: Tensor, rtol: float = 1e-05, atol: float = 1e-08, "
            "equal_nan: bool = False) -> bool"
        ),
        grad="none",
        doc="Whether |input - other| <= atol + rtol * |other| holds for every element.",
        example=(
            ">>> ember.allclose(ember.tensor([1.0, 2.0]), ember.tensor([1.0, 2.0 + 1e-9]))\nTrue"
        ),
    ),
    Op(
        "arccos",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all, unsigned",
        grad="rule",
        kernel=unary("Acos", "float", ints_to_float=True),
        doc="Alias of acos: the inverse cosine of each element.",
        example=(">>> ember.arccos(ember.tensor([1.0])).tolist()\n[0.0]"),
    ),
    Op(
        "arccosh",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all, unsigned",
        grad="rule",
        kernel=unary("Acosh", "float", ints_to_float=True),
        doc="Alias of acosh: the inverse hyperbolic cosine of each element.",
        example=(">>> ember.arccosh(ember.tensor([1.0])).tolist()\n[0.0]"),
    ),
    Op(
        "arcsin",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all, unsigned",
        grad="rule",
        kernel=unary("Asin", "float", ints_to_float=True),
        doc="Alias of asin: the inverse sine of each element.",
        example=(">>> ember.arcsin(ember.tensor([0.0])).tolist()\n[0.0]"),
    ),
    Op(
        "arcsinh",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all, unsigned",
        grad="rule",
        kernel=unary("Asinh", "float", ints_to_float=True),
        doc="Alias of asinh: the inverse hyperbolic sine of each element.",
        example=(">>> ember.arcsinh(ember.tensor([0.0])).tolist()\n[0.0]"),
    ),
    Op(
        "arctan",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all, unsigned",
        grad="rule",
        kernel=unary("Atan", "float", ints_to_float=True),
        doc="Alias of atan: the inverse tangent of each element.",
        example=(">>> ember.arctan(ember.tensor([0.0])).tolist()\n[0.0]"),
    ),
    Op(
        "arctan2",
        function="(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Tensor) -> Tensor",
        inplace="(other: Tensor) -> Tensor",
        dtypes="real, unsigned",
        grad="rule",
        kernel=binary("Atan2", "float", ints_to_float=True),
        doc="Alias of atan2: the angle of the point (other, input), in (-pi, pi].",
        example=(">>> ember.arctan2(ember.tensor([0.0]), ember.tensor([1.0])).tolist()\n[0.0]"),
    ),
    Op(
        "arctanh",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all, unsigned",
        grad="rule",
        kernel=unary("Atanh", "float", ints_to_float=True),
        doc="Alias of atanh: the inverse hyperbolic tangent of each element.",
        example=(">>> ember.arctanh(ember.tensor([0.0])).tolist()\n[0.0]"),
    ),
    Op(
        "asin",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all, unsigned",
        grad="rule",
        kernel=unary("Asin", "float", ints_to_float=True),
        doc="The inverse sine of each element, in radians (NaN outside [-1, 1]).",
        example=(">>> ember.asin(ember.tensor([0.0])).tolist()\n[0.0]"),
    ),
    Op(
        "asinh",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all, unsigned",
        grad="rule",
        kernel=unary("Asinh", "float", ints_to_float=True),
        doc="The inverse hyperbolic sine of each element.",
        example=(">>> ember.asinh(ember.tensor([0.0])).tolist()\n[0.0]"),
    ),
    Op(
        "atan",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all, unsigned",
        grad="rule",
        kernel=unary("Atan", "float", ints_to_float=True),
        doc="The inverse tangent of each element, in radians.",
        example=(">>> ember.atan(ember.tensor([0.0])).tolist()\n[0.0]"),
    ),
    Op(
        "atan2",
        function="(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Tensor) -> Tensor",
        inplace="(other: Tensor) -> Tensor",
        dtypes="real, unsigned",
        grad="rule",
        kernel=binary("Atan2", "float", ints_to_float=True),
        doc="The angle of the point (x=other, y=input) in radians, in (-pi, pi], broadcast.",
        example=(
            ">>> y = ember.tensor([0.0, 1.0], dtype=ember.float64)\n"
            ">>> x = ember.tensor([-1.0, 0.0], dtype=ember.float64)\n"
            ">>> ember.atan2(y, x).tolist()\n"
            "[3.141592653589793, 1.5707963267948966]"
        ),
    ),
    Op(
        "atanh",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all, unsigned",
        grad="rule",
        kernel=unary("Atanh", "float", ints_to_float=True),
        doc="The inverse hyperbolic tangent of each element (inf at +-1, NaN beyond).",
        example=(">>> ember.atanh(ember.tensor([0.0])).tolist()\n[0.0]"),
    ),
    Op(
        "bitwise_and",
        function="(input: Tensor, other: Number | Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Number | Tensor) -> Tensor",
        inplace="(other: Number | Tensor) -> Tensor",
        operators=("__and__", "__iand__", "__rand__"),
        dtypes="integral+bool, unsigned",
        grad="none",
        kernel=binary("BitwiseAnd", "integral+bool"),
        doc="The bitwise AND of integer or bool tensors (logical AND for bool), broadcast.",
        example=(
            ">>> ember.bitwise_and(ember.tensor([12, 10]), ember.tensor([10, 6])).tolist()\n[8, 2]"
        ),
    ),
    Op(
        "bitwise_left_shift",
        function="(input: Tensor, other: Number | Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Number | Tensor) -> Tensor",
        inplace="(other: Number | Tensor) -> Tensor",
        operators=("__ilshift__", "__lshift__", "__rlshift__"),
        dtypes="integral, unsigned",
        grad="none",
        kernel=binary("LeftShift", "integral", name="bitwise_left_shift"),
        doc="input shifted left by other bits (input * 2**other for integers), broadcast.",
        example=(">>> ember.bitwise_left_shift(ember.tensor([1, 3]), 2).tolist()\n[4, 12]"),
    ),
    Op(
        "bitwise_not",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        operators=("__invert__",),
        dtypes="integral+bool, unsigned",
        grad="none",
        kernel=unary("BitwiseNot", "integral+bool"),
        doc="The bitwise NOT of an integer tensor (logical NOT for bool).",
        example=(">>> ember.bitwise_not(ember.tensor([0, 5])).tolist()\n[-1, -6]"),
    ),
    Op(
        "bitwise_or",
        function="(input: Tensor, other: Number | Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Number | Tensor) -> Tensor",
        inplace="(other: Number | Tensor) -> Tensor",
        operators=("__ior__", "__or__", "__ror__"),
        dtypes="integral+bool, unsigned",
        grad="none",
        kernel=binary("BitwiseOr", "integral+bool"),
        doc="The bitwise OR of integer or bool tensors (logical OR for bool), broadcast.",
        example=(
            ">>> ember.bitwise_or(ember.tensor([12, 10]), ember.tensor([10, 6])).tolist()\n[14, 14]"
        ),
    ),
    Op(
        "bitwise_right_shift",
        function="(input: Tensor, other: Number | Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Number | Tensor) -> Tensor",
        inplace="(other: Number | Tensor) -> Tensor",
        operators=("__irshift__", "__rrshift__", "__rshift__"),
        dtypes="integral, unsigned",
        grad="none",
        kernel=binary("RightShift", "integral", name="bitwise_right_shift"),
        doc="input shifted right by other bits (arithmetic shift for signed integers).",
        example=(">>> ember.bitwise_right_shift(ember.tensor([8, -8]), 2).tolist()\n[2, -2]"),
    ),
    Op(
        "bitwise_xor",
        function="(input: Tensor, other: Number | Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Number | Tensor) -> Tensor",
        inplace="(other: Number | Tensor) -> Tensor",
        operators=("__ixor__", "__rxor__", "__xor__"),
        dtypes="integral+bool, unsigned",
        grad="none",
        kernel=binary("BitwiseXor", "integral+bool"),
        doc="The bitwise XOR of integer or bool tensors, broadcast.",
        example=(
            ">>> ember.bitwise_xor(ember.tensor([12, 10]), ember.tensor([10, 6])).tolist()\n[6, 12]"
        ),
    ),
    Op(
        "ceil",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="numeric, unsigned",
        grad="rule",
        kernel=unary("Ceil", "numeric"),
        doc="The smallest integer value >= each element (integers are returned unchanged).",
        example=(">>> ember.ceil(ember.tensor([-1.5, 0.2, 2.0])).tolist()\n[-1.0, 1.0, 2.0]"),
    ),
    Op(
        "clamp",
        function=(
            "(input: Tensor, min: Number | Tensor | None = None, "
            "max: Number | Tensor | None = None, *, out: Tensor | None = None) -> Tensor"
        ),
        method="(min: Number | Tensor | None = None, max: Number | Tensor | None = None) -> Tensor",
        inplace=(
            "(min: Number | Tensor | None = None, max: Number | Tensor | None = None) -> Tensor"
        ),
        grad="rule",
        kernel=(
            unary("ClampBoth", "numeric", bind=False, name="clamp"),
            unary("ClampMin", "numeric", bind=False, name="clamp"),
            unary("ClampMax", "numeric", bind=False, name="clamp"),
        ),
        doc="Each element limited to [min, max]; either bound may be None, not both.",
        example=(
            ">>> ember.clamp(ember.tensor([-2.0, 0.5, 3.0]), min=0.0, max=1.0).tolist()\n"
            "[0.0, 0.5, 1.0]"
        ),
    ),
    Op(
        "clamp_max",
        function="(input: Tensor, max: Number | Tensor) -> Tensor",
        dtypes="real, unsigned",
        grad="rule",
        doc="Each element limited from above: min(input, max).",
        example=(">>> ember.clamp_max(ember.tensor([1, 5, 9]), 4).tolist()\n[1, 4, 4]"),
    ),
    Op(
        "clamp_min",
        function="(input: Tensor, min: Number | Tensor) -> Tensor",
        dtypes="real, unsigned",
        grad="rule",
        doc="Each element limited from below: max(input, min).",
        example=(">>> ember.clamp_min(ember.tensor([1, 5, 9]), 4).tolist()\n[4, 5, 9]"),
    ),
    Op(
        "clip",
        function=(
            "(input: Tensor, min: Number | Tensor | None = None, "
            "max: Number | Tensor | None = None, *, out: Tensor | None = None) -> Tensor"
        ),
        method="(min: Number | Tensor | None = None, max: Number | Tensor | None = None) -> Tensor",
        inplace=(
            "(min: Number | Tensor | None = None, max: Number | Tensor | None = None) -> Tensor"
        ),
        grad="rule",
        doc="Alias of clamp: each element limited to [min, max].",
        example=(">>> ember.clip(ember.tensor([-2, 0, 3]), -1, 1).tolist()\n[-1, 0, 1]"),
    ),
    Op(
        "copysign",
        function="(input: Tensor, other: Number | Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Number | Tensor) -> Tensor",
        inplace="(other: Number | Tensor) -> Tensor",
        dtypes="real, unsigned",
        grad="rule",
        kernel=binary("Copysign", "float", ints_to_float=True),
        doc="The magnitude of input with the sign of other (the sign bit, so -0.0 counts).",
        example=(
            ">>> ember.copysign(ember.tensor([1.0, 2.0]), ember.tensor([-1.0, 0.0])).tolist()\n"
            "[-1.0, 2.0]"
        ),
    ),
    Op(
        "cos",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all, unsigned",
        grad="rule",
        kernel=unary("Cos", "float", ints_to_float=True),
        doc="The cosine of each element (radians).",
        example=(">>> ember.cos(ember.tensor([0.0])).tolist()\n[1.0]"),
    ),
    Op(
        "cosh",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all, unsigned",
        grad="rule",
        kernel=unary("Cosh", "float", ints_to_float=True),
        doc="The hyperbolic cosine of each element.",
        example=(">>> ember.cosh(ember.tensor([0.0])).tolist()\n[1.0]"),
    ),
    Op(
        "detach",
        method="() -> Tensor",
        conj="pass",
        grad="none",
        doc="A new tensor sharing storage, cut from the autograd graph.",
        example=(">>> x = ember.ones(2, requires_grad=True)\n>>> x.detach().requires_grad\nFalse"),
    ),
    Op(
        "digamma",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="real, unsigned",
        grad="rule",
        kernel=unary("Digamma", "float", ints_to_float=True),
        doc="The digamma function (derivative of lgamma) of each element.",
        example=(">>> round(ember.digamma(ember.tensor([1.0])).item(), 4)\n-0.5772"),
    ),
    Op(
        "div",
        function=(
            "(input: Tensor | Number, other: Tensor | Number, *, rounding_mode: str | None = None, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(other: Tensor | Number, *, rounding_mode: str | None = None) -> Tensor",
        inplace="(other: Tensor | Number, *, rounding_mode: str | None = None) -> Tensor",
        operators=("__itruediv__", "__rtruediv__", "__truediv__"),
        dtypes="all, unsigned",
        grad="rule",
        kernel=(
            binary("Div", "float", ints_to_float=True, bind=False),
            binary("DivTrunc", "numeric", bind=False, name="div"),
        ),
        doc="input / other, broadcast; true division unless rounding_mode is 'trunc' or 'floor'.",
        example=(
            ">>> ember.div(ember.tensor([7, -7]), 2).tolist()\n"
            "[3.5, -3.5]\n"
            ">>> ember.div(ember.tensor([7, -7]), 2, rounding_mode='floor').tolist()\n"
            "[3, -4]"
        ),
    ),
    Op(
        "divide",
        function=(
            "(input: Tensor | Number, other: Number | Tensor, *, rounding_mode: str | None = None, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(other: Number | Tensor, *, rounding_mode: str | None = None) -> Tensor",
        inplace="(other: Number | Tensor, *, rounding_mode: str | None = None) -> Tensor",
        dtypes="all, unsigned",
        grad="rule",
        doc="Alias of div: input / other, with an optional rounding_mode.",
        example=(
            ">>> ember.divide(ember.tensor([7, -7]), 2, rounding_mode='trunc').tolist()\n[3, -3]"
        ),
    ),
    Op(
        "eq",
        function="(input: Tensor, other: Number | Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Number | Tensor) -> Tensor",
        inplace="(other: Number | Tensor) -> Tensor",
        operators=("__eq__",),
        dtypes="all, unsigned",
        grad="none",
        kernel=compare("Eq"),
        doc="Elementwise input == other, broadcast, as a bool tensor.",
        example=(">>> ember.eq(ember.tensor([1, 2, 3]), 2).tolist()\n[False, True, False]"),
    ),
    Op(
        "equal",
        function="(input: Tensor, other: Tensor) -> bool",
        method="(other: Tensor) -> bool",
        grad="none",
        doc="True when both tensors have the same shape and the same elements.",
        example=(">>> ember.equal(ember.tensor([1, 2]), ember.tensor([1, 2]))\nTrue"),
    ),
    Op(
        "erf",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="real, unsigned",
        grad="rule",
        kernel=unary("Erf", "float", ints_to_float=True),
        doc="The Gauss error function of each element.",
        example=(">>> ember.erf(ember.tensor([0.0])).tolist()\n[0.0]"),
    ),
    Op(
        "erfc",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="real, unsigned",
        grad="rule",
        kernel=unary("Erfc", "float", ints_to_float=True),
        doc="The complementary error function 1 - erf(x) of each element.",
        example=(">>> ember.erfc(ember.tensor([0.0])).tolist()\n[1.0]"),
    ),
    Op(
        "erfinv",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="real, unsigned",
        grad="rule",
        kernel=unary("Erfinv", "float", ints_to_float=True),
        doc="The inverse error function of each element (inf at +-1, NaN beyond).",
        example=(">>> ember.erfinv(ember.tensor([0.0, 1.0])).tolist()\n[0.0, inf]"),
    ),
    Op(
        "exp",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all, unsigned",
        grad="rule",
        kernel=unary("Exp", "float", ints_to_float=True),
        doc="e raised to each element.",
        example=(">>> ember.exp(ember.tensor([0.0])).tolist()\n[1.0]"),
    ),
    Op(
        "exp2",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all, unsigned",
        grad="rule",
        kernel=unary("Exp2", "float", ints_to_float=True),
        doc="2 raised to each element.",
        example=(">>> ember.exp2(ember.tensor([3.0, -1.0])).tolist()\n[8.0, 0.5]"),
    ),
    Op(
        "expm1",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all, unsigned",
        grad="rule",
        kernel=unary("Expm1", "float", ints_to_float=True),
        doc="exp(x) - 1 of each element, accurate for small x.",
        example=(">>> ember.expm1(ember.tensor([0.0])).tolist()\n[0.0]"),
    ),
    Op(
        "fix",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="numeric, unsigned",
        grad="rule",
        kernel=unary("Trunc", "numeric"),
        doc="Alias of trunc: each element rounded toward zero.",
        example=(">>> ember.fix(ember.tensor([-1.7, 1.7])).tolist()\n[-1.0, 1.0]"),
    ),
    Op(
        "floor",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="numeric, unsigned",
        grad="rule",
        kernel=unary("Floor", "numeric"),
        doc="The largest integer value <= each element (integers are returned unchanged).",
        example=(">>> ember.floor(ember.tensor([-1.5, 0.2, 2.0])).tolist()\n[-2.0, 0.0, 2.0]"),
    ),
    Op(
        "floor_divide",
        function=(
            "(input: Tensor | Number, other: Tensor | Number, *, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(other: Tensor | Number) -> Tensor",
        inplace="(other: Tensor | Number) -> Tensor",
        operators=("__floordiv__", "__ifloordiv__", "__rfloordiv__"),
        dtypes="numeric, unsigned",
        grad="none",
        kernel=binary("DivFloor", "numeric", name="floor_divide"),
        doc="input / other rounded down (floor), broadcast; like Python's //.",
        example=(">>> ember.floor_divide(ember.tensor([7, -7]), 2).tolist()\n[3, -4]"),
    ),
    Op(
        "fmax",
        function="(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Tensor) -> Tensor",
        inplace="(other: Tensor) -> Tensor",
        dtypes="real, unsigned",
        grad="rule",
        kernel=binary("Fmax", "numeric"),
        doc="The elementwise maximum, ignoring NaN: a NaN loses to a number.",
        example=(
            ">>> nan = float('nan')\n"
            ">>> ember.fmax(ember.tensor([1.0, nan]), ember.tensor([2.0, 0.0])).tolist()\n"
            "[2.0, 0.0]"
        ),
    ),
    Op(
        "fmin",
        function="(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Tensor) -> Tensor",
        inplace="(other: Tensor) -> Tensor",
        dtypes="real, unsigned",
        grad="rule",
        kernel=binary("Fmin", "numeric"),
        doc="The elementwise minimum, ignoring NaN: a NaN loses to a number.",
        example=(
            ">>> nan = float('nan')\n"
            ">>> ember.fmin(ember.tensor([1.0, nan]), ember.tensor([2.0, 0.0])).tolist()\n"
            "[1.0, 0.0]"
        ),
    ),
    Op(
        "fmod",
        function="(input: Tensor, other: Number | Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Number | Tensor) -> Tensor",
        inplace="(other: Number | Tensor) -> Tensor",
        dtypes="numeric, unsigned",
        grad="rule",
        kernel=binary("Fmod", "numeric"),
        doc="The remainder of input / other truncated toward zero (it has the sign of input).",
        example=(">>> ember.fmod(ember.tensor([-3, 3]), 2).tolist()\n[-1, 1]"),
    ),
    Op(
        "frac",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="float",
        grad="rule",
        kernel=unary("Frac", "float", ints_to_float=True),
        doc="The fractional part of each element: x - trunc(x), with the sign of x.",
        example=(">>> ember.frac(ember.tensor([1.5, -2.25])).tolist()\n[0.5, -0.25]"),
    ),
    Op(
        "gcd",
        function="(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Tensor) -> Tensor",
        inplace="(other: Tensor) -> Tensor",
        dtypes="integral, unsigned",
        grad="none",
        kernel=binary("Gcd", "integral"),
        doc="The elementwise greatest common divisor of integer tensors (non-negative).",
        example=(">>> ember.gcd(ember.tensor([12, -9]), ember.tensor([18, 6])).tolist()\n[6, 3]"),
    ),
    Op(
        "ge",
        function="(input: Tensor, other: Number | Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Number | Tensor) -> Tensor",
        inplace="(other: Number | Tensor) -> Tensor",
        operators=("__ge__",),
        dtypes="real, unsigned",
        grad="none",
        kernel=compare("Ge"),
        doc="Elementwise input >= other, broadcast, as a bool tensor.",
        example=(">>> ember.ge(ember.tensor([1, 2, 3]), 2).tolist()\n[False, True, True]"),
    ),
    Op(
        "greater",
        function="(input: Tensor, other: Number | Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Number | Tensor) -> Tensor",
        inplace="(other: Number | Tensor) -> Tensor",
        dtypes="real, unsigned",
        grad="none",
        kernel=compare("Gt"),
        doc="Alias of gt: elementwise input > other, as a bool tensor.",
        example=(">>> ember.greater(ember.tensor([1, 2, 3]), 2).tolist()\n[False, False, True]"),
    ),
    Op(
        "greater_equal",
        function="(input: Tensor, other: Number | Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Number | Tensor) -> Tensor",
        inplace="(other: Number | Tensor) -> Tensor",
        dtypes="real, unsigned",
        grad="none",
        kernel=compare("Ge"),
        doc="Alias of ge: elementwise input >= other, as a bool tensor.",
        example=(
            ">>> ember.greater_equal(ember.tensor([1, 2, 3]), 2).tolist()\n[False, True, True]"
        ),
    ),
    Op(
        "gt",
        function="(input: Tensor, other: Number | Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Number | Tensor) -> Tensor",
        inplace="(other: Number | Tensor) -> Tensor",
        operators=("__gt__",),
        dtypes="real, unsigned",
        grad="none",
        kernel=compare("Gt"),
        doc="Elementwise input > other, broadcast, as a bool tensor.",
        example=(">>> ember.gt(ember.tensor([1, 2, 3]), 2).tolist()\n[False, False, True]"),
    ),
    Op(
        "hypot",
        function="(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Tensor) -> Tensor",
        inplace="(other: Tensor) -> Tensor",
        dtypes="float",
        grad="rule",
        kernel=binary("Hypot", "float", ints_to_float=True),
        doc="sqrt(input**2 + other**2) of each pair, without overflow in the squares.",
        example=(">>> ember.hypot(ember.tensor([3.0]), ember.tensor([4.0])).tolist()\n[5.0]"),
    ),
    Op(
        "is_grad_enabled",
        function="() -> bool",
        grad="none",
        doc="Whether gradient recording is on in this thread (ember.no_grad turns it off).",
        example=(">>> ember.is_grad_enabled()\nTrue"),
    ),
    Op(
        "isclose",
        function=(
            "(input: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08, "
            "equal_nan: bool = False) -> Tensor"
        ),
        method=(
            "(other: Tensor, rtol: float = 1e-05, atol: float = 1e-08, "
            "equal_nan: bool = False) -> Tensor"
        ),
        dtypes="all, unsigned",
        grad="none",
        doc="Elementwise |input - other| <= atol + rtol * |other|, as a bool tensor.",
        example=(
            ">>> ember.isclose(ember.tensor([1.0, 2.0]), ember.tensor([1.0, 2.1])).tolist()\n"
            "[True, False]"
        ),
    ),
    Op(
        "isfinite",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        dtypes="all, unsigned",
        grad="none",
        kernel=predicate("IsFinite"),
        doc="Whether each element is finite (not inf, -inf or NaN), as a bool tensor.",
        example=(
            ">>> x = ember.tensor([1.0, float('inf'), float('nan')])\n"
            ">>> ember.isfinite(x).tolist()\n"
            "[True, False, False]"
        ),
    ),
    Op(
        "isinf",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        dtypes="all, unsigned",
        grad="none",
        kernel=predicate("IsInf"),
        doc="Whether each element is +inf or -inf, as a bool tensor.",
        example=(">>> ember.isinf(ember.tensor([1.0, float('-inf')])).tolist()\n[False, True]"),
    ),
    Op(
        "isnan",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        dtypes="all, unsigned",
        grad="none",
        kernel=predicate("IsNan"),
        doc="Whether each element is NaN, as a bool tensor.",
        example=(">>> ember.isnan(ember.tensor([1.0, float('nan')])).tolist()\n[False, True]"),
    ),
    Op(
        "isneginf",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        dtypes="real, unsigned",
        grad="none",
        kernel=predicate("IsNegInf"),
        doc="Whether each element is -inf, as a bool tensor (real dtypes only).",
        example=(
            ">>> ember.isneginf(ember.tensor([float('-inf'), float('inf')])).tolist()\n"
            "[True, False]"
        ),
    ),
    Op(
        "isposinf",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        dtypes="real, unsigned",
        grad="none",
        kernel=predicate("IsPosInf"),
        doc="Whether each element is +inf, as a bool tensor (real dtypes only).",
        example=(
            ">>> ember.isposinf(ember.tensor([float('-inf'), float('inf')])).tolist()\n"
            "[False, True]"
        ),
    ),
    Op(
        "lcm",
        function="(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Tensor) -> Tensor",
        inplace="(other: Tensor) -> Tensor",
        dtypes="integral, unsigned",
        grad="none",
        kernel=binary("Lcm", "integral"),
        doc="The elementwise least common multiple of integer tensors (non-negative).",
        example=(">>> ember.lcm(ember.tensor([4, 6]), ember.tensor([6, 10])).tolist()\n[12, 30]"),
    ),
    Op(
        "le",
        function="(input: Tensor, other: Number | Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Number | Tensor) -> Tensor",
        inplace="(other: Number | Tensor) -> Tensor",
        operators=("__le__",),
        dtypes="real, unsigned",
        grad="none",
        kernel=compare("Le"),
        doc="Elementwise input <= other, broadcast, as a bool tensor.",
        example=(">>> ember.le(ember.tensor([1, 2, 3]), 2).tolist()\n[True, True, False]"),
    ),
    Op(
        "lerp",
        function=(
            "(input: Tensor, end: Tensor, weight: Number | Tensor, *, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(end: Tensor, weight: Number | Tensor) -> Tensor",
        inplace="(end: Tensor, weight: Number | Tensor) -> Tensor",
        dtypes="float",
        grad="rule",
        kernel=binary("Lerp", "float", ints_to_float=True, bind=False),
        doc="Linear interpolation input + weight * (end - input), broadcast (floating dtypes).",
        example=(
            ">>> ember.lerp(ember.tensor([0.0, 10.0]), ember.tensor([10.0, 20.0]), "
            "0.5).tolist()\n"
            "[5.0, 15.0]"
        ),
    ),
    Op(
        "less",
        function="(input: Tensor, other: Number | Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Number | Tensor) -> Tensor",
        inplace="(other: Number | Tensor) -> Tensor",
        dtypes="real, unsigned",
        grad="none",
        kernel=compare("Lt"),
        doc="Alias of lt: elementwise input < other, as a bool tensor.",
        example=(">>> ember.less(ember.tensor([1, 2, 3]), 2).tolist()\n[True, False, False]"),
    ),
    Op(
        "less_equal",
        function="(input: Tensor, other: Number | Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Number | Tensor) -> Tensor",
        inplace="(other: Number | Tensor) -> Tensor",
        dtypes="real, unsigned",
        grad="none",
        kernel=compare("Le"),
        doc="Alias of le: elementwise input <= other, as a bool tensor.",
        example=(">>> ember.less_equal(ember.tensor([1, 2, 3]), 2).tolist()\n[True, True, False]"),
    ),
    Op(
        "lgamma",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="real, unsigned",
        grad="rule",
        kernel=unary("Lgamma", "float", ints_to_float=True),
        doc="The natural log of the absolute value of the gamma function of each element.",
        example=(">>> ember.lgamma(ember.tensor([1.0, 2.0])).tolist()\n[0.0, 0.0]"),
    ),
    Op(
        "log",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all, unsigned",
        grad="rule",
        kernel=unary("Log", "float", ints_to_float=True),
        doc="The natural logarithm of each element (-inf at 0, NaN below).",
        example=(">>> ember.log(ember.tensor([1.0])).tolist()\n[0.0]"),
    ),
    Op(
        "log10",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all, unsigned",
        grad="rule",
        kernel=unary("Log10", "float", ints_to_float=True),
        doc="The base-10 logarithm of each element.",
        example=(">>> ember.log10(ember.tensor([1.0, 100.0])).tolist()\n[0.0, 2.0]"),
    ),
    Op(
        "log1p",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all, unsigned",
        grad="rule",
        kernel=unary("Log1p", "float", ints_to_float=True),
        doc="log(1 + x) of each element, accurate for small x.",
        example=(">>> ember.log1p(ember.tensor([0.0])).tolist()\n[0.0]"),
    ),
    Op(
        "log2",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all, unsigned",
        grad="rule",
        kernel=unary("Log2", "float", ints_to_float=True),
        doc="The base-2 logarithm of each element.",
        example=(">>> ember.log2(ember.tensor([1.0, 8.0])).tolist()\n[0.0, 3.0]"),
    ),
    Op(
        "logaddexp",
        function="(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Tensor) -> Tensor",
        dtypes="float",
        grad="rule",
        kernel=binary("Logaddexp", "float"),
        doc="log(exp(input) + exp(other)) of each pair, without overflow.",
        example=(
            ">>> round(ember.logaddexp(ember.tensor([0.0]), ember.tensor([0.0])).item(), 4)\n0.6931"
        ),
    ),
    Op(
        "logaddexp2",
        function="(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Tensor) -> Tensor",
        dtypes="float",
        grad="rule",
        kernel=binary("Logaddexp2", "float"),
        doc="log2(2**input + 2**other) of each pair, without overflow.",
        example=(">>> ember.logaddexp2(ember.tensor([1.0]), ember.tensor([1.0])).tolist()\n[2.0]"),
    ),
    Op(
        "logical_and",
        function="(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Tensor) -> Tensor",
        inplace="(other: Tensor) -> Tensor",
        dtypes="real, unsigned",
        grad="none",
        kernel=compare("LogicalAnd"),
        doc="Elementwise AND of the truth values (nonzero is True), as a bool tensor.",
        example=(
            ">>> ember.logical_and(ember.tensor([0, 1, 2]), ember.tensor([1, 1, 0])).tolist()\n"
            "[False, True, False]"
        ),
    ),
    Op(
        "logical_not",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all, unsigned",
        grad="none",
        kernel=predicate("LogicalNot"),
        doc="Elementwise NOT of the truth values (nonzero is True), as a bool tensor.",
        example=(">>> ember.logical_not(ember.tensor([0, 3])).tolist()\n[True, False]"),
    ),
    Op(
        "logical_or",
        function="(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Tensor) -> Tensor",
        inplace="(other: Tensor) -> Tensor",
        dtypes="real, unsigned",
        grad="none",
        kernel=compare("LogicalOr"),
        doc="Elementwise OR of the truth values (nonzero is True), as a bool tensor.",
        example=(
            ">>> ember.logical_or(ember.tensor([0, 0, 2]), ember.tensor([0, 1, 0])).tolist()\n"
            "[False, True, True]"
        ),
    ),
    Op(
        "logical_xor",
        function="(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Tensor) -> Tensor",
        inplace="(other: Tensor) -> Tensor",
        dtypes="real, unsigned",
        grad="none",
        kernel=compare("LogicalXor"),
        doc="Elementwise XOR of the truth values (nonzero is True), as a bool tensor.",
        example=(
            ">>> ember.logical_xor(ember.tensor([0, 1, 2]), ember.tensor([1, 1, 0])).tolist()\n"
            "[True, False, True]"
        ),
    ),
    Op(
        "lt",
        function="(input: Tensor, other: Number | Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Number | Tensor) -> Tensor",
        inplace="(other: Number | Tensor) -> Tensor",
        operators=("__lt__",),
        dtypes="real, unsigned",
        grad="none",
        kernel=compare("Lt"),
        doc="Elementwise input < other, broadcast, as a bool tensor.",
        example=(">>> ember.lt(ember.tensor([1, 2, 3]), 2).tolist()\n[True, False, False]"),
    ),
    Op(
        "max",
        function=(
            "(input: Tensor, dim: int | None = None, keepdim: bool | None = None, *, "
            "other: Tensor | None = None, out: Tensor | tuple[Tensor, "
            "...] | list[Tensor] | None = None) -> Any"
        ),
        method=(
            "(dim: int | None = None, keepdim: bool | None = None, *, "
            "other: Tensor | None = None) -> Any"
        ),
        dtypes="real, unsigned",
        grad="rule",
        doc="The largest element; with dim, (values, indices) along it; with other, maximum.",
        example=(
            ">>> x = ember.tensor([[1, 5], [7, 2]])\n"
            ">>> x.max().item()\n"
            "7\n"
            ">>> x.max(dim=1).values.tolist()\n"
            "[5, 7]\n"
            ">>> x.max(dim=1).indices.tolist()\n"
            "[1, 0]"
        ),
    ),
    Op(
        "maximum",
        function="(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Tensor) -> Tensor",
        inplace="(other: Tensor) -> Tensor",
        dtypes="real, unsigned",
        grad="rule",
        kernel=binary("Maximum", "all"),
        doc="The elementwise maximum of two tensors, broadcast (NaN propagates).",
        example=(">>> ember.maximum(ember.tensor([1, 5]), ember.tensor([3, 2])).tolist()\n[3, 5]"),
    ),
    Op(
        "min",
        function=(
            "(input: Tensor, dim: int | None = None, keepdim: bool | None = None, *, "
            "other: Tensor | None = None, out: Tensor | tuple[Tensor, "
            "...] | list[Tensor] | None = None) -> Any"
        ),
        method=(
            "(dim: int | None = None, keepdim: bool | None = None, *, "
            "other: Tensor | None = None) -> Any"
        ),
        dtypes="real, unsigned",
        grad="rule",
        doc="The smallest element; with dim, (values, indices) along it; with other, minimum.",
        example=(
            ">>> x = ember.tensor([[1, 5], [7, 2]])\n"
            ">>> x.min().item()\n"
            "1\n"
            ">>> x.min(dim=1).values.tolist()\n"
            "[1, 2]\n"
            ">>> x.min(dim=1).indices.tolist()\n"
            "[0, 1]"
        ),
    ),
    Op(
        "minimum",
        function="(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Tensor) -> Tensor",
        inplace="(other: Tensor) -> Tensor",
        dtypes="real, unsigned",
        grad="rule",
        kernel=binary("Minimum", "all"),
        doc="The elementwise minimum of two tensors, broadcast (NaN propagates).",
        example=(">>> ember.minimum(ember.tensor([1, 5]), ember.tensor([3, 2])).tolist()\n[1, 2]"),
    ),
    Op(
        "mul",
        function=(
            "(input: Tensor | Number, other: Tensor | Number, *, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(other: Tensor | Number) -> Tensor",
        inplace="(other: Tensor | Number) -> Tensor",
        operators=("__imul__", "__mul__", "__rmul__"),
        dtypes="all, unsigned",
        grad="rule",
        kernel=binary("Mul", "all"),
        doc="input * other, broadcast, with type promotion.",
        example=(">>> ember.mul(ember.tensor([1, 2]), ember.tensor([3, 4])).tolist()\n[3, 8]"),
    ),
    Op(
        "multiply",
        function=(
            "(input: Tensor | Number, other: Number | Tensor, *, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(other: Number | Tensor) -> Tensor",
        inplace="(other: Number | Tensor) -> Tensor",
        dtypes="all, unsigned",
        grad="rule",
        kernel=binary("Mul", "all"),
        doc="Alias of mul: input * other, broadcast.",
        example=(">>> ember.multiply(ember.tensor([1, 2]), 3).tolist()\n[3, 6]"),
    ),
    Op(
        "nan_to_num",
        function=(
            "(input: Tensor, nan: float | None = 0.0, posinf: float | None = None, "
            "neginf: float | None = None, *, out: Tensor | None = None) -> Tensor"
        ),
        method=(
            "(nan: float | None = 0.0, posinf: float | None = None, "
            "neginf: float | None = None) -> Tensor"
        ),
        inplace=(
            "(nan: float | None = 0.0, posinf: float | None = None, "
            "neginf: float | None = None) -> Tensor"
        ),
        dtypes="real, unsigned",
        grad="rule",
        kernel=unary("NanToNum", "float", bind=False),
        doc="NaN, +inf and -inf replaced by nan, posinf and neginf (default: dtype's max/min).",
        example=(
            ">>> x = ember.tensor([float('nan'), float('inf'), 1.0])\n"
            ">>> ember.nan_to_num(x, posinf=9.0).tolist()\n"
            "[0.0, 9.0, 1.0]"
        ),
    ),
    Op(
        "ne",
        function="(input: Tensor, other: Number | Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Number | Tensor) -> Tensor",
        inplace="(other: Number | Tensor) -> Tensor",
        operators=("__ne__",),
        dtypes="all, unsigned",
        grad="none",
        kernel=compare("Ne"),
        doc="Elementwise input != other, broadcast, as a bool tensor.",
        example=(">>> ember.ne(ember.tensor([1, 2, 3]), 2).tolist()\n[True, False, True]"),
    ),
    Op(
        "nextafter",
        function="(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Tensor) -> Tensor",
        inplace="(other: Tensor) -> Tensor",
        dtypes="float",
        grad="rule",
        kernel=binary("Nextafter", "float32+float64"),
        doc="The next representable value after input towards other (other itself if equal).",
        example=(
            ">>> x = ember.nextafter(ember.tensor([1.0]), ember.tensor([2.0]))\n"
            ">>> (x - 1).item() == ember.finfo(ember.float32).eps\n"
            "True"
        ),
    ),
    Op(
        "neg",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        operators=("__neg__",),
        dtypes="numeric+complex, unsigned",
        grad="rule",
        kernel=unary("Neg", "numeric"),
        doc="The negation -input of each element (not for bool).",
        example=(">>> ember.neg(ember.tensor([1, -2])).tolist()\n[-1, 2]"),
    ),
    Op(
        "negative",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="numeric+complex, unsigned",
        grad="rule",
        kernel=unary("Neg", "numeric"),
        doc="Alias of neg: -input of each element.",
        example=(">>> ember.negative(ember.tensor([1.5, -2.0])).tolist()\n[-1.5, 2.0]"),
    ),
    Op(
        "not_equal",
        function="(input: Tensor, other: Number | Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Number | Tensor) -> Tensor",
        inplace="(other: Number | Tensor) -> Tensor",
        dtypes="all, unsigned",
        grad="none",
        kernel=compare("Ne"),
        doc="Alias of ne: elementwise input != other, as a bool tensor.",
        example=(">>> ember.not_equal(ember.tensor([1, 2, 3]), 2).tolist()\n[True, False, True]"),
    ),
    Op(
        "positive",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        operators=("__pos__",),
        dtypes="numeric+complex, unsigned",
        grad="rule",
        kernel=unary("Identity", "all", name="positive"),
        doc="input itself (+input); raises for bool tensors.",
        example=(">>> ember.positive(ember.tensor([1, -2])).tolist()\n[1, -2]"),
    ),
    Op(
        "pow",
        function=(
            "(input: Tensor | Number, other: Tensor | Number, *, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(other: Tensor | Number) -> Tensor",
        inplace="(other: Tensor | Number) -> Tensor",
        operators=("__ipow__", "__pow__", "__rpow__"),
        dtypes="numeric+complex, unsigned",
        grad="rule",
        kernel=binary("Pow", "numeric"),
        doc="input raised to other, elementwise and broadcast (either may be a number).",
        example=(
            ">>> ember.pow(ember.tensor([1, 2, 3]), 2).tolist()\n"
            "[1, 4, 9]\n"
            ">>> (2 ** ember.tensor([0, 3])).tolist()\n"
            "[1, 8]"
        ),
    ),
    Op(
        "reciprocal",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all, unsigned",
        grad="rule",
        kernel=unary("Reciprocal", "float", ints_to_float=True),
        doc="1 / x of each element; integers promote to the default float.",
        example=(">>> ember.reciprocal(ember.tensor([2.0, -4.0])).tolist()\n[0.5, -0.25]"),
    ),
    Op(
        "relu",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="numeric, unsigned",
        grad="rule",
        kernel=unary("Relu", "numeric"),
        doc="max(x, 0) of each element.",
        example=(">>> ember.relu(ember.tensor([-1.0, 0.0, 2.0])).tolist()\n[0.0, 0.0, 2.0]"),
    ),
    Op(
        "remainder",
        function=(
            "(input: Tensor | Number, other: Number | Tensor, *, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(other: Number | Tensor) -> Tensor",
        inplace="(other: Number | Tensor) -> Tensor",
        operators=("__imod__", "__mod__", "__rmod__"),
        dtypes="numeric, unsigned",
        grad="rule",
        kernel=binary("Remainder", "numeric"),
        doc="The remainder of input / other rounded down: it has the sign of other, like %.",
        example=(">>> ember.remainder(ember.tensor([-3, 3]), 2).tolist()\n[1, 1]"),
    ),
    Op(
        "round",
        function="(input: Tensor, *, decimals: int = 0, out: Tensor | None = None) -> Tensor",
        method="(*, decimals: int = 0) -> Tensor",
        inplace="(*, decimals: int = 0) -> Tensor",
        dtypes="numeric, unsigned",
        grad="rule",
        kernel=(
            unary("Round", "numeric", bind=False),
            unary("RoundDecimals", "float", ints_to_float=True, bind=False, name="round"),
        ),
        doc="Each element rounded to `decimals` decimal places, halves to even.",
        example=(
            ">>> ember.round(ember.tensor([0.5, 1.5, 2.5])).tolist()\n"
            "[0.0, 2.0, 2.0]\n"
            ">>> ember.round(ember.tensor([1.25], dtype=ember.float64), decimals=1).tolist()\n"
            "[1.2]"
        ),
    ),
    Op(
        "rsqrt",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all, unsigned",
        grad="rule",
        kernel=unary("Rsqrt", "float", ints_to_float=True),
        doc="1 / sqrt(x) of each element.",
        example=(">>> ember.rsqrt(ember.tensor([4.0, 0.25])).tolist()\n[0.5, 2.0]"),
    ),
    Op(
        "sgn",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all, unsigned",
        grad="rule",
        kernel=unary("Sign", "numeric"),
        doc="x / |x| for complex elements (0 at 0); the sign for real ones.",
        example=(
            ">>> ember.sgn(ember.tensor([2j, -5 + 0j, 0j], dtype=ember.complex128)).tolist()\n"
            "[1j, (-1+0j), 0j]"
        ),
    ),
    Op(
        "sigmoid",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all, unsigned",
        grad="rule",
        kernel=unary("Sigmoid", "float", ints_to_float=True),
        doc="The logistic function 1 / (1 + exp(-x)) of each element.",
        example=(">>> ember.sigmoid(ember.tensor([0.0])).tolist()\n[0.5]"),
    ),
    Op(
        "sign",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="real, unsigned",
        grad="rule",
        kernel=unary("Sign", "numeric"),
        doc="-1, 0 or 1 by the sign of each element (real dtypes; bool stays bool).",
        example=(">>> ember.sign(ember.tensor([-2.5, 0.0, 3.0])).tolist()\n[-1.0, 0.0, 1.0]"),
    ),
    Op(
        "sin",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all, unsigned",
        grad="rule",
        kernel=unary("Sin", "float", ints_to_float=True),
        doc="The sine of each element (radians).",
        example=(">>> ember.sin(ember.tensor([0.0])).tolist()\n[0.0]"),
    ),
    Op(
        "sinc",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all, unsigned",
        grad="rule",
        kernel=unary("Sinc", "float", ints_to_float=True),
        doc="The normalized sinc sin(pi x) / (pi x) of each element (1 at 0).",
        example=(">>> ember.sinc(ember.tensor([0.0, 1.0])).tolist()[0]\n1.0"),
    ),
    Op(
        "sinh",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all, unsigned",
        grad="rule",
        kernel=unary("Sinh", "float", ints_to_float=True),
        doc="The hyperbolic sine of each element.",
        example=(">>> ember.sinh(ember.tensor([0.0])).tolist()\n[0.0]"),
    ),
    Op(
        "sqrt",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all, unsigned",
        grad="rule",
        kernel=unary("Sqrt", "float", ints_to_float=True),
        doc="The square root of each element (NaN for negative reals).",
        example=(">>> ember.sqrt(ember.tensor([4.0, 9.0])).tolist()\n[2.0, 3.0]"),
    ),
    Op(
        "square",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all, unsigned",
        grad="rule",
        kernel=unary("Square", "numeric"),
        doc="x * x of each element (bool promotes to int64).",
        example=(">>> ember.square(ember.tensor([-3, 2])).tolist()\n[9, 4]"),
    ),
    Op(
        "sub",
        function=(
            "(input: Tensor | Number, other: Tensor | Number, *, alpha: Number | None = 1, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(other: Tensor | Number, *, alpha: Number | None = 1) -> Tensor",
        inplace="(other: Tensor | Number, *, alpha: Number | None = 1) -> Tensor",
        operators=("__isub__", "__rsub__", "__sub__"),
        dtypes="numeric+complex, unsigned",
        grad="rule",
        kernel=binary("Sub", "numeric", bind=False),
        doc="input - alpha * other, broadcast (not for bool; use logical_xor).",
        example=(
            ">>> ember.sub(ember.tensor([10, 20]), ember.tensor([1, 2]), alpha=3).tolist()\n[7, 14]"
        ),
    ),
    Op(
        "subtract",
        function=(
            "(input: Tensor | Number, other: Number | Tensor, *, alpha: Number = 1, "
            "out: Tensor | None = None) -> Tensor"
        ),
        dtypes="numeric+complex, unsigned",
        grad="rule",
        doc="Alias of sub: input - alpha * other, broadcast.",
        example=(">>> ember.subtract(ember.tensor([10, 20]), 5).tolist()\n[5, 15]"),
    ),
    Op(
        "tan",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all, unsigned",
        grad="rule",
        kernel=unary("Tan", "float", ints_to_float=True),
        doc="The tangent of each element (radians).",
        example=(">>> ember.tan(ember.tensor([0.0])).tolist()\n[0.0]"),
    ),
    Op(
        "tanh",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all, unsigned",
        grad="rule",
        kernel=unary("Tanh", "float", ints_to_float=True),
        doc="The hyperbolic tangent of each element.",
        example=(">>> ember.tanh(ember.tensor([0.0])).tolist()\n[0.0]"),
    ),
    Op(
        "true_divide",
        function=(
            "(input: Tensor | Number, other: Tensor | Number, *, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(other: Tensor | Number) -> Tensor",
        inplace="(other: Tensor | Number) -> Tensor",
        dtypes="all, unsigned",
        grad="rule",
        kernel=binary("Div", "float", ints_to_float=True),
        doc="Alias of div with no rounding: input / other, always a floating result.",
        example=(">>> ember.true_divide(ember.tensor([1, 3]), 2).tolist()\n[0.5, 1.5]"),
    ),
    Op(
        "trunc",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="numeric, unsigned",
        grad="rule",
        kernel=unary("Trunc", "numeric"),
        doc="Each element rounded toward zero (integers are returned unchanged).",
        example=(">>> ember.trunc(ember.tensor([-1.7, 1.7])).tolist()\n[-1.0, 1.0]"),
    ),
    Op(
        "where",
        function=(
            (
                "(condition: Tensor, input: Tensor | Number, other: Tensor | Number, *, "
                "out: Tensor | None = None) -> Tensor"
            ),
            "(condition: Tensor) -> tuple[Tensor, ...]",
        ),
        method="(condition: Tensor, other: Number | Tensor) -> Tensor",
        dtypes="bool",
        grad="rule",
        doc="input where condition is True, else other, broadcast; where(condition) is nonzero.",
        example=(
            ">>> c = ember.tensor([True, False, True])\n"
            ">>> ember.where(c, ember.tensor([1, 2, 3]), 0).tolist()\n"
            "[1, 0, 3]\n"
            ">>> [t.tolist() for t in ember.where(c)]\n"
            "[[0, 2]]"
        ),
    ),
    Op(
        "xlogy",
        function=(
            "(input: Tensor | Number, other: Number | Tensor, *, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(other: Number | Tensor) -> Tensor",
        inplace="(other: Number | Tensor) -> Tensor",
        dtypes="real, unsigned",
        grad="rule",
        kernel=binary("Xlogy", "float", ints_to_float=True),
        doc="input * log(other), taken as 0 where input is 0 (unless other is NaN).",
        example=(
            ">>> ember.xlogy(ember.tensor([0.0, 2.0]), ember.tensor([0.0, 1.0])).tolist()\n"
            "[0.0, 0.0]"
        ),
    ),
]
