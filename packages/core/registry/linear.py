"""The linear family (fields: registry/_schema.py).

The fully connected layer behind ember.nn.Linear and F.linear, as one native op.
"""

from registry._schema import Op

OPS = [
    Op(
        "_nn_linear",
        function="(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor",
        grad="rule",
        doc="input [*, in] @ weight [out, in]^T + bias [out] -> [*, out], as one GEMM.",
        details=(
            "Leading dims fold into the rows of the GEMM; autograd records one node, and the "
            "weight gradient comes out in the weight's own (contiguous) layout."
        ),
    ),
]
