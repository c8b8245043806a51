"""``MultiheadAttention``: torch's module and parameters over ``multi_head_attention_forward``."""

from __future__ import annotations

from typing import Any

import ember
from ember._tensor import Tensor
from ember.nn import init
from ember.nn._functional._checks import (
    AssertionValueError,
    check_optional_tensors,
    check_tensors,
)
from ember.nn._functional.attention import multi_head_attention_forward
from ember.nn.modules.linear import NonDynamicallyQuantizableLinear
from ember.nn.modules.module import Module
from ember.nn.parameter import Parameter

__all__ = ["MultiheadAttention"]


class MultiheadAttention(Module):
    """Attention over ``num_heads`` heads of ``embed_dim // num_heads`` features each.

    Args:
        embed_dim: features of the query (and of the output).
        num_heads: parallel heads; must divide ``embed_dim``.
        dropout: dropout on the attention weights (training only).
        bias: biases of the input and output projections.
        add_bias_kv: learned ``bias_k``/``bias_v`` rows appended to key and value.
        add_zero_attn: appends a zero key/value row.
        kdim, vdim: features of key and value (default ``embed_dim``); when either differs,
            the projections are ``q_proj_weight``/``k_proj_weight``/``v_proj_weight`` instead
            of the packed ``in_proj_weight``.
        batch_first: inputs and outputs are ``(N, L, E)`` instead of ``(L, N, E)``.

    Example:
        >>> mha = ember.nn.MultiheadAttention(16, 4, batch_first=True)
        >>> x = ember.randn(2, 5, 16)
        >>> out, weights = mha(x, x, x)
        >>> out.shape, weights.shape
        (ember.Size([2, 5, 16]), ember.Size([2, 5, 5]))
    """

    def __init__(
        self,
        embed_dim: int,
        num_heads: int,
        dropout: float = 0.0,
        bias: bool = True,
        add_bias_kv: bool = False,
        add_zero_attn: bool = False,
        kdim: int | None = None,
        vdim: int | None = None,
        batch_first: bool = False,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(
                f"embed_dim and num_heads must be greater than 0, got embed_dim={embed_dim} "
                f"and num_heads={num_heads} instead"
            )
        super().__init__()
        factory = {"device": device, "dtype": dtype}
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != embed_dim:
            # torch asserts here: AssertionValueError is a ValueError and an AssertionError.
            raise AssertionValueError("embed_dim must be divisible by num_heads")
        if not self._qkv_same_embed_dim:
            self.q_proj_weight = Parameter(ember.empty((embed_dim, embed_dim), **factory))
            self.k_proj_weight = Parameter(ember.empty((embed_dim, self.kdim), **factory))
            self.v_proj_weight = Parameter(ember.empty((embed_dim, self.vdim), **factory))
            self.register_parameter("in_proj_weight", None)
        else:
            self.in_proj_weight = Parameter(ember.empty((3 * embed_dim, embed_dim), **factory))
            self.register_parameter("q_proj_weight", None)
            self.register_parameter("k_proj_weight", None)
            self.register_parameter("v_proj_weight", None)
        if bias:
            self.in_proj_bias = Parameter(ember.empty((3 * embed_dim,), **factory))
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias, **factory)
        if add_bias_kv:
            self.bias_k = Parameter(ember.empty((1, 1, embed_dim), **factory))
            self.bias_v = Parameter(ember.empty((1, 1, embed_dim), **factory))
        else:
            self.register_parameter("bias_k", None)
            self.register_parameter("bias_v", None)
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _reset_parameters(self) -> None:
        # torch's init: xavier-uniform projections, zero biases, xavier-normal bias_k/bias_v.
        if self._qkv_same_embed_dim:
            init.xavier_uniform_(self.in_proj_weight)
        else:
            init.xavier_uniform_(self.q_proj_weight)
            init.xavier_uniform_(self.k_proj_weight)
            init.xavier_uniform_(self.v_proj_weight)
        if self.in_proj_bias is not None:
            init.constant_(self.in_proj_bias, 0.0)
        if self.out_proj.bias is not None:
            init.constant_(self.out_proj.bias, 0.0)
        if self.bias_k is not None:
            init.xavier_normal_(self.bias_k)
        if self.bias_v is not None:
            init.xavier_normal_(self.bias_v)

    def forward(
        self,
        query: Tensor,
        key: Tensor,
        value: Tensor,
        key_padding_mask: Tensor | None = None,
        need_weights: bool = True,
        attn_mask: Tensor | None = None,
        average_attn_weights: bool = True,
        is_causal: bool = False,
    ) -> tuple[Tensor, Tensor | None]:
        """Attends ``query`` to ``key``/``value``; returns ``(output, weights or None)``.

        Args:
            query: ``(L, N, E)`` (``(N, L, E)`` with batch_first) or unbatched ``(L, E)``.
            key: ``(S, N, kdim)``; value: ``(S, N, vdim)``.
            key_padding_mask: ``(N, S)``; True (or -inf) marks keys to ignore.
            need_weights: also return the attention weights.
            attn_mask: ``(L, S)`` or ``(N * num_heads, L, S)``; bool True = not allowed, or
                float added to the scores.
            average_attn_weights: average the returned weights over heads.
            is_causal: hint that ``attn_mask`` is the causal mask.
        """
        check_tensors(self, query=query, key=key, value=value)
        check_optional_tensors(self, key_padding_mask=key_padding_mask, attn_mask=attn_mask)
        if query.size()[-1] != self.embed_dim:
            raise AssertionValueError(
                f"[MultiheadAttention(embed_dim={self.embed_dim}, num_heads={self.num_heads})] "
                f"was expecting embedding dimension of {self.embed_dim}, but got "
                f"query of shape {tuple(query.size())}"
            )
        batched = query.dim() == 3
        if self.batch_first and batched:
            # Keep self-attention's identity (query is key is value): one packed projection GEMM.
            if key is value:
                if query is key:
                    query = key = value = query.transpose(1, 0)
                else:
                    query, key = query.transpose(1, 0), key.transpose(1, 0)
                    value = key
            else:
                query, key, value = (x.transpose(1, 0) for x in (query, key, value))
        common = (
            self.embed_dim,
            self.num_heads,
            self.in_proj_weight,
            self.in_proj_bias,
            self.bias_k,
            self.bias_v,
            self.add_zero_attn,
            self.dropout,
            self.out_proj.weight,
            self.out_proj.bias,
        )
        out, weights = multi_head_attention_forward(
            query,
            key,
            value,
            *common,
            training=self.training,
            key_padding_mask=key_padding_mask,
            need_weights=need_weights,
            attn_mask=attn_mask,
            use_separate_proj_weight=not self._qkv_same_embed_dim,
            q_proj_weight=self.q_proj_weight,
            k_proj_weight=self.k_proj_weight,
            v_proj_weight=self.v_proj_weight,
            average_attn_weights=average_attn_weights,
            is_causal=is_causal,
        )
        if self.batch_first and batched:
            out = out.transpose(1, 0)
        return out, weights
