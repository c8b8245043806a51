"""polygamma, cov/corrcoef, cdist, the NaN-skipping nansum/nanmean kernels, clamp with tensor
bounds and the out= forms of softmax/log_softmax/diff, against numpy oracles."""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ember
from conftest import FLOAT_DTYPES, assert_close, raises, shapes, tensor, to_numpy

# ---------------------------------------------------------------- polygamma


def polygamma_oracle(n: int, x: np.ndarray) -> np.ndarray:
    """(-1)^(n+1) n! sum_k (x + k)^-(n+1), summed directly past every pole, then the
    Euler-Maclaurin tail (integral, half term, first Bernoulli term) from x + K."""
    s = n + 1
    k_max = 2000 + int(max(0.0, -float(np.min(x))))
    k = np.arange(k_max, dtype=np.float64)
    head = np.sum((x[..., None] + k) ** -s, axis=-1)
    t = x + k_max
    tail = t ** (1 - s) / (s - 1) + 0.5 * t**-s + s * t ** (-s - 1) / 12
    return (-1) ** (n + 1) * math.factorial(n) * (head + tail)


@given(st.integers(1, 6), st.lists(st.floats(-6, 30).filter(lambda v: abs(v - round(v)) > 0.05),
                                  min_size=1, max_size=8))  # fmt: skip
def test_polygamma_matches_series(n: int, values: list[float]) -> None:
    a = np.array(values)
    assert_close(ember.polygamma(n, ember.from_numpy(a)), polygamma_oracle(n, a), rtol=1e-10)


def test_polygamma_known_values_and_special_points() -> None:
    one = ember.tensor([1.0, 0.5], dtype=ember.float64)
    pi = math.pi
    assert_close(ember.polygamma(1, one), [pi**2 / 6, pi**2 / 2], rtol=1e-14)
    assert_close(ember.polygamma(3, one[:1]), [pi**4 / 15], rtol=1e-14)
    zeta3 = 1.2020569031595942
    assert_close(ember.polygamma(2, one[:1]), [-2 * zeta3], rtol=1e-14)
    special = ember.tensor([0.0, -2.0, math.inf, -math.inf, math.nan], dtype=ember.float64)
    # Poles give (-1)^(n+1) inf, +inf gives 0, -inf and NaN give NaN.
    assert to_numpy(ember.polygamma(1, special)).tolist()[:3] == [math.inf, math.inf, 0.0]
    assert to_numpy(ember.polygamma(2, special)).tolist()[:3] == [-math.inf, -math.inf, 0.0]
    assert np.isnan(to_numpy(ember.polygamma(2, special))[3:]).all()
    # n = 0 is digamma; very large n overflows to inf (or underflows to 0) without hanging.
    x = ember.tensor([0.3, 4.5])
    assert_close(ember.polygamma(0, x), to_numpy(ember.digamma(x)))
    huge = to_numpy(ember.polygamma(2**62, ember.tensor([0.5, 2.0], dtype=ember.float64)))
    assert np.isinf(huge).all()
    # 171! and 200^-172 overflow and underflow on their own; their product is ~1e-87.
    scaled = np.sum((200.0 / (200.0 + np.arange(5000))) ** 172)
    expected = -math.exp(math.lgamma(172) - 172 * math.log(200.0) + math.log(scaled))
    got = ember.polygamma(171, ember.tensor([200.0], dtype=ember.float64))
    assert_close(got, [expected], rtol=1e-9)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_polygamma_dtypes_in_place_and_out(dtype: Any) -> None:
    a = np.array([0.25, 1.5, 3.0])
    x = ember.from_numpy(a).to(dtype)
    expected = polygamma_oracle(2, a)
    assert_close(ember.polygamma(2, x), expected, dtype=dtype)
    assert_close(x.polygamma(2), expected, dtype=dtype)
    y = x.clone()
    assert y.polygamma_(2) is y
    assert_close(y, expected, dtype=dtype)
    out = ember.empty(1, dtype=ember.float64)
    assert ember.polygamma(2, x, out=out) is out
    # Integers promote to the default dtype; their in-place form cannot hold the result.
    assert ember.polygamma(1, ember.tensor([1, 2])).dtype == ember.float32


