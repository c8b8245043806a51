"""The conv family (fields: registry/_schema.py)."""

from registry._schema import Op

OPS = [
    Op(
        "_nn_col2im",
        function=(
            "(columns: Any, input_size: Any, kernel_size: int | Sequence[int], "
            "dilation: int | Sequence[int], padding: int | Sequence[int], "
            "stride: int | Sequence[int] | None, output_size: int | Sequence[int]) -> Tensor"
        ),
        grad="rule",
        doc=(
            "The adjoint of _nn_im2col: sums [N, C * prod(kernel_size), prod(output_size)] columns "
            "back into a [N, C, *input_size] tensor."
        ),
    ),
    Op(
        "_nn_im2col",
        function=(
            "(input: Tensor, kernel_size: int | Sequence[int], dilation: int | Sequence[int], "
            "padding: int | Sequence[int], stride: int | Sequence[int], output_size: Any, "
            "pad_value: Any = 0.0) -> Tensor"
        ),
        grad="rule",
        doc=(
            "Every window of a [N, C, *spatial] input as columns: [N, C * prod(kernel_size), "
            "prod(output_size)]; positions outside the input read pad_value."
        ),
    ),
    Op(
        "_nn_conv",
        function=(
            "(input: Tensor, weight: Tensor, bias: Tensor | None, stride: Sequence[int], "
            "padding: Sequence[int], dilation: Sequence[int], groups: int, "
            "output_size: Sequence[int]) -> Tensor"
        ),
        grad="rule",
        doc=(
            "Convolution of a [N, C_in, *spatial] input with [C_out, C_in / groups, *kernel] "
            "weights (1-3 spatial dims), bias added, into the given output size."
        ),
    ),
    Op(
        "_nn_conv_input_grad",
        function=(
            "(grad_output: Tensor, weight: Tensor, input_size: Sequence[int], "
            "stride: Sequence[int], padding: Sequence[int], dilation: Sequence[int], "
            "groups: int) -> Tensor"
        ),
        grad="rule",
        doc=(
            "The gradient of _nn_conv with respect to its input (also the transposed "
            "convolution): a [N, C_in, *input_size] tensor."
        ),
    ),
    Op(
        "_nn_conv_weight_grad",
        function=(
            "(grad_output: Tensor, input: Tensor, kernel_size: Sequence[int], "
            "stride: Sequence[int], padding: Sequence[int], dilation: Sequence[int], "
            "groups: int) -> Tensor"
        ),
        grad="rule",
        doc="The gradient of _nn_conv with respect to its weight: [C_out, C_in / groups, *kernel].",
    ),
]
