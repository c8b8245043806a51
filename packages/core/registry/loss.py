"""The loss family (fields: registry/_schema.py).

One-pass natives behind ember.nn's cross_entropy and the softmax/log_softmax gradients.
"""

from registry._schema import Op

OPS = [
    Op(
        "_nn_softmax_backward",
        function="(grad_output: Tensor, output: Tensor, dim: int, log: bool) -> Tensor",
        grad="none",
        doc="The input gradient of softmax (log=True: log_softmax) along dim, from its output.",
        example=(
            ">>> y = ember.softmax(ember.tensor([0.0, 0.0]), 0)\n"
            ">>> ember._C._nn_softmax_backward(ember.tensor([1.0, 0.0]), y, 0, False).tolist()\n"
            "[0.25, -0.25]"
        ),
    ),
    Op(
        "_nn_cross_entropy",
        function=(
            "(input: Tensor, target: Tensor, weight: Tensor | None, reduction: str, "
            "ignore_index: int, label_smoothing: float) -> tuple[Tensor, Tensor, Tensor]"
        ),
        grad="rule",
        doc=(
            "Cross-entropy of logits [N, C, *] and int64 class indices [N, *] in one pass: "
            "(loss, logsumexp, total_weight)."
        ),
        details=(
            "log_softmax, NLL with class weights, ignore_index and label smoothing fused; "
            "'mean' divides by total_weight, the summed weights of the non-ignored targets."
        ),
        example=(
            ">>> loss, lse, total = ember._C._nn_cross_entropy(ember.zeros(1, 2), "
            'ember.tensor([1]), None, "mean", -100, 0.0)\n'
            ">>> round(loss.item(), 4), total.item()\n"
            "(0.6931, 1.0)"
        ),
    ),
    Op(
        "_nn_cross_entropy_backward",
        function=(
            "(grad: Tensor, input: Tensor, target: Tensor, weight: Tensor | None, "
            "logsumexp: Tensor, total_weight: Tensor, reduction: str, ignore_index: int, "
            "label_smoothing: float) -> Tensor"
        ),
        grad="none",
        doc="The input gradient of _nn_cross_entropy's loss, in one pass.",
    ),
    Op(
        "_nn_binary_cross_entropy_with_logits",
        function=(
            "(input: Tensor, target: Tensor, weight: Tensor | None = None, "
            "pos_weight: Tensor | None = None, reduction: str = 'mean') -> Tensor"
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
            "pos_weight: Tensor | None = None, reduction: str = 'mean') -> Tensor"
        ),
        grad="none",
        doc="The gradient of _nn_binary_cross_entropy_with_logits with respect to its input.",
        details=(
            "Not differentiable itself: under create_graph the forward's rule uses an "
            "equivalent composite of recorded ops instead."
        ),
    ),
]
