"""The loss family (fields: registry/_schema.py).

Fused loss kernels behind ember.nn.functional's losses: one native pass forward, one backward.
Reductions are torch's enum: 0 none, 1 mean, 2 sum.
"""

from registry._schema import Op

OPS = [
    Op(
        "_nn_binary_cross_entropy_with_logits",
        function=(
            "(input: Tensor, target: Tensor, weight: Tensor | None = None, "
            "pos_weight: Tensor | None = None, reduction: int = 1) -> Tensor"
        ),
        grad="rule",
        doc="Sigmoid + binary cross-entropy of float32/float64 logits in one pass.",
        details=(
            "weight and pos_weight broadcast to the input's shape; the backward is one native "
            "pass (_nn_binary_cross_entropy_with_logits_backward)."
        ),
    ),
    Op(
        "_nn_binary_cross_entropy_with_logits_backward",
        function=(
            "(grad_output: Tensor, input: Tensor, target: Tensor, weight: Tensor | None = None, "
            "pos_weight: Tensor | None = None, reduction: int = 1) -> Tensor"
        ),
        grad="none",
        doc="The gradient of _nn_binary_cross_entropy_with_logits with respect to its input.",
        details=(
            "Not differentiable itself: under create_graph the forward's rule uses an "
            "equivalent composite of recorded ops instead."
        ),
    ),
]
