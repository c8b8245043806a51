// Docstrings of the creation and random functions (Google style, each with a runnable example).
#pragma once

namespace ember::py::docs {
constexpr const char* empty =
    R"doc(Returns an uninitialized tensor of the given size.

Args:
    size (int...): the shape, as varargs or one sequence.
    out, dtype, device, requires_grad: as in torch (dtype defaults to the default dtype).

Example:
    >>> ember.empty(2, 3).shape
    ember.Size([2, 3])
)doc";
constexpr const char* zeros =
    R"doc(Returns a tensor filled with 0.

Args:
    size (int...): the shape, as varargs or one sequence.
    out, dtype, device, requires_grad: as in torch.

Example:
    >>> ember.zeros(2).tolist()
    [0.0, 0.0]
)doc";
constexpr const char* ones =
    R"doc(Returns a tensor filled with 1.

Args:
    size (int...): the shape, as varargs or one sequence.
    out, dtype, device, requires_grad: as in torch.

Example:
    >>> ember.ones((2,), dtype=ember.int64).tolist()
    [1, 1]
)doc";
constexpr const char* empty_like =
    R"doc(An uninitialized tensor with input's shape, layout and dtype (unless dtype=).

Args:
    input (Tensor): the template.
    dtype, device, requires_grad: as in torch.

Example:
    >>> ember.empty_like(ember.ones(3)).shape
    ember.Size([3])
)doc";
constexpr const char* zeros_like =
    R"doc(A tensor of zeros shaped like input.

Args:
    input (Tensor): the template.
    dtype, device, requires_grad: as in torch.

Example:
    >>> ember.zeros_like(ember.ones(2)).tolist()
    [0.0, 0.0]
)doc";
constexpr const char* ones_like =
    R"doc(A tensor of ones shaped like input.

Args:
    input (Tensor): the template.
    dtype, device, requires_grad: as in torch.

Example:
    >>> ember.ones_like(ember.zeros(2)).tolist()
    [1.0, 1.0]
)doc";
constexpr const char* full =
    R"doc(Returns a tensor of the given size filled with fill_value.

Args:
    size (sequence of int): the shape.
    fill_value (Number): the value; the dtype follows it (bool, int64 or the default dtype).
    out, dtype, device, requires_grad: as in torch.

Example:
    >>> ember.full((2,), 7).tolist()
    [7, 7]
)doc";
constexpr const char* full_like =
    R"doc(A tensor shaped like input, filled with fill_value (input's dtype unless dtype=).

Args:
    input (Tensor): the template.
    fill_value (Number): the value.
    dtype, device, requires_grad: as in torch.

Example:
    >>> ember.full_like(ember.zeros(2), 3).tolist()
    [3.0, 3.0]
)doc";
constexpr const char* empty_strided =
    R"doc(Returns an uninitialized tensor with the given size and strides (in elements).

Args:
    size (sequence of int): the shape.
    stride (sequence of int): the strides, non-negative.
    dtype, device, requires_grad: as in torch.

Example:
    >>> ember.empty_strided((2, 3), (1, 2)).stride()
    (1, 2)
)doc";
constexpr const char* arange =
    R"doc(Values from start to end (exclusive) by step; ceil((end - start) / step) of them.

Args:
    start (Number): the first value (0 when only one number is given).
    end (Number): the bound, not included.
    step (Number): the gap, non-zero, with the sign of end - start.
    out, dtype, device, requires_grad: as in torch; int64 when every number is an int.

Example:
    >>> ember.arange(1, 7, 2).tolist()
    [1, 3, 5]
)doc";
constexpr const char* linspace =
    R"doc(steps values evenly spaced from start to end, both included.

Args:
    start (Number): the first value.
    end (Number): the last value.
    steps (int): how many values, >= 0.
    out, dtype, device, requires_grad: as in torch.

