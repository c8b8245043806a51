"""The dtype family: casts between dtypes, dtype queries and promotion, the default dtype, and
(for now) the intra-op thread count (fields: registry/_schema.py)."""

from registry._schema import Grad, Op


def _cast(name: str, dtype: str, grad: Grad = "none") -> Op:
    """A Tensor.<name>() cast: self when already of `dtype`, else a copy converted to it."""
    return Op(
        name,
        method="() -> Tensor",
        conj="structural",
        grad=grad,
        doc=f"self.to(ember.{dtype}): self when already {dtype}, else a converted copy.",
        example=f">>> ember.tensor([1.5]).{name}().dtype\nember.{dtype}",
    )


OPS = [
    Op(
        "_to_dtype",
        method="(dtype: dtype | None, copy: bool = False) -> Tensor",
        conj="structural",
        grad="rule",
        doc="The cast behind Tensor.to(dtype): self when the dtype matches and copy is False.",
        example=(">>> ember.ones(2)._to_dtype(ember.int32).tolist()\n[1, 1]"),
    ),
    _cast("bfloat16", "bfloat16", "rule"),
    _cast("bool", "bool"),
    _cast("byte", "uint8"),
    Op(
        "can_cast",
        function="(from_: dtype, to: dtype) -> bool",
        grad="none",
        doc="Whether from_ casts to `to` without a drop in kind (complex > float > int > bool).",
        example=(
            ">>> ember.can_cast(ember.int32, ember.float32), "
            "ember.can_cast(ember.float32, ember.int32)\n(True, False)"
        ),
    ),
    _cast("char", "int8"),
    _cast("double", "float64", "rule"),
    _cast("float", "float32", "rule"),
    Op(
        "get_default_dtype",
        function="() -> dtype",
        grad="none",
        doc="The floating dtype factories use when none is given (float32 unless changed).",
        example=(">>> ember.get_default_dtype()\nember.float32"),
    ),
    _cast("half", "float16", "rule"),
    _cast("int", "int32"),
    Op(
        "is_floating_point",
        method="() -> bool",
        conj="pass",
        grad="none",
        doc="Whether the dtype is a floating one (float16, bfloat16, float32, float64).",
        example=(
            ">>> ember.zeros(1).is_floating_point(), ember.zeros(1, dtype=ember.int64)"
            ".is_floating_point()\n(True, False)"
        ),
    ),
    _cast("long", "int64"),
    Op(
        "promote_types",
        function="(type1: dtype, type2: dtype) -> dtype",
        grad="none",
        doc="The smallest dtype both dtypes cast to safely, by the type promotion rules.",
        example=(">>> ember.promote_types(ember.int32, ember.float16)\nember.float16"),
    ),
    Op(
        "result_type",
        function="(tensor1: Tensor | Number, tensor2: Tensor | Number) -> dtype",
        conj="pass",
        grad="none",
        doc="The dtype an arithmetic op on the two operands gives (tensors or numbers).",
        example=(">>> ember.result_type(ember.tensor([1], dtype=ember.int32), 1.0)\nember.float32"),
    ),
    Op(
        "set_default_dtype",
        function="(d: dtype) -> None",
        grad="none",
        doc="Sets the default floating dtype (float32 or float64; also float16 and bfloat16).",
        example=(
            ">>> ember.set_default_dtype(ember.float64)\n>>> ember.zeros(1).dtype\nember.float64\n"
            ">>> ember.set_default_dtype(ember.float32)"
        ),
    ),
    _cast("short", "int16"),
    # The thread count is runtime configuration, not a dtype matter; it stays here until the
    # family names are revised (see the registry-docs report).
    Op(
        "get_num_threads",
        function="() -> int",
        grad="none",
        doc="How many threads the CPU kernels use for one op.",
        example=(">>> ember.get_num_threads() >= 1\nTrue"),
    ),
    Op(
        "set_num_threads",
        function="(num: int) -> None",
        grad="none",
        doc="Sets how many threads the CPU kernels use for one op (>= 1).",
        example=(
            ">>> n = ember.get_num_threads()\n>>> ember.set_num_threads(1)\n"
            ">>> ember.get_num_threads()\n1\n>>> ember.set_num_threads(n)"
        ),
    ),
]