def test_polygamma_bad_input() -> None:
    x = ember.tensor([1.0])
    raises(RuntimeError, "polygamma", lambda: ember.polygamma(-1, x), "negative n")
    raises(TypeError, "polygamma", lambda: ember.polygamma(1.5, x), "'n'")
    raises(TypeError, "polygamma", lambda: ember.polygamma(True, x), "'n'")
    raises(TypeError, "polygamma", lambda: ember.polygamma(1, [1.0]), "Tensor")
    with pytest.raises(RuntimeError, match=r"^\[polygamma"):
        ember.tensor([1, 2]).polygamma_(1)


# ---------------------------------------------------------------- cov / corrcoef


@given(shapes(min_side=1, max_side=5, min_dims=2, max_dims=2), st.integers(0, 2), st.data())
def test_cov_matches_numpy(shape: tuple[int, ...], correction: int, data: st.DataObject) -> None:
    a = np.random.default_rng(shape[0] * 7 + shape[1]).standard_normal(shape)
    kwargs: dict[str, Any] = {}
    np_kwargs: dict[str, Any] = {}
    if data.draw(st.booleans()):
        fw = data.draw(st.lists(st.integers(1, 3), min_size=shape[1], max_size=shape[1]))
        kwargs["fweights"], np_kwargs["fweights"] = ember.tensor(fw), np.array(fw)
    if data.draw(st.booleans()):
        aw = data.draw(st.lists(st.floats(0.1, 2), min_size=shape[1], max_size=shape[1]))
        kwargs["aweights"] = ember.tensor(aw, dtype=ember.float64)
        np_kwargs["aweights"] = np.array(aw)
    with _quiet():
        expected = np.cov(a, ddof=correction, **np_kwargs)
    got = ember.cov(ember.from_numpy(a), correction=correction, **kwargs)
    if shape[1] == 1 and kwargs:
        # One weighted observation: its deviation is 0 up to the rounding of the weighted
        # mean (~1e-17), so each entry is ~0 / norm_factor: ~0, or nan when that factor is 0.
        values = to_numpy(got)
        assert ((np.abs(values) < 1e-28) | ~np.isfinite(values)).all()
        return
    assert_close(got, expected, rtol=1e-9, atol=1e-12)
    assert_close(ember.from_numpy(a).cov(correction=correction, **kwargs), expected, rtol=1e-9,
                 atol=1e-12)  # fmt: skip


