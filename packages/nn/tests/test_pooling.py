"""Pooling against naive numpy loops (float64), gradcheck, modules and bad input."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ember
import ember.nn as nn
import ember.nn.functional as F
from ember.autograd import gradcheck

_rng = np.random.default_rng(11)


def T(a, grad=False):
    return ember.from_numpy(np.ascontiguousarray(a)).requires_grad_(grad)


def distinct(*shape):
    """Values at least 0.1 apart: no ties for max."""
    n = math.prod(shape)
    return (_rng.permutation(n) * 0.1 - 0.05 * n).reshape(shape)


def out_len(size, k, s, p, d, ceil):
    o = (size + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil else 0)) // s + 1
    if ceil and (o - 1) * s >= size + p:
        o -= 1
    return o


def max_pool_ref(x, k, s, p, dil, ceil):
    dims = x.ndim - 2
    spatial = x.shape[2:]
    out = [out_len(spatial[i], k[i], s[i], p[i], dil[i], ceil) for i in range(dims)]
    values = np.full((*x.shape[:2], *out), -np.inf)
    index = np.zeros((*x.shape[:2], *out), dtype=np.int64)
    for pos in itertools.product(*[range(o) for o in out]):
        # torch's index of a window with no input element: its first position >= 0 per dim
        first = [pos[i] * s[i] - p[i] for i in range(dims)]
        first = [
            f + (-f + dil[i] - 1) // dil[i] * dil[i] if f < 0 else f for i, f in enumerate(first)
        ]
        index[(slice(None), slice(None), *pos)] = sum(
            first[i] * math.prod(spatial[i + 1 :]) for i in range(dims)
        )
        for kp in itertools.product(*[range(v) for v in k]):
            at = [pos[i] * s[i] - p[i] + kp[i] * dil[i] for i in range(dims)]
            if any(a < 0 or a >= spatial[i] for i, a in enumerate(at)):
                continue
            v = x[(slice(None), slice(None), *at)]
            flat = np.ravel_multi_index(at, spatial)
            better = v > values[(slice(None), slice(None), *pos)]
            values[(slice(None), slice(None), *pos)] = np.where(better, v, values[(..., *pos)])
            index[(slice(None), slice(None), *pos)] = np.where(better, flat, index[(..., *pos)])
    return values, index


def avg_pool_ref(x, k, s, p, ceil, include_pad, divisor):
    dims = x.ndim - 2
    spatial = x.shape[2:]
    out = [out_len(spatial[i], k[i], s[i], p[i], 1, ceil) for i in range(dims)]
    result = np.zeros((*x.shape[:2], *out))
    for pos in itertools.product(*[range(o) for o in out]):
        starts = [pos[i] * s[i] - p[i] for i in range(dims)]
        ends = [min(starts[i] + k[i], spatial[i] + p[i]) for i in range(dims)]
        size = math.prod(ends[i] - starts[i] for i in range(dims))
        lo = [max(v, 0) for v in starts]
        hi = [min(ends[i], spatial[i]) for i in range(dims)]
        window = x[(slice(None), slice(None), *[slice(lo[i], hi[i]) for i in range(dims)])]
        count = size if include_pad else math.prod(hi[i] - lo[i] for i in range(dims))
        div = divisor if divisor is not None else count
        result[(slice(None), slice(None), *pos)] = window.sum(axis=tuple(range(2, 2 + dims))) / div
    return result


def adaptive_ref(x, out, reduce):
    dims = x.ndim - 2
    spatial = x.shape[2:]
    result = np.zeros((*x.shape[:2], *out))
    for pos in itertools.product(*[range(o) for o in out]):
        sl = [
            slice((pos[i] * spatial[i]) // out[i], -((-(pos[i] + 1) * spatial[i]) // out[i]))
            for i in range(dims)
        ]
        window = x[(slice(None), slice(None), *sl)]
        result[(slice(None), slice(None), *pos)] = reduce(window, axis=tuple(range(2, 2 + dims)))
    return result


MAX = {1: F.max_pool1d, 2: F.max_pool2d, 3: F.max_pool3d}
AVG = {1: F.avg_pool1d, 2: F.avg_pool2d, 3: F.avg_pool3d}


@st.composite
def pool_case(draw, dilation=True):
    d = draw(st.integers(1, 3))
    k = [draw(st.integers(1, 3)) for _ in range(d)]
    s = [draw(st.integers(1, 3)) for _ in range(d)]
    dil = [draw(st.integers(1, 2)) if dilation else 1 for _ in range(d)]
    p = [draw(st.integers(0, ((k[i] - 1) * dil[i] + 1) // 2)) for i in range(d)]
    p = p if dilation else [min(p[i], k[i] // 2) for i in range(d)]
    low = [max(1, (k[i] - 1) * dil[i] + 1 - 2 * p[i]) for i in range(d)]
    size = [draw(st.integers(low[i], low[i] + (3 if d < 3 else 1))) for i in range(d)]
    ceil = draw(st.booleans())
    return d, k, s, dil, p, size, ceil


@settings(max_examples=50, deadline=None)
@given(pool_case())
def test_max_pool_matches_numpy(case):
    d, k, s, dil, p, size, ceil = case
    x = distinct(2, 2, *size)
    values, indices = MAX[d](T(x), k, s, p, dil, ceil_mode=ceil, return_indices=True)
    want_v, want_i = max_pool_ref(x, k, s, p, dil, ceil)
    np.testing.assert_array_equal(values.numpy(), want_v)
    np.testing.assert_array_equal(indices.numpy(), want_i)
    assert indices.dtype == ember.int64


@settings(max_examples=50, deadline=None)
@given(pool_case(dilation=False), st.booleans(), st.sampled_from([None, 3]))
def test_avg_pool_matches_numpy(case, include_pad, divisor):
    d, k, s, _, p, size, ceil = case
    x = _rng.standard_normal((2, 2, *size))
    kwargs = {} if d == 1 else {"divisor_override": divisor}
    got = AVG[d](T(x), k, s, p, ceil, include_pad, **kwargs).numpy()
    want = avg_pool_ref(x, k, s, p, ceil, include_pad, divisor if d > 1 else None)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("d", [1, 2, 3])
@pytest.mark.parametrize("out", [1, 2, 3, 5])
def test_adaptive_pools_match_numpy(d, out):
    size = (7, 5, 4)[:d]
    x = distinct(2, 3, *size)
    outs = [out] * d
    avg = {1: F.adaptive_avg_pool1d, 2: F.adaptive_avg_pool2d, 3: F.adaptive_avg_pool3d}[d]
    mx = {1: F.adaptive_max_pool1d, 2: F.adaptive_max_pool2d, 3: F.adaptive_max_pool3d}[d]
    want = adaptive_ref(x, outs, np.mean)
    np.testing.assert_allclose(avg(T(x), out).numpy(), want, rtol=1e-12, atol=1e-12)
    values, indices = mx(T(x), out, return_indices=True)
    np.testing.assert_array_equal(values.numpy(), adaptive_ref(x, outs, np.max))
    flat = x.reshape(2, 3, -1)
    picked = np.take_along_axis(flat, indices.numpy().reshape(2, 3, -1), axis=2)
    np.testing.assert_array_equal(picked.reshape(values.shape), values.numpy())


def test_adaptive_none_keeps_dim_and_unbatched():
    x = _rng.standard_normal((3, 6, 4))
    got = F.adaptive_avg_pool2d(T(x), (2, None))
    assert got.shape == (3, 2, 4)
    np.testing.assert_allclose(got.numpy(), x.reshape(3, 2, 3, 4).mean(2), rtol=1e-12)


def test_lp_pool_closed_form():
    x = np.abs(_rng.standard_normal((1, 2, 4, 6))) + 0.1
    got = F.lp_pool2d(T(x), 3, (2, 3)).numpy()
    want = (x.reshape(1, 2, 2, 2, 2, 3) ** 3).sum(axis=(3, 5)) ** (1 / 3)
    np.testing.assert_allclose(got, want, rtol=1e-12)
    got1 = F.lp_pool1d(T(x[0]), 2, 2, stride=1).numpy()
    want1 = np.sqrt(x[0][..., :-1] ** 2 + x[0][..., 1:] ** 2)
    np.testing.assert_allclose(got1, want1, rtol=1e-12)


@pytest.mark.parametrize("d", [1, 2, 3])
def test_max_unpool_roundtrip(d):
    x = distinct(2, 2, *([4] * d))
    values, indices = MAX[d](T(x), 2, return_indices=True)
    unpool = {1: F.max_unpool1d, 2: F.max_unpool2d, 3: F.max_unpool3d}[d]
    out = unpool(values, indices, 2).numpy()
    want = np.zeros_like(x).reshape(2, 2, -1)
    np.put_along_axis(want, indices.numpy().reshape(2, 2, -1), values.numpy().reshape(2, 2, -1), 2)
    np.testing.assert_array_equal(out, want.reshape(x.shape))
    # output_size resolves the ambiguous size of odd inputs
    x5 = distinct(1, 1, *([5] * d))
    v5, i5 = MAX[d](T(x5), 2, return_indices=True)
    assert unpool(v5, i5, 2, output_size=[5] * d).shape == x5.shape


def test_pool_gradcheck():
    x = T(distinct(2, 2, 5, 5), True)
    assert gradcheck(lambda x: F.max_pool2d(x, 3, 2, 1, 2 // 2, ceil_mode=True), (x,))
    assert gradcheck(lambda x: F.max_pool1d(x.flatten(2), 3, 2, 1, 2), (x,))
    assert gradcheck(lambda x: F.avg_pool2d(x, 3, 2, 1, True, False), (x,))
    assert gradcheck(lambda x: F.avg_pool3d(x.unsqueeze(0), 2, 1, 1, divisor_override=3), (x,))
    assert gradcheck(lambda x: F.adaptive_avg_pool2d(x, (3, 2)), (x,))
    assert gradcheck(lambda x: F.adaptive_max_pool2d(x, (3, 2)), (x,))
    pos = T(np.abs(distinct(1, 2, 4, 4)) + 0.5, True)
    assert gradcheck(lambda x: F.lp_pool2d(x, 2, 2), (pos,))
    values, indices = F.max_pool2d(T(distinct(1, 2, 4, 4)), 2, return_indices=True)
    v = values.detach().requires_grad_()
    assert gradcheck(lambda v: F.max_unpool2d(v, indices, 2), (v,))


def test_max_pool_gradient_goes_to_the_first_max():
    # A window of ties sends its whole gradient to one element (torch's rule), not split.
    x = T(np.zeros((1, 1, 2, 2)), True)
    F.max_pool2d(x, 2).sum().backward()
    assert x.grad.numpy().sum() == 1.0 and (x.grad.numpy() == 1.0).sum() == 1


def test_max_pool_indices_first_max_or_last_nan():
    # torch's pick: the first maximum of a window in scan order, or its last NaN if it has any.
    nan = math.nan
    a = np.array([[1, nan, 2, 5], [nan, 0, 5, 5], [3, 3, 0, 0], [3, 3, -1, 0]])
    values, indices = F.max_pool2d(T(a[None, None]), 2, return_indices=True)
    np.testing.assert_array_equal(indices.numpy()[0, 0], [[4, 3], [8, 10]])
    np.testing.assert_array_equal(values.numpy()[0, 0], [[nan, 5], [3, 0]])
    # Without grad or indices the values come from a plain amax: the same values, NaN too.
    np.testing.assert_array_equal(F.max_pool2d(T(a[None, None]), 2).numpy(), values.numpy())
    x = T(a[None, None], True)
    F.max_pool2d(x, 2).sum().backward()
    expected = np.zeros(16)
    expected[[4, 3, 8, 10]] = 1.0
    np.testing.assert_array_equal(x.grad.numpy().reshape(-1), expected)


@pytest.mark.parametrize(
    ("call", "exc", "match"),
    [
        (
            lambda: F.max_pool2d(ember.zeros(2, 3, 5, 5), 3, padding=2),
            RuntimeError,
            "pad should be at most half of effective kernel size",
        ),
        (
            lambda: F.avg_pool2d(ember.zeros(2, 3, 5, 5), 3, padding=2),
            RuntimeError,
            "pad should be at most half of kernel size",
        ),
        (
            lambda: F.max_pool2d(ember.zeros(2, 3, 5, 5), 7),
            RuntimeError,
            r"Given input size: \(3x5x5\). Calculated output size: \(3x0x0\)",
        ),
        (lambda: F.max_pool2d(ember.zeros(5, 5), 2), RuntimeError, "max_pool2d: expected 3D"),
        (
            lambda: F.max_pool2d(ember.zeros(2, 3, 5, 5), 2, stride=0),
            RuntimeError,
            "stride should not be zero",
        ),
        (lambda: F.max_pool2d(ember.zeros(2, 0, 4, 4), 2), RuntimeError, "non-empty"),
        (
            lambda: F.adaptive_avg_pool2d(ember.zeros(2, 3, 5, 5), (3, 2, 1)),
            RuntimeError,
            "output_size must be 2",
        ),
        (
            lambda: F.avg_pool2d(ember.zeros(1, 1, 4, 4), 2, divisor_override=0),
            RuntimeError,
            "divisor must be not zero",
        ),
        (
            lambda: F.max_pool2d(ember.zeros(1, 1, 4, 4, dtype=ember.int64), 2),
            NotImplementedError,
            "max_pool2d: not implemented for 'int64'",
        ),
        (
            lambda: F.fractional_max_pool2d(ember.zeros(1, 1, 4, 4), 2),
            NotImplementedError,
            "fractional_max_pool2d",
        ),
    ],
)
def test_pool_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_max_unpool_errors():
    values, indices = F.max_pool2d(ember.randn(2, 3, 5, 5), 2, return_indices=True)
    with pytest.raises(RuntimeError, match="Found an invalid max index"):
        F.max_unpool2d(values, indices * 10, 2)
    with pytest.raises(ValueError, match="invalid output_size"):
        F.max_unpool2d(values, indices, 2, output_size=(9, 9))
    with pytest.raises(RuntimeError, match="expected shape of indices"):
        F.max_unpool2d(values, indices[:1], 2)


def test_modules_forward_and_repr():
    x = T(distinct(2, 3, 6, 6))
    cases = [
        (
            nn.MaxPool2d(2),
            F.max_pool2d(x, 2),
            "MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)",
        ),
        (
            nn.AvgPool2d(3, 2, 1),
            F.avg_pool2d(x, 3, 2, 1),
            "AvgPool2d(kernel_size=3, stride=2, padding=1)",
        ),
        (
            nn.LPPool2d(2, 3),
            F.lp_pool2d(x, 2, 3),
            "LPPool2d(norm_type=2, kernel_size=3, stride=None, ceil_mode=False)",
        ),
        (
            nn.AdaptiveAvgPool2d((1, 1)),
            x.mean((2, 3), keepdim=True),
            "AdaptiveAvgPool2d(output_size=(1, 1))",
        ),
        (
            nn.AdaptiveMaxPool1d(3),
            F.adaptive_max_pool1d(x.flatten(2), 3),
            "AdaptiveMaxPool1d(output_size=3)",
        ),
    ]
    for module, want, text in cases:
        arg = x.flatten(2) if isinstance(module, nn.AdaptiveMaxPool1d) else x
        np.testing.assert_allclose(module(arg).numpy(), want.numpy(), rtol=1e-12)
        assert repr(module) == text
        assert module.state_dict() == {} or len(module.state_dict()) == 0
    pool, unpool = nn.MaxPool2d(2, return_indices=True), nn.MaxUnpool2d(2)
    assert repr(unpool) == "MaxUnpool2d(kernel_size=(2, 2), stride=(2, 2), padding=(0, 0))"
    assert unpool(*pool(x)).shape == x.shape
    assert nn.MaxPool1d(2)(T(distinct(1, 2, 6))).shape == (1, 2, 3)
    assert nn.AvgPool1d(2)(T(distinct(1, 2, 6))).shape == (1, 2, 3)
    assert nn.AvgPool3d(2)(T(distinct(1, 1, 2, 4, 4))).shape == (1, 1, 1, 2, 2)
    assert nn.MaxPool3d(2)(T(distinct(1, 1, 2, 4, 4))).shape == (1, 1, 1, 2, 2)
    with pytest.raises(AttributeError, match="FractionalMaxPool2d is missing: not built yet"):
        nn.FractionalMaxPool2d(2, output_size=2)
