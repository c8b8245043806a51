"""``ember.nn.functional``: torch.nn.functional's functions (re-exported from ``_functional``)."""

from __future__ import annotations

# attention (nn-seq)
from ember.nn._functional.attention import (
    multi_head_attention_forward as multi_head_attention_forward,
)
from ember.nn._functional.attention import (
    scaled_dot_product_attention as scaled_dot_product_attention,
)
