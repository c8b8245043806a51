"""F.unfold / F.fold and the Unfold / Fold layers against numpy loops, gradcheck, errors."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ember
import ember.nn as nn
import ember.nn.functional as F
from ember.autograd import gradcheck

_rng = np.random.default_rng(5)


def T(a, grad=False):
    return ember.from_numpy(np.ascontiguousarray(a)).requires_grad_(grad)


def unfold_ref(x, k, d, p, s):
    n, c, h, w = x.shape
    xp = np.pad(x, [(0, 0), (0, 0), (p[0], p[0]), (p[1], p[1])])
    oh = (h + 2 * p[0] - d[0] * (k[0] - 1) - 1) // s[0] + 1
    ow = (w + 2 * p[1] - d[1] * (k[1] - 1) - 1) // s[1] + 1
    out = np.zeros((n, c, k[0], k[1], oh, ow))
    for i, j, a, b in itertools.product(range(k[0]), range(k[1]), range(oh), range(ow)):
        out[:, :, i, j, a, b] = xp[:, :, a * s[0] + i * d[0], b * s[1] + j * d[1]]
    return out.reshape(n, c * k[0] * k[1], oh * ow)


def fold_ref(cols, size, k, d, p, s):
    n = cols.shape[0]
    c = cols.shape[1] // (k[0] * k[1])
    oh = (size[0] + 2 * p[0] - d[0] * (k[0] - 1) - 1) // s[0] + 1
    ow = (size[1] + 2 * p[1] - d[1] * (k[1] - 1) - 1) // s[1] + 1
    blocks = cols.reshape(n, c, k[0], k[1], oh, ow)
    out = np.zeros((n, c, size[0] + 2 * p[0], size[1] + 2 * p[1]))
    for i, j, a, b in itertools.product(range(k[0]), range(k[1]), range(oh), range(ow)):
        out[:, :, a * s[0] + i * d[0], b * s[1] + j * d[1]] += blocks[:, :, i, j, a, b]
    return out[:, :, p[0] : p[0] + size[0], p[1] : p[1] + size[1]]


@st.composite
def geometry(draw):
    k = [draw(st.integers(1, 3)) for _ in range(2)]
    d = [draw(st.integers(1, 2)) for _ in range(2)]
    p = [draw(st.integers(0, 2)) for _ in range(2)]
    s = [draw(st.integers(1, 3)) for _ in range(2)]
    size = [draw(st.integers(max(1, d[i] * (k[i] - 1) + 1 - 2 * p[i]), 6)) for i in range(2)]
    return k, d, p, s, size


@settings(max_examples=50, deadline=None)
@given(geometry())
def test_unfold_and_fold_match_numpy(g):
    k, d, p, s, size = g
    x = _rng.standard_normal((2, 3, *size))
    cols = F.unfold(T(x), k, d, p, s)
    np.testing.assert_array_equal(cols.numpy(), unfold_ref(x, k, d, p, s))
    c = _rng.standard_normal(tuple(cols.shape))
    got = F.fold(T(c), size, k, d, p, s).numpy()
    np.testing.assert_allclose(got, fold_ref(c, size, k, d, p, s), rtol=1e-12, atol=1e-12)


def test_unbatched_and_gradcheck():
    x = _rng.standard_normal((2, 4, 5))
    np.testing.assert_array_equal(
        F.unfold(T(x), 2, stride=2).numpy(), unfold_ref(x[None], [2, 2], [1, 1], [0, 0], [2, 2])[0]
    )
    assert F.fold(F.unfold(T(x), 2), (4, 5), 2).shape == (2, 4, 5)
    xg = T(_rng.standard_normal((1, 2, 4, 4)), True)
    assert gradcheck(
        lambda x: F.unfold(x, (2, 3), dilation=(1, 2), padding=1, stride=(2, 1)), (xg,)
    )
    cg = T(_rng.standard_normal((1, 8, 25)), True)
    assert gradcheck(lambda c: F.fold(c, (4, 4), 2, padding=1, stride=1), (cg,))


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: F.unfold(ember.zeros(2, 3, 5, 5), 7), "sliding blocks as \\(-1, -1\\)"),
        (lambda: F.unfold(ember.zeros(5, 5), 2), "Only 3D or 4D input"),
        (lambda: F.fold(ember.zeros(2, 26, 9), (5, 5), 3), "divisible by the product of"),
        (lambda: F.fold(ember.zeros(2, 27, 8), (5, 5), 3), "3 \\* 3 = 9, but got input.size"),
        (lambda: F.fold(ember.zeros(2, 3, 4, 4), (5, 5), 3), "Only unbatched \\(2D\\)"),
        (lambda: F.unfold(ember.zeros(1, 1, 4, 4), 2, stride=0), "stride should be greater"),
    ],
)
def test_fold_errors(call, match):
    with pytest.raises(RuntimeError, match=match):
        call()


def test_fold_modules():
    u, f = nn.Unfold(2, stride=2), nn.Fold((4, 6), 2, stride=2)
    assert repr(u) == "Unfold(kernel_size=2, dilation=1, padding=0, stride=2)"
    assert repr(f) == "Fold(output_size=(4, 6), kernel_size=2, dilation=1, padding=0, stride=2)"
    x = T(_rng.standard_normal((2, 3, 4, 6)))
    np.testing.assert_array_equal(f(u(x)).numpy(), x.numpy())
