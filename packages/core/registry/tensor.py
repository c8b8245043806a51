"""The tensor family (fields: registry/_schema.py)."""

from registry._schema import Op

OPS = [
    Op(
        "__bool__",
        method="() -> bool",
        grad="none",
    ),
    Op(
        "__float__",
        method="() -> float",
        grad="none",
    ),
    Op(
        "__hash__",
        method="() -> int",
        conj="pass",
        grad="none",
    ),
    Op(
        "__index__",
        method="() -> int",
        grad="none",
    ),
    Op(
        "__int__",
        method="() -> int",
        grad="none",
    ),
    Op(
        "_is_view_of",
        method="(arg: Any, /) -> bool",
        conj="pass",
        grad="none",
        doc="Whether both tensors share one storage.",
    ),
    Op(
        "_set_data",
        method="(data: Any) -> Any",
        grad="none",
        doc="Replaces this tensor's data (storage and geometry) by `data`'s, in place.",
    ),
    Op(
        "_to_dtype",
        method="(dtype: dtype | None, copy: Any = False) -> Any",
        conj="structural",
        grad="rule",
    ),
    Op(
        "as_subclass",
        method="(cls: Any) -> Any",
        grad="none",
        doc="This tensor (same storage and autograd history) as an instance of `cls`.",
    ),
    Op(
        "bfloat16",
        method="() -> Tensor",
        conj="structural",
        grad="rule",
    ),
    Op(
        "bool",
        method="() -> Tensor",
        conj="structural",
        grad="none",
    ),
    Op(
        "byte",
        method="() -> Tensor",
        conj="structural",
        grad="none",
    ),
    Op(
        "can_cast",
        function="(from_: dtype, to: dtype) -> bool",
        grad="none",
    ),
    Op(
        "char",
        method="() -> Tensor",
        conj="structural",
        grad="none",
    ),
    Op(
        "clone",
        method="() -> Tensor",
        conj="pass",
        grad="rule",
    ),
    Op(
        "contiguous",
        method="() -> Tensor",
        conj="pass",
        grad="rule",
    ),
    Op(
        "copy_",
        method="(src: Tensor) -> Tensor",
        conj="pass",
        grad="rule",
    ),
    Op(
        "data_ptr",
        method="() -> int",
        conj="pass",
        grad="none",
    ),
    Op(
        "double",
        method="() -> Tensor",
        conj="structural",
        grad="rule",
    ),
    Op(
        "element_size",
        method="() -> int",
        conj="pass",
        grad="none",
    ),
    Op(
        "fill_",
        method="(value: Number | Tensor) -> Tensor",
        grad="rule",
    ),
    Op(
        "float",
        method="() -> Tensor",
        conj="structural",
        grad="rule",
    ),
    Op(
        "get_default_dtype",
        function="() -> dtype",
        grad="none",
    ),
    Op(
        "half",
        method="() -> Tensor",
        conj="structural",
        grad="rule",
    ),
    Op(
        "int",
        method="() -> Tensor",
        conj="structural",
        grad="none",
    ),
    Op(
        "is_contiguous",
        method="() -> bool",
        conj="pass",
        grad="none",
    ),
    Op(
        "is_floating_point",
        method="() -> bool",
        conj="pass",
        grad="none",
    ),
    Op(
        "item",
        method="() -> Number",
        grad="none",
    ),
    Op(
        "long",
        method="() -> Tensor",
        conj="structural",
        grad="none",
    ),
    Op(
        "ndimension",
        method="() -> int",
        conj="pass",
        grad="none",
    ),
    Op(
        "nelement",
        method="() -> int",
        conj="pass",
        grad="none",
    ),
    Op(
        "numel",
        method="() -> int",
        conj="pass",
        grad="none",
    ),
    Op(
        "promote_types",
        function="(type1: dtype, type2: dtype) -> dtype",
        grad="none",
    ),
    Op(
        "result_type",
        function="(tensor1: Tensor, tensor2: Tensor) -> dtype",
        conj="pass",
        grad="none",
    ),
    Op(
        "set_default_dtype",
        function="(d: Any) -> None",
        grad="none",
    ),
    Op(
        "short",
        method="() -> Tensor",
        conj="structural",
        grad="none",
    ),
    Op(
        "zero_",
        method="() -> Tensor",
        grad="rule",
    ),
]