Example:
    >>> ember.linspace(0, 1, 5).tolist()
    [0.0, 0.25, 0.5, 0.75, 1.0]
)doc";
constexpr const char* logspace =
    R"doc(steps values base ** x for x evenly spaced from start to end.

Args:
    start (Number): the first exponent.
    end (Number): the last exponent.
    steps (int): how many values, >= 0.
    base (float): the base, 10 by default.
    out, dtype, device, requires_grad: as in torch.

Example:
    >>> ember.logspace(0, 2, 3).tolist()
    [1.0, 10.0, 100.0]
)doc";
constexpr const char* eye =
    R"doc(A 2-D tensor with ones on the diagonal and zeros elsewhere.

Args:
    n (int): the number of rows.
    m (int, optional): the number of columns (n by default).
    out, dtype, device, requires_grad: as in torch.

Example:
    >>> ember.eye(2).tolist()
    [[1.0, 0.0], [0.0, 1.0]]
)doc";
constexpr const char* rand =
    R"doc(Samples uniform in [0, 1) of the given size.

Args:
    size (int...): the shape, as varargs or one sequence.
    generator (Generator, optional): the stream to draw from (ember.default_generator by default).
    out, dtype (a floating dtype), device, requires_grad: as in torch.

Example:
    >>> _ = ember.manual_seed(0)
    >>> bool((ember.rand(3) < 1).all())
    True
)doc";
constexpr const char* randn =
    R"doc(Samples from the standard normal distribution.

Args:
    size (int...): the shape, as varargs or one sequence.
    generator (Generator, optional): the stream to draw from.
    out, dtype (a floating dtype), device, requires_grad: as in torch.

Example:
    >>> ember.randn(2, 3).shape
    ember.Size([2, 3])
)doc";
constexpr const char* rand_like =
    R"doc(rand with input's shape, dtype and layout.

Args:
    input (Tensor): the template.
    generator (Generator, optional): the stream to draw from.
    dtype, device, requires_grad: as in torch.

Example:
    >>> ember.rand_like(ember.zeros(2)).shape
    ember.Size([2])
)doc";
constexpr const char* randn_like =
    R"doc(randn with input's shape, dtype and layout.

Args:
    input (Tensor): the template.
    generator (Generator, optional): the stream to draw from.
    dtype, device, requires_grad: as in torch.

Example:
    >>> ember.randn_like(ember.zeros(2)).shape
    ember.Size([2])
)doc";
constexpr const char* randint =
    R"doc(Integers uniform in [low, high): randint(high, size) or randint(low, high, size).

Args:
    low (int): the smallest value (0 by default).
    high (int): one above the largest value.
    size (sequence of int): the shape.
    generator (Generator, optional): the stream to draw from.
    out, dtype (int64 by default), device, requires_grad: as in torch.

Example:
    >>> x = ember.randint(3, 5, (4,))
    >>> bool(((x >= 3) & (x < 5)).all())
    True
)doc";
constexpr const char* randint_like =
    R"doc(randint with input's shape and dtype: randint_like(input, high) or (input, low, high).

Args:
    input (Tensor): the template.
    low (int): the smallest value (0 by default).
    high (int): one above the largest value.
    generator, dtype, device, requires_grad: as in torch.

Example:
    >>> ember.randint_like(ember.zeros(2), 10).dtype
    ember.float32
)doc";
constexpr const char* randperm =
    R"doc(A random permutation of 0 .. n - 1.

Args:
    n (int): the length, >= 0.
    generator (Generator, optional): the stream to draw from.
    out, dtype (int64 by default), device, requires_grad: as in torch.

Example:
    >>> sorted(ember.randperm(4).tolist())
    [0, 1, 2, 3]
)doc";
constexpr const char* normal =
    R"doc(Normal samples: normal(mean, std) broadcasting tensors, or normal(mean, std, size).

Args:
    mean (Tensor or float): the means.
    std (Tensor or float): the standard deviations, >= 0.
    size (sequence of int): the shape, when mean and std are numbers.
    generator (Generator, optional): the stream to draw from.
    out, dtype, device, requires_grad: as in torch.

