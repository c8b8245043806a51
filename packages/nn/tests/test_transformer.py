"""MultiheadAttention and the Transformer modules against numpy and torch's state_dict keys."""

from __future__ import annotations

import numpy as np
import pytest
from attention_reference import np_mha

import ember
from ember import nn
from ember.autograd import gradcheck
from ember.nn.modules.normalization import LayerNorm

RNG = np.random.default_rng(99)


def _p(module):
    return {k: v.detach().numpy() for k, v in module.state_dict().items()}


def _np_layer_norm(x, w, b, eps=1e-5):
    mu = x.mean(-1, keepdims=True)
    var = x.var(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * w + b


def _np_self_attn(x, p, prefix, heads, mask=None, kpm=None, mem=None):
    src = x if mem is None else mem
    return np_mha(
        x, src, src, p[prefix + "in_proj_weight"], p[prefix + "in_proj_bias"],
        p[prefix + "out_proj.weight"], p[prefix + "out_proj.bias"], heads, mask, kpm,
    )[0]  # fmt: skip


def _np_ff(x, p, act):
    h = x @ p["linear1.weight"].T + p["linear1.bias"]
    h = np.maximum(h, 0) if act == "relu" else act(h)
    return h @ p["linear2.weight"].T + p["linear2.bias"]


def _np_encoder_layer(x, p, heads, norm_first, mask=None, kpm=None):
    def ln(y, i):
        return _np_layer_norm(y, p[f"norm{i}.weight"], p[f"norm{i}.bias"])

    if norm_first:
        x = x + _np_self_attn(ln(x, 1), p, "self_attn.", heads, mask, kpm)
        return x + _np_ff(ln(x, 2), p, "relu")
    x = ln(x + _np_self_attn(x, p, "self_attn.", heads, mask, kpm), 1)
    return ln(x + _np_ff(x, p, "relu"), 2)


def _np_decoder_layer(x, mem, p, heads, norm_first, tgt_mask=None):
    def ln(y, i):
        return _np_layer_norm(y, p[f"norm{i}.weight"], p[f"norm{i}.bias"])

    if norm_first:
        x = x + _np_self_attn(ln(x, 1), p, "self_attn.", heads, tgt_mask)
        x = x + _np_self_attn(ln(x, 2), p, "multihead_attn.", heads, mem=mem)
        return x + _np_ff(ln(x, 3), p, "relu")
    x = ln(x + _np_self_attn(x, p, "self_attn.", heads, tgt_mask), 1)
    x = ln(x + _np_self_attn(x, p, "multihead_attn.", heads, mem=mem), 2)
    return ln(x + _np_ff(x, p, "relu"), 3)


def _sub(p, prefix):
    return {k[len(prefix) :]: v for k, v in p.items() if k.startswith(prefix)}


@pytest.mark.parametrize("norm_first", [False, True])
def test_encoder_layer_matches_numpy(norm_first):
    layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, norm_first=norm_first).double()
    x = RNG.standard_normal((5, 3, 8))
    mask = np.triu(np.ones((5, 5), dtype=bool), 1)
    kpm = np.zeros((3, 5), dtype=bool)
    kpm[2, 3:] = True
    got = layer(
        ember.tensor(x), src_mask=ember.tensor(mask), src_key_padding_mask=ember.tensor(kpm)
    )
    want = _np_encoder_layer(x, _p(layer), 2, norm_first, mask, kpm)
    np.testing.assert_allclose(got.detach().numpy(), want, rtol=1e-9, atol=1e-10)


@pytest.mark.parametrize("norm_first", [False, True])
def test_decoder_layer_matches_numpy(norm_first):
    layer = nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, norm_first=norm_first).double()
    x, mem = RNG.standard_normal((4, 2, 8)), RNG.standard_normal((6, 2, 8))
    mask = nn.Transformer.generate_square_subsequent_mask(4, dtype=ember.float64)
    got = layer(ember.tensor(x), ember.tensor(mem), tgt_mask=mask, tgt_is_causal=True)
    want = _np_decoder_layer(x, mem, _p(layer), 2, norm_first, mask.numpy())
    np.testing.assert_allclose(got.detach().numpy(), want, rtol=1e-9, atol=1e-10)


def test_transformer_matches_numpy_and_batch_first():
    model = nn.Transformer(8, 2, 2, 1, 16, dropout=0.0).double()
    src, tgt = RNG.standard_normal((5, 2, 8)), RNG.standard_normal((4, 2, 8))
    mask = nn.Transformer.generate_square_subsequent_mask(4, dtype=ember.float64)
    got = model(ember.tensor(src), ember.tensor(tgt), tgt_mask=mask).detach().numpy()
    p = _p(model)
    mem = src
    for i in range(2):
        mem = _np_encoder_layer(mem, _sub(p, f"encoder.layers.{i}."), 2, False)
    mem = _np_layer_norm(mem, p["encoder.norm.weight"], p["encoder.norm.bias"])
    out = _np_decoder_layer(tgt, mem, _sub(p, "decoder.layers.0."), 2, False, mask.numpy())
    out = _np_layer_norm(out, p["decoder.norm.weight"], p["decoder.norm.bias"])
    np.testing.assert_allclose(got, out, rtol=1e-9, atol=1e-10)
    bf = nn.Transformer(8, 2, 2, 1, 16, dropout=0.0, batch_first=True).double()
    bf.load_state_dict(model.state_dict())
    got_bf = bf(ember.tensor(src.transpose(1, 0, 2)), ember.tensor(tgt.transpose(1, 0, 2)),
                tgt_mask=mask)  # fmt: skip
    np.testing.assert_allclose(got_bf.detach().numpy().transpose(1, 0, 2), got, rtol=1e-10)


