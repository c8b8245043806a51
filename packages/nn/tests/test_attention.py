"""scaled_dot_product_attention and multi_head_attention_forward against numpy references."""

from __future__ import annotations

import math

import numpy as np
import pytest
from attention_reference import np_mha as _np_mha

import ember
from ember.autograd import gradcheck
from ember.nn._functional import attention as attn_mod
from ember.nn._functional.attention import (
    multi_head_attention_forward,
    scaled_dot_product_attention,
)

RNG = np.random.default_rng(1234)


def _np_sdpa(q, k, v, mask=None, causal=False, scale=None):
    scale = 1.0 / math.sqrt(q.shape[-1]) if scale is None else scale
    s = q @ np.swapaxes(k, -1, -2) * scale
    if causal:
        s = np.where(np.tril(np.ones(s.shape[-2:], dtype=bool)), s, -np.inf)
    if mask is not None:
        s = np.where(mask, s, -np.inf) if mask.dtype == bool else s + mask
    m = s.max(-1, keepdims=True)
    dead = np.isneginf(m)
    e = np.exp(s - np.where(dead, 0.0, m))
    tot = e.sum(-1, keepdims=True)
    w = np.where(dead, 0.0, e / np.where(tot == 0, 1.0, tot))
    return w @ v


def _t(a):
    return ember.tensor(np.asarray(a))


@pytest.fixture(params=["direct", "fused"])
def path(request, monkeypatch):
    # The fused kernel takes every case it covers; raising its threshold reaches the direct path.
    if request.param == "direct":
        monkeypatch.setattr(attn_mod, "_FUSED_MIN_SCORES", 1 << 62)
    return request.param


def _qkv(b=(2, 3), lq=5, ls=7, e=4, ev=6):
    return (
        RNG.standard_normal((*b, lq, e)),
        RNG.standard_normal((*b, ls, e)),
        RNG.standard_normal((*b, ls, ev)),
    )


@pytest.mark.parametrize("kind", ["none", "bool", "float", "causal", "scale", "broadcast"])
def test_sdpa_matches_numpy(path, kind):
    q, k, v = _qkv()
    mask = None
    kw: dict = {}
    if kind == "bool":
        mask = RNG.random((5, 7)) > 0.4
        mask[2] = False  # a fully masked row gives zeros
    elif kind == "float":
        mask = RNG.standard_normal((2, 3, 5, 7))
        mask[0, 0, 1, 3] = -np.inf
    elif kind == "broadcast":
        mask = RNG.random((3, 1, 7)) > 0.5
    if mask is not None:
        kw["attn_mask"] = _t(mask)
    if kind == "causal":
        kw["is_causal"] = True
    if kind == "scale":
        kw["scale"] = 0.37
    got = scaled_dot_product_attention(_t(q), _t(k), _t(v), **kw).numpy()
    want = _np_sdpa(q, k, v, mask, kind == "causal", kw.get("scale"))
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)
    if kind == "bool":
        assert np.all(got[:, :, 2] == 0.0)


def test_sdpa_causal_rectangular(path):
    # torch's is_causal is top-left aligned: row i sees keys 0..i, also when L != S.
    q, k, v = _qkv(lq=6, ls=4)
    got = scaled_dot_product_attention(_t(q), _t(k), _t(v), is_causal=True).numpy()
    np.testing.assert_allclose(got, _np_sdpa(q, k, v, causal=True), rtol=1e-10, atol=1e-12)


def test_sdpa_unbatched_and_batch_broadcast(path):
    q, k, v = _qkv(b=(), lq=3, ls=4)
    got = scaled_dot_product_attention(_t(q), _t(k), _t(v)).numpy()
    np.testing.assert_allclose(got, _np_sdpa(q, k, v), rtol=1e-10)
    q4 = RNG.standard_normal((2, 3, 5, 4))
    k1, v1 = RNG.standard_normal((1, 3, 7, 4)), RNG.standard_normal((1, 3, 7, 2))
    got = scaled_dot_product_attention(_t(q4), _t(k1), _t(v1)).numpy()
    np.testing.assert_allclose(got, _np_sdpa(q4, k1, v1), rtol=1e-10)


def test_sdpa_gqa(path):
    q = RNG.standard_normal((2, 6, 5, 4))
    k, v = RNG.standard_normal((2, 2, 7, 4)), RNG.standard_normal((2, 2, 7, 3))
    got = scaled_dot_product_attention(_t(q), _t(k), _t(v), enable_gqa=True).numpy()
    want = _np_sdpa(q, np.repeat(k, 3, axis=1), np.repeat(v, 3, axis=1))
    np.testing.assert_allclose(got, want, rtol=1e-10)
    with pytest.raises(RuntimeError, match="divide the number of heads"):
        scaled_dot_product_attention(
            _t(q), _t(RNG.standard_normal((2, 4, 7, 4))), _t(v), enable_gqa=True
        )