Example:
    >>> ember.normal(0.0, 1.0, (2,)).shape
    ember.Size([2])
)doc";
constexpr const char* bernoulli =
    R"doc(1 with probability input (or p when given), else 0, in input's dtype.

Args:
    input (Tensor): the probabilities, in [0, 1] (a floating dtype).
    p (float, optional): one probability for every element instead.
    generator (Generator, optional): the stream to draw from.
    out: as in torch.

Example:
    >>> ember.bernoulli(ember.ones(2)).tolist()
    [1.0, 1.0]
)doc";
constexpr const char* manual_seed =
    R"doc(Seeds the default generator; returns ember.default_generator.

Args:
    seed (int): in [-2**63, 2**64); negative seeds wrap modulo 2**64.

Example:
    >>> ember.manual_seed(3).initial_seed()
    3
)doc";
constexpr const char* seed =
    R"doc(Seeds the default generator from a non-deterministic source; returns the seed.

Example:
    >>> isinstance(ember.seed(), int)
    True
)doc";
constexpr const char* initial_seed =
    R"doc(The seed the default generator was last seeded with.

Example:
    >>> _ = ember.manual_seed(5)
    >>> ember.initial_seed()
    5
)doc";
constexpr const char* get_rng_state =
    R"doc(The default generator's state: a uint8 tensor (seed and offset).

Example:
    >>> ember.get_rng_state().shape
    ember.Size([16])
)doc";
constexpr const char* set_rng_state =
    R"doc(Restores the default generator's state from get_rng_state().

Args:
    new_state (Tensor): a uint8 tensor from get_rng_state().

Example:
    >>> ember.set_rng_state(ember.get_rng_state())
)doc";
constexpr const char* uniform_ =
    R"doc(Fills self with samples uniform in [from, to).

Args:
    from (float): the lower bound (0 by default).
    to (float): the upper bound, excluded (1 by default).
    generator (Generator, optional): the stream to draw from.

Example:
    >>> bool((ember.empty(3).uniform_(2, 3) >= 2).all())
    True
)doc";
constexpr const char* normal_ =
    R"doc(Fills self with normal samples.

Args:
    mean (float): the mean (0 by default).
    std (float): the standard deviation, >= 0 (1 by default).
    generator (Generator, optional): the stream to draw from.

Example:
    >>> ember.empty(3).normal_(0, 1).shape
    ember.Size([3])
)doc";
constexpr const char* random_ =
    R"doc(Fills self with integers: random_(), random_(to), random_(from, to|None).

Args:
    from (int): the smallest value (0 by default).
    to (int or None): one above the largest value; None or absent means up to the
        dtype's largest integer (2**mantissa for floats).
    generator (Generator, optional): the stream to draw from.

Example:
    >>> bool((ember.empty(4).random_(3) < 3).all())
    True
)doc";
constexpr const char* bernoulli_ =
    R"doc(Fills self with 1 with probability p, else 0.

Args:
    p (float or Tensor): the probability, in [0, 1]; a tensor broadcasts to self's shape.
    generator (Generator, optional): the stream to draw from.

Example:
    >>> ember.zeros(2).bernoulli_(1.0).tolist()
    [1.0, 1.0]
)doc";
constexpr const char* exponential_ =
    R"doc(Fills self with samples of the exponential distribution with rate lambd.

Args:
    lambd (float): the rate, > 0 (1 by default).
    generator (Generator, optional): the stream to draw from.

Example:
    >>> bool((ember.empty(3).exponential_() >= 0).all())
    True
)doc";
constexpr const char* bernoulli_method =
    R"doc(1 with probability self, else 0 (see ember.bernoulli).

Args:
    generator (Generator, optional): the stream to draw from.

Example:
    >>> ember.ones(2).bernoulli().tolist()
    [1.0, 1.0]
)doc";
}  // namespace ember::py::docs