def test_encoder_stack_copies_layer_and_applies_norm():
    layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0).double()
    enc = nn.TransformerEncoder(layer, 2, norm=LayerNorm(8).double(), enable_nested_tensor=False)
    assert enc.layers[0] is not layer and enc.layers[0] is not enc.layers[1]
    x = RNG.standard_normal((3, 2, 8))
    got = enc(ember.tensor(x)).detach().numpy()
    p = _p(enc)
    want = x
    for i in range(2):
        want = _np_encoder_layer(want, _sub(p, f"layers.{i}."), 2, False)
    want = _np_layer_norm(want, p["norm.weight"], p["norm.bias"])
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-10)


def test_encoder_layer_gradcheck():
    layer = nn.TransformerEncoderLayer(4, 2, 6, dropout=0.0).double()
    x = ember.tensor(RNG.standard_normal((3, 2, 4))).requires_grad_()
    assert gradcheck(lambda x: layer(x, is_causal=False), (x,))


def test_activation_options():
    gelu_layer = nn.TransformerEncoderLayer(4, 2, 6, dropout=0.0, activation="gelu").double()
    x = ember.tensor(RNG.standard_normal((3, 1, 4)))
    relu_layer = nn.TransformerEncoderLayer(4, 2, 6, dropout=0.0).double()
    relu_layer.load_state_dict(gelu_layer.state_dict())
    assert not np.allclose(gelu_layer(x).detach().numpy(), relu_layer(x).detach().numpy())
    called = []

    def act(t):
        called.append(True)
        return t * 2.0

    nn.TransformerEncoderLayer(4, 2, 6, activation=act)(x.float())
    assert called
    with pytest.raises(RuntimeError, match="activation should be relu/gelu, not tanh"):
        nn.TransformerEncoderLayer(4, 2, activation="tanh")


def test_square_subsequent_mask_and_causal_detection():
    mask = nn.Transformer.generate_square_subsequent_mask(3)
    assert mask.dtype == ember.float32
    np.testing.assert_array_equal(mask.numpy(), [[0, -np.inf, -np.inf], [0, 0, -np.inf], [0, 0, 0]])
    layer = nn.TransformerEncoderLayer(4, 2, 6, dropout=0.0).double()
    enc = nn.TransformerEncoder(layer, 1)
    x = ember.tensor(RNG.standard_normal((3, 2, 4)))
    explicit = enc(x, mask=mask.double())
    hinted = enc(x, mask=mask.double(), is_causal=True)
    np.testing.assert_allclose(explicit.detach().numpy(), hinted.detach().numpy(), rtol=1e-10)


def test_state_dict_keys_equal_torch():
    # Keys copied from torch 2.13's state_dict() of the same constructors.
    enc_keys = [
        "self_attn.in_proj_weight", "self_attn.in_proj_bias", "self_attn.out_proj.weight",
        "self_attn.out_proj.bias", "linear1.weight", "linear1.bias", "linear2.weight",
        "linear2.bias", "norm1.weight", "norm1.bias", "norm2.weight", "norm2.bias",
    ]  # fmt: skip
    assert list(nn.TransformerEncoderLayer(8, 2, 16).state_dict()) == enc_keys
    dec_keys = [
        "self_attn.in_proj_weight", "self_attn.in_proj_bias", "self_attn.out_proj.weight",
        "self_attn.out_proj.bias", "multihead_attn.in_proj_weight",
        "multihead_attn.in_proj_bias", "multihead_attn.out_proj.weight",
        "multihead_attn.out_proj.bias", "linear1.weight", "linear1.bias", "linear2.weight",
        "linear2.bias", "norm1.weight", "norm1.bias", "norm2.weight", "norm2.bias",
        "norm3.weight", "norm3.bias",
    ]  # fmt: skip
    assert list(nn.TransformerDecoderLayer(8, 2, 16).state_dict()) == dec_keys
    no_bias = ["self_attn.in_proj_weight", "self_attn.out_proj.weight", "linear1.weight",
               "linear2.weight", "norm1.weight", "norm2.weight"]  # fmt: skip
    assert list(nn.TransformerEncoderLayer(8, 2, 16, bias=False).state_dict()) == no_bias
    full = list(nn.Transformer(8, 2, 1, 1, 16).state_dict())
    want = (
        [f"encoder.layers.0.{k}" for k in enc_keys]
        + ["encoder.norm.weight", "encoder.norm.bias"]
        + [f"decoder.layers.0.{k}" for k in dec_keys]
        + ["decoder.norm.weight", "decoder.norm.bias"]
    )
    assert full == want
    modules = [name for name, _ in nn.TransformerEncoderLayer(8, 2, 16).named_modules()]
    assert modules == ["", "self_attn", "self_attn.out_proj", "linear1", "dropout", "linear2",
                       "norm1", "norm2", "dropout1", "dropout2"]  # fmt: skip


