"""The elementwise family (fields: registry/_schema.py)."""

from registry._schema import Op

OPS = [
    Op(
        "__len__",
        method="() -> int",
        conj="pass",
        grad="none",
    ),
    Op(
        "abs",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        operators=("__abs__",),
        dtypes="numeric+complex",
        grad="rule",
    ),
    Op(
        "absolute",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        grad="rule",
    ),
    Op(
        "acos",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all",
        grad="rule",
    ),
    Op(
        "acosh",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all",
        grad="rule",
    ),
    Op(
        "add",
        function=(
            "(input: Tensor | Number, other: Tensor | Number, *, alpha: Number | None = 1, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(other: Any, *, alpha: Number | None = 1) -> Tensor",
        inplace="(other: Any, *, alpha: Number | None = 1) -> Tensor",
        operators=("__add__", "__iadd__", "__radd__"),
        dtypes="all",
        grad="rule",
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
    ),
    Op(
        "arccos",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        grad="rule",
    ),
    Op(
        "arccosh",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        grad="rule",
    ),
    Op(
        "arcsin",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        grad="rule",
    ),
    Op(
        "arcsinh",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        grad="rule",
    ),
    Op(
        "arctan",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        grad="rule",
    ),
    Op(
        "arctan2",
        function="(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Tensor) -> Tensor",
        inplace="(other: Tensor) -> Tensor",
        grad="rule",
    ),
    Op(
        "arctanh",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        grad="rule",
    ),
    Op(
        "asin",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all",
        grad="rule",
    ),
    Op(
        "asinh",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all",
        grad="rule",
    ),
    Op(
        "atan",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all",
        grad="rule",
    ),
    Op(
        "atan2",
        function="(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Tensor) -> Tensor",
        inplace="(other: Tensor) -> Tensor",
        dtypes="real",
        grad="rule",
    ),
    Op(
        "atanh",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all",
        grad="rule",
    ),
    Op(
        "bitwise_and",
        function="(input: Tensor, other: Number | Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Number | Tensor) -> Tensor",
        inplace="(other: Number | Tensor) -> Tensor",
        operators=("__and__", "__iand__", "__rand__"),
        dtypes="integral+bool",
        grad="none",
    ),
    Op(
        "bitwise_left_shift",
        function="(input: Tensor, other: Number | Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Number | Tensor) -> Tensor",
        inplace="(other: Number | Tensor) -> Tensor",
        operators=("__ilshift__", "__lshift__", "__rlshift__"),
        grad="none",
    ),
    Op(
        "bitwise_not",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        operators=("__invert__",),
        dtypes="integral+bool",
        grad="none",
    ),
    Op(
        "bitwise_or",
        function="(input: Tensor, other: Number | Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Number | Tensor) -> Tensor",
        inplace="(other: Number | Tensor) -> Tensor",
        operators=("__ior__", "__or__", "__ror__"),
        dtypes="integral+bool",
        grad="none",
    ),
    Op(
        "bitwise_right_shift",
        function="(input: Tensor, other: Number | Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Number | Tensor) -> Tensor",
        inplace="(other: Number | Tensor) -> Tensor",
        operators=("__irshift__", "__rrshift__", "__rshift__"),
        grad="none",
    ),
    Op(
        "bitwise_xor",
        function="(input: Tensor, other: Number | Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Number | Tensor) -> Tensor",
        inplace="(other: Number | Tensor) -> Tensor",
        operators=("__ixor__", "__rxor__", "__xor__"),
        dtypes="integral+bool",
        grad="none",
    ),
    Op(
        "ceil",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="numeric",
        grad="rule",
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
    ),
    Op(
        "clamp_max",
        function="(input: Tensor, max: Number | Tensor) -> Tensor",
        grad="rule",
    ),
    Op(
        "clamp_min",
        function="(input: Tensor, min: Number | Tensor) -> Tensor",
        grad="rule",
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
    ),
    Op(
        "copysign",
        function="(input: Tensor, other: Number | Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Number | Tensor) -> Tensor",
        inplace="(other: Number | Tensor) -> Tensor",
        dtypes="real",
        grad="rule",
    ),
    Op(
        "cos",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all",
        grad="rule",
    ),
    Op(
        "cosh",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all",
        grad="rule",
    ),
    Op(
        "detach",
        method="() -> Tensor",
        conj="pass",
        grad="none",
        doc="A new tensor sharing storage, cut from the autograd graph.",
    ),
    Op(
        "digamma",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="real",
        grad="rule",
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
        dtypes="all",
        grad="rule",
    ),
    Op(
        "divide",
        function=(
            "(input: Tensor, other: Number | Tensor, *, rounding_mode: str | None = None, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(other: Number | Tensor, *, rounding_mode: str | None = None) -> Tensor",
        inplace="(other: Number | Tensor, *, rounding_mode: str | None = None) -> Tensor",
        grad="rule",
    ),
    Op(
        "eq",
        function="(input: Tensor, other: Number | Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Number | Tensor) -> Tensor",
        inplace="(other: Number | Tensor) -> Tensor",
        operators=("__eq__",),
        dtypes="all",
        grad="none",
    ),
    Op(
        "equal",
        function="(input: Tensor, other: Tensor) -> bool",
        method="(other: Tensor) -> bool",
        grad="none",
    ),
    Op(
        "erf",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="real",
        grad="rule",
    ),
    Op(
        "erfc",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="real",
        grad="rule",
    ),
    Op(
        "erfinv",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="real",
        grad="rule",
    ),
    Op(
        "exp",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all",
        grad="rule",
    ),
    Op(
        "exp2",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all",
        grad="rule",
    ),
    Op(
        "expm1",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all",
        grad="rule",
    ),
    Op(
        "fix",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        grad="rule",
    ),
    Op(
        "floor",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="numeric",
        grad="rule",
    ),
    Op(
        "floor_divide",
        function=(
            "(input: Tensor | Number, other: Tensor | Number, *, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(other: Any) -> Tensor",
        inplace="(other: Any) -> Tensor",
        operators=("__floordiv__", "__ifloordiv__", "__rfloordiv__"),
        grad="none",
    ),
    Op(
        "fmax",
        function="(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Tensor) -> Tensor",
        inplace="(other: Tensor) -> Tensor",
        dtypes="real",
        grad="rule",
    ),
    Op(
        "fmin",
        function="(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Tensor) -> Tensor",
        inplace="(other: Tensor) -> Tensor",
        dtypes="real",
        grad="rule",
    ),
    Op(
        "fmod",
        function="(input: Tensor, other: Number | Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Number | Tensor) -> Tensor",
        inplace="(other: Number | Tensor) -> Tensor",
        dtypes="numeric",
        grad="rule",
    ),
    Op(
        "frac",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="float",
        grad="rule",
    ),
    Op(
        "gcd",
        function="(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Tensor) -> Tensor",
        inplace="(other: Tensor) -> Tensor",
        dtypes="integral",
        grad="none",
    ),
    Op(
        "ge",
        function="(input: Tensor, other: Number | Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Number | Tensor) -> Tensor",
        inplace="(other: Number | Tensor) -> Tensor",
        operators=("__ge__",),
        dtypes="real",
        grad="none",
    ),
    Op(
        "greater",
        function="(input: Tensor, other: Number | Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Number | Tensor) -> Tensor",
        inplace="(other: Number | Tensor) -> Tensor",
        grad="none",
    ),
    Op(
        "greater_equal",
        function="(input: Tensor, other: Number | Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Number | Tensor) -> Tensor",
        inplace="(other: Number | Tensor) -> Tensor",
        grad="none",
    ),
    Op(
        "gt",
        function="(input: Tensor, other: Number | Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Number | Tensor) -> Tensor",
        inplace="(other: Number | Tensor) -> Tensor",
        operators=("__gt__",),
        dtypes="real",
        grad="none",
    ),
    Op(
        "hypot",
        function="(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Tensor) -> Tensor",
        inplace="(other: Tensor) -> Tensor",
        dtypes="float",
        grad="rule",
    ),
    Op(
        "is_grad_enabled",
        function="() -> bool",
        grad="none",
        doc="Whether gradient recording is on in this thread (ember.no_grad turns it off).",
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
        grad="none",
    ),
    Op(
        "isfinite",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        grad="none",
    ),
    Op(
        "isinf",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        grad="none",
    ),
    Op(
        "isnan",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        grad="none",
    ),
    Op(
        "isneginf",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        grad="none",
    ),
    Op(
        "isposinf",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        grad="none",
    ),
    Op(
        "lcm",
        function="(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Tensor) -> Tensor",
        inplace="(other: Tensor) -> Tensor",
        dtypes="integral",
        grad="none",
    ),
    Op(
        "le",
        function="(input: Tensor, other: Number | Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Number | Tensor) -> Tensor",
        inplace="(other: Number | Tensor) -> Tensor",
        operators=("__le__",),
        dtypes="real",
        grad="none",
    ),
    Op(
        "lerp",
        function=(
            "(input: Tensor, end: Tensor, weight: Number | Tensor, *, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(end: Tensor, weight: Number | Tensor) -> Tensor",
        inplace="(end: Tensor, weight: Number | Tensor) -> Tensor",
        grad="rule",
    ),
    Op(
        "less",
        function="(input: Tensor, other: Number | Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Number | Tensor) -> Tensor",
        inplace="(other: Number | Tensor) -> Tensor",
        grad="none",
    ),
    Op(
        "less_equal",
        function="(input: Tensor, other: Number | Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Number | Tensor) -> Tensor",
        inplace="(other: Number | Tensor) -> Tensor",
        grad="none",
    ),
    Op(
        "lgamma",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="real",
        grad="rule",
    ),
    Op(
        "log",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all",
        grad="rule",
    ),
    Op(
        "log10",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all",
        grad="rule",
    ),
    Op(
        "log1p",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all",
        grad="rule",
    ),
    Op(
        "log2",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all",
        grad="rule",
    ),
    Op(
        "logaddexp",
        function="(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Tensor) -> Tensor",
        dtypes="float",
        grad="rule",
    ),
    Op(
        "logaddexp2",
        function="(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Tensor) -> Tensor",
        dtypes="float",
        grad="rule",
    ),
    Op(
        "logical_and",
        function="(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Tensor) -> Tensor",
        inplace="(other: Tensor) -> Tensor",
        dtypes="real",
        grad="none",
    ),
    Op(
        "logical_not",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all",
        grad="none",
    ),
    Op(
        "logical_or",
        function="(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Tensor) -> Tensor",
        inplace="(other: Tensor) -> Tensor",
        dtypes="real",
        grad="none",
    ),
    Op(
        "logical_xor",
        function="(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Tensor) -> Tensor",
        inplace="(other: Tensor) -> Tensor",
        dtypes="real",
        grad="none",
    ),
    Op(
        "lt",
        function="(input: Tensor, other: Number | Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Number | Tensor) -> Tensor",
        inplace="(other: Number | Tensor) -> Tensor",
        operators=("__lt__",),
        dtypes="real",
        grad="none",
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
        grad="rule",
    ),
    Op(
        "maximum",
        function="(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Tensor) -> Tensor",
        inplace="(other: Tensor) -> Tensor",
        dtypes="real",
        grad="rule",
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
        grad="rule",
    ),
    Op(
        "minimum",
        function="(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Tensor) -> Tensor",
        inplace="(other: Tensor) -> Tensor",
        dtypes="real",
        grad="rule",
    ),
    Op(
        "mul",
        function=(
            "(input: Tensor | Number, other: Tensor | Number, *, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(other: Any) -> Tensor",
        inplace="(other: Any) -> Tensor",
        operators=("__imul__", "__mul__", "__rmul__"),
        dtypes="all",
        grad="rule",
    ),
    Op(
        "multiply",
        function="(input: Tensor, other: Number | Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Number | Tensor) -> Tensor",
        inplace="(other: Number | Tensor) -> Tensor",
        grad="rule",
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
        dtypes="real",
        grad="rule",
    ),
    Op(
        "ne",
        function="(input: Tensor, other: Number | Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Number | Tensor) -> Tensor",
        inplace="(other: Number | Tensor) -> Tensor",
        operators=("__ne__",),
        dtypes="all",
        grad="none",
    ),
    Op(
        "neg",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        operators=("__neg__",),
        dtypes="numeric+complex",
        grad="rule",
    ),
    Op(
        "negative",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        grad="rule",
    ),
    Op(
        "not_equal",
        function="(input: Tensor, other: Number | Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Number | Tensor) -> Tensor",
        inplace="(other: Number | Tensor) -> Tensor",
        grad="none",
    ),
    Op(
        "positive",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        operators=("__pos__",),
        grad="rule",
    ),
    Op(
        "pow",
        function="(input: Tensor, other: Tensor | Number, *, out: Tensor | None = None) -> Tensor",
        method="(other: Tensor | Number) -> Tensor",
        inplace="(other: Tensor | Number) -> Tensor",
        operators=("__ipow__", "__pow__", "__rpow__"),
        dtypes="numeric+complex",
        grad="rule",
    ),
    Op(
        "reciprocal",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all",
        grad="rule",
    ),
    Op(
        "relu",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="numeric",
        grad="rule",
    ),
    Op(
        "remainder",
        function="(input: Tensor, other: Number | Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(other: Number | Tensor) -> Tensor",
        inplace="(other: Number | Tensor) -> Tensor",
        operators=("__imod__", "__mod__", "__rmod__"),
        dtypes="numeric",
        grad="rule",
    ),
    Op(
        "round",
        function="(input: Tensor, *, decimals: int = 0, out: Tensor | None = None) -> Tensor",
        method="(*, decimals: int = 0) -> Tensor",
        inplace="(*, decimals: int = 0) -> Tensor",
        dtypes="numeric",
        grad="rule",
    ),
    Op(
        "rsqrt",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all",
        grad="rule",
    ),
    Op(
        "sgn",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        grad="rule",
    ),
    Op(
        "sigmoid",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all",
        grad="rule",
    ),
    Op(
        "sign",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="real",
        grad="rule",
    ),
    Op(
        "sin",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all",
        grad="rule",
    ),
    Op(
        "sinc",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all",
        grad="rule",
    ),
    Op(
        "sinh",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all",
        grad="rule",
    ),
    Op(
        "sqrt",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all",
        grad="rule",
    ),
    Op(
        "square",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all",
        grad="rule",
    ),
    Op(
        "sub",
        function=(
            "(input: Tensor | Number, other: Tensor | Number, *, alpha: Number | None = 1, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(other: Any, *, alpha: Number | None = 1) -> Tensor",
        inplace="(other: Any, *, alpha: Number | None = 1) -> Tensor",
        operators=("__isub__", "__rsub__", "__sub__"),
        dtypes="numeric+complex",
        grad="rule",
    ),
    Op(
        "subtract",
        function=(
            "(input: Tensor, other: Number | Tensor, *, alpha: Number = 1, "
            "out: Tensor | None = None) -> Tensor"
        ),
        grad="rule",
    ),
    Op(
        "tan",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all",
        grad="rule",
    ),
    Op(
        "tanh",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="all",
        grad="rule",
    ),
    Op(
        "true_divide",
        function=(
            "(input: Tensor | Number, other: Tensor | Number, *, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(other: Any) -> Tensor",
        inplace="(other: Any) -> Tensor",
        grad="rule",
    ),
    Op(
        "trunc",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="numeric",
        grad="rule",
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
        grad="rule",
    ),
    Op(
        "xlogy",
        function=(
            "(input: Tensor | Number, other: Number | Tensor, *, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(other: Number | Tensor) -> Tensor",
        inplace="(other: Number | Tensor) -> Tensor",
        dtypes="real",
        grad="rule",
    ),
]
