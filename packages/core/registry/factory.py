"""The factory family: ops that create tensors (filled, from data, ranges, random samples) and
the default generator's seed and state (fields: registry/_schema.py)."""

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
        details=(
            "Args:\n"
            "    start (Number): the first value (0 when only one number is given).\n"
            "    end (Number): the bound, not included.\n"
            "    step (Number): the gap, non-zero, with the sign of end - start.\n"
            "    out, dtype, device, requires_grad: as in torch; int64 when every number is an int."
        ),
        example=(">>> ember.arange(1, 7, 2).tolist()\n[1, 3, 5]"),
    ),
    Op(
        "as_tensor",
        function=(
            "(data: Any, *, dtype: dtype | None = None, device: Device | None = None) -> Tensor"
        ),
        conj="structural",
        grad="none",
        dtypes="all, unsigned",
        doc="data as a tensor, sharing memory with a tensor or NumPy array when dtype/device fit.",
        example=(
            ">>> a = numpy.zeros(2)\n>>> t = ember.as_tensor(a)\n>>> a[0] = 5\n"
            ">>> t.tolist()\n[5.0, 0.0]"
        ),
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
        dtypes="float",
        inplace_grad="random",
        doc="1 with probability input (or p when given), else 0, in input's dtype.",
        details=(
            "Args:\n"
            "    input (Tensor): the probabilities, in [0, 1] (a floating dtype).\n"
            "    p (float, optional): one probability for every element instead.\n"
            "    generator (Generator, optional): the stream to draw from.\n"
            "    out: as in torch."
        ),
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
        details=(
            "Args:\n"
            "    size (int...): the shape, as varargs or one sequence.\n"
            "    out, dtype, device, requires_grad: as in torch (dtype defaults to the default "
            "dtype)."
        ),
        example=(">>> ember.empty(2, 3).shape\nember.Size([2, 3])"),
    ),
    Op(
        "empty_like",
        function=(
            "(input: Tensor, *, dtype: dtype | None = None, device: Device | None = None, "
            "requires_grad: bool | None = False) -> Tensor"
        ),
        grad="factory",
        dtypes="all, unsigned",
        doc="An uninitialized tensor with input's shape, layout and dtype (unless dtype=).",
        details=(
            "Args:\n"
            "    input (Tensor): the template.\n"
            "    dtype, device, requires_grad: as in torch."
        ),
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
        details=(
            "Args:\n"
            "    size (sequence of int): the shape.\n"
            "    stride (sequence of int): the strides, non-negative.\n"
            "    dtype, device, requires_grad: as in torch."
        ),
        example=(">>> ember.empty_strided((2, 3), (1, 2)).stride()\n(1, 2)"),
    ),
    Op(
        "exponential_",
        method="(lambd: float = 1.0, *, generator: Generator | None = None) -> Tensor",
        grad="random",
        doc="Fills self with samples of the exponential distribution with rate lambd.",
        details=(
            "Args:\n"
            "    lambd (float): the rate, > 0 (1 by default).\n"
            "    generator (Generator, optional): the stream to draw from."
        ),
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
        details=(
            "Args:\n"
            "    n (int): the number of rows.\n"
            "    m (int, optional): the number of columns (n by default).\n"
            "    out, dtype, device, requires_grad: as in torch."
        ),
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
        details=(
            "Args:\n"
            "    size (sequence of int): the shape.\n"
            "    fill_value (Number): the value; the dtype follows it (bool, int64 or the default "
            "dtype).\n"
            "    out, dtype, device, requires_grad: as in torch."
        ),
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
        details=(
            "Args:\n"
            "    input (Tensor): the template.\n"
            "    fill_value (Number): the value.\n"
            "    dtype, device, requires_grad: as in torch."
        ),
        example=(">>> ember.full_like(ember.zeros(2), 3).tolist()\n[3.0, 3.0]"),
    ),
    Op(
        "get_rng_state",
        function="() -> Tensor",
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
        details=(
            "Args:\n"
            "    start (Number): the first value.\n"
            "    end (Number): the last value.\n"
            "    steps (int): how many values, >= 0.\n"
            "    out, dtype, device, requires_grad: as in torch."
        ),
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
        details=(
            "Args:\n"
            "    start (Number): the first exponent.\n"
            "    end (Number): the last exponent.\n"
            "    steps (int): how many values, >= 0.\n"
            "    base (float): the base, 10 by default.\n"
            "    out, dtype, device, requires_grad: as in torch."
        ),
        example=(">>> ember.logspace(0, 2, 3).tolist()\n[1.0, 10.0, 100.0]"),
    ),
    Op(
        "manual_seed",
        function="(seed: int) -> Generator",
        grad="none",
        doc="Seeds the default generator; returns ember.default_generator.",
        details="Args:\n    seed (int): in [-2**63, 2**64); negative seeds wrap modulo 2**64.",
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
        dtypes="float+complex",
        doc="The arithmetic mean over all elements or over `dim` (floating or complex input).",
        example=(">>> ember.tensor([[1.0, 2.0], [3.0, 5.0]]).mean(1).tolist()\n[1.5, 4.0]"),
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
        dtypes="float",
        inplace_grad="random",
        doc="Normal samples: normal(mean, std) broadcasting tensors, or normal(mean, std, size).",
        details=(
            "Args:\n"
            "    mean (Tensor or float): the means.\n"
            "    std (Tensor or float): the standard deviations, >= 0.\n"
            "    size (sequence of int): the shape, when mean and std are numbers.\n"
            "    generator (Generator, optional): the stream to draw from.\n"
            "    out, dtype, device, requires_grad: as in torch."
        ),
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
        details=(
            "Args:\n"
            "    size (int...): the shape, as varargs or one sequence.\n"
            "    out, dtype, device, requires_grad: as in torch."
        ),
        example=(">>> ember.ones((2,), dtype=ember.int64).tolist()\n[1, 1]"),
    ),
    Op(
        "ones_like",
        function=(
            "(input: Tensor, *, dtype: dtype | None = None, device: Device | None = None, "
            "requires_grad: bool | None = False) -> Tensor"
        ),
        grad="factory",
        dtypes="all, unsigned",
        doc="A tensor of ones shaped like input.",
        details=(
            "Args:\n"
            "    input (Tensor): the template.\n"
            "    dtype, device, requires_grad: as in torch."
        ),
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
        details=(
            "Args:\n"
            "    size (int...): the shape, as varargs or one sequence.\n"
            "    generator (Generator, optional): the stream to draw from (ember.default_generator "
            "by default).\n"
            "    out, dtype (a floating dtype), device, requires_grad: as in torch."
        ),
        example=(">>> _ = ember.manual_seed(0)\n>>> bool((ember.rand(3) < 1).all())\nTrue"),
    ),
    Op(
        "rand_like",
        function=(
            "(input: Tensor, *, generator: Generator | None = None, dtype: dtype | None = None, "
            "device: Device | None = None, requires_grad: bool | None = False) -> Tensor"
        ),
        grad="factory",
        dtypes="float",
        doc="rand with input's shape, dtype and layout.",
        details=(
            "Args:\n"
            "    input (Tensor): the template.\n"
            "    generator (Generator, optional): the stream to draw from.\n"
            "    dtype, device, requires_grad: as in torch."
        ),
        example=(">>> ember.rand_like(ember.zeros(2)).shape\nember.Size([2])"),
    ),
    Op(
        "randint",
        function=(
            "(*args: int | Sequence[int], low: int | None = None, high: int | None = None, "
            "size: Sequence[int] | None = None, generator: Generator | None = None, "
            "out: Tensor | None = None, dtype: dtype | None = None, device: Device | None = None, "
            "requires_grad: bool | None = False) -> Tensor"
        ),
        grad="factory",
        doc="Integers uniform in [low, high): randint(high, size) or randint(low, high, size).",
        details=(
            "Args:\n"
            "    low (int): the smallest value (0 by default).\n"
            "    high (int): one above the largest value.\n"
            "    size (sequence of int): the shape.\n"
            "    generator (Generator, optional): the stream to draw from.\n"
            "    out, dtype (int64 by default), device, requires_grad: as in torch."
        ),
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
        details=(
            "Args:\n"
            "    input (Tensor): the template.\n"
            "    low (int): the smallest value (0 by default).\n"
            "    high (int): one above the largest value.\n"
            "    generator, dtype, device, requires_grad: as in torch."
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
        details=(
            "Args:\n"
            "    size (int...): the shape, as varargs or one sequence.\n"
            "    generator (Generator, optional): the stream to draw from.\n"
            "    out, dtype (a floating dtype), device, requires_grad: as in torch."
        ),
        example=(">>> ember.randn(2, 3).shape\nember.Size([2, 3])"),
    ),
    Op(
        "randn_like",
        function=(
            "(input: Tensor, *, generator: Generator | None = None, dtype: dtype | None = None, "
            "device: Device | None = None, requires_grad: bool | None = False) -> Tensor"
        ),
        grad="factory",
        dtypes="float+complex",
        doc="randn with input's shape, dtype and layout.",
        details=(
            "Args:\n"
            "    input (Tensor): the template.\n"
            "    generator (Generator, optional): the stream to draw from.\n"
            "    dtype, device, requires_grad: as in torch."
        ),
        example=(">>> ember.randn_like(ember.zeros(2)).shape\nember.Size([2])"),
    ),
    Op(
        "random_",
        method=(
            "(from_: int | None = None, to: int | None = ..., *, "
            "generator: Generator | None = None) -> Tensor"
        ),
        grad="random",
        doc="Fills self with integers: random_(), random_(to), random_(from, to|None).",
        details=(
            "Args:\n"
            "    from (int): the smallest value (0 by default).\n"
            "    to (int or None): one above the largest value; None or absent means up to the\n"
            "        dtype's largest integer (2**mantissa for floats).\n"
            "    generator (Generator, optional): the stream to draw from."
        ),
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
        details=(
            "Args:\n"
            "    n (int): the length, >= 0.\n"
            "    generator (Generator, optional): the stream to draw from.\n"
            "    out, dtype (int64 by default), device, requires_grad: as in torch."
        ),
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
        function="(new_state: Tensor) -> None",
        grad="none",
        doc="Restores the default generator's state from get_rng_state().",
        details="Args:\n    new_state (Tensor): a uint8 tensor from get_rng_state().",
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
        dtypes="float+complex",
        doc="The standard deviation over all elements or `dim` (Bessel's correction=1 by default).",
        example=(
            ">>> ember.tensor([1.0, 3.0]).std().item()\n1.4142135381698608\n"
            ">>> ember.tensor([1.0, 3.0]).std(correction=0).item()\n1.0"
        ),
    ),
    Op(
        "tensor",
        function=(
            "(data: Any, *, dtype: dtype | None = None, device: Device | None = None, "
            "requires_grad: bool = False, pin_memory: bool = False) -> Tensor"
        ),
        grad="factory",
        dtypes="all, unsigned",
        doc="A new tensor holding a copy of data (a number, nested sequences, an array, a tensor).",
        details=(
            "Args:\n"
            "    data: the values; the dtype follows them (bool, int64, the default dtype or\n"
            "        complex) unless dtype= is given.\n"
            "    dtype, device, requires_grad, pin_memory: as in torch."
        ),
        example=(
            ">>> ember.tensor([[1, 2], [3, 4]]).shape\nember.Size([2, 2])\n"
            ">>> ember.tensor([1, 2.5]).dtype\nember.float32"
        ),
    ),
    Op(
        "uniform_",
        method=(
            "(from_: float = 0.0, to: float = 1.0, *, generator: Generator | None = None) -> Tensor"
        ),
        grad="random",
        doc="Fills self with samples uniform in [from, to).",
        details=(
            "Args:\n"
            "    from (float): the lower bound (0 by default).\n"
            "    to (float): the upper bound, excluded (1 by default).\n"
            "    generator (Generator, optional): the stream to draw from."
        ),
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
        details=(
            "Args:\n"
            "    size (int...): the shape, as varargs or one sequence.\n"
            "    out, dtype, device, requires_grad: as in torch."
        ),
        example=(">>> ember.zeros(2).tolist()\n[0.0, 0.0]"),
    ),
    Op(
        "zeros_like",
        function=(
            "(input: Tensor, *, dtype: dtype | None = None, device: Device | None = None, "
            "requires_grad: bool | None = False) -> Tensor"
        ),
        grad="factory",
        dtypes="all, unsigned",
        doc="A tensor of zeros shaped like input.",
        details=(
            "Args:\n"
            "    input (Tensor): the template.\n"
            "    dtype, device, requires_grad: as in torch."
        ),
        example=(">>> ember.zeros_like(ember.ones(2)).tolist()\n[0.0, 0.0]"),
    ),
]
