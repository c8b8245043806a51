"""The tensor family: a tensor's metadata queries, its conversions to Python values, and the
basic copy/fill methods (fields: registry/_schema.py)."""

from registry._schema import Op

OPS = [
    Op(
        "__bool__",
        method="() -> bool",
        grad="none",
        doc="bool(x) of a one-element tensor: whether its value is non-zero.",
        example=(">>> bool(ember.tensor([2]))\nTrue"),
    ),
    Op(
        "__float__",
        method="() -> float",
        grad="none",
        doc="float(x) of a one-element tensor.",
        example=(">>> float(ember.tensor(3))\n3.0"),
    ),
    Op(
        "__hash__",
        method="() -> int",
        conj="pass",
        grad="none",
        doc="hash(x): by identity (two tensors with equal values hash differently).",
        example=(">>> x = ember.zeros(1)\n>>> hash(x) == hash(x)\nTrue"),
    ),
    Op(
        "__index__",
        method="() -> int",
        grad="none",
        doc="operator.index(x) of a one-element integer tensor, so it can index a list.",
        example=(">>> [10, 20, 30][ember.tensor(1)]\n20"),
    ),
    Op(
        "__int__",
        method="() -> int",
        grad="none",
        doc="int(x) of a one-element tensor (floats truncate towards zero).",
        example=(">>> int(ember.tensor(-2.7))\n-2"),
    ),
    Op(
        "_is_view_of",
        method="(arg: Tensor, /) -> bool",
        conj="pass",
        grad="none",
        doc="Whether both tensors share one storage.",
        example=(
            ">>> x = ember.zeros(4)\n"
            ">>> x[1:]._is_view_of(x), x.clone()._is_view_of(x)\n(True, False)"
        ),
    ),
    Op(
        "_set_data",
        method="(data: Tensor) -> Tensor",
        grad="none",
        doc="Replaces self's data (storage and geometry) by `data`'s, in place; returns self.",
        example=(
            ">>> x = ember.zeros(2)\n>>> _ = x._set_data(ember.ones(3))\n"
            ">>> x.tolist()\n[1.0, 1.0, 1.0]"
        ),
    ),
    Op(
        "as_subclass",
        method="(cls: type[Tensor]) -> Tensor",
        grad="none",
        doc="This tensor (same storage and autograd history) as an instance of `cls`.",
        example=(
            ">>> class Tagged(ember.Tensor): ...\n"
            ">>> type(ember.zeros(2).as_subclass(Tagged)).__name__\n'Tagged'"
        ),
    ),
    Op(
        "clone",
        method="() -> Tensor",
        conj="pass",
        grad="rule",
        doc="A copy with its own storage (same values, dtype and strides); gradients flow back.",
        example=(
            ">>> x = ember.zeros(2)\n>>> y = x.clone()\n>>> _ = y.fill_(1)\n"
            ">>> x.tolist()\n[0.0, 0.0]"
        ),
    ),
    Op(
        "contiguous",
        method="() -> Tensor",
        conj="pass",
        grad="rule",
        doc="Self when already row-major contiguous, else a row-major copy.",
        example=(
            ">>> x = ember.zeros(2, 3).t()\n>>> x.is_contiguous(), x.contiguous().is_contiguous()\n"
            "(False, True)"
        ),
    ),
    Op(
        "copy_",
        method="(src: Tensor) -> Tensor",
        conj="pass",
        grad="rule",
        doc="Copies src's values into self (broadcast, cast to self's dtype); returns self.",
        example=(
            ">>> x = ember.zeros(2, 2)\n>>> x.copy_(ember.tensor([1, 2])).tolist()\n"
            "[[1.0, 2.0], [1.0, 2.0]]"
        ),
    ),
    Op(
        "data_ptr",
        method="() -> int",
        conj="pass",
        grad="none",
        doc="The address of the tensor's first element (storage start plus offset), as an int.",
        example=(
            ">>> x = ember.zeros(4)\n>>> x[1:].data_ptr() - x.data_ptr() == x.element_size()\nTrue"
        ),
    ),
    Op(
        "element_size",
        method="() -> int",
        conj="pass",
        grad="none",
        doc="The size in bytes of one element of the tensor's dtype.",
        example=(">>> ember.zeros(1, dtype=ember.float64).element_size()\n8"),
    ),
    Op(
        "fill_",
        method="(value: Number | Tensor) -> Tensor",
        grad="rule",
        doc="Sets every element to value (a number or a one-element tensor), in place.",
        example=(">>> ember.zeros(3).fill_(2).tolist()\n[2.0, 2.0, 2.0]"),
    ),
    Op(
        "is_contiguous",
        method="() -> bool",
        conj="pass",
        grad="none",
        doc="Whether the elements lie in row-major order without gaps.",
        example=(
            ">>> ember.zeros(2, 3).is_contiguous(), ember.zeros(2, 3).t().is_contiguous()\n"
            "(True, False)"
        ),
    ),
    Op(
        "item",
        method="() -> Number",
        grad="none",
        doc="The value of a one-element tensor as a Python number.",
        example=(">>> ember.tensor([[2.5]]).item()\n2.5"),
    ),
    Op(
        "ndimension",
        method="() -> int",
        conj="pass",
        grad="none",
        doc="The number of dims (dim() under an older name).",
        example=(">>> ember.zeros(2, 3).ndimension()\n2"),
    ),
    Op(
        "nelement",
        method="() -> int",
        conj="pass",
        grad="none",
        doc="The number of elements (numel() under another name).",
        example=(">>> ember.zeros(2, 3).nelement()\n6"),
    ),
    Op(
        "numel",
        method="() -> int",
        conj="pass",
        grad="none",
        doc="The number of elements: the product of the sizes.",
        example=(">>> ember.zeros(2, 3).numel()\n6"),
    ),
    Op(
        "size",
        method="(dim: int | None = None) -> Any",
        conj="pass",
        grad="none",
        doc="The shape as an ember.Size, or the size of one dim (an int) when dim is given.",
        example=(
            ">>> ember.zeros(2, 3).size()\nember.Size([2, 3])\n>>> ember.zeros(2, 3).size(-1)\n3"
        ),
    ),
    Op(
        "storage_offset",
        method="() -> int",
        conj="pass",
        grad="none",
        doc="Where the tensor starts in its storage, in elements.",
        example=(">>> ember.arange(6)[2:].storage_offset()\n2"),
    ),
    Op(
        "stride",
        method="(dim: int | None = None) -> Any",
        conj="pass",
        grad="none",
        doc="The strides (in elements) as a tuple, or one dim's stride (an int) when dim is given.",
        example=(">>> ember.zeros(2, 3).stride()\n(3, 1)\n>>> ember.zeros(2, 3).stride(0)\n3"),
    ),
    Op(
        "tolist",
        method="() -> Any",
        grad="none",
        doc="The values as nested Python lists (a plain number for a 0-d tensor).",
        example=(
            ">>> ember.tensor([[1, 2], [3, 4]]).tolist()\n[[1, 2], [3, 4]]\n"
            ">>> ember.tensor(1.5).tolist()\n1.5"
        ),
    ),
    Op(
        "zero_",
        method="() -> Tensor",
        grad="rule",
        doc="Sets every element to zero, in place; returns self.",
        example=(">>> ember.ones(2).zero_().tolist()\n[0.0, 0.0]"),
    ),
]
