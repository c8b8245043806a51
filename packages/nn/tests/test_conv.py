"""Convolutions against naive numpy loops (float64), gradcheck, modules and bad input."""

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
from ember.autograd import gradcheck, gradgradcheck

_rng = np.random.default_rng(7)


def conv_ref(x, w, b, stride, pad, dil, groups):
    """Direct cross-correlation: out[n, o, p] = sum_{c, k} x_pad[n, g*cg + c, p*s + k*d] *
    w[o, c, k]."""
    n, c = x.shape[:2]
    d = x.ndim - 2
    xp = np.pad(x, [(0, 0), (0, 0)] + [(p, p) for p in pad])
    k = w.shape[2:]
    out_size = [(xp.shape[2 + i] - dil[i] * (k[i] - 1) - 1) // stride[i] + 1 for i in range(d)]
    c_out = w.shape[0]
    cg, og = c // groups, c_out // groups
    out = np.zeros((n, c_out, *out_size))
    for pos in itertools.product(*[range(o) for o in out_size]):
        idx = tuple(
            slice(pos[i] * stride[i], pos[i] * stride[i] + dil[i] * (k[i] - 1) + 1, dil[i])
            for i in range(d)
        )
        for g in range(groups):
            window = xp[(slice(None), slice(g * cg, (g + 1) * cg), *idx)]  # [n, cg, *k]
            wg = w[g * og : (g + 1) * og]  # [og, cg, *k]
            out[(slice(None), slice(g * og, (g + 1) * og), *pos)] = np.tensordot(
                window, wg, axes=(list(range(1, d + 2)), list(range(1, d + 2)))
            )
    if b is not None:
        out += b.reshape(1, -1, *([1] * d))
    return out


def conv_transpose_ref(x, w, b, stride, pad, out_pad, dil, groups):
    """Scatter form: every input element adds x * w[ci, co, k] at p * s - pad + k * d."""
    n, c = x.shape[:2]
    d = x.ndim - 2
    k = w.shape[2:]
    cg, og = c // groups, w.shape[1]
    full = [
        (x.shape[2 + i] - 1) * stride[i] + dil[i] * (k[i] - 1) + 1 + out_pad[i] for i in range(d)
    ]
    out = np.zeros((n, og * groups, *full))
    for pos in itertools.product(*[range(s) for s in x.shape[2:]]):
        for kp in itertools.product(*[range(v) for v in k]):
            at = tuple(pos[i] * stride[i] + kp[i] * dil[i] for i in range(d))
            for g in range(groups):
                xv = x[(slice(None), slice(g * cg, (g + 1) * cg), *pos)]  # [n, cg]
                wv = w[(slice(g * cg, (g + 1) * cg), slice(None), *kp)]  # [cg, og]
                out[(slice(None), slice(g * og, (g + 1) * og), *at)] += xv @ wv
    crop = tuple(slice(pad[i], full[i] - pad[i]) for i in range(d))
    out = out[(slice(None), slice(None), *crop)]
    if b is not None:
        out += b.reshape(1, -1, *([1] * d))
    return out


def T(a, grad=False):
    return ember.from_numpy(np.ascontiguousarray(a)).requires_grad_(grad)


CONV = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}
CONVT = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}


@st.composite
def conv_case(draw):
    d = draw(st.integers(1, 3))
    groups = draw(st.sampled_from([1, 2]))
    cg = draw(st.integers(1, 2))
    og = draw(st.integers(1, 2))
    k = [draw(st.integers(1, 3)) for _ in range(d)]
    s = [draw(st.integers(1, 2)) for _ in range(d)]
    dil = [draw(st.integers(1, 2)) for _ in range(d)]
    p = [draw(st.integers(0, 2)) for _ in range(d)]
    low = [max(1, dil[i] * (k[i] - 1) + 1 - 2 * p[i]) for i in range(d)]
    size = [draw(st.integers(low[i], low[i] + (2 if d < 3 else 1))) for i in range(d)]
    n = draw(st.integers(1, 2))
    bias = draw(st.booleans())
    return d, groups, cg, og, k, s, dil, p, size, n, bias


@settings(max_examples=40, deadline=None)
@given(conv_case())
def test_conv_matches_numpy(case):
    d, groups, cg, og, k, s, dil, p, size, n, bias = case
    x = _rng.standard_normal((n, cg * groups, *size))
    w = _rng.standard_normal((og * groups, cg, *k))
    b = _rng.standard_normal(og * groups) if bias else None
    got = CONV[d](T(x), T(w), None if b is None else T(b), s, p, dil, groups).numpy()
    np.testing.assert_allclose(got, conv_ref(x, w, b, s, p, dil, groups), rtol=1e-10, atol=1e-10)


