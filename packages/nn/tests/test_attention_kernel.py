"""The tiled attention natives (_C._nn_flash_attention and its backward) against numpy: blocks
of queries and keys that do not divide the lengths, masks, strided inputs, both dtypes."""

from __future__ import annotations

import numpy as np
import pytest

import ember
import ember.nn.functional as F
from ember_core import _C

RNG = np.random.default_rng(11)


def _t(a):
    return ember.from_numpy(np.ascontiguousarray(a))


def _reference(q, k, v, mask, causal, scale, go):
    """(out, lse, dq, dk, dv) in float64; fully masked rows give zeros everywhere."""
    q, k, v, go = (a.astype(np.float64) for a in (q, k, v, go))
    s = q @ np.swapaxes(k, -1, -2) * scale
    if mask is not None:
        s = s + mask
    if causal:
        s = np.where(np.tri(s.shape[-2], s.shape[-1], dtype=bool), s, -np.inf)
    m = s.max(-1, keepdims=True)
    dead = np.isneginf(m)
    e = np.exp(s - np.where(dead, 0.0, m))
    tot = e.sum(-1, keepdims=True)
    p = np.where(dead, 0.0, e / np.where(tot == 0, 1.0, tot))
    out = p @ v
    dv = np.swapaxes(p, -1, -2) @ go
    dp = go @ np.swapaxes(v, -1, -2)
    ds = p * (dp - (dp * p).sum(-1, keepdims=True))
    return out, ds @ k * scale, np.swapaxes(ds, -1, -2) @ q * scale, dv


def _run(q, k, v, mask, causal, scale, go, views=None):
    qt, kt, vt = views if views is not None else (_t(q), _t(k), _t(v))
    mt = None if mask is None else _t(mask)
    out, lse = _C._nn_flash_attention(qt, kt, vt, mt, causal, scale)
    grads = _C._nn_flash_attention_backward(_t(go), qt, kt, vt, out, lse, mt, causal, scale)
    return out.numpy(), [g.numpy() for g in grads]


CASES = [
    # (B, H, L, S, E, Ev, causal, mask)
    (2, 3, 70, 130, 16, 32, False, None),  # partial query and key blocks
    (1, 1, 300, 300, 64, 64, True, None),  # one head: the backward splits its key blocks
    (1, 2, 150, 90, 8, 5, True, None),  # L > S, Ev not a multiple of 16 (GEMM fallback)
    (2, 2, 65, 257, 32, 48, False, "float"),
    (1, 3, 40, 33, 16, 16, False, "dead rows"),
]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[2]}x{c[3]}-{c[6]}-{c[7]}")
def test_forward_and_backward_match_numpy(case, dtype):
    b, h, lq, ls, e, ev, causal, kind = case
    q = RNG.standard_normal((b, h, lq, e)).astype(dtype)
    k = RNG.standard_normal((b, h, ls, e)).astype(dtype)
    v = RNG.standard_normal((b, h, ls, ev)).astype(dtype)
    go = RNG.standard_normal((b, h, lq, ev)).astype(dtype)
    mask = None
    if kind == "float":
        mask = RNG.standard_normal((b, h, lq, ls)).astype(dtype)
        mask[0, 0, 3, :100] = -np.inf
    elif kind == "dead rows":
        mask = np.where(RNG.random((b, h, lq, ls)) > 0.5, 0.0, -np.inf).astype(dtype)
        mask[:, :, 7] = -np.inf  # every key masked: zeros, zero gradients
    scale = 0.3
    out, (dq, dk, dv) = _run(q, k, v, mask, causal, scale, go)
    want = _reference(q, k, v, mask, causal, scale, go)
    tol = dict(rtol=1e-4, atol=2e-5) if dtype == np.float32 else dict(rtol=1e-10, atol=1e-12)
    for got, ref in zip([out, dq, dk, dv], want, strict=True):
        np.testing.assert_allclose(got, ref, **tol)
    if kind == "dead rows":
        assert np.all(out[:, :, 7] == 0.0) and np.all(dq[:, :, 7] == 0.0)


