"""The attention family (fields: registry/_schema.py).

The tiled (FlashAttention-2 style) kernels behind ember.nn.functional's
scaled_dot_product_attention: an online softmax over blocks of keys, never an [L, S] matrix;
ember.nn's autograd Function pairs the two (they carry no gradients of their own).
"""

from registry._schema import Op

OPS = [
    Op(
        "_nn_flash_attention",
        function=(
            "(query: Tensor, key: Tensor, value: Tensor, mask: Tensor | None, is_causal: bool, "
            "scale: float) -> tuple[Tensor, Tensor]"
        ),
        grad="none",
        doc=(
            "softmax(q k^T * scale + mask) v over [B, H, L, E] inputs, tile by tile: "
            "(out [B, H, L, Ev], the rows' logsumexp [B, H, L])."
        ),
        details=(
            "mask is an additive float mask viewed as [B, H, L, S] (stride 0 where it "
            "broadcasts); is_causal keeps key j for query i when j <= i. Rows with every key "
            "masked give zeros."
        ),
        example=(
            ">>> q = ember.zeros(1, 1, 2, 4)\n"
            ">>> v = ember.arange(8.0).reshape(1, 1, 2, 4)\n"
            ">>> out, lse = ember._C._nn_flash_attention(q, q, v, None, True, 0.5)\n"
            ">>> out[0, 0].tolist()  # row 0 sees key 0, row 1 averages both\n"
            "[[0.0, 1.0, 2.0, 3.0], [2.0, 3.0, 4.0, 5.0]]"
        ),
    ),
    Op(
        "_nn_flash_attention_backward",
        function=(
            "(grad_out: Tensor, query: Tensor, key: Tensor, value: Tensor, out: Tensor, "
            "lse: Tensor, mask: Tensor | None, is_causal: bool, scale: float) "
            "-> tuple[Tensor, Tensor, Tensor]"
        ),
        grad="none",
        doc=(
            "The gradients (dq, dk, dv) of _nn_flash_attention, recomputing each tile's "
            "probabilities from the saved logsumexp."
        ),
    ),
]