@settings(max_examples=40, deadline=None)
@given(conv_case(), st.data())
def test_conv_transpose_matches_numpy(case, data):
    d, groups, cg, og, k, s, dil, p, size, n, bias = case
    out_pad = [data.draw(st.integers(0, max(s[i], dil[i]) - 1)) for i in range(d)]
    p = [min(p[i], (dil[i] * (k[i] - 1)) // 2) for i in range(d)]  # keep the output non-empty
    x = _rng.standard_normal((n, cg * groups, *size))
    w = _rng.standard_normal((cg * groups, og, *k))
    b = _rng.standard_normal(og * groups) if bias else None
    got = CONVT[d](T(x), T(w), None if b is None else T(b), s, p, out_pad, groups, dil).numpy()
    want = conv_transpose_ref(x, w, b, s, p, out_pad, dil, groups)
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("d", [1, 2, 3])
@pytest.mark.parametrize("k", [2, 3])
def test_padding_same_and_valid(d, k):
    x = _rng.standard_normal((1, 2, *([5] * d)))
    w = _rng.standard_normal((3, 2, *([k] * d)))
    same = CONV[d](T(x), T(w), padding="same", dilation=2).numpy()
    total = 2 * (k - 1)
    xp = np.pad(x, [(0, 0), (0, 0)] + [(total // 2, total - total // 2)] * d)
    np.testing.assert_allclose(same, conv_ref(xp, w, None, [1] * d, [0] * d, [2] * d, 1))
    assert same.shape[2:] == x.shape[2:]
    valid = CONV[d](T(x), T(w), padding="valid").numpy()
    np.testing.assert_allclose(valid, conv_ref(x, w, None, [1] * d, [0] * d, [1] * d, 1))


def test_unbatched_and_depthwise():
    x = _rng.standard_normal((4, 6, 6))
    w = _rng.standard_normal((8, 1, 3, 3))
    got = F.conv2d(T(x), T(w), groups=4, stride=2, padding=1).numpy()
    want = conv_ref(x[None], w, None, [2, 2], [1, 1], [1, 1], 4)[0]
    np.testing.assert_allclose(got, want, rtol=1e-12)
    w1 = _rng.standard_normal((2, 6, 1))
    got1 = F.conv1d(T(x[0]), T(w1)).numpy()
    np.testing.assert_allclose(got1, w1[:, :, 0] @ x[0], rtol=1e-12)


def test_float32_matches_float64():
    x = _rng.standard_normal((2, 3, 7, 7))
    w = _rng.standard_normal((4, 3, 3, 3))
    got = F.conv2d(T(x.astype(np.float32)), T(w.astype(np.float32)), padding=1).numpy()
    np.testing.assert_allclose(got, conv_ref(x, w, None, [1, 1], [1, 1], [1, 1], 1), atol=1e-4)


@pytest.mark.parametrize(
    ("d", "kwargs"),
    [
        (1, dict(stride=2, padding=1, dilation=2)),
        (2, dict(stride=(2, 1), padding=(1, 0), groups=2)),
        (2, dict(padding="same", dilation=(1, 2))),
        (3, dict(stride=2, padding=1)),
    ],
)
def test_conv_gradcheck(d, kwargs):
    groups = kwargs.get("groups", 1)
    x = T(_rng.standard_normal((2, 2 * groups, *([5] * d))), True)
    w = T(_rng.standard_normal((2 * groups, 2, *([3] * d))), True)
    b = T(_rng.standard_normal(2 * groups), True)
    assert gradcheck(lambda x, w, b: CONV[d](x, w, b, **kwargs), (x, w, b))


@pytest.mark.parametrize("d", [1, 2, 3])
def test_conv_transpose_gradcheck(d):
    x = T(_rng.standard_normal((2, 4, *([3] * d))), True)
    w = T(_rng.standard_normal((4, 1, *([2] * d))), True)
    b = T(_rng.standard_normal(2), True)
    fn = CONVT[d]
    assert gradcheck(lambda x, w, b: fn(x, w, b, 2, 1, 1, 2, 1), (x, w, b))


def test_conv_gradgradcheck():
    x = T(_rng.standard_normal((1, 2, 4, 4)), True)
    w = T(_rng.standard_normal((2, 2, 2, 2)), True)
    assert gradgradcheck(lambda x, w: F.conv2d(x, w, stride=2, padding=1), (x, w))


def test_window_natives_gradcheck():
    x = T(_rng.standard_normal((2, 2, 5, 4)), True)
    args = ([2, 3], [1, 2], [1, 0], [2, 1], [3, 1])
    assert gradcheck(lambda x: ember._C._nn_im2col(x, *args), (x,))
    cols = T(_rng.standard_normal((2, 12, 3)), True)
    assert gradcheck(lambda c: ember._C._nn_col2im(c, [5, 4], *args), (cols,))


@pytest.mark.parametrize(
    ("call", "exc", "match"),
    [
        (
            lambda: F.conv2d(ember.zeros(2, 3, 5, 5), ember.zeros(4, 2, 3, 3)),
            RuntimeError,
            r"expected input\[2, 3, 5, 5\] to have 2 channels, but got 3",
        ),
        (
            lambda: F.conv2d(ember.zeros(2, 3, 2, 2), ember.zeros(4, 3, 3, 3)),
            RuntimeError,
            r"Calculated padded input size per channel: \(2 x 2\)",
        ),
        (
            lambda: F.conv2d(ember.zeros(2, 4, 5, 5), ember.zeros(3, 2, 3, 3), groups=2),
            RuntimeError,
            "expected weight to be divisible by 2",
        ),
        (
            lambda: F.conv2d(ember.zeros(5, 5), ember.zeros(4, 3, 3, 3)),
            RuntimeError,
            r"Expected 3D \(unbatched\) or 4D \(batched\) input to conv2d",
        ),
        (
            lambda: F.conv2d(
                ember.zeros(1, 3, 5, 5), ember.zeros(4, 3, 3, 3), padding="same", stride=2
            ),
            RuntimeError,
            "not supported for strided",
        ),
        (
            lambda: F.conv2d(ember.zeros(1, 3, 5, 5), ember.zeros(4, 3, 3, 3), padding="foo"),
            RuntimeError,
            "Invalid padding string",
        ),
        (
            lambda: F.conv2d(ember.zeros(1, 3, 5, 5, dtype=ember.float64), ember.zeros(4, 3, 3, 3)),
            RuntimeError,
            "expected scalar type float64 but found float32",
        ),
        (
            lambda: F.conv2d(ember.zeros(1, 3, 5, 5), ember.zeros(4, 3, 3, 3), ember.zeros(3)),
            RuntimeError,
            "expected bias to be 1-dimensional with 4 elements",
        ),
        (
            lambda: F.conv2d(ember.zeros(1, 3, 5, 5), ember.zeros(4, 3, 3, 3), stride=0),
            RuntimeError,
            "non-positive stride",
        ),
        (
            lambda: F.conv2d(ember.zeros(1, 3, 5, 5), ember.zeros(4, 3, 3, 3), padding=-1),
            RuntimeError,
            "negative padding",
        ),
        (
            lambda: F.conv2d(ember.zeros(1, 3, 5, 5), ember.zeros(4, 3, 3, 3), stride=(1, 1, 1)),
            RuntimeError,
            "stride to have 2 values",
        ),
        (
            lambda: F.conv_transpose2d(
                ember.zeros(1, 3, 5, 5), ember.zeros(3, 2, 3, 3), output_padding=1
            ),
            RuntimeError,
            "output padding must be",
        ),
        (
            lambda: F.conv_transpose2d(ember.zeros(1, 3, 5, 5), ember.zeros(4, 2, 3, 3)),
            RuntimeError,
            "Given transposed=1",
        ),
        (
            lambda: F.conv2d(
                ember.zeros(1, 3, 5, 5, dtype=ember.int64),
                ember.zeros(4, 3, 3, 3, dtype=ember.int64),
            ),
            NotImplementedError,
            "conv2d: not implemented for 'int64'",
        ),
        (
            lambda: ember._C._nn_im2col(ember.zeros(1, 1, 3), [2, 2], [1], [0], [1], [2]),
            RuntimeError,
            r"\[nn_im2col\]",
        ),
    ],
)
def test_conv_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


@pytest.mark.parametrize(
    ("cls", "args", "weight_shape"),
    [
        (nn.Conv1d, (4, 6, 3), (6, 4, 3)),
        (nn.Conv2d, (4, 6, (3, 2)), (6, 4, 3, 2)),
        (nn.Conv3d, (4, 6, 2), (6, 4, 2, 2, 2)),
        (nn.ConvTranspose1d, (4, 6, 3), (4, 6, 3)),
        (nn.ConvTranspose2d, (4, 6, 3), (4, 6, 3, 3)),
        (nn.ConvTranspose3d, (4, 6, 2), (4, 6, 2, 2, 2)),
    ],
)
def test_module_state_dict_and_init_bounds(cls, args, weight_shape):
    ember.manual_seed(0)
    m = cls(*args)
    sd = m.state_dict()
    assert list(sd) == ["weight", "bias"]
    assert tuple(sd["weight"].shape) == weight_shape
    fan_in = weight_shape[1] * math.prod(weight_shape[2:])
    bound = 1 / math.sqrt(fan_in)  # kaiming_uniform(a=sqrt(5)) has bound sqrt(6 / 6) / sqrt(fan_in)
    w = m.weight.detach().numpy()
    assert np.abs(w).max() <= bound + 1e-7 and np.abs(w).max() > 0.5 * bound
    assert np.abs(m.bias.detach().numpy()).max() <= bound + 1e-7
    assert list(cls(*args, bias=False).state_dict()) == ["weight"]


@pytest.mark.parametrize("mode", ["zeros", "reflect", "replicate", "circular"])
def test_conv2d_module_padding_modes(mode):
    m = nn.Conv2d(2, 3, 3, padding=1, padding_mode=mode).double()
    x = _rng.standard_normal((1, 2, 5, 6))
    np_mode = {"zeros": "constant", "reflect": "reflect", "replicate": "edge", "circular": "wrap"}
    xp = np.pad(x, [(0, 0), (0, 0), (1, 1), (1, 1)], mode=np_mode[mode])
    want = conv_ref(
        xp, m.weight.detach().numpy(), m.bias.detach().numpy(), [1, 1], [0, 0], [1, 1], 1
    )
    np.testing.assert_allclose(m(T(x)).detach().numpy(), want, rtol=1e-10)


def test_conv_transpose_output_size_and_repr():
    m = nn.ConvTranspose2d(4, 2, 3, stride=2)
    assert m(ember.randn(1, 4, 5, 5), output_size=[12, 12]).shape == (1, 2, 12, 12)
    assert m(ember.randn(1, 4, 5, 5)).shape == (1, 2, 11, 11)
    with pytest.raises(ValueError, match="requested an output size of"):
        m(ember.randn(1, 4, 5, 5), output_size=[14, 14])
    assert repr(m) == "ConvTranspose2d(4, 2, kernel_size=(3, 3), stride=(2, 2))"
    c = nn.Conv2d(4, 4, (3, 2), padding="same", padding_mode="circular", groups=2, bias=False)
    assert repr(c) == (
        "Conv2d(4, 4, kernel_size=(3, 2), stride=(1, 1), padding=same, groups=2, bias=False, "
        "padding_mode=circular)"
    )


def test_module_constructor_errors():
    with pytest.raises(ValueError, match="in_channels must be divisible by groups"):
        nn.Conv2d(3, 4, 3, groups=2)
    with pytest.raises(ValueError, match="padding_mode must be one of"):
        nn.Conv2d(3, 4, 3, padding_mode="mirror")
    with pytest.raises(ValueError, match="Invalid padding string"):
        nn.Conv2d(3, 4, 3, padding="full")
    with pytest.raises(ValueError, match="not supported for strided"):
        nn.Conv2d(3, 4, 3, padding="same", stride=2)
    with pytest.raises(ValueError, match='Only "zeros" padding mode'):
        nn.ConvTranspose2d(3, 4, 3, padding_mode="reflect")


def test_module_errors_name_the_layer():
    m = nn.Conv2d(3, 4, 3)
    with pytest.raises(RuntimeError, match=r"Conv2d\(3, 4.*to have 3 channels, but got 5"):
        m(ember.zeros(1, 5, 6, 6))


def test_lazy_conv():
    m = nn.LazyConv2d(8, 3, padding=1)
    y = m(ember.randn(2, 5, 7, 7))
    assert type(m) is nn.Conv2d and m.in_channels == 5 and tuple(m.weight.shape) == (8, 5, 3, 3)
    assert y.shape == (2, 8, 7, 7)
    t = nn.LazyConvTranspose1d(8, 3)
    assert t(ember.randn(5, 7)).shape == (8, 9) and tuple(t.weight.shape) == (5, 8, 3)


def test_conv_module_backward_accumulates():
    m = nn.Conv2d(2, 3, 3).double()
    x = T(_rng.standard_normal((2, 2, 5, 5)), True)
    m(x).sum().backward()
    assert m.weight.grad is not None and tuple(m.weight.grad.shape) == (3, 2, 3, 3)
    # d(sum)/d(bias) is the number of output positions per channel.
    np.testing.assert_allclose(m.bias.grad.numpy(), np.full(3, 2 * 3 * 3.0))


def test_against_torch():
    torch = pytest.importorskip("torch")
    x = _rng.standard_normal((2, 4, 7, 6))
    w = _rng.standard_normal((6, 2, 3, 2))
    got = F.conv2d(T(x), T(w), stride=(2, 1), padding=(1, 2), dilation=(1, 2), groups=2)
    want = torch.nn.functional.conv2d(
        torch.from_numpy(x),
        torch.from_numpy(w),
        stride=(2, 1),
        padding=(1, 2),
        dilation=(1, 2),
        groups=2,
    )
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-10)