def test_strided_inputs_and_broadcast_mask_are_read_in_place():
    # q/k/v as (B, L, H, E) transposed views and a [L, S] mask expanded with stride 0.
    b, h, lq, ls, e = 2, 4, 33, 47, 16
    base = [RNG.standard_normal((b, n, h, e)).astype(np.float32) for n in (lq, ls, ls)]
    views = tuple(_t(a).transpose(1, 2) for a in base)
    q, k, v = (np.swapaxes(a, 1, 2) for a in base)
    m2 = RNG.standard_normal((lq, ls)).astype(np.float32)
    mask_view = _t(m2).expand(b, h, lq, ls)
    go = RNG.standard_normal((b, h, lq, e)).astype(np.float32)
    out, lse = _C._nn_flash_attention(*views, mask_view, False, 0.25)
    grads = _C._nn_flash_attention_backward(_t(go), *views, out, lse, mask_view, False, 0.25)
    want = _reference(q, k, v, np.broadcast_to(m2, (b, h, lq, ls)), False, 0.25, go)
    for got, ref in zip([out, *grads], want, strict=True):
        np.testing.assert_allclose(got.numpy(), ref, rtol=1e-4, atol=2e-5)


def test_lse_is_the_rows_logsumexp():
    q, k, v = (RNG.standard_normal((1, 1, 20, 8)) for _ in range(3))
    _, lse = _C._nn_flash_attention(_t(q), _t(k), _t(v), None, False, 1.0)
    s = q[0, 0] @ k[0, 0].T
    want = np.log(np.exp(s - s.max(1, keepdims=True)).sum(1)) + s.max(1)
    np.testing.assert_allclose(lse.numpy()[0, 0], want, rtol=1e-12)


def test_sdpa_half_inputs_run_through_float32():
    q = RNG.standard_normal((2, 2, 40, 16))
    want = _reference(q, q, q, None, True, 0.25, np.zeros_like(q))[0]
    got = F.scaled_dot_product_attention(
        _t(q).to(ember.bfloat16), _t(q).to(ember.bfloat16), _t(q).to(ember.bfloat16), is_causal=True
    )
    assert got.dtype == ember.bfloat16
    np.testing.assert_allclose(got.float().numpy(), want, rtol=0.05, atol=0.05)


def test_sdpa_bool_mask_with_broadcast_batch_matches_numpy():
    q = RNG.standard_normal((2, 3, 9, 4))
    k = RNG.standard_normal((2, 3, 11, 4))
    v = RNG.standard_normal((2, 3, 11, 6))
    mask = RNG.random((2, 1, 9, 11)) > 0.3
    got = F.scaled_dot_product_attention(_t(q), _t(k), _t(v), attn_mask=_t(mask))
    additive = np.where(np.broadcast_to(mask, (2, 3, 9, 11)), 0.0, -np.inf)
    want = _reference(q, k, v, additive, False, 0.5, np.zeros((2, 3, 9, 6)))[0]
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-12)


def test_argument_errors_name_the_op_and_shapes():
    q = ember.zeros(1, 2, 4, 8)
    with pytest.raises(RuntimeError, match=r"nn_flash_attention\] expected query to be 4-D"):
        _C._nn_flash_attention(ember.zeros(2, 4, 8), q, q, None, False, 1.0)
    with pytest.raises(RuntimeError, match=r"expected key \[1, 2, S, 8\]"):
        _C._nn_flash_attention(q, ember.zeros(1, 2, 4, 7), q, None, False, 1.0)
    with pytest.raises(TypeError, match="float32 and float64"):
        _C._nn_flash_attention(q.int(), q.int(), q.int(), None, False, 1.0)
    with pytest.raises(TypeError, match="one dtype"):
        _C._nn_flash_attention(q, q.double(), q, None, False, 1.0)
    with pytest.raises(RuntimeError, match=r"mask viewed as \[1, 2, 4, 4\]"):
        _C._nn_flash_attention(q, q, q, ember.zeros(4, 4), False, 1.0)
    with pytest.raises(TypeError, match="float mask of dtype float32"):
        _C._nn_flash_attention(q, q, q, ember.zeros(1, 2, 4, 4, dtype=ember.bool), False, 1.0)
    with pytest.raises(RuntimeError, match="either a mask or is_causal"):
        _C._nn_flash_attention(q, q, q, ember.zeros(1, 2, 4, 4), True, 1.0)
    out, _lse = _C._nn_flash_attention(q, q, q, None, False, 1.0)
    with pytest.raises(RuntimeError, match=r"nn_flash_attention_backward.*lse of shape"):
        _C._nn_flash_attention_backward(out, q, q, q, out, ember.zeros(3), None, False, 1.0)
