"""Random numbers: Philox4x32-10 generators, seeding, samplers and their statistics.

Statistical checks use fixed seeds and tolerances many standard errors wide: they cannot flake.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ember
from conftest import FLOAT_DTYPES, INT_DTYPES, NUMPY_DTYPES, shapes, to_numpy

N = 100_003  # above the parallel grain and odd: threads split the work mid-block


@pytest.fixture(autouse=True)
def restore_rng() -> Iterator[None]:
    state = ember.get_rng_state()
    threads = ember.get_num_threads()
    yield
    ember.set_rng_state(state)
    ember.set_num_threads(threads)


# ---- the generator ----


@pytest.mark.parametrize(
    ("counter", "key", "expected"),
    [  # Random123's known-answer vectors for philox4x32-10.
        ([0, 0, 0, 0], [0, 0], [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]),
        ([0xFFFFFFFF] * 4, [0xFFFFFFFF] * 2, [0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD]),
        (
            [0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344],
            [0xA4093822, 0x299F31D0],
            [0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1],
        ),
    ],
)
def test_philox_known_answers(counter: list[int], key: list[int], expected: list[int]) -> None:
    assert list(ember._C._philox4x32_10(counter, key)) == expected


def test_seeding_api() -> None:
    assert ember.manual_seed(7) is ember.default_generator
    assert ember.initial_seed() == 7
    assert ember.manual_seed(-1).initial_seed() == 2**64 - 1  # negative seeds wrap
    assert ember.manual_seed(2**64 - 1).initial_seed() == 2**64 - 1
    s = ember.seed()
    assert isinstance(s, int) and 0 <= s < 2**64 and ember.initial_seed() == s
    g = ember.Generator()
    assert g.manual_seed(3) is g and g.initial_seed() == 3
    assert ember.Generator(device="cpu").device == "cpu"
    s = g.seed()
    assert g.initial_seed() == s


@pytest.mark.parametrize(
    ("seed", "exc"),
    [
        (2**64, ValueError),
        (-(2**63) - 1, ValueError),
        (float("nan"), ValueError),
        (float("inf"), ValueError),
        ("1", TypeError),
        (None, TypeError),
    ],
)
def test_bad_seeds(seed: Any, exc: type[Exception]) -> None:
    with pytest.raises(exc, match=r"^\[manual_seed\]"):
        ember.manual_seed(seed)
    with pytest.raises(exc, match=r"^\[manual_seed\]"):
        ember.Generator().manual_seed(seed)


def test_state_round_trip() -> None:
    g = ember.Generator().manual_seed(11)
    state = g.get_state()
    assert state.dtype == ember.uint8 and tuple(state.shape) == (16,)
    a = to_numpy(ember.rand(10, generator=g))
    assert not np.array_equal(to_numpy(g.get_state()), to_numpy(state))
    assert g.set_state(state) is g
    np.testing.assert_array_equal(to_numpy(ember.rand(10, generator=g)), a)
    ember.manual_seed(5)
    saved = ember.get_rng_state()
    b = to_numpy(ember.randn(7))
    ember.set_rng_state(saved)
    np.testing.assert_array_equal(to_numpy(ember.randn(7)), b)


def test_bad_states() -> None:
    g = ember.Generator()
    with pytest.raises(RuntimeError, match=r"^\[set_state\] expected an RNG state of 16 bytes"):
        g.set_state(ember.zeros(3, dtype=ember.uint8))
    with pytest.raises(TypeError, match=r"^\[set_state\] RNG state must be a uint8 tensor"):
        g.set_state(ember.zeros(16))
    with pytest.raises(TypeError, match=r"^\[set_rng_state\]"):
        ember.set_rng_state(b"0" * 16)


def test_bad_generator_and_device() -> None:
    with pytest.raises(TypeError, match=r"^\[rand\] argument 'generator' must be an ember"):
        ember.rand(2, generator=3)
    with pytest.raises(RuntimeError, match=r"^\[Generator\] device 'cuda': CUDA tensors"):
        ember.Generator(device="cuda")


# ---- reproducibility ----

SAMPLERS: dict[str, Callable[[Any], Any]] = {
    "rand": lambda g: ember.rand(N, generator=g),
    "rand_f64": lambda g: ember.rand(N, dtype=ember.float64, generator=g),
    "rand_f16": lambda g: ember.rand(N, dtype=ember.float16, generator=g),
    "randn": lambda g: ember.randn(N, generator=g),
    "randn_f64": lambda g: ember.randn(N, dtype=ember.float64, generator=g),
    "randint": lambda g: ember.randint(-5, 1000, (N,), generator=g),
    "randint_wide": lambda g: ember.randint(-(2**62), 2**62, (N,), generator=g),
    "randperm": lambda g: ember.randperm(1000, generator=g),
    "normal": lambda g: ember.normal(2.0, 3.0, (N,), generator=g),
    "normal_tensor": lambda g: ember.normal(ember.zeros(N), ember.ones(1), generator=g),
    "bernoulli": lambda g: ember.bernoulli(ember.full((N,), 0.3), generator=g),
    "bernoulli_p": lambda g: ember.bernoulli(ember.zeros(N), 0.3, generator=g),
    "rand_like": lambda g: ember.rand_like(ember.zeros(N), generator=g),
    "randn_like": lambda g: ember.randn_like(ember.zeros(N), generator=g),
    "randint_like": lambda g: ember.randint_like(ember.zeros(N), 3, 9, generator=g),
    "uniform_": lambda g: ember.empty(N).uniform_(-2, 5, generator=g),
    "normal_": lambda g: ember.empty(N).normal_(1, 2, generator=g),
    "random_": lambda g: ember.empty(N, dtype=ember.int32).random_(generator=g),
    "bernoulli_": lambda g: ember.empty(N).bernoulli_(0.5, generator=g),
    "bernoulli_tensor_": lambda g: ember.empty(N).bernoulli_(ember.full((N,), 0.5), generator=g),
    "exponential_": lambda g: ember.empty(N).exponential_(2.0, generator=g),
}


def draw(name: str, seed: int, use_default: bool = False) -> np.ndarray:
    if use_default:
        ember.manual_seed(seed)
        return to_numpy(SAMPLERS[name](None))
    return to_numpy(SAMPLERS[name](ember.Generator().manual_seed(seed)))


@pytest.mark.parametrize("name", list(SAMPLERS))
def test_same_seed_same_numbers(name: str) -> None:
    a = draw(name, 123)
    np.testing.assert_array_equal(draw(name, 123), a)
    np.testing.assert_array_equal(draw(name, 123, use_default=True), a)
    assert not np.array_equal(draw(name, 124), a)


@pytest.mark.parametrize("name", list(SAMPLERS))
def test_thread_count_does_not_change_numbers(name: str) -> None:
    ember.set_num_threads(1)
    one = draw(name, 99)
    ember.set_num_threads(2)
    np.testing.assert_array_equal(draw(name, 99), one)


def test_generators_are_independent() -> None:
    g1 = ember.Generator().manual_seed(1)
    g2 = ember.Generator().manual_seed(1)
    a = to_numpy(ember.rand(5, generator=g1))
    ember.manual_seed(1)
    ember.rand(100)  # the default generator advancing does not move g2
    ember.rand(3, generator=ember.Generator())
    np.testing.assert_array_equal(to_numpy(ember.rand(5, generator=g2)), a)
    # Successive draws continue the stream instead of repeating it.
    assert not np.array_equal(to_numpy(ember.rand(5, generator=g1)), a)


def test_stream_is_split_consistently() -> None:
    # float32 packs four values per Philox block: two draws of 8 continue one draw of 16.
    ember.manual_seed(8)
    whole = to_numpy(ember.rand(16))
    ember.manual_seed(8)
    parts = np.concatenate([to_numpy(ember.rand(8)), to_numpy(ember.rand(8))])
    np.testing.assert_array_equal(parts, whole)


def test_strided_in_place_fills_only_the_view() -> None:
    base = np.zeros((6, 8))
    view = ember.from_numpy(base[:, ::2])
    view.uniform_(1, 2, generator=ember.Generator().manual_seed(4))
    assert np.all(base[:, 1::2] == 0)
    assert np.all((base[:, ::2] >= 1) & (base[:, ::2] < 2))
    # Same numbers, in logical order, as a contiguous fill.
    g = ember.Generator().manual_seed(4)
    dense = ember.empty(6, 4, dtype=ember.float64).uniform_(1, 2, generator=g)
    np.testing.assert_array_equal(base[:, ::2], to_numpy(dense))


@given(
    shape=shapes(max_dims=3),
    dtype=st.sampled_from([ember.float16, ember.float32, ember.float64]),
    seed=st.integers(0, 2**64 - 1),
    sampler=st.sampled_from(["uniform_", "normal_", "exponential_", "bernoulli_", "random_"]),
)
def test_in_place_on_views_matches_contiguous(
    shape: tuple[int, ...], dtype: Any, seed: int, sampler: str
) -> None:
    base = np.zeros((*shape, 3), NUMPY_DTYPES[dtype])
    view = ember.from_numpy(base[..., ::2])  # strided: every other element of the last dim
    getattr(view, sampler)(generator=ember.Generator().manual_seed(seed))
    dense = ember.empty(*shape, 2, dtype=dtype)
    getattr(dense, sampler)(generator=ember.Generator().manual_seed(seed))
    np.testing.assert_array_equal(base[..., ::2], to_numpy(dense))
    assert np.all(base[..., 1] == 0)


INT_RANGES = {
    ember.uint8: (0, 256),
    ember.int8: (-128, 128),
    ember.int16: (-(2**15), 2**15),
    ember.int32: (-(2**31), 2**31),
    ember.int64: (-(2**63), 2**63),
}


@given(data=st.data(), dtype=st.sampled_from(list(INT_RANGES)), seed=st.integers(0, 2**32))
def test_randint_any_range(data: st.DataObject, dtype: Any, seed: int) -> None:
    lo, hi = INT_RANGES[dtype]
    low = data.draw(st.integers(lo, hi - 2))
    high = data.draw(st.integers(low + 1, hi - 1))
    g = ember.Generator().manual_seed(seed)
    x = to_numpy(ember.randint(low, high, (64,), dtype=dtype, generator=g)).astype(object)
    assert min(x) >= low and max(x) < high
    if high - low == 1:
        assert set(x) == {low}


# ---- statistics ----


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_rand_statistics(dtype: Any) -> None:
    ember.manual_seed(0)
    x = to_numpy(ember.rand(N, dtype=dtype)).astype(np.float64)
    assert x.min() >= 0 and x.max() < 1
    assert abs(x.mean() - 0.5) < 0.01
    assert abs(x.std() - 12**-0.5) < 0.01
    assert len(np.unique(x)) > (200 if dtype == ember.bfloat16 else 1500)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize(("low", "high"), [(-3.0, 5.0), (1.0, 1.001), (2.0, 2.0), (0.0, 1e-3)])
def test_uniform_bounds(dtype: Any, low: float, high: float) -> None:
    t = ember.empty(20_000, dtype=dtype).uniform_(low, high, generator=ember.Generator())
    assert t.dtype == dtype
    x = to_numpy(t).astype(np.float64)
    lo = float(ember.full((1,), low, dtype=dtype).double().numpy()[0])  # low as dtype rounds it
    assert x.min() >= lo
    if high > low:
        assert x.max() < high
    else:
        assert np.all(x == lo)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_randn_statistics(dtype: Any) -> None:
    ember.manual_seed(1)
    x = to_numpy(ember.randn(N, dtype=dtype)).astype(np.float64)
    assert abs(x.mean()) < 0.02
    assert abs(x.std() - 1) < 0.02
    assert abs(np.mean(x**3)) < 0.05  # symmetric
    assert abs(np.mean(np.abs(x) < 1) - 0.6827) < 0.01
    assert np.all(np.isfinite(x)) and np.abs(x).max() < 7


def test_normal_forms() -> None:
    g = ember.Generator().manual_seed(2)
    x = to_numpy(ember.normal(3.0, 2.0, (N,), generator=g))
    assert abs(x.mean() - 3) < 0.05 and abs(x.std() - 2) < 0.05
    x = to_numpy(ember.empty(N, dtype=ember.float64).normal_(-1.0, 0.5, generator=g))
    assert abs(x.mean() + 1) < 0.01 and abs(x.std() - 0.5) < 0.01
    # Tensor mean (a column) broadcast against tensor std (a row).
    mean = ember.tensor([[0.0], [100.0]])
    std = ember.tensor([1.0, 0.0, 10.0])
    x = to_numpy(ember.normal(mean, std))
    assert x.shape == (2, 3)
    assert np.all(x[:, 1] == [0.0, 100.0])  # std 0 gives the mean exactly
    x = to_numpy(ember.normal(ember.full((N,), 5.0), 0.1, generator=g))
    assert abs(x.mean() - 5) < 0.01 and abs(x.std() - 0.1) < 0.01
    x = to_numpy(ember.normal(1.0, ember.full((N,), 2.0), generator=g))
    assert abs(x.mean() - 1) < 0.05 and abs(x.std() - 2) < 0.05


def test_normal_dtypes() -> None:
    assert ember.normal(0.0, 1.0, (2,)).dtype == ember.float32
    assert ember.normal(0.0, 1.0, (2,), dtype=ember.float64).dtype == ember.float64
    assert ember.normal(ember.zeros(2, dtype=ember.float16), 1.0).dtype == ember.float16
    assert ember.normal(ember.zeros(2), ember.ones(2, dtype=ember.float64)).dtype == ember.float32
    assert ember.normal(0.0, ember.ones(2, dtype=ember.float64)).dtype == ember.float64
    assert tuple(ember.normal(0.0, ember.ones(())).shape) == ()


@pytest.mark.parametrize("dtype", [*INT_DTYPES, ember.float32, ember.float16])
def test_randint_statistics(dtype: Any) -> None:
    low = 0 if dtype == ember.uint8 else -3
    x = to_numpy(ember.randint(low, 7, (N,), dtype=dtype, generator=ember.Generator()))
    assert x.min() == low and x.max() == 6
    counts = np.bincount((x - low).astype(np.int64))
    expected = N / (7 - low)
    assert np.all(np.abs(counts - expected) < 0.05 * expected)


def test_randint_large_span_is_unbiased() -> None:
    # 32-bit draws reduced modulo 3 * 2^30 would make the lowest third twice as likely.
    x = to_numpy(ember.randint(0, 3 * 2**30, (N,), generator=ember.Generator()))
    assert abs(np.mean(x < 2**30) - 1 / 3) < 0.01


def test_randint_forms_and_ranges() -> None:
    assert ember.randint(3, (2,)).dtype == ember.int64
    x = to_numpy(ember.randint(5, (1000,)))
    assert x.min() >= 0 and x.max() < 5
    x = to_numpy(ember.randint(2, high=5, size=(1000,)))
    assert x.min() >= 2 and x.max() < 5
    x = to_numpy(ember.randint(high=4, size=(1000,)))
    assert x.min() >= 0 and x.max() < 4
    x = to_numpy(ember.randint(0, 2, (1000,), dtype=ember.bool))
    assert x.dtype == np.bool_ and 0 < x.sum() < 1000
    x = to_numpy(ember.randint(-(2**63), 2**63 - 1, (1000,)))
    assert x.min() < -(2**61) and x.max() > 2**61  # the full range is reachable
    assert tuple(ember.randint(0, 5, (0, 3)).shape) == (0, 3)
    assert tuple(ember.randint(0, 5, ()).shape) == ()
    out = ember.empty(1, dtype=ember.int16)
    assert ember.randint(0, 5, (4,), out=out) is out and out.dtype == ember.int16


@pytest.mark.parametrize("dtype", [ember.int64, ember.int32, ember.float32, ember.float64])
def test_randperm_is_a_permutation(dtype: Any) -> None:
    for n in [0, 1, 2, 1000]:
        p = to_numpy(ember.randperm(n, dtype=dtype, generator=ember.Generator().manual_seed(n)))
        assert p.dtype == ember.tensor([], dtype=dtype).numpy().dtype
        np.testing.assert_array_equal(np.sort(p), np.arange(n))
    p = to_numpy(ember.randperm(1000, dtype=dtype))
    assert np.mean(p == np.arange(1000)) < 0.05  # actually shuffled


def test_randperm_limits() -> None:
    assert to_numpy(ember.randperm(256, dtype=ember.uint8)).max() == 255
    assert to_numpy(ember.randperm(2049, dtype=ember.float16)).max() == 2048
    with pytest.raises(RuntimeError, match=r"^\[randperm\] n=257 is too large for dtype uint8"):
        ember.randperm(257, dtype=ember.uint8)
    with pytest.raises(RuntimeError, match=r"^\[randperm\] n must be non-negative, got -1"):
        ember.randperm(-1)
    with pytest.raises(NotImplementedError, match=r"^\[randperm\] .*not implemented for 'Bool'"):
        ember.randperm(3, dtype=ember.bool)
    with pytest.raises(TypeError, match=r"^\[randperm\] argument 'n' must be an int"):
        ember.randperm(3.0)


@pytest.mark.parametrize("dtype", [ember.float32, ember.float64, ember.int64, ember.bool])
def test_bernoulli_in_place(dtype: Any) -> None:
    g = ember.Generator().manual_seed(3)
    x = to_numpy(ember.empty(N, dtype=dtype).bernoulli_(0.3, generator=g)).astype(np.float64)
    assert set(np.unique(x)) <= {0.0, 1.0}
    assert abs(x.mean() - 0.3) < 0.01
    assert to_numpy(ember.zeros(10, dtype=dtype).bernoulli_(1.0)).all()
    assert not to_numpy(ember.ones(10, dtype=dtype).bernoulli_(0.0)).any()


def test_bernoulli_tensor_p() -> None:
    p = ember.tensor([0.0, 1.0, 0.5, 0.25] * 25_000)
    x = to_numpy(ember.bernoulli(p, generator=ember.Generator()))
    assert x.dtype == np.float32
    assert np.all(x[0::4] == 0) and np.all(x[1::4] == 1)
    assert abs(x[2::4].mean() - 0.5) < 0.02 and abs(x[3::4].mean() - 0.25) < 0.02
    # p broadcasts to self's shape in bernoulli_.
    t = ember.empty(4, 3).bernoulli_(ember.tensor([0.0, 1.0, 0.0]))
    np.testing.assert_array_equal(to_numpy(t), np.tile([0.0, 1.0, 0.0], (4, 1)))
    x = to_numpy(ember.bernoulli(ember.zeros(1000, dtype=ember.float64), 0.5))
    assert x.dtype == np.float64 and 300 < x.sum() < 700


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_exponential(dtype: Any) -> None:
    x = to_numpy(ember.empty(N, dtype=dtype).exponential_(4.0, generator=ember.Generator()))
    x = x.astype(np.float64)
    assert x.min() >= 0 and np.all(np.isfinite(x))
    assert abs(x.mean() - 0.25) < 0.01 and abs(x.std() - 0.25) < 0.01


@pytest.mark.parametrize("dtype", [*INT_DTYPES, ember.bool, *FLOAT_DTYPES])
def test_random_default_range(dtype: Any) -> None:
    x = to_numpy(ember.empty(N, dtype=dtype).random_(generator=ember.Generator()))
    x = x.astype(np.float64)
    top = {
        ember.bool: 1,
        ember.uint8: 255,
        ember.int8: 127,
        ember.int16: 2**15 - 1,
        ember.int32: 2**31 - 1,
        ember.int64: 2**63 - 1,
        ember.float16: 2**11,
        ember.bfloat16: 2**8,
        ember.float32: 2**24,
        ember.float64: 2**53,
    }[dtype]
    assert x.min() >= 0 and x.max() <= top
    assert x.mean() > 0.4 * top and np.all(x == np.round(x))


def test_random_forms() -> None:
    x = to_numpy(ember.empty(1000).random_(5))
    assert x.min() == 0 and x.max() == 4
    x = to_numpy(ember.empty(1000, dtype=ember.int64).random_(-4, 4))
    assert x.min() == -4 and x.max() == 3
    x = to_numpy(ember.empty(1000, dtype=ember.int8).random_(100, None))
    assert x.min() >= 100 and x.max() <= 127
    x = to_numpy(ember.empty(1000, dtype=ember.int64).random_(-(2**63), None))
    assert x.min() < -(2**61) and x.max() > 2**61


def test_zero_dim_and_empty() -> None:
    assert tuple(ember.rand(()).shape) == () and tuple(ember.randn([]).shape) == ()
    assert ember.rand(0).numel() == 0 and tuple(ember.randn(2, 0).shape) == (2, 0)
    before = to_numpy(ember.default_generator.get_state())
    ember.empty(0).uniform_()
    np.testing.assert_array_equal(to_numpy(ember.default_generator.get_state()), before)


def test_out_and_like() -> None:
    out = ember.empty(1, dtype=ember.float64)
    assert ember.rand(3, 2, out=out) is out
    assert tuple(out.shape) == (3, 2) and out.dtype == ember.float64
    src = ember.from_numpy(np.zeros((2, 3), np.float32).T)
    for op in [ember.rand_like, ember.randn_like]:
        t = op(src)
        assert t.dtype == ember.float32 and t.stride() == (1, 3)
        assert op(src, dtype=ember.float64).dtype == ember.float64
    x = to_numpy(ember.randint_like(src, 10))
    assert x.dtype == np.float32 and x.min() >= 0 and x.max() < 10
    x = to_numpy(ember.randint_like(src, 5, 7, dtype=ember.int8))
    assert x.dtype == np.int8 and set(np.unique(x)) <= {5, 6}


# ---- bad input ----

BAD_CALLS: list[tuple[str, Callable[[], Any], type[Exception], str]] = [
    ("randn", lambda: ember.randn(2, dtype=ember.int64), NotImplementedError, "'Long'"),
    ("rand", lambda: ember.rand(2, dtype=ember.bool), NotImplementedError, "'Bool'"),
    (
        "rand_like",
        lambda: ember.rand_like(ember.zeros(2, dtype=ember.int32)),
        NotImplementedError,
        "'Int'",
    ),
    (
        "randn_like",
        lambda: ember.randn_like(ember.zeros(2, dtype=ember.uint8)),
        NotImplementedError,
        "'Byte'",
    ),
    (
        "uniform_",
        lambda: ember.zeros(2, dtype=ember.int64).uniform_(),
        NotImplementedError,
        "'Long'",
    ),
    (
        "normal_",
        lambda: ember.zeros(2, dtype=ember.int16).normal_(),
        NotImplementedError,
        "'Short'",
    ),
    (
        "normal",
        lambda: ember.normal(ember.zeros(2, dtype=ember.int64), 1.0),
        NotImplementedError,
        "'Long'",
    ),
    (
        "normal",
        lambda: ember.normal(0.0, 1.0, (2,), dtype=ember.int64),
        NotImplementedError,
        "'Long'",
    ),
    ("bernoulli", lambda: ember.bernoulli(ember.tensor([0, 1])), NotImplementedError, "'Long'"),
    ("randint", lambda: ember.randint(5, 3, (2,)), RuntimeError, "low=5 >= high=3"),
    ("randint", lambda: ember.randint(3, 3, (2,)), RuntimeError, "low=3 >= high=3"),
    (
        "randint",
        lambda: ember.randint(0, 300, (2,), dtype=ember.uint8),
        RuntimeError,
        "out of bounds for uint8",
    ),
    (
        "randint",
        lambda: ember.randint(-1, 3, (2,), dtype=ember.uint8),
        RuntimeError,
        "from=-1 is out of bounds",
    ),
    (
        "randint",
        lambda: ember.randint(0, 2**40, (2,), dtype=ember.int32),
        RuntimeError,
        "out of bounds for int32",
    ),
    ("randint", lambda: ember.randint(3), TypeError, "expected"),
    ("randint", lambda: ember.randint(0, 3), TypeError, "'size' must be a tuple"),
    ("randint", lambda: ember.randint(0.5, 3, (2,)), TypeError, "'low' must be an int"),
    ("randint", lambda: ember.randint(0, 3, (-1,)), RuntimeError, "negative dimension"),
    ("normal", lambda: ember.normal(0.0, -1.0, (2,)), RuntimeError, "std >= 0.0"),
    ("normal", lambda: ember.normal(ember.zeros(2), -ember.ones(2)), RuntimeError, "std >= 0.0"),
    (
        "normal",
        lambda: ember.normal(ember.zeros(2), ember.ones(3)),
        RuntimeError,
        "cannot be broadcast",
    ),
    ("normal", lambda: ember.normal(0.0, 1.0), TypeError, "'size' argument is required"),
    ("normal", lambda: ember.normal(ember.zeros(2), 1.0, (2,)), TypeError, "only accepted"),
    ("normal", lambda: ember.normal(0.0, 1.0, (-2,)), RuntimeError, "negative dimension"),
    ("normal_", lambda: ember.zeros(2).normal_(0, -1), RuntimeError, "std >= 0.0"),
    ("uniform_", lambda: ember.zeros(2).uniform_(1, 0), RuntimeError, "from=1 > to=0"),
    ("uniform_", lambda: ember.zeros(2).uniform_(0, float("inf")), RuntimeError, "out of bounds"),
    ("uniform_", lambda: ember.zeros(2).uniform_(float("nan"), 1), RuntimeError, "out of bounds"),
    (
        "uniform_",
        lambda: ember.zeros(2, dtype=ember.float16).uniform_(0, 1e5),
        RuntimeError,
        "out of bounds for float16",
    ),
    ("uniform_", lambda: ember.zeros(2).uniform_(-3e38, 3e38), RuntimeError, "to - from"),
    ("random_", lambda: ember.zeros(2).random_(5, 2), RuntimeError, "from=5 >= to=2"),
    (
        "random_",
        lambda: ember.zeros(2, dtype=ember.uint8).random_(0, 300),
        RuntimeError,
        "out of bounds for uint8",
    ),
    (
        "random_",
        lambda: ember.zeros(2, dtype=ember.int8).random_(200, None),
        RuntimeError,
        "from=200",
    ),
    ("random_", lambda: ember.zeros(2).random_(0.5, 3), TypeError, "must be an int"),
    ("bernoulli_", lambda: ember.zeros(2).bernoulli_(1.5), RuntimeError, "p=1.5"),
    ("bernoulli_", lambda: ember.zeros(2).bernoulli_(-0.1), RuntimeError, "in \\[0, 1\\]"),
    (
        "bernoulli_",
        lambda: ember.zeros(3).bernoulli_(ember.tensor([0.0, 1.0])),
        RuntimeError,
        "cannot be broadcast",
    ),
    (
        "bernoulli_",
        lambda: ember.zeros(2).bernoulli_(ember.tensor([0.5, 2.0])),
        RuntimeError,
        "found 2",
    ),
    (
        "bernoulli",
        lambda: ember.bernoulli(ember.tensor([float("nan")])),
        RuntimeError,
        "in \\[0, 1\\]",
    ),
    ("exponential_", lambda: ember.zeros(2).exponential_(0), RuntimeError, "lambda > 0.0"),
    ("exponential_", lambda: ember.zeros(2).exponential_(-1), RuntimeError, "lambda=-1"),
    (
        "exponential_",
        lambda: ember.zeros(2, dtype=ember.int64).exponential_(),
        RuntimeError,
        "dtype must be a floating point but you specified Long",
    ),
    ("rand", lambda: ember.rand(2, 3.5), TypeError, "'size'"),
    ("randperm", lambda: ember.randperm(None), TypeError, "'n' must be an int"),
    ("normal", lambda: ember.normal(None, 1.0, (2,)), TypeError, "'mean' must be a real number"),
    ("uniform_", lambda: ember.zeros(2).uniform_(None), TypeError, "'from'"),
    ("exponential_", lambda: ember.zeros(2).exponential_(None), TypeError, "'lambd'"),
    ("rand_like", lambda: ember.rand_like(3), TypeError, "'input' must be a Tensor"),
    ("bernoulli", lambda: ember.bernoulli(0.5), TypeError, "'input' must be a Tensor"),
    ("randint", lambda: ember.randint(0, None, (2,)), TypeError, "'high' must be an int"),
    ("set_state", lambda: ember.Generator().set_state(None), TypeError, "uint8 tensor"),
    ("manual_seed", lambda: ember.manual_seed(None), TypeError, "seed must be an int"),
]


@pytest.mark.parametrize(
    ("op", "call", "exc", "message"),
    BAD_CALLS,
    ids=[f"{c[0]}-{i}" for i, c in enumerate(BAD_CALLS)],
)
def test_bad_input(op: str, call: Callable[[], Any], exc: type[Exception], message: str) -> None:
    with pytest.raises(exc, match=rf"^\[{op}\].*{message}"):
        call()


def test_failed_call_does_not_write() -> None:
    t = ember.zeros(4)
    with pytest.raises(RuntimeError):
        t.uniform_(3, 1)
    np.testing.assert_array_equal(to_numpy(t), np.zeros(4, np.float32))