def test_multihead_attention_keys_and_init():
    assert list(nn.MultiheadAttention(8, 2).state_dict()) == [
        "in_proj_weight", "in_proj_bias", "out_proj.weight", "out_proj.bias",
    ]  # fmt: skip
    m = nn.MultiheadAttention(8, 2, kdim=3, vdim=5, add_bias_kv=True, bias=False)
    assert list(m.state_dict()) == [
        "q_proj_weight", "k_proj_weight", "v_proj_weight", "bias_k", "bias_v", "out_proj.weight",
    ]  # fmt: skip
    assert m.in_proj_weight is None and tuple(m.k_proj_weight.shape) == (8, 3)
    m = nn.MultiheadAttention(64, 4)
    assert np.all(m.in_proj_bias.detach().numpy() == 0.0)
    assert np.all(m.out_proj.bias.detach().numpy() == 0.0)
    bound = np.sqrt(6.0 / (64 + 192))  # xavier_uniform on (192, 64)
    w = m.in_proj_weight.detach().numpy()
    assert np.abs(w).max() <= bound and w.std() > 0.5 * bound / np.sqrt(3)


def test_multihead_attention_module_matches_numpy():
    m = nn.MultiheadAttention(8, 2, batch_first=True).double()
    x = RNG.standard_normal((2, 5, 8))
    kpm = np.zeros((2, 5), dtype=bool)
    kpm[0, 4] = True
    out, w = m(ember.tensor(x), ember.tensor(x), ember.tensor(x),
               key_padding_mask=ember.tensor(kpm), average_attn_weights=False)  # fmt: skip
    p = _p(m)
    xs = x.transpose(1, 0, 2)
    want, want_w = np_mha(
        xs, xs, xs, p["in_proj_weight"], p["in_proj_bias"], p["out_proj.weight"],
        p["out_proj.bias"], 2, None, kpm,
    )  # fmt: skip
    np.testing.assert_allclose(out.detach().numpy(), want.transpose(1, 0, 2), rtol=1e-9)
    np.testing.assert_allclose(w.detach().numpy(), want_w, rtol=1e-9, atol=1e-12)
    out2, none = m(ember.tensor(x), ember.tensor(x), ember.tensor(x),
                   key_padding_mask=ember.tensor(kpm), need_weights=False)  # fmt: skip
    assert none is None
    np.testing.assert_allclose(out2.detach().numpy(), out.detach().numpy(), rtol=1e-10)


def test_multihead_attention_kdim_vdim_gradcheck():
    m = nn.MultiheadAttention(4, 2, kdim=3, vdim=2).double()
    q = ember.tensor(RNG.standard_normal((3, 2, 4))).requires_grad_()
    k = ember.tensor(RNG.standard_normal((5, 2, 3))).requires_grad_()
    v = ember.tensor(RNG.standard_normal((5, 2, 2))).requires_grad_()
    assert gradcheck(lambda q, k, v: m(q, k, v)[0], (q, k, v))


def test_errors_name_module_and_shapes():
    with pytest.raises(AssertionError, match="embed_dim must be divisible by num_heads"):
        nn.MultiheadAttention(8, 3)
    m = nn.MultiheadAttention(8, 2)
    with pytest.raises(AssertionError, match=r"MultiheadAttention.*\(5, 2, 6\)"):
        m(ember.zeros(5, 2, 6), ember.zeros(5, 2, 6), ember.zeros(5, 2, 6))
    model = nn.Transformer(8, 2, 1, 1, 16)
    with pytest.raises(RuntimeError, match=r"batch number of src and tgt must be equal"):
        model(ember.zeros(5, 2, 8), ember.zeros(4, 3, 8))
    with pytest.raises(RuntimeError, match=r"feature number of src and tgt must be equal to d_mod"):
        model(ember.zeros(5, 2, 8), ember.zeros(4, 2, 6))
    layer = nn.TransformerEncoderLayer(8, 2, 16)
    with pytest.raises(AssertionError, match="only bool and floating types of src_key_padding"):
        layer(ember.zeros(5, 2, 8), src_key_padding_mask=ember.zeros(2, 5, dtype=ember.int64))


def test_transformer_matches_torch_when_available():
    torch = pytest.importorskip("torch")
    tm = torch.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True).double()
    em = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True).double()
    em.load_state_dict({k: ember.tensor(v.detach().numpy()) for k, v in tm.state_dict().items()})
    x = RNG.standard_normal((2, 5, 8))
    want = tm(torch.tensor(x)).detach().numpy()
    np.testing.assert_allclose(em(ember.tensor(x)).detach().numpy(), want, rtol=1e-9)