@contextmanager
def _quiet() -> Iterator[None]:
    """Silences numpy's degrees-of-freedom warnings (torch and ember give inf/nan quietly)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def test_cov_corrcoef_shapes_dtypes_and_corners() -> None:
    x = ember.tensor([[0.0, 1.0, 5.0], [2.0, 7.0, 3.0]])
    a = to_numpy(x)
    assert_close(ember.cov(x.long()), np.cov(a), dtype=ember.float32)
    assert_close(ember.cov(x[0]), np.cov(a[0]))  # 1-d: a 0-d variance
    assert_close(ember.cov(x.half()), np.cov(a), dtype=ember.float16)
    assert tuple(ember.cov(ember.ones(0, 3)).shape) == (0, 0)
    assert np.isnan(to_numpy(ember.cov(ember.ones(2, 1)))).all()
    assert np.isinf(to_numpy(ember.cov(x, correction=3))).all()  # no degrees of freedom left
    assert_close(ember.corrcoef(x), np.corrcoef(a))
    assert_close(x.corrcoef(), np.corrcoef(a))
    assert_close(ember.corrcoef(x.long()), np.corrcoef(a))
    assert float(ember.corrcoef(x[0])) == 1.0
    const = ember.tensor([[1.0, 1.0, 1.0], [1.0, 2.0, 3.0]])
    assert np.isnan(to_numpy(ember.corrcoef(const))[0]).all()
    r = to_numpy(ember.corrcoef(ember.from_numpy(np.random.default_rng(0).standard_normal((6, 9)))))
    assert (np.abs(r) <= 1).all()


def test_cov_bad_input() -> None:
    x = ember.ones(2, 3)
    raises(RuntimeError, "cov", lambda: ember.cov(ember.ones(2, 2, 2)), "3 dimensions")
    raises(RuntimeError, "cov", lambda: ember.cov(x.bool()), "bool")
    raises(
        RuntimeError, "cov", lambda: ember.cov(x, fweights=ember.tensor([1.0, 2, 1])), "integral"
    )
    raises(RuntimeError, "cov", lambda: ember.cov(x, fweights=ember.tensor([1, -2, 1])), "negative")
    raises(RuntimeError, "cov", lambda: ember.cov(x, fweights=ember.tensor([1, 2])), "2 != 3")
    raises(RuntimeError, "cov", lambda: ember.cov(x, aweights=ember.tensor([1, 2, 1])), "floating")
    raises(RuntimeError, "cov", lambda: ember.cov(x, aweights=ember.zeros(3)), "sum to zero")
    raises(TypeError, "cov", lambda: ember.cov(x, correction=1.5), "'correction'")
    raises(RuntimeError, "corrcoef", lambda: ember.corrcoef(ember.ones(2, 2, 2)), "3 dimensions")


# ---------------------------------------------------------------- cdist


def cdist_oracle(a: np.ndarray, b: np.ndarray, p: float) -> np.ndarray:
    d = np.abs(a[..., :, None, :] - b[..., None, :, :])
    if p == 0:
        return (d != 0).sum(-1).astype(a.dtype)
    if math.isinf(p):
        return d.max(-1, initial=0.0)
    return (d**p).sum(-1) ** (1 / p)


@given(
    st.integers(0, 4),
    st.integers(0, 4),
    st.integers(0, 3),
    st.sampled_from([0.0, 1.0, 2.0, 0.5, 3.0, math.inf]),
    st.sampled_from([(), (2,), (1, 3)]),
)
def test_cdist_matches_numpy(r1: int, r2: int, m: int, p: float, batch: tuple[int, ...]) -> None:
    rng = np.random.default_rng(r1 * 16 + r2 * 4 + m)
    a = rng.standard_normal((*batch, r1, m))
    b = rng.standard_normal((*batch[-1:], r2, m))  # batch dims broadcast
    got = ember.cdist(ember.from_numpy(a), ember.from_numpy(b), p=p)
    assert_close(got, cdist_oracle(a, b, p), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize(
    "mode",
    [None, "use_mm_for_euclid_dist", "donot_use_mm_for_euclid_dist"],
)
def test_cdist_euclidean_modes_agree(mode: str | None) -> None:
    rng = np.random.default_rng(1)
    a = rng.standard_normal((40, 5)).astype(np.float32)  # > 25 rows: the matmul path by default
    b = rng.standard_normal((30, 5)).astype(np.float32)
    got = ember.cdist(ember.from_numpy(a), ember.from_numpy(b), compute_mode=mode)
    assert_close(got, cdist_oracle(a, b, 2.0), dtype=ember.float32, rtol=1e-4, atol=1e-4)
    same = ember.from_numpy(a)
    assert (to_numpy(ember.cdist(same, same, compute_mode=mode)) >= 0).all()  # clamped at 0


def test_cdist_bad_input() -> None:
    x = ember.ones(2, 3)
    raises(RuntimeError, "cdist", lambda: ember.cdist(ember.ones(3), x), "X1 got: 1D")
    raises(RuntimeError, "cdist", lambda: ember.cdist(x, ember.ones(2, 4)), "X1: 3 X2: 4")
    raises(RuntimeError, "cdist", lambda: ember.cdist(x.long(), x.long()), "floating")
    raises(NotImplementedError, "cdist", lambda: ember.cdist(x.half(), x.half()), "float16")
    raises(RuntimeError, "cdist", lambda: ember.cdist(x.double(), x), "same dtype")
    raises(RuntimeError, "cdist", lambda: ember.cdist(x, x, p=-1.0), "non-negative")
    raises(RuntimeError, "cdist", lambda: ember.cdist(x, x, p=math.nan), "non-negative")
    raises(ValueError, "cdist", lambda: ember.cdist(x, x, compute_mode="bad"), "bad")
    raises(RuntimeError, "cdist", lambda: ember.cdist(ember.ones(2, 1, 3), ember.ones(3, 1, 3)))


# ---------------------------------------------------------------- nansum / nanmean kernels


@given(shapes(min_dims=1), st.data())
def test_nan_reductions_match_numpy(shape: tuple[int, ...], data: st.DataObject) -> None:
    rng = np.random.default_rng(sum(shape))
    a = rng.standard_normal(shape)
    a[rng.uniform(size=shape) < 0.3] = np.nan
    dim = data.draw(st.one_of(st.none(), st.integers(-len(shape), len(shape) - 1)))
    keepdim = data.draw(st.booleans())
    x = ember.from_numpy(a)
    with _quiet():
        mean = np.nanmean(a, axis=dim, keepdims=keepdim)
    assert_close(ember.nansum(x, dim, keepdim), np.nansum(a, axis=dim, keepdims=keepdim))
    assert_close(ember.nanmean(x, dim, keepdim), mean)


def test_nan_reductions_on_threads_keep_nan_from_infinities() -> None:
    threads = ember.get_num_threads()
    ember.set_num_threads(2)
    try:
        a = np.ones(1 << 20, np.float32)
        a[::7] = np.nan
        x = ember.from_numpy(a)
        assert float(ember.nansum(x)) == np.nansum(a)
        assert float(ember.nanmean(x)) == 1.0
        a[0], a[-1] = np.inf, -np.inf  # in two threads' partial sums: inf + -inf
        assert math.isnan(float(ember.nansum(ember.from_numpy(a))))
        a[-1], a[1] = 1.0, -np.inf  # inside one partial sum
        assert math.isnan(float(ember.nansum(ember.from_numpy(a))))
        rows = ember.from_numpy(np.full((4, 1 << 18), np.nan, np.float32))
        assert np.isnan(to_numpy(ember.nanmean(rows, 1))).all()  # nothing left to average
        assert (to_numpy(ember.nansum(rows, 1)) == 0).all()
    finally:
        ember.set_num_threads(threads)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_nan_reductions_dtypes(dtype: Any) -> None:
    a = np.array([[1.0, np.nan, 2.0], [np.nan, np.nan, 4.0]])
    x = ember.from_numpy(a).to(dtype)
    assert_close(ember.nansum(x, 1), np.nansum(a, 1), dtype=dtype)
    assert_close(ember.nanmean(x, 1), np.nanmean(a, 1), dtype=dtype)
    assert_close(ember.nanmean(x, dtype=ember.float64), np.nanmean(a), dtype=ember.float64)
    raises(RuntimeError, "nanmean", lambda: ember.nanmean(x, dtype=ember.int64), "dtype")


# ---------------------------------------------------------------- clamp with tensor bounds


@given(shapes(max_dims=3), st.data())
def test_clamp_tensor_bounds_match_numpy(shape: tuple[int, ...], data: st.DataObject) -> None:
    rng = np.random.default_rng(len(shape))
    a, lo, hi = (rng.standard_normal(shape) for _ in range(3))
    x = ember.from_numpy(a)
    assert_close(ember.clamp(x, ember.from_numpy(lo), ember.from_numpy(hi)),
                 np.minimum(np.maximum(a, lo), hi))  # fmt: skip
    assert_close(x.clamp(min=ember.from_numpy(lo)), np.maximum(a, lo))
    y = x.clone()
    y.clamp_(max=ember.from_numpy(hi))
    assert_close(y, np.minimum(a, hi))


def test_clamp_tensor_bounds_dtype_rules() -> None:
    x = ember.tensor([1, 5, 9])
    assert ember.clamp(x, ember.tensor([2.5, 0.0, 0.0])).dtype == ember.float32
    raises(RuntimeError, "clamp_", lambda: x.clamp_(ember.tensor([2.5, 0.0, 0.0])), "cast")
    out = ember.empty(3, dtype=ember.int64)
    raises(RuntimeError, "clamp", lambda: ember.clamp(x.float(), ember.ones(3), out=out), "cast")
    raises(RuntimeError, "clamp", lambda: ember.clamp(x), "min", "max")


# ---------------------------------------------------------------- out= of softmax/diff


def test_softmax_diff_out_forms() -> None:
    x = tensor((2, 3))
    a = to_numpy(x)
    e = np.exp(a - a.max(1, keepdims=True))
    out = ember.empty(1)
    assert ember.softmax(x, 1, out=out) is out
    assert_close(out, e / e.sum(1, keepdims=True))
    out64 = ember.empty(1, dtype=ember.float64)
    assert ember.log_softmax(x, 1, dtype=ember.float64, out=out64) is out64
    assert_close(out64, np.log(e / e.sum(1, keepdims=True)), dtype=ember.float64)
    raises(RuntimeError, "softmax", lambda: ember.softmax(x, 1, out=out64), "dtype")
    out = ember.empty(1, dtype=ember.float64)  # diff: any dtype the result casts to
    assert ember.diff(x.long(), out=out) is out
    assert_close(out, np.diff(a), dtype=ember.float64)
    raises(
        RuntimeError, "diff", lambda: ember.diff(x, out=ember.empty(1, dtype=ember.int64)), "cast"
    )
