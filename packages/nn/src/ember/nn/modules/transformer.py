"""Transformer layers, stacks and the full encoder-decoder, with torch's submodule names.

State dict keys equal torch's (``self_attn.in_proj_weight``, ``linear1.weight``, ``norm1.bias``,
``layers.0. ...``, ``encoder.norm.weight``), so torch checkpoints load unchanged.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import ember
from ember._tensor import Tensor
from ember.nn import init
from ember.nn._functional._checks import (
    AssertionValueError,
    check_module,
    check_optional_tensors,
    check_tensors,
)
from ember.nn._functional.activation import gelu, relu
from ember.nn.modules.attention import MultiheadAttention
from ember.nn.modules.container import ModuleList
from ember.nn.modules.dropout import Dropout
from ember.nn.modules.linear import Linear
from ember.nn.modules.module import Module
from ember.nn.modules.normalization import LayerNorm

__all__ = [
    "Transformer",
    "TransformerDecoder",
    "TransformerDecoderLayer",
    "TransformerEncoder",
    "TransformerEncoderLayer",
]

Activation = str | Callable[[Tensor], Tensor]


def _activation(activation: Activation) -> Callable[[Tensor], Tensor]:
    if activation == "relu":
        return relu
    if activation == "gelu":
        return gelu
    if isinstance(activation, str) or not callable(activation):
        raise RuntimeError(f"activation should be relu/gelu, not {activation}")
    return activation


def _square_subsequent_mask(size: int, dtype: Any = None, device: Any = None) -> Tensor:
    full = ember.full((size, size), float("-inf"), dtype=dtype, device=device)
    mask: Tensor = full.triu(1)
    return mask


def _detect_is_causal(mask: Tensor | None, is_causal: bool | None, size: int | None) -> bool:
    # torch's rule: an explicit flag wins; otherwise the mask is compared with the causal one.
    if is_causal is not None:
        return bool(is_causal)
    if mask is None or size is None or tuple(mask.size()) != (size, size):
        return False
    causal = _square_subsequent_mask(size, dtype=ember.float32)
    if mask.dtype == ember.bool:
        return bool(ember.equal(mask, causal.isneginf()))
    return bool(ember.equal(mask.to(ember.float32), causal))


def _check_mask_dtype(mask: Tensor | None, name: str) -> None:
    if mask is not None and mask.dtype != ember.bool and not mask.is_floating_point():
        # torch asserts here: AssertionValueError is a ValueError and an AssertionError.
        raise AssertionValueError(f"only bool and floating types of {name} are supported")


def _clones(module: Module, n: int, where: str) -> ModuleList:
    # Checked before copying: torch deep-copies a tensor given as the layer num_layers times
    # (for ever with num_layers=2**62); range() refuses a num_layers that is not an int.
    check_module(module, "layer", where)
    return ModuleList([copy.deepcopy(module) for _ in range(n)])


class TransformerEncoderLayer(Module):
    """Self-attention then a feed-forward block, each with a residual and a LayerNorm.

    Args:
        d_model: features of the input.
        nhead: attention heads.
        dim_feedforward: hidden features of the feed-forward block.
        dropout: dropout probability (attention, feed-forward and residual branches).
        activation: ``"relu"``, ``"gelu"`` or a callable.
        layer_norm_eps: LayerNorm epsilon.
        batch_first: inputs are ``(N, S, E)``.
        norm_first: pre-norm (LayerNorm before each block) instead of post-norm.
        bias: biases of the linear layers and LayerNorms.

    Example:
        >>> layer = ember.nn.TransformerEncoderLayer(16, 4, 32, batch_first=True)
        >>> layer(ember.randn(2, 5, 16)).shape
        ember.Size([2, 5, 16])
    """

    def __init__(
        self,
        d_model: int,
        nhead: int,
        dim_feedforward: int = 2048,
        dropout: float = 0.1,
        activation: Activation = "relu",
        layer_norm_eps: float = 1e-5,
        batch_first: bool = False,
        norm_first: bool = False,
        bias: bool = True,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        factory = {"device": device, "dtype": dtype}
        self.self_attn = MultiheadAttention(
            d_model, nhead, dropout=dropout, bias=bias, batch_first=batch_first, **factory
        )
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, **factory)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, **factory)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        self.activation = _activation(activation)

    def forward(
        self,
        src: Tensor,
        src_mask: Tensor | None = None,
        src_key_padding_mask: Tensor | None = None,
        is_causal: bool = False,
    ) -> Tensor:
        """Runs the layer on ``src``; masks as in :class:`MultiheadAttention`."""
        check_tensors(self, src=src)
        check_optional_tensors(self, src_mask=src_mask, src_key_padding_mask=src_key_padding_mask)
        _check_mask_dtype(src_key_padding_mask, "src_key_padding_mask")
        x: Tensor = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask, is_causal)
            x = x + self._ff_block(self.norm2(x))
        else:
            x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask, is_causal))
            x = self.norm2(x + self._ff_block(x))
        return x

    def _sa_block(
        self, x: Tensor, mask: Tensor | None, padding: Tensor | None, is_causal: bool
    ) -> Tensor:
        out = self.self_attn(
            x, x, x, attn_mask=mask, key_padding_mask=padding, need_weights=False,
            is_causal=is_causal,
        )[0]  # fmt: skip
        result: Tensor = self.dropout1(out)
        return result

    def _ff_block(self, x: Tensor) -> Tensor:
        hidden = self.dropout(self.activation(self.linear1(x)))
        result: Tensor = self.dropout2(self.linear2(hidden))
        return result


class TransformerDecoderLayer(Module):
    """Self-attention, attention over the encoder's memory, then a feed-forward block.

    Args:
        d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps, batch_first,
        norm_first, bias: as in :class:`TransformerEncoderLayer`.

    Example:
        >>> layer = ember.nn.TransformerDecoderLayer(16, 4, 32)
        >>> layer(ember.randn(6, 2, 16), ember.randn(5, 2, 16)).shape
        ember.Size([6, 2, 16])
    """

    def __init__(
        self,
        d_model: int,
        nhead: int,
        dim_feedforward: int = 2048,
        dropout: float = 0.1,
        activation: Activation = "relu",
        layer_norm_eps: float = 1e-5,
        batch_first: bool = False,
        norm_first: bool = False,
        bias: bool = True,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        factory = {"device": device, "dtype": dtype}
        self.self_attn = MultiheadAttention(
            d_model, nhead, dropout=dropout, batch_first=batch_first, bias=bias, **factory
        )
        self.multihead_attn = MultiheadAttention(
            d_model, nhead, dropout=dropout, batch_first=batch_first, bias=bias, **factory
        )
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, **factory)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, **factory)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory)
        self.norm3 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        self.dropout3 = Dropout(dropout)
        self.activation = _activation(activation)

    def forward(
        self,
        tgt: Tensor,
        memory: Tensor,
        tgt_mask: Tensor | None = None,
        memory_mask: Tensor | None = None,
        tgt_key_padding_mask: Tensor | None = None,
        memory_key_padding_mask: Tensor | None = None,
        tgt_is_causal: bool = False,
        memory_is_causal: bool = False,
    ) -> Tensor:
        """Runs the layer on ``tgt`` attending to ``memory``."""
        check_tensors(self, tgt=tgt, memory=memory)
        check_optional_tensors(
            self,
            tgt_mask=tgt_mask,
            memory_mask=memory_mask,
            tgt_key_padding_mask=tgt_key_padding_mask,
            memory_key_padding_mask=memory_key_padding_mask,
        )
        x: Tensor = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask, tgt_is_causal)
            x = x + self._mha_block(
                self.norm2(x), memory, memory_mask, memory_key_padding_mask, memory_is_causal
            )
            x = x + self._ff_block(self.norm3(x))
        else:
            x = self.norm1(x + self._sa_block(x, tgt_mask, tgt_key_padding_mask, tgt_is_causal))
            cross = self._mha_block(
                x, memory, memory_mask, memory_key_padding_mask, memory_is_causal
            )
            x = self.norm2(x + cross)
            x = self.norm3(x + self._ff_block(x))
        return x

    def _sa_block(
        self, x: Tensor, mask: Tensor | None, padding: Tensor | None, is_causal: bool
    ) -> Tensor:
        out = self.self_attn(
            x, x, x, attn_mask=mask, key_padding_mask=padding, is_causal=is_causal,
            need_weights=False,
        )[0]  # fmt: skip
        result: Tensor = self.dropout1(out)
        return result

    def _mha_block(
        self,
        x: Tensor,
        mem: Tensor,
        mask: Tensor | None,
        padding: Tensor | None,
        is_causal: bool,
    ) -> Tensor:
        out = self.multihead_attn(
            x, mem, mem, attn_mask=mask, key_padding_mask=padding, is_causal=is_causal,
            need_weights=False,
        )[0]  # fmt: skip
        result: Tensor = self.dropout2(out)
        return result

    def _ff_block(self, x: Tensor) -> Tensor:
        hidden = self.dropout(self.activation(self.linear1(x)))
        result: Tensor = self.dropout3(self.linear2(hidden))
        return result


class TransformerEncoder(Module):
    """``num_layers`` deep copies of ``encoder_layer`` (``layers.0`` ...), then ``norm``.

    Args:
        encoder_layer: the layer to copy.
        num_layers: how many copies.
        norm: optional final LayerNorm (state dict keys ``norm.*``).
        enable_nested_tensor: accepted for torch compatibility (ember has no nested tensors;
            padding is masked instead).
        mask_check: accepted for torch compatibility.

    Example:
        >>> layer = ember.nn.TransformerEncoderLayer(16, 4, 32)
        >>> enc = ember.nn.TransformerEncoder(layer, num_layers=2)
        >>> enc(ember.randn(5, 2, 16)).shape
        ember.Size([5, 2, 16])
    """

    def __init__(
        self,
        encoder_layer: TransformerEncoderLayer,
        num_layers: int,
        norm: Module | None = None,
        enable_nested_tensor: bool = True,
        mask_check: bool = True,
    ) -> None:
        super().__init__()
        self.layers = _clones(encoder_layer, num_layers, "TransformerEncoder")
        self.num_layers = num_layers
        self.norm = norm
        self.enable_nested_tensor = enable_nested_tensor
        self.use_nested_tensor = False
        self.mask_check = mask_check

    def forward(
        self,
        src: Tensor,
        mask: Tensor | None = None,
        src_key_padding_mask: Tensor | None = None,
        is_causal: bool | None = None,
    ) -> Tensor:
        """Runs every layer on ``src``; ``is_causal=None`` detects a causal ``mask``."""
        check_tensors(self, src=src)
        check_optional_tensors(self, mask=mask, src_key_padding_mask=src_key_padding_mask)
        _check_mask_dtype(src_key_padding_mask, "src_key_padding_mask")
        _check_mask_dtype(mask, "mask")
        first = self.layers[0] if len(self.layers) else None
        batch_first = bool(first is not None and first.self_attn.batch_first)
        seq_dim = 1 if batch_first and src.dim() == 3 else 0
        causal = _detect_is_causal(mask, is_causal, src.size()[seq_dim])
        out = src
        for layer in self.layers:
            out = layer(
                out, src_mask=mask, is_causal=causal, src_key_padding_mask=src_key_padding_mask
            )
        if self.norm is not None:
            out = self.norm(out)
        return out


class TransformerDecoder(Module):
    """``num_layers`` deep copies of ``decoder_layer`` (``layers.0`` ...), then ``norm``.

    Example:
        >>> layer = ember.nn.TransformerDecoderLayer(16, 4, 32)
        >>> dec = ember.nn.TransformerDecoder(layer, num_layers=2)
        >>> dec(ember.randn(6, 2, 16), ember.randn(5, 2, 16)).shape
        ember.Size([6, 2, 16])
    """

    def __init__(
        self, decoder_layer: TransformerDecoderLayer, num_layers: int, norm: Module | None = None
    ) -> None:
        super().__init__()
        self.layers = _clones(decoder_layer, num_layers, "TransformerDecoder")
        self.num_layers = num_layers
        self.norm = norm

    def forward(
        self,
        tgt: Tensor,
        memory: Tensor,
        tgt_mask: Tensor | None = None,
        memory_mask: Tensor | None = None,
        tgt_key_padding_mask: Tensor | None = None,
        memory_key_padding_mask: Tensor | None = None,
        tgt_is_causal: bool | None = None,
        memory_is_causal: bool = False,
    ) -> Tensor:
        """Runs every layer on ``tgt`` attending to ``memory``."""
        check_tensors(self, tgt=tgt, memory=memory)
        check_optional_tensors(
            self,
            tgt_mask=tgt_mask,
            memory_mask=memory_mask,
            tgt_key_padding_mask=tgt_key_padding_mask,
            memory_key_padding_mask=memory_key_padding_mask,
        )
        first = self.layers[0] if len(self.layers) else None
        batch_first = bool(first is not None and first.self_attn.batch_first)
        seq_dim = 1 if batch_first and tgt.dim() == 3 else 0
        causal = _detect_is_causal(tgt_mask, tgt_is_causal, tgt.size()[seq_dim])
        out = tgt
        for layer in self.layers:
            out = layer(
                out,
                memory,
                tgt_mask=tgt_mask,
                memory_mask=memory_mask,
                tgt_key_padding_mask=tgt_key_padding_mask,
                memory_key_padding_mask=memory_key_padding_mask,
                tgt_is_causal=causal,
                memory_is_causal=memory_is_causal,
            )
        if self.norm is not None:
            out = self.norm(out)
        return out


class Transformer(Module):
    """The encoder-decoder Transformer of "Attention Is All You Need", torch's layout.

    Args:
        d_model: features of the inputs.
        nhead: attention heads.
        num_encoder_layers, num_decoder_layers: depth of each stack.
        dim_feedforward, dropout, activation, layer_norm_eps, batch_first, norm_first, bias:
            as in :class:`TransformerEncoderLayer`.
        custom_encoder, custom_decoder: modules used instead of the default stacks.

    Example:
        >>> model = ember.nn.Transformer(16, 4, 1, 1, 32)
        >>> src, tgt = ember.randn(5, 2, 16), ember.randn(6, 2, 16)
        >>> mask = ember.nn.Transformer.generate_square_subsequent_mask(6)
        >>> model(src, tgt, tgt_mask=mask).shape
        ember.Size([6, 2, 16])
    """

    def __init__(
        self,
        d_model: int = 512,
        nhead: int = 8,
        num_encoder_layers: int = 6,
        num_decoder_layers: int = 6,
        dim_feedforward: int = 2048,
        dropout: float = 0.1,
        activation: Activation = "relu",
        custom_encoder: Module | None = None,
        custom_decoder: Module | None = None,
        layer_norm_eps: float = 1e-5,
        batch_first: bool = False,
        norm_first: bool = False,
        bias: bool = True,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        factory = {"device": device, "dtype": dtype}
        options = (dim_feedforward, dropout, activation, layer_norm_eps, batch_first, norm_first)
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            enc_layer = TransformerEncoderLayer(d_model, nhead, *options, bias=bias, **factory)
            enc_norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory)
            self.encoder = TransformerEncoder(enc_layer, num_encoder_layers, enc_norm)
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            dec_layer = TransformerDecoderLayer(d_model, nhead, *options, bias=bias, **factory)
            dec_norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory)
            self.decoder = TransformerDecoder(dec_layer, num_decoder_layers, dec_norm)
        self._reset_parameters()
        self.d_model = d_model
        self.nhead = nhead
        self.batch_first = batch_first

    def forward(
        self,
        src: Tensor,
        tgt: Tensor,
        src_mask: Tensor | None = None,
        tgt_mask: Tensor | None = None,
        memory_mask: Tensor | None = None,
        src_key_padding_mask: Tensor | None = None,
        tgt_key_padding_mask: Tensor | None = None,
        memory_key_padding_mask: Tensor | None = None,
        src_is_causal: bool | None = None,
        tgt_is_causal: bool | None = None,
        memory_is_causal: bool = False,
    ) -> Tensor:
        """Encodes ``src`` and decodes ``tgt`` against it; returns ``tgt``-shaped features."""
        check_tensors(self, src=src, tgt=tgt)
        check_optional_tensors(
            self,
            src_mask=src_mask,
            tgt_mask=tgt_mask,
            memory_mask=memory_mask,
            src_key_padding_mask=src_key_padding_mask,
            tgt_key_padding_mask=tgt_key_padding_mask,
            memory_key_padding_mask=memory_key_padding_mask,
        )
        batched = src.dim() == 3
        if not self.batch_first and src.size()[1] != tgt.size()[1] and batched:
            raise RuntimeError(
                "the batch number of src and tgt must be equal, got src "
                f"{tuple(src.size())} and tgt {tuple(tgt.size())}"
            )
        if self.batch_first and src.size()[0] != tgt.size()[0] and batched:
            raise RuntimeError(
                "the batch number of src and tgt must be equal, got src "
                f"{tuple(src.size())} and tgt {tuple(tgt.size())}"
            )
        if src.size()[-1] != self.d_model or tgt.size()[-1] != self.d_model:
            raise RuntimeError(
                f"the feature number of src and tgt must be equal to d_model ({self.d_model}), "
                f"got src {tuple(src.size())} and tgt {tuple(tgt.size())}"
            )
        memory = self.encoder(
            src, mask=src_mask, src_key_padding_mask=src_key_padding_mask, is_causal=src_is_causal
        )
        out: Tensor = self.decoder(
            tgt,
            memory,
            tgt_mask=tgt_mask,
            memory_mask=memory_mask,
            tgt_key_padding_mask=tgt_key_padding_mask,
            memory_key_padding_mask=memory_key_padding_mask,
            tgt_is_causal=tgt_is_causal,
            memory_is_causal=memory_is_causal,
        )
        return out

    @staticmethod
    def generate_square_subsequent_mask(sz: int, device: Any = None, dtype: Any = None) -> Tensor:
        """The causal mask: ``-inf`` above the diagonal, ``0`` elsewhere (float32 default).

        Example:
            >>> ember.nn.Transformer.generate_square_subsequent_mask(2)
            tensor([[0., -inf],
                    [0., 0.]])
        """
        return _square_subsequent_mask(sz, dtype=dtype, device=device)

    def _reset_parameters(self) -> None:
        # torch's init of the whole model: xavier-uniform on every matrix.
        for p in self.parameters():
            if p.dim() > 1:
                init.xavier_uniform_(p)
