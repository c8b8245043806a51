"""F.pad (every mode) and the padding layers against numpy.pad, gradcheck and bad input."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ember
import ember.nn as nn
import ember.nn.functional as F
from ember.autograd import gradcheck

_rng = np.random.default_rng(3)
NP_MODE = {"constant": "constant", "reflect": "reflect", "replicate": "edge", "circular": "wrap"}


def T(a, grad=False):
    return ember.from_numpy(np.ascontiguousarray(a)).requires_grad_(grad)


def np_pad(x, pad, mode, value=0.0):
    widths = [(0, 0)] * x.ndim
    for i in range(len(pad) // 2):
        widths[x.ndim - 1 - i] = (pad[2 * i], pad[2 * i + 1])
    if mode == "constant":
        return np.pad(x, widths, mode="constant", constant_values=value)
    return np.pad(x, widths, mode=NP_MODE[mode])


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_pad_matches_numpy(data):
    mode = data.draw(st.sampled_from(list(NP_MODE)))
    dims = data.draw(st.integers(1, 3))
    lead = data.draw(st.integers(1, 2)) if mode != "constant" else data.draw(st.integers(0, 2))
    size = [data.draw(st.integers(2, 4)) for _ in range(dims)]
    limit = {"reflect": lambda n: n - 1, "circular": lambda n: n}.get(mode, lambda n: 3)
    pad = []
    for n in reversed(size):
        pad += [data.draw(st.integers(0, limit(n))), data.draw(st.integers(0, limit(n)))]
    x = _rng.standard_normal((*([2] * lead), *size))
    value = data.draw(st.floats(-2, 2)) if mode == "constant" else None
    got = F.pad(T(x), pad, mode, value).numpy()
    np.testing.assert_array_equal(got, np_pad(x, pad, mode, value or 0.0))


def test_negative_padding_crops():
    x = _rng.standard_normal((2, 5, 6))
    got = F.pad(T(x), (-1, 2, 1, -2), value=7.0).numpy()
    want = np.pad(x[:, :3, 1:], [(0, 0), (1, 0), (0, 2)], constant_values=7.0)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(F.pad(T(x), (-1, -1), "circular").numpy(), x[..., 1:-1])


@pytest.mark.parametrize("mode", list(NP_MODE))
def test_pad_gradcheck(mode):
    x = T(_rng.standard_normal((1, 2, 3, 4)), True)
    assert gradcheck(lambda x: F.pad(x, (2, 1, 1, 2), mode), (x,))


def test_int_and_bool_constant_pad():
    x = ember.tensor([[1, 2]])
    assert F.pad(x, (1, 1), value=5).tolist() == [[5, 1, 2, 5]]
    assert F.pad(ember.tensor([True]), (1, 0)).tolist() == [False, True]


@pytest.mark.parametrize(
    ("call", "exc", "match"),
    [
        (
            lambda: F.pad(ember.zeros(2, 3, 5, 5), (3, 3), "reflect"),
            NotImplementedError,
            "Padding size 2 is not supported for 4D input",
        ),
        (lambda: F.pad(ember.zeros(2, 5), (1, 1, 1)), RuntimeError, "divisible by 2"),
        (
            lambda: F.pad(ember.zeros(5), (1, 1, 1, 1)),
            RuntimeError,
            "less than or equal to two times the input dimension",
        ),
        (
            lambda: F.pad(ember.zeros(1, 3), (3, 0), "reflect"),
            RuntimeError,
            "should be less than the corresponding input dimension",
        ),
        (
            lambda: F.pad(ember.zeros(1, 3), (4, 0), "circular"),
            RuntimeError,
            "wrapping around more than once",
        ),
        (
            lambda: F.pad(ember.zeros(1, 3), (1, 0), "mirror"),
            NotImplementedError,
            "Unrecognised padding mode mirror",
        ),
        (
            lambda: F.pad(ember.zeros(1, 3), (1, 0), "reflect", 2.0),
            RuntimeError,
            "doesn't take in value",
        ),
        (lambda: F.pad(ember.zeros(1, 3), (-2, -2)), RuntimeError, "would be negative"),
    ],
)
def test_pad_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


@pytest.mark.parametrize(
    ("cls", "args", "mode", "value", "text"),
    [
        (nn.ZeroPad1d, (2,), "constant", 0.0, "ZeroPad1d((2, 2))"),
        (nn.ZeroPad2d, ((1, 0, 2, 1),), "constant", 0.0, "ZeroPad2d((1, 0, 2, 1))"),
        (nn.ZeroPad3d, (1,), "constant", 0.0, "ZeroPad3d((1, 1, 1, 1, 1, 1))"),
        (nn.ConstantPad1d, (2, 3.5), "constant", 3.5, "ConstantPad1d(padding=(2, 2), value=3.5)"),
        (
            nn.ConstantPad2d,
            (1, -1.0),
            "constant",
            -1.0,
            "ConstantPad2d(padding=(1, 1, 1, 1), value=-1.0)",
        ),
        (
            nn.ConstantPad3d,
            (1, 2.0),
            "constant",
            2.0,
            "ConstantPad3d(padding=(1, 1, 1, 1, 1, 1), value=2.0)",
        ),
        (nn.ReflectionPad1d, ((2, 1),), "reflect", None, "ReflectionPad1d((2, 1))"),
        (nn.ReflectionPad2d, (1,), "reflect", None, "ReflectionPad2d((1, 1, 1, 1))"),
        (nn.ReflectionPad3d, (1,), "reflect", None, "ReflectionPad3d((1, 1, 1, 1, 1, 1))"),
        (nn.ReplicationPad1d, (2,), "replicate", None, "ReplicationPad1d((2, 2))"),
        (nn.ReplicationPad2d, (1,), "replicate", None, "ReplicationPad2d((1, 1, 1, 1))"),
        (nn.ReplicationPad3d, (1,), "replicate", None, "ReplicationPad3d((1, 1, 1, 1, 1, 1))"),
        (nn.CircularPad1d, (2,), "circular", None, "CircularPad1d((2, 2))"),
        (nn.CircularPad2d, (1,), "circular", None, "CircularPad2d((1, 1, 1, 1))"),
        (nn.CircularPad3d, (1,), "circular", None, "CircularPad3d((1, 1, 1, 1, 1, 1))"),
    ],
)
def test_padding_layers(cls, args, mode, value, text):
    m = cls(*args)
    assert repr(m) == text
    dims = len(m.padding) // 2
    x = _rng.standard_normal((2, *([3] * (dims + 1))))
    np.testing.assert_array_equal(m(T(x)).numpy(), np_pad(x, m.padding, mode, value or 0.0))
    assert len(m.state_dict()) == 0
    with pytest.raises(ValueError, match="padding must be an int or a"):
        cls((1,) * 7, *args[1:])