@pytest.mark.parametrize("kind", ["none", "causal", "bool"])
def test_sdpa_gradcheck(path, kind):
    q, k, v = (_t(a).requires_grad_() for a in _qkv(b=(2,), lq=3, ls=4, e=3, ev=2))
    mask = _t(np.array([[1, 0, 1, 1], [0, 0, 0, 0], [1, 1, 0, 1]], dtype=bool))

    def f(q, k, v):
        if kind == "causal":
            return scaled_dot_product_attention(q, k, v, is_causal=True)
        if kind == "bool":
            return scaled_dot_product_attention(q, k, v, attn_mask=mask)
        return scaled_dot_product_attention(q, k, v)

    assert gradcheck(f, (q, k, v))


def test_sdpa_float_mask_gradient():
    q, k, v = (_t(a).requires_grad_() for a in _qkv(b=(), lq=3, ls=4, e=2, ev=2))
    mask = _t(RNG.standard_normal((3, 4))).requires_grad_()
    assert gradcheck(lambda q, k, v, m: scaled_dot_product_attention(q, k, v, m), (q, k, v, mask))


def test_sdpa_fused_path_is_used_and_blocks():
    q, k, v = _qkv(b=(2,), lq=70, ls=3, e=2, ev=2)  # two query blocks of the kernel's 64 rows
    qe = _t(q).requires_grad_()
    out = scaled_dot_product_attention(qe, _t(k), _t(v), is_causal=True)
    names, todo = set(), [out.grad_fn]
    while todo:  # the node types of the graph that produced out
        node = todo.pop()
        names.add(type(node).__name__)
        todo += [e[0] for e in node.next_functions if e is not None and e[0] is not None]
    assert "_FusedAttentionBackward" in names
    np.testing.assert_allclose(out.detach().numpy(), _np_sdpa(q, k, v, causal=True), rtol=1e-10)


def test_sdpa_dropout():
    q, k, v = (_t(a) for a in _qkv())
    assert np.all(scaled_dot_product_attention(q, k, v, dropout_p=1.0).numpy() == 0.0)
    ones = ember.ones(1, 200, 1, dtype=ember.float64)
    vals = ember.ones(1, 200, 1, dtype=ember.float64)
    # Uniform weights 1/200 over all ones: each kept weight is 1/200 / (1-p), dropped ones 0.
    out = scaled_dot_product_attention(ones, ones, vals, dropout_p=0.5).numpy()
    assert 0.7 < out.mean() < 1.3 and not np.allclose(out, 1.0)


def test_sdpa_errors():
    q, k, v = (_t(a) for a in _qkv())
    with pytest.raises(RuntimeError, match="Explicit attn_mask should not be set"):
        scaled_dot_product_attention(q, k, v, attn_mask=ember.ones(5, 7), is_causal=True)
    with pytest.raises(RuntimeError, match="same dtype"):
        scaled_dot_product_attention(q, k.float(), v)
    with pytest.raises(RuntimeError, match=r"same last dim.*\(2, 3, 7, 3\)"):
        scaled_dot_product_attention(q, k[..., :3], v)
    with pytest.raises(RuntimeError, match="sequence length"):
        scaled_dot_product_attention(q, k, v[..., :6, :])
    with pytest.raises(RuntimeError, match="attn_mask dtype"):
        scaled_dot_product_attention(q, k, v, attn_mask=ember.ones(5, 7, dtype=ember.int64))
    with pytest.raises(RuntimeError, match=r"attn_mask of shape \(4, 7\)"):
        scaled_dot_product_attention(q, k, v, attn_mask=ember.ones(4, 7))
    with pytest.raises(TypeError, match="'key' must be Tensor"):
        scaled_dot_product_attention(q, 3, v)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="dropout_p"):
        scaled_dot_product_attention(q, k, v, dropout_p=1.5)


# ---- multi_head_attention_forward --------------------------------------------------------------


def _mha_params(e=8):
    return (
        RNG.standard_normal((3 * e, e)) * 0.3,
        RNG.standard_normal(3 * e),
        RNG.standard_normal((e, e)) * 0.3,
        RNG.standard_normal(e),
    )


