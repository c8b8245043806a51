"""The dropout family (fields: registry/_schema.py).

Dropout as one native pass each way: the keep bits are drawn from the Philox stream and kept
packed 8 per byte for the backward, instead of a float mask the size of the input.
"""

from registry._schema import Op

OPS = [
    Op(
        "_nn_dropout",
        function=(
            "(input: Tensor, p: float, generator: Generator | None = None) -> tuple[Tensor, Tensor]"
        ),
        grad="rule",
        doc="(output, mask): input zeroed with probability p, the rest scaled by 1 / (1 - p).",
        details=(
            "Element i is kept where bernoulli_(1 - p) would draw 1 from the same stream; mask "
            "is uint8 [ceil(numel / 8)] with bit i % 8 of byte i / 8 set where element i was "
            "kept. A dropped NaN or inf gives NaN, as torch's input * mask does."
        ),
        example=(
            ">>> out, mask = ember._C._nn_dropout(ember.ones(4), 0.0)\n"
            ">>> out.tolist(), mask.tolist()\n"
            "([1.0, 1.0, 1.0, 1.0], [15])"
        ),
    ),
    Op(
        "_nn_dropout_backward",
        function="(grad_output: Tensor, mask: Tensor, p: float) -> Tensor",
        grad="rule",
        doc="grad_output scaled by 1 / (1 - p) where _nn_dropout's mask kept the element, else 0.",
    ),
]
