"""Attention: ``scaled_dot_product_attention`` and ``multi_head_attention_forward``.

Every case the native kernel covers (no dropout, no mask that needs a gradient) takes the fused
path: ``_C._nn_flash_attention`` walks blocks of queries against blocks of keys with an online
softmax and saves each row's logsumexp, and its backward recomputes every tile's probabilities
(FlashAttention-2), so no [L, S] matrix is ever held. Dropout and masks that require gradients
take the direct path (scores, softmax, weighted sum; recorded op by op by autograd).
"""

from __future__ import annotations

import math
from typing import Any

import ember
from ember._tensor import Tensor
from ember.autograd import Function
from ember.autograd.function import once_differentiable
from ember.nn._functional._checks import AssertionValueError, check_optional_tensors, check_tensors
from ember.nn._functional.dropout import dropout
from ember.nn._functional.linear import linear
from ember_core import _C

__all__ = ["multi_head_attention_forward", "scaled_dot_product_attention"]

# The fused kernel takes every problem with at least this many score elements (all batch dims
# together) that it covers; tests raise it to reach the op-by-op path.
_FUSED_MIN_SCORES = 1


def _linear(x: Tensor, weight: Tensor, bias: Tensor | None) -> Tensor:
    # F.linear on the rows of x: 2-d operands make it one GEMM with the bias folded in.
    rows = x.reshape(-1, x.size()[-1])
    out: Tensor = linear(rows, weight, bias).reshape(*x.size()[:-1], weight.size()[0])
    return out


def _check_sdpa_inputs(
    query: Tensor, key: Tensor, value: Tensor, attn_mask: Tensor | None, enable_gqa: bool
) -> None:
    for name, t in (("query", query), ("key", key), ("value", value)):
        if not isinstance(t, Tensor):
            raise TypeError(
                f"scaled_dot_product_attention(): argument '{name}' must be Tensor, "
                f"not {type(t).__name__}"
            )
        if t.dim() < 2:
            raise RuntimeError(
                f"scaled_dot_product_attention: expected {name} to have at least 2 dims "
                f"(..., seq, feature), got shape {tuple(t.size())}"
            )
    if not (query.dtype == key.dtype == value.dtype):
        raise RuntimeError(
            "Expected query, key, and value to have the same dtype, but got query.dtype: "
            f"{query.dtype} key.dtype: {key.dtype} and value.dtype: {value.dtype} instead."
        )
    if not query.is_floating_point():
        raise RuntimeError(
            f"scaled_dot_product_attention: expected floating point inputs, got {query.dtype}"
        )
    if query.size()[-1] != key.size()[-1]:
        raise RuntimeError(
            "scaled_dot_product_attention: query and key must have the same last dim "
            f"(embedding), got query {tuple(query.size())} and key {tuple(key.size())}"
        )
    if key.size()[-2] != value.size()[-2]:
        raise RuntimeError(
            "scaled_dot_product_attention: key and value must have the same sequence length "
            f"(dim -2), got key {tuple(key.size())} and value {tuple(value.size())}"
        )
    if enable_gqa and query.dim() >= 3:
        hq, hk, hv = query.size()[-3], key.size()[-3], value.size()[-3]
        if hk == 0 or hv == 0 or hq % hk != 0 or hq % hv != 0:
            raise RuntimeError(
                "Number of heads in key and value must divide the number of heads in query, "
                f"got query {tuple(query.size())}, key {tuple(key.size())}, "
                f"value {tuple(value.size())}"
            )
    if attn_mask is not None:
        if not isinstance(attn_mask, Tensor):
            raise TypeError(
                "scaled_dot_product_attention(): attn_mask must be a Tensor or None, "
                f"not {type(attn_mask).__name__}"
            )
        if attn_mask.dtype != ember.bool and not attn_mask.is_floating_point():
            raise RuntimeError(
                "Expected attn_mask dtype to be bool or float or to match query dtype, but got "
                f"attn_mask.dtype: {attn_mask.dtype} and  query.dtype: {query.dtype} instead."
            )


