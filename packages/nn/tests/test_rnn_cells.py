"""The fused LSTM/GRU cell natives (_C._nn_lstm_cell, _nn_gru_cell and their backwards) against
numpy closed forms, and their argument checks."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ember
from ember_core import _C

RNG = np.random.default_rng(7)
TOL = {np.float32: dict(rtol=2e-6, atol=2e-6), np.float64: dict(rtol=1e-13, atol=1e-14)}


def _sig(x):
    return 1.0 / (1.0 + np.exp(-x))


def _t(a):
    return ember.from_numpy(np.ascontiguousarray(a))


def _np_lstm(g, cp):
    h = g.shape[1] // 4
    i, f, gg, o = (
        _sig(g[:, :h]),
        _sig(g[:, h : 2 * h]),
        np.tanh(g[:, 2 * h : 3 * h]),
        _sig(g[:, 3 * h :]),
    )
    c = f * cp + i * gg
    return np.concatenate([i, f, gg, o], 1), c, o * np.tanh(c)


def _np_gru(xg, hg, hp):
    h = hp.shape[1]
    r = _sig(xg[:, :h] + hg[:, :h])
    z = _sig(xg[:, h : 2 * h] + hg[:, h : 2 * h])
    n = np.tanh(xg[:, 2 * h :] + r * hg[:, 2 * h :])
    return np.concatenate([r, z, n], 1), hg[:, 2 * h :], n + z * (hp - n)


@settings(max_examples=25, deadline=None)
@given(
    batch=st.integers(0, 9),
    hidden=st.integers(1, 40),
    dtype=st.sampled_from([np.float32, np.float64]),
)
def test_lstm_cell_matches_numpy(batch, hidden, dtype):
    g = (RNG.standard_normal((batch, 4 * hidden)) * 4).astype(dtype)
    cp = RNG.standard_normal((batch, hidden)).astype(dtype)
    gates = _t(g.copy())  # activated in place: keep g for the reference
    c = ember.empty(batch, hidden, dtype=gates.dtype)
    h = ember.empty(batch, hidden, dtype=gates.dtype)
    ret = _C._nn_lstm_cell(gates, _t(cp), c, h)
    acts, c_ref, h_ref = _np_lstm(g.astype(np.float64), cp.astype(np.float64))
    np.testing.assert_allclose(gates.numpy(), acts, **TOL[dtype])
    np.testing.assert_allclose(c.numpy(), c_ref, **TOL[dtype])
    np.testing.assert_allclose(h.numpy(), h_ref, **TOL[dtype])
    assert ret.data_ptr() == h.data_ptr()


def gates_dtype(dtype):
    return ember.float32 if dtype == np.float32 else ember.float64


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_lstm_cell_backward_is_the_closed_form(dtype):
    b, hid = 6, 19
    g = (RNG.standard_normal((b, 4 * hid)) * 2).astype(dtype)
    cp = RNG.standard_normal((b, hid)).astype(dtype)
    dh = RNG.standard_normal((b, hid)).astype(dtype)
    dc = RNG.standard_normal((b, hid)).astype(dtype)
    acts, c, _ = _np_lstm(g.astype(np.float64), cp.astype(np.float64))
    i, f, gg, o = np.split(acts, 4, axis=1)
    tc = np.tanh(c)
    dct = dc + dh * o * (1 - tc**2)
    want = np.concatenate(
        [
            dct * gg * i * (1 - i),
            dct * cp * f * (1 - f),
            dct * i * (1 - gg**2),
            dh * tc * o * (1 - o),
        ],
        1,
    )
    dc_t = _t(dc)
    grad = ember.empty(b, 4 * hid, dtype=gates_dtype(dtype))
    _C._nn_lstm_cell_backward(
        _t(acts.astype(dtype)), _t(c.astype(dtype)), _t(cp), _t(dh), dc_t, grad
    )
    np.testing.assert_allclose(grad.numpy(), want, **TOL[dtype])
    np.testing.assert_allclose(dc_t.numpy(), dct * f, **TOL[dtype])


def test_lstm_cell_backward_matches_finite_differences():
    # The kernel pair against a central difference of the forward kernel (float64).
    b, hid = 3, 5
    g = RNG.standard_normal((b, 4 * hid))
    cp = RNG.standard_normal((b, hid))
    wh, wc = RNG.standard_normal((b, hid)), RNG.standard_normal((b, hid))

    def loss(gv):
        _, c, h = _np_lstm(gv, cp)
        return float((wh * h).sum() + (wc * c).sum())

    acts, c, _ = _np_lstm(g, cp)
    grad = ember.empty(b, 4 * hid, dtype=ember.float64)
    _C._nn_lstm_cell_backward(_t(acts), _t(c), _t(cp), _t(wh), _t(wc.copy()), grad)
    eps = 1e-6
    numeric = np.zeros_like(g)
    for idx in np.ndindex(g.shape):
        up, dn = g.copy(), g.copy()
        up[idx] += eps
        dn[idx] -= eps
        numeric[idx] = (loss(up) - loss(dn)) / (2 * eps)
    np.testing.assert_allclose(grad.numpy(), numeric, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_gru_cell_and_backward_match_numpy(dtype):
    b, hid = 7, 23
    xg = (RNG.standard_normal((b, 3 * hid)) * 2).astype(dtype)
    hg = (RNG.standard_normal((b, 3 * hid)) * 2).astype(dtype)
    hp = RNG.standard_normal((b, hid)).astype(dtype)
    et = gates_dtype(dtype)
    acts, hn, h = (
        ember.empty(b, 3 * hid, dtype=et),
        ember.empty(b, hid, dtype=et),
        ember.empty(b, hid, dtype=et),
    )
    _C._nn_gru_cell(_t(xg), _t(hg), _t(hp), acts, hn, h)
    a_ref, hn_ref, h_ref = _np_gru(
        xg.astype(np.float64), hg.astype(np.float64), hp.astype(np.float64)
    )
    np.testing.assert_allclose(acts.numpy(), a_ref, **TOL[dtype])
    np.testing.assert_allclose(hn.numpy(), hn_ref, **TOL[dtype])
    np.testing.assert_allclose(h.numpy(), h_ref, **TOL[dtype])
    dh = RNG.standard_normal((b, hid)).astype(dtype)
    gx, gh, dz = (
        ember.empty(b, 3 * hid, dtype=et),
        ember.empty(b, 3 * hid, dtype=et),
        ember.empty(b, hid, dtype=et),
    )
    _C._nn_gru_cell_backward(acts, hn, _t(hp), _t(dh), gx, gh, dz)
    r, z, n = np.split(a_ref, 3, axis=1)
    dn = dh * (1 - z) * (1 - n**2)
    dr = dn * hn_ref * r * (1 - r)
    dzz = dh * (hp - n) * z * (1 - z)
    np.testing.assert_allclose(gx.numpy(), np.concatenate([dr, dzz, dn], 1), **TOL[dtype])
    np.testing.assert_allclose(gh.numpy(), np.concatenate([dr, dzz, dn * r], 1), **TOL[dtype])
    np.testing.assert_allclose(dz.numpy(), dh * z, **TOL[dtype])


def test_cells_write_strided_row_views_and_split_big_batches():
    # Rows of bigger buffers (the time loop's slices), and a batch big enough for the pool.
    b, hid = 300, 64
    buf = ember.from_numpy((RNG.standard_normal((b + 10, 4 * hid)) * 3).astype(np.float32))
    g0 = buf.numpy()[5 : 5 + b].copy()
    cbuf = ember.zeros(b, 2 * hid)  # c_prev is the left half, c_out the right half
    cp = RNG.standard_normal((b, hid)).astype(np.float32)
    cbuf[:, :hid] = _t(cp)
    h = ember.empty(b, hid)
    _C._nn_lstm_cell(buf[5 : 5 + b], cbuf[:, :hid], cbuf[:, hid:], h)
    acts, c, hh = _np_lstm(g0.astype(np.float64), cp.astype(np.float64))
    np.testing.assert_allclose(buf.numpy()[5 : 5 + b], acts, rtol=2e-6, atol=2e-6)
    np.testing.assert_allclose(cbuf.numpy()[:, hid:], c, rtol=2e-6, atol=2e-6)
    np.testing.assert_allclose(h.numpy(), hh, rtol=2e-6, atol=2e-6)


def test_extreme_gate_values_saturate_and_nan_propagates():
    g = np.array([[-1e4, 1e4, -np.inf, np.inf], [np.nan, 0.0, 50.0, -50.0]], dtype=np.float32)
    gates = _t(g.copy())  # activated in place: keep g for the reference
    c, h = ember.empty(2, 1), ember.empty(2, 1)
    _C._nn_lstm_cell(gates, ember.ones(2, 1), c, h)
    a = gates.numpy()
    np.testing.assert_array_equal(a[0], [0.0, 1.0, -1.0, 1.0])
    assert np.isnan(a[1, 0]) and a[1, 1] == 0.5 and a[1, 2] == 1.0
    assert abs(a[1, 3]) < 1e-20
    assert c.numpy()[0, 0] == 1.0 and np.isnan(c.numpy()[1, 0])


def test_cell_argument_errors_name_the_op_and_shapes():
    g, c, h = ember.zeros(2, 8), ember.zeros(2, 2), ember.zeros(2, 2)
    with pytest.raises(RuntimeError, match=r"nn_lstm_cell.*gates of shape \[batch, 4 \* hidden\]"):
        _C._nn_lstm_cell(ember.zeros(2, 7), c, c, h)
    with pytest.raises(RuntimeError, match=r"c_prev of shape \[2, 2\].*got shape \(3, 2\)"):
        _C._nn_lstm_cell(g, ember.zeros(3, 2), c, h)
    with pytest.raises(TypeError, match=r"nn_lstm_cell.*float32 and float64"):
        _C._nn_lstm_cell(ember.zeros(2, 8, dtype=ember.int32), c, c, h)
    with pytest.raises(TypeError, match="h_out to have dtype float32"):
        _C._nn_lstm_cell(g, c, c, ember.zeros(2, 2, dtype=ember.float64))
    with pytest.raises(RuntimeError, match="unit stride"):
        _C._nn_lstm_cell(g, c, c, ember.zeros(2, 2).t())
    with pytest.raises(TypeError, match=r"argument 'c_prev' must be Tensor"):
        _C._nn_lstm_cell(g, None, c, h)
    with pytest.raises(RuntimeError, match=r"nn_gru_cell_backward.*acts of shape"):
        _C._nn_gru_cell_backward(ember.zeros(2, 4), c, c, c, g, g, c)
    with pytest.raises(RuntimeError, match=r"nn_gru_cell.*h_gates of shape \[2, 6\]"):
        _C._nn_gru_cell(ember.zeros(2, 6), ember.zeros(2, 9), c, ember.zeros(2, 6), c, h)


def test_lstm_layer_uses_the_fused_cells_and_matches_numpy_through_time():
    # A 2-step LSTM layer by the module against the numpy recurrence (float64).
    lstm = ember.nn.LSTM(3, 4, dtype=ember.float64)
    x = RNG.standard_normal((2, 1, 3))
    out, (_h_n, c_n) = lstm(ember.from_numpy(x))
    w_ih, w_hh = lstm.weight_ih_l0.detach().numpy(), lstm.weight_hh_l0.detach().numpy()
    bias = (lstm.bias_ih_l0 + lstm.bias_hh_l0).detach().numpy()
    h, c = np.zeros((1, 4)), np.zeros((1, 4))
    for t in range(2):
        _, c, h = _np_lstm(x[t] @ w_ih.T + h @ w_hh.T + bias, c)
        np.testing.assert_allclose(out.detach().numpy()[t], h, rtol=1e-12)
    np.testing.assert_allclose(c_n.detach().numpy()[0], c, rtol=1e-12)


def test_lstm_and_gru_accept_transposed_initial_states():
    # hx given as a transposed view (inner stride != 1) still gives the contiguous result.
    x = ember.from_numpy(RNG.standard_normal((4, 3, 5)))
    for cls in (ember.nn.LSTM, ember.nn.GRU):
        layer = cls(5, 6, dtype=ember.float64)
        h0 = ember.from_numpy(RNG.standard_normal((6, 3, 1))).permute(2, 1, 0)
        hx = (h0, ember.from_numpy(RNG.standard_normal((6, 3, 1))).permute(2, 1, 0))
        state = hx if cls is ember.nn.LSTM else h0
        contiguous = tuple(t.contiguous() for t in hx) if cls is ember.nn.LSTM else h0.contiguous()
        got, _ = layer(x, state)
        want, _ = layer(x, contiguous)
        np.testing.assert_array_equal(got.detach().numpy(), want.detach().numpy())
