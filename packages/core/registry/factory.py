"""The factory family (fields: registry/_schema.py)."""

from registry._schema import Op

OPS = [
    Op(
        "arange",
        function=(
            "(start: Number | None = None, end: Number | None = None, step: Number = 1, *, "
            "out: Tensor | None = None, dtype: dtype | None = None, device: Device | None = None, "
            "requires_grad: bool | None = False) -> Tensor"
        ),
        grad="factory",
        doc="Values from start to end (exclusive) by step; ceil((end - start) / step) of them.",
        example=(">>> ember.arange(1, 7, 2).tolist()\n[1, 3, 5]"),
    ),
    Op(
        "bernoulli",
        function=(
            "(input: Tensor, p: float | None = None, *, generator: Generator | None = None, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method="(*, generator: Generator | None = None) -> Tensor",
        inplace="(p: Tensor | float = 0.5, *, generator: Generator | None = None) -> Tensor",
        grad="none",
        inplace_grad="random",
        doc="1 with probability input (or p when given), else 0, in input's dtype.",
        example=(">>> ember.bernoulli(ember.ones(2)).tolist()\n[1.0, 1.0]"),
    ),
    Op(
        "empty",
        function=(
            "(*size: int | Sequence[int], out: Tensor | None = None, dtype: dtype | None = None, "
            "device: Device | None = None, requires_grad: bool | None = False) -> Tensor"
        ),
        grad="factory",
        doc="Returns an uninitialized tensor of the given size.",
        example=(">>> ember.empty(2, 3).shape\nember.Size([2, 3])"),
    ),
    Op(
        "empty_like",
        function=(
            "(input: Tensor, *, dtype: dtype | None = None, device: Device | None = None, "
            "requires_grad: bool | None = False) -> Tensor"
        ),
        grad="factory",
        doc="An uninitialized tensor with input's shape, layout and dtype (unless dtype=).",
        example=(">>> ember.empty_like(ember.ones(3)).shape\nember.Size([3])"),
    ),
    Op(
        "empty_strided",
        function=(
            "(size: Sequence[int], stride: Sequence[int], *, dtype: dtype | None = None, "
            "device: Device | None = None, requires_grad: bool | None = False) -> Tensor"
        ),
        grad="factory",
        doc="Returns an uninitialized tensor with the given size and strides (in elements).",
        example=(">>> ember.empty_strided((2, 3), (1, 2)).stride()\n(1, 2)"),
    ),
    Op(
        "exponential_",
        method="(lambd: float = 1.0, *, generator: Generator | None = None) -> Tensor",
        grad="random",
        doc="Fills self with samples of the exponential distribution with rate lambd.",
        example=(">>> bool((ember.empty(3).exponential_() >= 0).all())\nTrue"),
    ),
    Op(
        "eye",
        function=(
            "(n: int, m: int | None = None, *, out: Tensor | None = None, "
            "dtype: dtype | None = None, device: Device | None = None, "
            "requires_grad: bool | None = False) -> Tensor"
        ),
        grad="factory",
        doc="A 2-D tensor with ones on the diagonal and zeros elsewhere.",
        example=(">>> ember.eye(2).tolist()\n[[1.0, 0.0], [0.0, 1.0]]"),
    ),
    Op(
        "full",
        function=(
            "(size: Sequence[int], fill_value: Number, *, out: Tensor | None = None, "
            "dtype: dtype | None = None, device: Device | None = None, "
            "requires_grad: bool | None = False) -> Tensor"
        ),
        grad="factory",
        doc="Returns a tensor of the given size filled with fill_value.",
        example=(">>> ember.full((2,), 7).tolist()\n[7, 7]"),
    ),
    Op(
        "full_like",
        function=(
            "(input: Tensor, fill_value: Number, *, dtype: dtype | None = None, "
            "device: Device | None = None, requires_grad: bool | None = False) -> Tensor"
        ),
        grad="factory",
        doc="A tensor shaped like input, filled with fill_value (input's dtype unless dtype=).",
        example=(">>> ember.full_like(ember.zeros(2), 3).tolist()\n[3.0, 3.0]"),
    ),
    Op(
        "get_rng_state",
        function="() -> Any",
        grad="none",
        doc="The default generator's state: a uint8 tensor (seed and offset).",
        example=(">>> ember.get_rng_state().shape\nember.Size([16])"),
    ),
    Op(
        "initial_seed",
        function="() -> int",
        grad="none",
        doc="The seed the default generator was last seeded with.",
        example=(">>> _ = ember.manual_seed(5)\n>>> ember.initial_seed()\n5"),
    ),
    Op(
        "linspace",
        function=(
            "(start: Number | Tensor, end: Number | Tensor, steps: int | None, *, "
            "out: Tensor | None = None, dtype: dtype | None = None, device: Device | None = None, "
            "requires_grad: bool | None = False) -> Tensor"
        ),
        grad="factory",
        doc="steps values evenly spaced from start to end, both included.",
        example=(">>> ember.linspace(0, 1, 5).tolist()\n[0.0, 0.25, 0.5, 0.75, 1.0]"),
    ),
    Op(
        "logspace",
        function=(
            "(start: Number | Tensor, end: Number | Tensor, steps: int | None, base: float = 10.0, "
            "*, out: Tensor | None = None, dtype: dtype | None = None, "
            "device: Device | None = None, requires_grad: bool | None = False) -> Tensor"
        ),
        grad="factory",
        doc="steps values base ** x for x evenly spaced from start to end.",
        example=(">>> ember.logspace(0, 2, 3).tolist()\n[1.0, 10.0, 100.0]"),
    ),
    Op(
        "manual_seed",
        function="(seed: Any) -> Any",
        grad="none",
        doc="Seeds the default generator; returns ember.default_generator.",
        example=(">>> ember.manual_seed(3).initial_seed()\n3"),
    ),
    Op(
        "mean",
        function=(
            "(input: Tensor, dim: int | Sequence[int] | None = None, keepdim: bool = False, *, "
            "dtype: dtype | None = None, out: Tensor | None = None) -> Tensor"
        ),
        method=(
            "(dim: int | Sequence[int] | None = None, keepdim: bool = False, *, "
            "dtype: dtype | None = None) -> Tensor"
        ),
        grad="rule",
    ),
    Op(
        "normal",
        function=(
            "(mean: Tensor | float, std: Tensor | float = 1.0, size: Sequence[int] | None = None, "
            "*, generator: Generator | None = None, out: Tensor | None = None, "
            "dtype: dtype | None = None, device: Device | None = None, "
            "requires_grad: bool | None = False) -> Tensor"
        ),
        inplace=(
            "(mean: float = 0.0, std: float = 1.0, *, generator: Generator | None = None) -> Tensor"
        ),
        grad="factory",
        inplace_grad="random",
        doc="Normal samples: normal(mean, std) broadcasting tensors, or normal(mean, std, size).",
        example=(">>> ember.normal(0.0, 1.0, (2,)).shape\nember.Size([2])"),
    ),
    Op(
        "ones",
        function=(
            "(*size: int | Sequence[int], out: Tensor | None = None, dtype: dtype | None = None, "
            "device: Device | None = None, requires_grad: bool | None = False) -> Tensor"
        ),
        grad="factory",
        doc="Returns a tensor filled with 1.",
        example=(">>> ember.ones((2,), dtype=ember.int64).tolist()\n[1, 1]"),
    ),
    Op(
        "ones_like",
        function=(
            "(input: Tensor, *, dtype: dtype | None = None, device: Device | None = None, "
            "requires_grad: bool | None = False) -> Tensor"
        ),
        grad="factory",
        doc="A tensor of ones shaped like input.",
        example=(">>> ember.ones_like(ember.zeros(2)).tolist()\n[1.0, 1.0]"),
    ),
    Op(
        "rand",
        function=(
            "(*size: int | Sequence[int], generator: Generator | None = None, "
            "out: Tensor | None = None, dtype: dtype | None = None, device: Device | None = None, "
            "requires_grad: bool | None = False) -> Tensor"
        ),
        grad="factory",
        doc="Samples uniform in [0, 1) of the given size.",
        example=(">>> _ = ember.manual_seed(0)\n>>> bool((ember.rand(3) < 1).all())\nTrue"),
    ),
    Op(
        "rand_like",
        function=(
            "(input: Tensor, *, generator: Generator | None = None, dtype: dtype | None = None, "
            "device: Device | None = None, requires_grad: bool | None = False) -> Tensor"
        ),
        grad="factory",
        doc="rand with input's shape, dtype and layout.",
        example=(">>> ember.rand_like(ember.zeros(2)).shape\nember.Size([2])"),
    ),
    Op(
        "randint",
        function=(
            "(*args: Any, low: int | None = None, high: int | None = None, "
            "size: Sequence[int] | None = None, generator: Generator | None = None, "
            "out: Tensor | None = None, dtype: dtype | None = None, device: Device | None = None, "
            "requires_grad: bool | None = False) -> Tensor"
        ),
        grad="factory",
        doc="Integers uniform in [low, high): randint(high, size) or randint(low, high, size).",
        example=(">>> x = ember.randint(3, 5, (4,))\n>>> bool(((x >= 3) & (x < 5)).all())\nTrue"),
    ),
    Op(
        "randint_like",
        function=(
            "(input: Tensor, low: int, high: int | Tensor | None = None, *, "
            "generator: Generator | None = None, dtype: dtype | None = None, "
            "device: Device | None = None, requires_grad: bool | None = False) -> Tensor"
        ),
        grad="factory",
        doc=(
            "randint with input's shape and dtype: randint_like(input, high) or (input, low, high)."
        ),
        example=(">>> ember.randint_like(ember.zeros(2), 10).dtype\nember.float32"),
    ),
    Op(
        "randn",
        function=(
            "(*size: int | Sequence[int], generator: Generator | None = None, "
            "out: Tensor | None = None, dtype: dtype | None = None, device: Device | None = None, "
            "requires_grad: bool | None = False) -> Tensor"
        ),
        grad="factory",
        doc="Samples from the standard normal distribution.",
        example=(">>> ember.randn(2, 3).shape\nember.Size([2, 3])"),
    ),
    Op(
        "randn_like",
        function=(
            "(input: Tensor, *, generator: Generator | None = None, dtype: dtype | None = None, "
            "device: Device | None = None, requires_grad: bool | None = False) -> Tensor"
        ),
        grad="factory",
        doc="randn with input's shape, dtype and layout.",
        example=(">>> ember.randn_like(ember.zeros(2)).shape\nember.Size([2])"),
    ),
    Op(
        "random_",
        method=(
            "(from_: Any = None, to: int | None = ..., *, "
            "generator: Generator | None = None) -> Tensor"
        ),
        grad="random",
        doc="Fills self with integers: random_(), random_(to), random_(from, to|None).",
        example=(">>> bool((ember.empty(4).random_(3) < 3).all())\nTrue"),
    ),
    Op(
        "randperm",
        function=(
            "(n: int, *, generator: Generator | None = None, out: Tensor | None = None, "
            "dtype: dtype | None = None, device: Device | None = None, "
            "requires_grad: bool | None = False) -> Tensor"
        ),
        grad="factory",
        doc="A random permutation of 0 .. n - 1.",
        example=(">>> sorted(ember.randperm(4).tolist())\n[0, 1, 2, 3]"),
    ),
    Op(
        "seed",
        function="() -> int",
        grad="none",
        doc="Seeds the default generator from a non-deterministic source; returns the seed.",
        example=(">>> isinstance(ember.seed(), int)\nTrue"),
    ),
    Op(
        "set_rng_state",
        function="(new_state: Any) -> None",
        grad="none",
        doc="Restores the default generator's state from get_rng_state().",
        example=">>> ember.set_rng_state(ember.get_rng_state())",
    ),
    Op(
        "std",
        function=(
            "(input: Tensor, dim: int | Sequence[int] | None = None, unbiased: bool | None = None, "
            "keepdim: bool = False, *, correction: Number | None = None, "
            "out: Tensor | None = None) -> Tensor"
        ),
        method=(
            "(dim: int | Sequence[int] | None = None, unbiased: bool | None = None, "
            "keepdim: bool = False, *, correction: Number | None = None) -> Tensor"
        ),
        grad="rule",
    ),
    Op(
        "uniform_",
        method=(
            "(from_: Any = 0.0, to: float = 1.0, *, generator: Generator | None = None) -> Tensor"
        ),
        grad="random",
        doc="Fills self with samples uniform in [from, to).",
        example=(">>> bool((ember.empty(3).uniform_(2, 3) >= 2).all())\nTrue"),
    ),
    Op(
        "zeros",
        function=(
            "(*size: int | Sequence[int], out: Tensor | None = None, dtype: dtype | None = None, "
            "device: Device | None = None, requires_grad: bool | None = False) -> Tensor"
        ),
        grad="factory",
        doc="Returns a tensor filled with 0.",
        example=(">>> ember.zeros(2).tolist()\n[0.0, 0.0]"),
    ),
    Op(
        "zeros_like",
        function=(
            "(input: Tensor, *, dtype: dtype | None = None, device: Device | None = None, "
            "requires_grad: bool | None = False) -> Tensor"
        ),
        grad="factory",
        doc="A tensor of zeros shaped like input.",
        example=(">>> ember.zeros_like(ember.ones(2)).tolist()\n[0.0, 0.0]"),
    ),
]