def _broadcast_shape(*shapes: tuple[int, ...]) -> tuple[int, ...]:
    try:
        return tuple(ember.broadcast_shapes(*shapes))
    except RuntimeError as exc:
        raise RuntimeError(
            "scaled_dot_product_attention: batch dims of query, key, value and attn_mask do not "
            f"broadcast: {', '.join(str(s) for s in shapes)}"
        ) from exc


def _apply_mask(scores: Tensor, mask: Tensor | None, causal_from: int | None) -> Tensor:
    """Masks one block of scores in place (bool: keep True, float: add; causal: row offset)."""
    if causal_from is not None:
        rows, cols = scores.size()[-2], scores.size()[-1]
        above = ember.arange(cols)[None, :] > ember.arange(causal_from, causal_from + rows)[:, None]
        scores.masked_fill_(above, float("-inf"))
    if mask is not None:
        if mask.dtype == ember.bool:
            scores.masked_fill_(mask.logical_not(), float("-inf"))
        else:
            scores.add_(mask)
    return scores


class _FusedAttention(Function):
    """softmax(q k^T * scale + mask) v by the native tiled kernel; backward recomputes tiles."""

    @staticmethod
    def forward(
        ctx: Any,
        q: Tensor,
        k: Tensor,
        v: Tensor,
        mask: Tensor | None,
        is_causal: bool,
        scale: float,
    ) -> Tensor:
        out, lse = _C._nn_flash_attention(q, k, v, mask, is_causal, scale)
        ctx.save_for_backward(q, k, v, mask, out, lse)
        ctx.attn = (is_causal, scale)
        return out

    @staticmethod
    @once_differentiable
    def backward(ctx: Any, grad_out: Tensor) -> tuple[Tensor | None, ...]:
        q, k, v, mask, out, lse = ctx.saved_tensors
        is_causal, scale = ctx.attn
        dq, dk, dv = _C._nn_flash_attention_backward(
            grad_out, q, k, v, out, lse, mask, is_causal, scale
        )
        return dq, dk, dv, None, None, None


def _as_4d(t: Tensor, batch: tuple[int, ...], rows: int, cols: int) -> Tensor:
    """t broadcast to (*batch, rows, cols), viewed as [prod(batch[:-1]), batch[-1], rows, cols]."""
    lead = math.prod(batch[:-1]) if batch else 1
    heads = batch[-1] if batch else 1
    out: Tensor = t.expand(*batch, rows, cols).reshape(lead, heads, rows, cols)
    return out


def _mask_4d(mask: Tensor, batch: tuple[int, ...], length: int, src: int, dtype: Any) -> Tensor:
    """The additive float mask of the fused kernel, viewed as [B, H, L, S] (stride 0 where it
    broadcasts: a bool [L, S] mask costs one [L, S] float copy, never [B, H, L, S])."""
    if mask.dtype == ember.bool:
        mask = ember.zeros(mask.size(), dtype=dtype).masked_fill_(mask.logical_not(), -math.inf)
    elif mask.dtype != dtype:
        mask = mask.to(dtype)
    shape = (1,) * (len(batch) + 2 - mask.dim()) + tuple(mask.size())
    mask = mask.reshape(shape)
    lead_mask, lead_batch = shape[: len(batch) - 1], batch[:-1]
    if batch and (all(d == 1 for d in lead_mask) or lead_mask == lead_batch):
        # The leading dims merge on the unexpanded mask; expand then only sets strides.
        merged = mask.reshape(math.prod(lead_mask), shape[-3], shape[-2], shape[-1])
        return merged.expand(math.prod(lead_batch), batch[-1], length, src)
    return _as_4d(mask, batch, length, src)


def _fused_attention(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    mask: Tensor | None,
    is_causal: bool,
    scale: float,
    batch: tuple[int, ...],
) -> Tensor:
    length, src, embed = query.size()[-2], key.size()[-2], query.size()[-1]
    dtype = query.dtype
    # The kernel computes in float32 or float64; half types round-trip through float32.
    compute = dtype if dtype in (ember.float32, ember.float64) else ember.float32
    q, k, v = (t if t.dtype == compute else t.to(compute) for t in (query, key, value))
    q4 = _as_4d(q, batch, length, embed)
    k4 = _as_4d(k, batch, src, embed)
    v4 = _as_4d(v, batch, src, v.size()[-1])
    m4 = None if mask is None else _mask_4d(mask, batch, length, src, compute)
    out: Tensor = _FusedAttention.apply(q4, k4, v4, m4, is_causal, scale)
    out = out.reshape(*batch, length, v.size()[-1])
    return out if out.dtype == dtype else out.to(dtype)