@pytest.mark.parametrize("need_weights", [True, False])
@pytest.mark.parametrize("masks", ["none", "attn_bool", "attn_float", "kpm", "both"])
def test_mha_forward_matches_numpy(need_weights, masks):
    e, heads = 8, 2
    w_in, b_in, w_out, b_out = _mha_params(e)
    x = RNG.standard_normal((5, 3, e))
    mem = RNG.standard_normal((4, 3, e))
    mask = kpm = None
    if masks in ("attn_bool", "both"):
        mask = np.triu(np.ones((5, 4), dtype=bool), 1)
    if masks == "attn_float":
        mask = RNG.standard_normal((5, 4))
    if masks in ("kpm", "both"):
        kpm = np.array([[0, 0, 0, 1], [0, 0, 1, 1], [0, 0, 0, 0]], dtype=bool)
    out, w = multi_head_attention_forward(
        _t(x), _t(mem), _t(mem), e, heads, _t(w_in), _t(b_in), None, None, False, 0.0,
        _t(w_out), _t(b_out), key_padding_mask=None if kpm is None else _t(kpm),
        need_weights=need_weights, attn_mask=None if mask is None else _t(mask),
        average_attn_weights=False,
    )  # fmt: skip
    want, want_w = _np_mha(x, mem, mem, w_in, b_in, w_out, b_out, heads, mask, kpm)
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-9, atol=1e-12)
    if need_weights:
        assert w is not None
        np.testing.assert_allclose(w.numpy(), want_w, rtol=1e-9, atol=1e-12)
    else:
        assert w is None


def test_mha_self_attention_unbatched_and_average():
    e, heads = 8, 4
    w_in, b_in, w_out, b_out = _mha_params(e)
    x = RNG.standard_normal((5, e))
    xt = _t(x)
    out, w = multi_head_attention_forward(
        xt, xt, xt, e, heads, _t(w_in), _t(b_in), None, None, False, 0.0, _t(w_out), _t(b_out)
    )
    want, want_w = _np_mha(x[:, None], x[:, None], x[:, None], w_in, b_in, w_out, b_out, heads)
    np.testing.assert_allclose(out.numpy(), want[:, 0], rtol=1e-9)
    assert w is not None
    np.testing.assert_allclose(w.numpy(), want_w.mean(1)[0], rtol=1e-9)


def test_mha_bias_kv_and_zero_attn_shapes():
    e, heads = 4, 2
    w_in, b_in, w_out, b_out = _mha_params(e)
    x = _t(RNG.standard_normal((3, 2, e)))
    bk, bv = _t(RNG.standard_normal((1, 1, e))), _t(RNG.standard_normal((1, 1, e)))
    out, w = multi_head_attention_forward(
        x, x, x, e, heads, _t(w_in), _t(b_in), bk, bv, True, 0.0, _t(w_out), _t(b_out),
        attn_mask=ember.zeros(3, 3, dtype=ember.float64),
    )  # fmt: skip
    assert tuple(out.shape) == (3, 2, e)
    assert w is not None and tuple(w.shape) == (2, 3, 5)  # 3 keys + bias_k + zero key
    np.testing.assert_allclose(w.numpy().sum(-1), 1.0)


def test_mha_gradcheck():
    e, heads = 4, 2
    params = [_t(a).requires_grad_() for a in _mha_params(e)]
    x = _t(RNG.standard_normal((3, 2, e))).requires_grad_()

    def f(x, w_in, b_in, w_out, b_out):
        return multi_head_attention_forward(
            x, x, x, e, heads, w_in, b_in, None, None, False, 0.0, w_out, b_out
        )[0]

    assert gradcheck(f, (x, *params))


def test_mha_errors():
    e = 8
    w_in, b_in, w_out, b_out = (_t(a) for a in _mha_params(e))
    x = _t(RNG.standard_normal((5, 3, e)))
    rest = (None, None, False, 0.0, w_out, b_out)
    with pytest.raises(AssertionError, match="was expecting embedding dimension of 6"):
        multi_head_attention_forward(x, x, x, 6, 2, w_in, b_in, *rest)
    with pytest.raises(AssertionError, match="not divisible by num_heads 3"):
        multi_head_attention_forward(x, x, x, e, 3, w_in, b_in, *rest)
    with pytest.raises(RuntimeError, match=r"2D attn_mask is \(5, 4\), but should be \(5, 5\)"):
        multi_head_attention_forward(
            x, x, x, e, 2, w_in, b_in, None, None, False, 0.0, w_out, b_out,
            attn_mask=ember.zeros(5, 4),
        )  # fmt: skip
    with pytest.raises(AssertionError, match="expected `key` and `value` to be 3-D"):
        multi_head_attention_forward(
            x, x[0], x, e, 2, w_in, b_in, None, None, False, 0.0, w_out, b_out
        )
    with pytest.raises(RuntimeError, match="Need attn_mask if specifying the is_causal hint"):
        multi_head_attention_forward(
            x, x, x, e, 2, w_in, b_in, None, None, False, 0.0, w_out, b_out, is_causal=True
        )


def test_sdpa_matches_torch_when_available():
    torch = pytest.importorskip("torch")
    q, k, v = _qkv()
    mask = RNG.random((5, 7)) > 0.3
    want = torch.nn.functional.scaled_dot_product_attention(
        torch.tensor(q), torch.tensor(k), torch.tensor(v), attn_mask=torch.tensor(mask)
    ).numpy()
    got = scaled_dot_product_attention(_t(q), _t(k), _t(v), attn_mask=_t(mask)).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)
