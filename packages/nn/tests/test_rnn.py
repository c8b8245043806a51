"""RNN, LSTM, GRU and their cells against the cell equations written in numpy (float64)."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import ember
from ember import nn
from ember.autograd import gradcheck
from ember.nn._functional.recurrent import recurrent_layer
from ember.nn.utils.rnn import pack_padded_sequence, pack_sequence, pad_packed_sequence

RNG = np.random.default_rng(2024)


def _sig(x):
    return 1.0 / (1.0 + np.exp(-x))


def _np_cell(mode, x, h, c, p, sfx):
    """One step of torch's equations for one layer/direction (``p``: name -> array)."""
    w_ih, w_hh = p["weight_ih" + sfx], p["weight_hh" + sfx]
    b_ih = p.get("bias_ih" + sfx, 0.0)
    b_hh = p.get("bias_hh" + sfx, 0.0)
    gi, gh = w_ih @ x + b_ih, w_hh @ h + b_hh
    if mode == "LSTM":
        n = c.shape[0]
        gates = gi + gh
        i, f = _sig(gates[:n]), _sig(gates[n : 2 * n])
        g, o = np.tanh(gates[2 * n : 3 * n]), _sig(gates[3 * n :])
        c = f * c + i * g
        h = o * np.tanh(c)
        if "weight_hr" + sfx in p:
            h = p["weight_hr" + sfx] @ h
        return h, c
    if mode == "GRU":
        n = h.shape[0]
        r = _sig(gi[:n] + gh[:n])
        z = _sig(gi[n : 2 * n] + gh[n : 2 * n])
        cand = np.tanh(gi[2 * n :] + r * gh[2 * n :])
        return (1 - z) * cand + z * h, c
    pre = gi + gh
    return (np.tanh(pre) if mode == "RNN_TANH" else np.maximum(pre, 0.0)), c


def _np_rnn(mode, seq, params, layers, bidir, h0, c0):
    """One unbatched sequence ``(T, F)`` through the stack; h0/c0: ``(layers*dirs, H)``."""
    dirs = 2 if bidir else 1
    inp = seq
    hn, cn = [], []
    for layer in range(layers):
        outs = []
        for d in range(dirs):
            idx = layer * dirs + d
            sfx = f"_l{layer}" + ("_reverse" if d else "")
            h, c = h0[idx], (c0[idx] if c0 is not None else None)
            out = [None] * len(inp)
            for t in range(len(inp)) if d == 0 else range(len(inp) - 1, -1, -1):
                h, c = _np_cell(mode, inp[t], h, c, params, sfx)
                out[t] = h
            outs.append(np.stack(out))
            hn.append(h)
            cn.append(c)
        inp = np.concatenate(outs, axis=1)
    return inp, np.stack(hn), (np.stack(cn) if c0 is not None else None)


def _params(module):
    return {name: p.detach().numpy().copy() for name, p in module.named_parameters()}


def _make(cls, *args, **kwargs):
    m = cls(*args, **kwargs).double()
    return m


CASES = [
    (nn.RNN, "RNN_TANH", {}),
    (nn.RNN, "RNN_RELU", {"nonlinearity": "relu"}),
    (nn.GRU, "GRU", {}),
    (nn.LSTM, "LSTM", {}),
    (nn.LSTM, "LSTM", {"proj_size": 2}),
    (nn.GRU, "GRU", {"bias": False}),
]