def _direct_attention(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    mask: Tensor | None,
    is_causal: bool,
    scale: float,
    dropout_p: float,
) -> Tensor:
    length, src = query.size()[-2], key.size()[-2]
    scores = ember.matmul(query * scale, key.mT)
    masked = is_causal or mask is not None
    if is_causal:
        above = ember.ones((length, src), dtype=ember.bool).triu(1)
        scores = scores.masked_fill(above, float("-inf"))
    if mask is not None:
        if mask.dtype == ember.bool:
            scores = scores.masked_fill(mask.logical_not(), float("-inf"))
        else:
            scores = scores + mask
    if masked:
        # Fully masked rows give zeros (torch's safe softmax), with zero gradients, not NaN.
        dead = scores.isneginf().all(-1, keepdim=True)
        weights = ember.softmax(scores.masked_fill(dead, 0.0), -1).masked_fill(dead, 0.0)
    else:
        weights = ember.softmax(scores, -1)
    if dropout_p > 0.0:
        weights = dropout(weights, dropout_p)
    out: Tensor = ember.matmul(weights, value)
    return out


def scaled_dot_product_attention(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    attn_mask: Tensor | None = None,
    dropout_p: float = 0.0,
    is_causal: bool = False,
    scale: float | None = None,
    enable_gqa: bool = False,
) -> Tensor:
    """Computes ``softmax(query @ key^T * scale + mask) @ value``, as ``torch``'s function.

    Args:
        query: ``(..., L, E)``.
        key: ``(..., S, E)``; batch dims broadcast with query's.
        value: ``(..., S, Ev)``.
        attn_mask: broadcastable to ``(..., L, S)``; bool (True takes part in attention) or
            float (added to the scores).
        dropout_p: dropout probability on the attention weights (always applied when > 0, as
            in torch; pass 0.0 in evaluation).
        is_causal: applies a lower-triangular (top-left aligned) mask; exclusive with
            ``attn_mask``.
        scale: scaling of the scores, ``1/sqrt(E)`` by default.
        enable_gqa: key/value with fewer heads (dim -3) than query are repeated to match.

    Returns:
        ``(..., L, Ev)``. Rows whose keys are all masked are zeros.

    Example:
        >>> q = ember.randn(2, 4, 16, 8)
        >>> ember.nn.functional.scaled_dot_product_attention(q, q, q, is_causal=True).size()
        ember.Size([2, 4, 16, 8])
    """
    _check_sdpa_inputs(query, key, value, attn_mask, enable_gqa)
    if is_causal and attn_mask is not None:
        raise RuntimeError(
            "_scaled_dot_product_attention: Explicit attn_mask should not be set when "
            "is_causal=True"
        )
    if not 0.0 <= dropout_p <= 1.0:
        raise ValueError(
            f"scaled_dot_product_attention: dropout_p must be in [0, 1], got {dropout_p}"
        )
    embed = query.size()[-1]
    scale_value = 1.0 / math.sqrt(embed) if scale is None else float(scale)
    if enable_gqa and query.dim() >= 3:
        hq = query.size()[-3]
        if key.size()[-3] != hq:
            key = key.repeat_interleave(hq // key.size()[-3], dim=-3)
        if value.size()[-3] != hq:
            value = value.repeat_interleave(hq // value.size()[-3], dim=-3)
    length, src = query.size()[-2], key.size()[-2]
    batch_shapes = [tuple(query.size()[:-2]), tuple(key.size()[:-2]), tuple(value.size()[:-2])]
    if attn_mask is not None:
        mask_shape = tuple(attn_mask.size())
        try:
            ember.broadcast_shapes(mask_shape[-2:], (length, src))
        except RuntimeError as exc:
            raise RuntimeError(
                f"scaled_dot_product_attention: attn_mask of shape {mask_shape} does not "
                f"broadcast to the scores' shape (..., {length}, {src})"
            ) from exc
        batch_shapes.append(mask_shape[:-2])
    batch = _broadcast_shape(*batch_shapes)
    scores = math.prod(batch) * length * src
    fused = (
        scores >= _FUSED_MIN_SCORES
        and dropout_p == 0.0
        and query.is_floating_point()
        and (attn_mask is None or not attn_mask.requires_grad)
    )
    if not fused:
        return _direct_attention(query, key, value, attn_mask, is_causal, scale_value, dropout_p)
    return _fused_attention(query, key, value, attn_mask, is_causal, scale_value, batch)


def _mask_to_float(mask: Tensor | None, name: str, dtype: Any) -> Tensor | None:
    if mask is None:
        return None
    if mask.dtype != ember.bool and not mask.is_floating_point():
        raise AssertionValueError(f"only bool and floating types of {name} are supported")
    if mask.dtype == ember.bool:
        additive: Tensor = ember.zeros(tuple(mask.size()), dtype=dtype)
        additive.masked_fill_(mask, float("-inf"))
        return additive
    return mask


def _append_column(t: Tensor) -> Tensor:
    # Pads the last dim with one zero (a key added by bias_k/add_zero_attn, never masked).
    padded: Tensor = ember.cat([t, t.new_zeros((*t.size()[:-1], 1))], dim=-1)
    return padded


def _mha_shape_check(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    key_padding_mask: Tensor | None,
    attn_mask: Tensor | None,
    num_heads: int,
) -> bool:
    if query.dim() not in (2, 3):
        raise AssertionValueError(
            "query should be unbatched 2D or batched 3D tensor but received "
            f"{query.dim()}-D query tensor"
        )
    batched: bool = query.dim() == 3
    kind = "batched (3-D)" if batched else "unbatched (2-D)"
    if key.dim() != query.dim() or value.dim() != query.dim():
        raise AssertionValueError(
            f"For {kind} `query`, expected `key` and `value` to be {query.dim()}-D but found "
            f"{key.dim()}-D and {value.dim()}-D tensors respectively"
        )
    if key_padding_mask is not None and key_padding_mask.dim() != query.dim() - 1:
        raise AssertionValueError(
            f"For {kind} `query`, expected `key_padding_mask` to be `None` or "
            f"{query.dim() - 1}-D but found {key_padding_mask.dim()}-D tensor instead"
        )
    if attn_mask is not None:
        if attn_mask.dim() not in (2, 3):
            raise AssertionValueError(
                f"For {kind} `query`, expected `attn_mask` to be `None`, 2-D or 3-D but found "
                f"{attn_mask.dim()}-D tensor instead"
            )
        if not batched and attn_mask.dim() == 3:
            expected = (num_heads, query.size()[0], key.size()[0])
            if tuple(attn_mask.size()) != expected:
                raise AssertionValueError(
                    f"Expected `attn_mask` shape to be {expected} but got {tuple(attn_mask.size())}"
                )
    return batched


def _in_projection(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    weights: tuple[Tensor, Tensor, Tensor],
    biases: tuple[Tensor | None, Tensor | None, Tensor | None],
) -> tuple[Tensor, Tensor, Tensor]:
    return (
        _linear(query, weights[0], biases[0]),
        _linear(key, weights[1], biases[1]),
        _linear(value, weights[2], biases[2]),
    )


def multi_head_attention_forward(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    embed_dim_to_check: int,
    num_heads: int,
    in_proj_weight: Tensor | None,
    in_proj_bias: Tensor | None,
    bias_k: Tensor | None,
    bias_v: Tensor | None,
    add_zero_attn: bool,
    dropout_p: float,
    out_proj_weight: Tensor,
    out_proj_bias: Tensor | None,
    training: bool = True,
    key_padding_mask: Tensor | None = None,
    need_weights: bool = True,
    attn_mask: Tensor | None = None,
    use_separate_proj_weight: bool = False,
    q_proj_weight: Tensor | None = None,
    k_proj_weight: Tensor | None = None,
    v_proj_weight: Tensor | None = None,
    static_k: Tensor | None = None,
    static_v: Tensor | None = None,
    average_attn_weights: bool = True,
    is_causal: bool = False,
) -> tuple[Tensor, Tensor | None]:
    """Multi-head attention with torch's signature (inputs ``(L, N, E)`` or unbatched ``(L, E)``).

    Returns ``(attn_output, attn_weights)``; the weights are ``None`` unless ``need_weights``,
    averaged over heads when ``average_attn_weights``.

    Example:
        >>> E = 8
        >>> x = ember.randn(5, 2, E)
        >>> w, b = ember.randn(3 * E, E), ember.zeros(3 * E)
        >>> out, attn = ember.nn.functional.multi_head_attention_forward(
        ...     x, x, x, E, 2, w, b, None, None, False, 0.0, ember.randn(E, E), None)
        >>> out.size(), attn.size()
        (ember.Size([5, 2, 8]), ember.Size([2, 5, 5]))
    """
    check_tensors("multi_head_attention_forward", query=query, key=key, value=value)
    check_optional_tensors(
        "multi_head_attention_forward",
        in_proj_weight=in_proj_weight,
        in_proj_bias=in_proj_bias,
        bias_k=bias_k,
        bias_v=bias_v,
        out_proj_weight=out_proj_weight,
        out_proj_bias=out_proj_bias,
        key_padding_mask=key_padding_mask,
        attn_mask=attn_mask,
        q_proj_weight=q_proj_weight,
        k_proj_weight=k_proj_weight,
        v_proj_weight=v_proj_weight,
        static_k=static_k,
        static_v=static_v,
    )
    batched = _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.size()
    key_padding_mask = _mask_to_float(key_padding_mask, "key_padding_mask", query.dtype)
    if is_causal and attn_mask is None:
        raise RuntimeError(
            "Need attn_mask if specifying the is_causal hint. You may use the Transformer "
            "module method `generate_square_subsequent_mask` to create this mask."
        )
    if is_causal and key_padding_mask is None and not need_weights:
        attn_mask = None  # the hint alone drives sdpa's causal path
    else:
        attn_mask = _mask_to_float(attn_mask, "attn_mask", query.dtype)
        if key_padding_mask is not None:
            is_causal = False
    if embed_dim != embed_dim_to_check:
        raise AssertionValueError(
            f"was expecting embedding dimension of {embed_dim_to_check}, but got {embed_dim}"
        )
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionValueError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if use_separate_proj_weight:
        if tuple(key.size()[:2]) != tuple(value.size()[:2]):
            raise AssertionValueError(
                f"key's sequence and batch dims {tuple(key.size()[:2])} do not match value's "
                f"{tuple(value.size()[:2])}"
            )
        if q_proj_weight is None or k_proj_weight is None or v_proj_weight is None:
            raise AssertionValueError(
                "use_separate_proj_weight is True but q_proj_weight, k_proj_weight or "
                "v_proj_weight is None"
            )
        if in_proj_bias is None:
            biases: tuple[Tensor | None, Tensor | None, Tensor | None] = (None, None, None)
        else:
            bq, bk, bv = in_proj_bias.chunk(3)
            biases = (bq, bk, bv)
        q, k, v = _in_projection(
            query, key, value, (q_proj_weight, k_proj_weight, v_proj_weight), biases
        )
    else:
        if tuple(key.size()) != tuple(value.size()):
            raise AssertionValueError(
                f"key shape {tuple(key.size())} does not match value shape {tuple(value.size())}"
            )
        if in_proj_weight is None:
            raise AssertionValueError(
                "use_separate_proj_weight is False but in_proj_weight is None"
            )
        if query is key and key is value:
            # Self-attention: one GEMM for q, k and v together.
            q, k, v = _linear(query, in_proj_weight, in_proj_bias).chunk(3, dim=-1)
        else:
            wq, wk, wv = in_proj_weight.chunk(3)
            if in_proj_bias is None:
                biases = (None, None, None)
            else:
                bq, bk, bv = in_proj_bias.chunk(3)
                biases = (bq, bk, bv)
            q, k, v = _in_projection(query, key, value, (wq, wk, wv), biases)
    src_len = k.size()[0]
    if attn_mask is not None:
        if attn_mask.dim() == 2:
            if tuple(attn_mask.size()) != (tgt_len, src_len):
                raise RuntimeError(
                    f"The shape of the 2D attn_mask is {tuple(attn_mask.size())}, but should be "
                    f"{(tgt_len, src_len)}."
                )
            attn_mask = attn_mask.unsqueeze(0)
        elif tuple(attn_mask.size()) != (bsz * num_heads, tgt_len, src_len):
            raise RuntimeError(
                f"The shape of the 3D attn_mask is {tuple(attn_mask.size())}, but should be "
                f"{(bsz * num_heads, tgt_len, src_len)}."
            )
    if bias_k is not None and bias_v is not None:
        if static_k is not None or static_v is not None:
            raise AssertionValueError("bias cannot be added to static key or value.")
        k = ember.cat([k, bias_k.repeat(1, bsz, 1)])
        v = ember.cat([v, bias_v.repeat(1, bsz, 1)])
        if attn_mask is not None:
            attn_mask = _append_column(attn_mask)
        if key_padding_mask is not None:
            key_padding_mask = _append_column(key_padding_mask)
    elif bias_k is not None or bias_v is not None:
        raise AssertionValueError("bias_k and bias_v must both be set or both be None")
    q = q.reshape(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    k = _heads(k, static_k, bsz * num_heads, head_dim, "static_k")
    v = _heads(v, static_v, bsz * num_heads, head_dim, "static_v")
    if add_zero_attn:
        zeros = k.new_zeros((bsz * num_heads, 1, head_dim))
        k = ember.cat([k, zeros], dim=1)
        v = ember.cat([v, zeros], dim=1)
        if attn_mask is not None:
            attn_mask = _append_column(attn_mask)
        if key_padding_mask is not None:
            key_padding_mask = _append_column(key_padding_mask)
    src_len = k.size()[1]
    if key_padding_mask is not None:
        if tuple(key_padding_mask.size()) != (bsz, src_len):
            raise AssertionValueError(
                f"Expected key_padding_mask of shape {(bsz, src_len)}, got "
                f"{tuple(key_padding_mask.size())}"
            )
        kpm = (
            key_padding_mask.reshape(bsz, 1, 1, src_len)
            .expand(bsz, num_heads, 1, src_len)
            .reshape(bsz * num_heads, 1, src_len)
        )
        attn_mask = kpm if attn_mask is None else attn_mask + kpm
    if not training:
        dropout_p = 0.0
    if need_weights:
        scores = ember.matmul(q * (1.0 / math.sqrt(head_dim)), k.mT)
        if attn_mask is not None:
            scores = scores + attn_mask
        weights = ember.softmax(scores, -1)
        if dropout_p > 0.0:
            weights = dropout(weights, dropout_p)
        attn = ember.matmul(weights, v).transpose(0, 1).reshape(tgt_len * bsz, embed_dim)
        out = _linear(attn, out_proj_weight, out_proj_bias).reshape(tgt_len, bsz, -1)
        weights = weights.reshape(bsz, num_heads, tgt_len, src_len)
        if average_attn_weights:
            weights = weights.mean(dim=1)
        if not batched:
            return out.squeeze(1), weights.squeeze(0)
        return out, weights
    if attn_mask is not None:
        if attn_mask.size()[0] == 1:
            attn_mask = attn_mask.unsqueeze(0)
        else:
            attn_mask = attn_mask.reshape(bsz, num_heads, -1, src_len)
    q4 = q.reshape(bsz, num_heads, tgt_len, head_dim)
    k4 = k.reshape(bsz, num_heads, src_len, head_dim)
    v4 = v.reshape(bsz, num_heads, src_len, head_dim)
    attn = scaled_dot_product_attention(q4, k4, v4, attn_mask, dropout_p, is_causal)
    attn = attn.permute(2, 0, 1, 3).reshape(bsz * tgt_len, embed_dim)
    out = _linear(attn, out_proj_weight, out_proj_bias).reshape(tgt_len, bsz, -1)
    return (out if batched else out.squeeze(1)), None


def _heads(t: Tensor, static: Tensor | None, rows: int, head_dim: int, name: str) -> Tensor:
    if static is None:
        split: Tensor = t.reshape(t.size()[0], rows, head_dim).transpose(0, 1)
        return split
    if static.size()[0] != rows or static.size()[2] != head_dim:
        raise AssertionValueError(
            f"expecting {name} of shape ({rows}, S, {head_dim}), but got {tuple(static.size())}"
        )
    return static
