"""The pooling natives (_nn_max_pool, _nn_avg_pool and their backward natives) on their own.

test_pooling.py holds ember.nn.functional's pools to naive numpy loops; these tests hold the
natives to closed forms and gradcheck (float64, first and second order), and check their dtypes,
layouts, thread split and bad-input errors.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import ember
import ember.nn.functional as F
from ember.autograd import gradcheck, gradgradcheck
from ember_core import _C

_rng = np.random.default_rng(5)


def T(a, grad=False, dtype=None):
    t = ember.from_numpy(np.ascontiguousarray(a))
    t = t.to(dtype) if dtype is not None else t
    return t.requires_grad_(grad)


def distinct(*shape):
    n = math.prod(shape)
    return (_rng.permutation(n) * 0.1 - 0.05 * n).reshape(shape)


def test_max_pool_closed_form_values_and_indices():
    x = T(np.array([[[1.0, 3.0, 2.0, 5.0, 4.0]]]))
    v, i = _C._nn_max_pool(x, [2], [2], [0], [1], [3], True)
    # The last window reaches past the input (ceil_mode): it holds 4.0 alone.
    assert v.tolist() == [[[3.0, 5.0, 4.0]]]
    assert i.tolist() == [[[1, 3, 4]]]
    v, i = _C._nn_max_pool(x, [2], [2], [0], [1], [3], False)
    assert v.tolist() == [[[3.0, 5.0, 4.0]]] and i.numel() == 0 and i.dtype == ember.int64


def test_max_pool_padding_window_reports_first_inside_position():
    # A window of -inf values keeps torch's index: its first position inside the input.
    x = T(np.full((1, 1, 3, 3), -np.inf))
    v, i = _C._nn_max_pool(x, [3, 3], [2, 2], [1, 1], [1, 1], [2, 2], True)
    assert np.isneginf(v.numpy()).all()
    assert i.tolist() == [[[[0, 1], [3, 4]]]]


def test_avg_pool_closed_forms():
    x = T(np.arange(1.0, 7.0).reshape(1, 1, 6))
    # Padding 1 both sides: [0, 1, 2, 3, 4, 5, 6, 0] in windows of 3 at stride 3, the last
    # one cut at the padded end ([6, 0]).
    inc = _C._nn_avg_pool(x, [3], [3], [1], [3], True, None).tolist()
    exc = _C._nn_avg_pool(x, [3], [3], [1], [3], False, None).tolist()
    assert inc == [[[1.0, 4.0, 3.0]]]
    assert exc == [[[1.5, 4.0, 6.0]]]
    # torch allows a negative divisor_override.
    neg = _C._nn_avg_pool(x, [2], [2], [0], [3], True, -2).tolist()
    assert neg == [[[-1.5, -3.5, -5.5]]]


def test_avg_pool_backward_is_the_adjoint():
    # <avg_pool(x), g> == <x, avg_pool_backward(g)> for every mode.
    x = _rng.standard_normal((2, 3, 7, 6))
    for k, s, p, out, inc, div in [
        ([3, 2], [2, 2], [1, 1], [4, 4], True, None),
        ([3, 3], [2, 1], [1, 1], [4, 6], False, None),
        ([2, 2], [3, 2], [0, 1], [3, 4], True, 5),
    ]:
        y = _C._nn_avg_pool(T(x), k, s, p, out, inc, div).numpy()
        g = _rng.standard_normal(y.shape)
        back = _C._nn_avg_pool_backward(T(g), [7, 6], k, s, p, inc, div).numpy()
        np.testing.assert_allclose((y * g).sum(), (x * back).sum(), rtol=1e-12)


def test_max_pool_backward_scatters_at_the_indices():
    g = T(np.array([[[1.0, 2.0, 3.0]]]))
    idx = ember.tensor([[[0, 0, 4]]])
    out = _C._nn_max_pool_backward(g, idx, [5])
    assert out.tolist() == [[[3.0, 0.0, 0.0, 0.0, 3.0]]]


@pytest.mark.parametrize("d", [1, 2, 3])
def test_gradcheck_and_gradgradcheck_through_the_functionals(d):
    size = (7, 6, 5)[:d]
    x = T(distinct(2, 2, *size), True)
    mx = {1: F.max_pool1d, 2: F.max_pool2d, 3: F.max_pool3d}[d]
    avg = {1: F.avg_pool1d, 2: F.avg_pool2d, 3: F.avg_pool3d}[d]
    dil = 2 if d < 3 else 1
    assert gradcheck(lambda x: mx(x, 3, 2, 1, dil, ceil_mode=True), (x,))
    assert gradgradcheck(lambda x: mx(x, 3, 2, 1, dil, ceil_mode=True), (x,))
    assert gradcheck(lambda x: avg(x, 3, 2, 1, True, False), (x,))
    assert gradgradcheck(lambda x: avg(x, 3, 2, 1, True, True), (x,))
    if d > 1:
        assert gradcheck(lambda x: avg(x, 2, 1, 1, divisor_override=3), (x,))


def test_gradcheck_backward_natives():
    go = T(_rng.standard_normal((2, 2, 3, 3)), True)
    _, idx = _C._nn_max_pool(T(distinct(2, 2, 6, 5)), [2, 2], [2, 2], [0, 0], [1, 1], [3, 3], True)
    assert gradcheck(lambda g: _C._nn_max_pool_backward(g, idx, [6, 5]), (go,))
    args = ([6, 5], [3, 2], [2, 2], [1, 1], False, None)
    assert gradcheck(lambda g: _C._nn_avg_pool_backward(g, *args), (go,))
    assert gradgradcheck(lambda g: _C._nn_avg_pool_backward(g, *args), (go,))


@pytest.mark.parametrize("dtype", [ember.float32, ember.float16, ember.bfloat16])
def test_low_precision_dtypes_match_float64(dtype):
    x64 = distinct(2, 3, 6, 6) / 10
    x = T(x64, dtype=dtype)
    v, i = F.max_pool2d(x, 3, 2, 1, return_indices=True)
    assert v.dtype == dtype
    want_v, want_i = F.max_pool2d(x.double(), 3, 2, 1, return_indices=True)
    np.testing.assert_array_equal(i.numpy(), want_i.numpy())
    np.testing.assert_array_equal(v.double().numpy(), want_v.numpy())
    a = F.avg_pool2d(x, 3, 2, 1)
    assert a.dtype == dtype
    tol = 1e-6 if dtype == ember.float32 else 1e-2
    want_a = F.avg_pool2d(x.double(), 3, 2, 1).numpy()
    np.testing.assert_allclose(a.double().numpy(), want_a, rtol=tol, atol=tol)


def test_non_contiguous_input_and_empty_batch():
    x = distinct(2, 3, 6, 8)
    t = T(x).transpose(2, 3)  # a strided view
    got = F.max_pool2d(t, 2).numpy()
    want = F.max_pool2d(T(np.ascontiguousarray(x.transpose(0, 1, 3, 2))), 2).numpy()
    np.testing.assert_array_equal(got, want)
    empty = F.avg_pool2d(ember.zeros(0, 3, 4, 4), 2)
    assert empty.shape == (0, 3, 2, 2)
    g = T(np.zeros((0, 3, 4, 4)), True)
    F.max_pool2d(g, 2).sum().backward()
    assert g.grad.shape == (0, 3, 4, 4)


def test_many_planes_split_over_threads_agree_with_one_thread():
    x = T(_rng.standard_normal((8, 64, 12, 12)), True)
    before = ember.get_num_threads()
    results = []
    try:
        for n in (1, 2):
            ember.set_num_threads(n)
            x.grad = None
            v = F.max_pool2d(x, 2)
            a = F.avg_pool2d(x, 3, 1, 1)
            (v.sum() + a.sum()).backward()
            results.append((v.detach().numpy(), a.detach().numpy(), x.grad.numpy()))
    finally:
        ember.set_num_threads(before)
    for one, two in zip(*results, strict=True):
        np.testing.assert_array_equal(one, two)


def test_native_bad_input_errors():
    x = T(np.zeros((1, 1, 4, 4)))
    with pytest.raises(RuntimeError, match=r"nn_max_pool\] expected a \[N, C, \*spatial\]"):
        _C._nn_max_pool(x[0], [2, 2], [2, 2], [0, 0], [1, 1], [2, 2], False)
    with pytest.raises(RuntimeError, match=r"nn_max_pool\] not implemented for 'int64'"):
        _C._nn_max_pool(ember.zeros(1, 1, 4, 4, dtype=ember.int64), [2, 2], [2, 2], [0, 0],
                        [1, 1], [2, 2], False)  # fmt: skip
    with pytest.raises(RuntimeError, match=r"nn_avg_pool\] kernel_size, dilation and stride"):
        _C._nn_avg_pool(x, [2, 2], [0, 0], [0, 0], [2, 2], True, None)
    with pytest.raises(RuntimeError, match=r"nn_max_pool\] kernel_size, dilation and stride"):
        _C._nn_max_pool(x, [0, 2], [2, 2], [0, 0], [1, 1], [2, 2], False)
    g = T(np.ones((1, 1, 2)))
    with pytest.raises(IndexError, match=r"nn_max_pool_backward\] index 9 is out of bounds"):
        _C._nn_max_pool_backward(g, ember.tensor([[[0, 9]]]), [4])
    with pytest.raises(RuntimeError, match=r"nn_max_pool_backward\] expected grad_output"):
        _C._nn_max_pool_backward(g, ember.tensor([[[0, 1]]], dtype=ember.int32), [4])
    with pytest.raises(RuntimeError, match=r"nn_avg_pool_backward\] expected grad_output"):
        _C._nn_avg_pool_backward(g, [4, 4], [2, 2], [2, 2], [0, 0], True, None)
    with pytest.raises(TypeError, match=r"nn_avg_pool\] 'kernel_size' must be an int"):
        _C._nn_avg_pool(x, [2.0, 2], [2, 2], [0, 0], [2, 2], True, None)


def test_matches_torch_when_installed():
    torch = pytest.importorskip("torch")
    a = _rng.standard_normal((2, 3, 9, 11)).astype(np.float32)
    a[0, 0, 1, 1] = np.nan
    a[0, 1, :3, :3] = -np.inf
    x, t = T(a), torch.from_numpy(a)
    for k, s, p, dil, ceil in [
        ((2, 2), (2, 2), (0, 0), (1, 1), False),
        ((3, 3), (2, 1), (1, 1), (1, 1), True),
        ((2, 3), (3, 2), (1, 1), (2, 2), True),
    ]:
        tv, ti = torch.nn.functional.max_pool2d(t, k, s, p, dil, ceil, True)
        v, i = F.max_pool2d(x, k, s, p, dil, ceil, True)
        np.testing.assert_array_equal(v.numpy(), tv.numpy())
        np.testing.assert_array_equal(i.numpy(), ti.numpy())
        if dil == (1, 1):
            for inc in (True, False):
                want = torch.nn.functional.avg_pool2d(t, k, s, p, ceil, inc).numpy()
                got = F.avg_pool2d(x, k, s, p, ceil, inc).numpy()
                np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