@pytest.mark.parametrize(("cls", "mode", "extra"), CASES)
@pytest.mark.parametrize("bidirectional", [False, True])
def test_padded_matches_numpy(cls, mode, extra, bidirectional):
    m = _make(cls, 3, 4, num_layers=2, bidirectional=bidirectional, **extra)
    dirs = 2 if bidirectional else 1
    hsz = extra.get("proj_size", 4)
    x = RNG.standard_normal((5, 2, 3))
    h0 = RNG.standard_normal((2 * dirs, 2, hsz))
    c0 = RNG.standard_normal((2 * dirs, 2, 4))
    hx = (ember.tensor(h0), ember.tensor(c0)) if mode == "LSTM" else ember.tensor(h0)
    out, state = m(ember.tensor(x), hx)
    h_n = state[0] if mode == "LSTM" else state
    params = _params(m)
    assert tuple(out.shape) == (5, 2, dirs * hsz)
    for b in range(2):
        want, want_h, want_c = _np_rnn(
            mode, x[:, b], params, 2, bidirectional, h0[:, b], c0[:, b] if mode == "LSTM" else None
        )
        np.testing.assert_allclose(out.detach().numpy()[:, b], want, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(h_n.detach().numpy()[:, b], want_h, rtol=1e-10, atol=1e-12)
        if mode == "LSTM":
            np.testing.assert_allclose(state[1].detach().numpy()[:, b], want_c, rtol=1e-10)


@pytest.mark.parametrize(("cls", "mode", "extra"), CASES[2:5])
def test_packed_matches_per_sequence(cls, mode, extra):
    m = _make(cls, 3, 4, num_layers=2, bidirectional=True, **extra)
    lengths = [2, 5, 3]
    seqs = [RNG.standard_normal((n, 3)) for n in lengths]
    packed = pack_sequence([ember.tensor(s) for s in seqs], enforce_sorted=False)
    out, state = m(packed)
    h_n = state[0] if mode == "LSTM" else state
    assert isinstance(out, nn.utils.rnn.PackedSequence)
    padded, lens = pad_packed_sequence(out, batch_first=True)
    assert lens.tolist() == lengths
    params = _params(m)
    hsz = extra.get("proj_size", 4)
    for b, s in enumerate(seqs):
        zeros_h, zeros_c = np.zeros((4, hsz)), (np.zeros((4, 4)) if mode == "LSTM" else None)
        want, want_h, _ = _np_rnn(mode, s, params, 2, True, zeros_h, zeros_c)
        got = padded.detach().numpy()[b]
        np.testing.assert_allclose(got[: len(s)], want, rtol=1e-10, atol=1e-12)
        assert np.all(got[len(s) :] == 0.0)
        np.testing.assert_allclose(h_n.detach().numpy()[:, b], want_h, rtol=1e-10, atol=1e-12)


def test_batch_first_and_unbatched():
    m = _make(nn.GRU, 3, 4, batch_first=True)
    x = RNG.standard_normal((2, 5, 3))
    out, h_n = m(ember.tensor(x))
    assert tuple(out.shape) == (2, 5, 4) and tuple(h_n.shape) == (1, 2, 4)
    params = _params(m)
    want, want_h, _ = _np_rnn("GRU", x[1], params, 1, False, np.zeros((1, 4)), None)
    np.testing.assert_allclose(out.detach().numpy()[1], want, rtol=1e-10)
    out1, h1 = m(ember.tensor(x[1]))  # unbatched (T, F)
    assert tuple(out1.shape) == (5, 4) and tuple(h1.shape) == (1, 4)
    np.testing.assert_allclose(out1.detach().numpy(), want, rtol=1e-10)
    np.testing.assert_allclose(h1.detach().numpy(), want_h, rtol=1e-10)


def test_lstm_unbatched_with_state_and_proj():
    m = _make(nn.LSTM, 3, 5, proj_size=2)
    x = RNG.standard_normal((4, 3))
    h0, c0 = RNG.standard_normal((1, 2)), RNG.standard_normal((1, 5))
    out, (h_n, c_n) = m(ember.tensor(x), (ember.tensor(h0), ember.tensor(c0)))
    assert tuple(out.shape) == (4, 2) and tuple(h_n.shape) == (1, 2) and tuple(c_n.shape) == (1, 5)
    want, _, want_c = _np_rnn("LSTM", x, _params(m), 1, False, h0, c0)
    np.testing.assert_allclose(out.detach().numpy(), want, rtol=1e-10)
    np.testing.assert_allclose(c_n.detach().numpy(), want_c, rtol=1e-10)


@pytest.mark.parametrize(("cls", "extra"), [(nn.LSTM, {}), (nn.GRU, {}), (nn.RNN, {})])
def test_module_gradcheck_inputs(cls, extra):
    m = _make(cls, 2, 3, num_layers=2, bidirectional=True)
    x = ember.tensor(RNG.standard_normal((3, 2, 2))).requires_grad_()
    h0 = ember.tensor(RNG.standard_normal((4, 2, 3))).requires_grad_()

    def f(x, h0):
        if cls is nn.LSTM:
            out, (h, c) = m(x, (h0, h0 * 0.5))
            return out, h, c
        out, h = m(x, h0)
        return out, h

    assert gradcheck(f, (x, h0))


@pytest.mark.parametrize("mode", ["LSTM", "LSTMP", "GRU", "RNN_TANH", "RNN_RELU"])
@pytest.mark.parametrize("reverse", [False, True])
def test_recurrent_layer_gradcheck_all_weights(mode, reverse):
    # Packed steps of sizes 3, 2, 2, 1: sequences drop out and (reverse) join mid-way.
    sizes = [3, 2, 2, 1]
    lstm = mode.startswith("LSTM")
    base = "LSTM" if lstm else mode
    gates = {"LSTM": 4, "GRU": 3}.get(base, 1)
    hid, proj = 3, (2 if mode == "LSTMP" else 0)
    hout = proj or hid

    def t(*shape):
        return ember.tensor(RNG.standard_normal(shape) * 0.5).requires_grad_()

    gru = base == "GRU"
    names = ["xp", "h0"] + (["c0"] if lstm else []) + ["w_hh"] + (["b_hh"] if gru else [])
    names += ["w_hr"] if proj else []
    shapes = {
        "xp": (sum(sizes), gates * hid),
        "h0": (3, hout),
        "c0": (3, hid),
        "w_hh": (gates * hid, hout),
        "b_hh": (gates * hid,),
        "w_hr": (proj, hid),
    }
    inputs = tuple(t(*shapes[n]) for n in names)

    def f(*args):
        a = dict(zip(names, args, strict=True))
        out, h, c = recurrent_layer(
            a["xp"], a["h0"], a.get("c0"), a["w_hh"], a.get("b_hh"), a.get("w_hr"), base,
            reverse, sizes,
        )  # fmt: skip
        return (out, h) if c is None else (out, h, c)

    assert gradcheck(f, inputs)


def test_parameter_gradients_match_finite_differences():
    m = _make(nn.LSTM, 2, 3, proj_size=2)
    x = RNG.standard_normal((3, 1, 2))
    g = RNG.standard_normal((3, 1, 2))
    out, _ = m(ember.tensor(x))
    (out * ember.tensor(g)).sum().backward()
    params = _params(m)
    eps = 1e-6
    for name, p in m.named_parameters():
        num = np.zeros_like(params[name])
        for idx in np.ndindex(num.shape):
            plus, minus = dict(params), dict(params)
            plus[name] = params[name].copy()
            minus[name] = params[name].copy()
            plus[name][idx] += eps
            minus[name][idx] -= eps
            zeros = (np.zeros((1, 2)), np.zeros((1, 3)))
            fp = (_np_rnn("LSTM", x[:, 0], plus, 1, False, *zeros)[0] * g[:, 0]).sum()
            fm = (_np_rnn("LSTM", x[:, 0], minus, 1, False, *zeros)[0] * g[:, 0]).sum()
            num[idx] = (fp - fm) / (2 * eps)
        np.testing.assert_allclose(p.grad.numpy(), num, rtol=1e-5, atol=1e-8)


def test_state_dict_keys_match_torch():
    # Keys and order from torch 2.13: nn.LSTM(3, 4, 2, proj_size=2, bidirectional=True).
    want = []
    for layer in range(2):
        for sfx in ("", "_reverse"):
            want += [
                f"weight_ih_l{layer}{sfx}",
                f"weight_hh_l{layer}{sfx}",
                f"bias_ih_l{layer}{sfx}",
                f"bias_hh_l{layer}{sfx}",
                f"weight_hr_l{layer}{sfx}",
            ]
    m = nn.LSTM(3, 4, 2, proj_size=2, bidirectional=True)
    assert list(m.state_dict().keys()) == want
    assert m._flat_weights_names == want
    shapes = {k: tuple(v.shape) for k, v in m.state_dict().items()}
    assert shapes["weight_ih_l0"] == (16, 3) and shapes["weight_hh_l0"] == (16, 2)
    assert shapes["weight_ih_l1_reverse"] == (16, 4) and shapes["weight_hr_l1"] == (2, 4)
    assert list(nn.GRU(3, 4, bias=False).state_dict()) == ["weight_ih_l0", "weight_hh_l0"]
    cell_keys = ["weight_ih", "weight_hh", "bias_ih", "bias_hh"]
    assert list(nn.LSTMCell(3, 4).state_dict()) == cell_keys
    assert len(m.all_weights) == 4 and len(m.all_weights[0]) == 5
    m.flatten_parameters()  # a no-op, as on CPU torch


def test_default_init_distribution():
    m = nn.LSTM(10, 64)
    bound = 1 / math.sqrt(64)
    values = np.concatenate([p.detach().numpy().ravel() for p in m.parameters()])
    assert values.min() >= -bound and values.max() <= bound
    assert abs(values.std() - bound / math.sqrt(3)) < 0.01 * bound * 10
    cell = nn.GRUCell(5, 16)
    assert np.abs(cell.weight_hh.detach().numpy()).max() <= 1 / 4


@pytest.mark.parametrize(
    ("cls", "mode", "kwargs"),
    [
        (nn.RNNCell, "RNN_TANH", {}),
        (nn.RNNCell, "RNN_RELU", {"nonlinearity": "relu"}),
        (nn.LSTMCell, "LSTM", {}),
        (nn.GRUCell, "GRU", {}),
    ],
)
def test_cells_match_numpy(cls, mode, kwargs):
    cell = _make(cls, 3, 4, **kwargs)
    x = RNG.standard_normal((2, 3))
    h = RNG.standard_normal((2, 4))
    c = RNG.standard_normal((2, 4))
    p = {k + "_l0": v for k, v in _params(cell).items()}
    if mode == "LSTM":
        got_h, got_c = cell(ember.tensor(x), (ember.tensor(h), ember.tensor(c)))
    else:
        got_h, got_c = cell(ember.tensor(x), ember.tensor(h)), None
    for b in range(2):
        want_h, want_c = _np_cell(mode, x[b], h[b], c[b], p, "_l0")
        np.testing.assert_allclose(got_h.detach().numpy()[b], want_h, rtol=1e-10)
        if got_c is not None:
            np.testing.assert_allclose(got_c.detach().numpy()[b], want_c, rtol=1e-10)
    unbatched = cell(ember.tensor(x[0]))
    first = unbatched[0] if mode == "LSTM" else unbatched
    assert tuple(first.shape) == (4,)


def test_cell_gradcheck():
    cell = _make(nn.LSTMCell, 2, 3)
    x = ember.tensor(RNG.standard_normal((2, 2))).requires_grad_()
    h = ember.tensor(RNG.standard_normal((2, 3))).requires_grad_()
    c = ember.tensor(RNG.standard_normal((2, 3))).requires_grad_()
    assert gradcheck(lambda x, h, c: cell(x, (h, c)), (x, h, c))


def test_dropout_between_layers():
    m = _make(nn.GRU, 3, 4, num_layers=2, dropout=1.0)
    x = ember.tensor(RNG.standard_normal((4, 2, 3)))
    out_train, _ = m(x)
    # With p=1 the second layer sees zeros: same as a 1-layer GRU with layer-1 weights on 0s.
    params = {k.replace("_l1", "_l0"): v for k, v in _params(m).items() if "_l1" in k}
    want, _, _ = _np_rnn("GRU", np.zeros((4, 4)), params, 1, False, np.zeros((1, 4)), None)
    np.testing.assert_allclose(out_train.detach().numpy()[:, 0], want, rtol=1e-10)
    m.eval()
    out_eval, _ = m(x)
    full, _, _ = _np_rnn("GRU", x.numpy()[:, 0], _params(m), 2, False, np.zeros((2, 4)), None)
    np.testing.assert_allclose(out_eval.detach().numpy()[:, 0], full, rtol=1e-10)


def test_repr():
    assert repr(nn.LSTM(3, 4, proj_size=2, bias=False)) == "LSTM(3, 4, proj_size=2, bias=False)"
    want = "RNN(3, 4, num_layers=2, batch_first=True, dropout=0.1, bidirectional=True)"
    assert repr(nn.RNN(3, 4, 2, batch_first=True, dropout=0.1, bidirectional=True)) == want
    assert repr(nn.RNNCell(3, 4, nonlinearity="relu")) == "RNNCell(3, 4, nonlinearity=relu)"
    assert repr(nn.LSTMCell(3, 4, bias=False)) == "LSTMCell(3, 4, bias=False)"


def test_constructor_errors():
    with pytest.raises(ValueError, match="Unknown nonlinearity 'gelu'"):
        nn.RNN(3, 4, nonlinearity="gelu")
    with pytest.raises(ValueError, match="proj_size argument is only supported for LSTM"):
        nn.RNNBase("GRU", 3, 4, proj_size=2)
    with pytest.raises(ValueError, match="proj_size has to be smaller than hidden_size"):
        nn.LSTM(3, 4, proj_size=4)
    with pytest.raises(ValueError, match="dropout should be a number in range"):
        nn.LSTM(3, 4, dropout=2)
    with pytest.raises(ValueError, match="hidden_size must be greater than zero"):
        nn.GRU(3, 0)
    with pytest.raises(ValueError, match="num_layers must be greater than zero"):
        nn.GRU(3, 4, num_layers=0)
    with pytest.raises(TypeError, match="hidden_size should be of type int"):
        nn.GRU(3, 4.0)  # type: ignore[arg-type]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nn.GRU(3, 4, dropout=0.5)
    text = "non-zero dropout expects num_layers greater than 1"
    assert any(text in str(w.message) for w in caught)


def test_forward_errors_name_module_and_shapes():
    lstm = nn.LSTM(3, 4, 2, proj_size=2, bidirectional=True)
    with pytest.raises(RuntimeError, match=r"LSTM: input.size\(-1\) must be equal to input_"):
        lstm(ember.zeros(5, 2, 4))
    with pytest.raises(RuntimeError, match=r"hidden\[0\] size \(4, 2, 2\), got \[4, 2, 3\]"):
        lstm(ember.zeros(5, 2, 3), (ember.zeros(4, 2, 3), ember.zeros(4, 2, 4)))
    with pytest.raises(ValueError, match="LSTM: Expected input to be 2D or 3D, got 4D"):
        lstm(ember.zeros(2, 5, 2, 3))
    gru = nn.GRU(3, 4)
    with pytest.raises(RuntimeError, match="For unbatched 2-D input, hx should also be 2-D"):
        gru(ember.zeros(5, 3), ember.zeros(1, 1, 4))
    with pytest.raises(RuntimeError, match=r"Expected hidden size \(1, 2, 4\), got \[1, 3, 4\]"):
        gru(ember.zeros(5, 2, 3), ember.zeros(1, 3, 4))
    cell = nn.RNNCell(3, 4)
    with pytest.raises(ValueError, match="RNNCell: Expected input to be 1D or 2D, got 3D"):
        cell(ember.zeros(5, 2, 3))
    with pytest.raises(RuntimeError, match="inconsistent input_size: got 4 expected 3"):
        cell(ember.zeros(2, 4))
    with pytest.raises(RuntimeError, match="Input batch size 2 doesn't match hidden0 batch size 3"):
        cell(ember.zeros(2, 3), ember.zeros(3, 4))


def test_packed_input_with_initial_state_is_permuted():
    m = _make(nn.GRU, 2, 3)
    x = RNG.standard_normal((4, 3, 2))
    h0 = RNG.standard_normal((1, 3, 3))
    lengths = [2, 4, 3]
    packed = pack_padded_sequence(ember.tensor(x), lengths, enforce_sorted=False)
    _, h_n = m(packed, ember.tensor(h0))
    params = _params(m)
    for b, n in enumerate(lengths):
        _, want_h, _ = _np_rnn("GRU", x[:n, b], params, 1, False, h0[:, b], None)
        np.testing.assert_allclose(h_n.detach().numpy()[:, b], want_h, rtol=1e-10)


def test_lstm_matches_torch_when_available():
    torch = pytest.importorskip("torch")
    tm = torch.nn.LSTM(3, 5, 2, bidirectional=True, proj_size=2, batch_first=True).double()
    em = nn.LSTM(3, 5, 2, bidirectional=True, proj_size=2, batch_first=True).double()
    with ember.no_grad():
        for name, p in em.named_parameters():
            p.copy_(ember.tensor(getattr(tm, name).detach().numpy()))
    x = RNG.standard_normal((2, 4, 3))
    want, (_, wc) = tm(torch.tensor(x))
    got, (_, gc) = em(ember.tensor(x))
    np.testing.assert_allclose(got.detach().numpy(), want.detach().numpy(), rtol=1e-10)
    np.testing.assert_allclose(gc.detach().numpy(), wc.detach().numpy(), rtol=1e-10)
