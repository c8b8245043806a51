"""The conv family (fields: registry/_schema.py).

The window gathers behind ember.nn's convolution, pooling and unfold/fold; each size argument
is an int or one int per spatial dim (an int means one spatial dim).
"""

from registry._schema import Op

OPS = [
    Op(
        "_nn_col2im",
        function=(
            "(columns: Tensor, input_size: int | Sequence[int], "
            "kernel_size: int | Sequence[int], "
            "dilation: int | Sequence[int], padding: int | Sequence[int], "
            "stride: int | Sequence[int] | None, output_size: int | Sequence[int]) -> Tensor"
        ),
        grad="rule",
        doc="Adjoint of _nn_im2col: sums [N, C * prod(kernel), L] columns into [N, C, *input_size]",
        details="L is prod(output_size), the number of window positions; overlaps add up.",
        example=(
            ">>> cols = ember.ones(1, 4, 4)  # 2x2 windows at 2x2 positions\n"
            ">>> ember._C._nn_col2im(cols, [3, 3], [2, 2], [1, 1], [0, 0], [1, 1], [2, 2])[0, 0].tolist()\n"  # noqa: E501
            "[[1.0, 2.0, 1.0], [2.0, 4.0, 2.0], [1.0, 2.0, 1.0]]"
        ),
    ),
    Op(
        "_nn_im2col",
        function=(
            "(input: Tensor, kernel_size: int | Sequence[int], dilation: int | Sequence[int], "
            "padding: int | Sequence[int], stride: int | Sequence[int], "
            "output_size: int | Sequence[int], pad_value: float = 0.0) -> Tensor"
        ),
        grad="rule",
        doc="Every window of a [N, C, *spatial] input as columns: [N, C * prod(kernel), L].",
        details=(
            "L is prod(output_size), the number of window positions; positions outside the input "
            "(padding) read pad_value."
        ),
        example=(
            ">>> x = ember.arange(9.0).reshape(1, 1, 3, 3)\n"
            ">>> cols = ember._C._nn_im2col(x, [2, 2], [1, 1], [0, 0], [1, 1], [2, 2])\n"
            ">>> cols.shape, cols[0, :, 0].tolist()  # the first window\n"
            "(ember.Size([1, 4, 4]), [0.0, 1.0, 3.0, 4.0])"
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
    Op(
        "_nn_max_pool",
        function=(
            "(input: Tensor, kernel_size: Sequence[int], stride: Sequence[int], "
            "padding: Sequence[int], dilation: Sequence[int], output_size: Sequence[int], "
            "with_indices: bool) -> tuple[Tensor, Tensor]"
        ),
        grad="rule",
        doc="(values, indices) of the max pool of a [N, C, *spatial] input (1-3 spatial dims).",
        details=(
            "indices are flat positions in each input plane (an empty tensor without "
            "with_indices); a window's maximum is its first largest element or its last NaN."
        ),
        example=(
            ">>> x = ember.tensor([[[1.0, 3.0, 2.0, 5.0]]])\n"
            ">>> v, i = ember._C._nn_max_pool(x, [2], [2], [0], [1], [2], True)\n"
            ">>> v.tolist(), i.tolist()\n"
            "([[[3.0, 5.0]]], [[[1, 3]]])"
        ),
    ),
    Op(
        "_nn_max_pool_backward",
        function="(grad_output: Tensor, indices: Tensor, input_size: Sequence[int]) -> Tensor",
        grad="rule",
        doc="Sums grad_output [N, C, *out] into [N, C, *input_size] at the max pool's indices.",
    ),
    Op(
        "_nn_avg_pool",
        function=(
            "(input: Tensor, kernel_size: Sequence[int], stride: Sequence[int], "
            "padding: Sequence[int], output_size: Sequence[int], count_include_pad: bool, "
            "divisor_override: int | None) -> Tensor"
        ),
        grad="rule",
        doc="The average of each window of a [N, C, *spatial] input (1-3 spatial dims).",
        details=(
            "Windows reaching past the padded input are cut there; without count_include_pad "
            "only their elements inside the input count."
        ),
        example=(
            ">>> x = ember.tensor([[[1.0, 3.0, 2.0, 6.0]]])\n"
            ">>> ember._C._nn_avg_pool(x, [2], [2], [0], [2], True, None).tolist()\n"
            "[[[2.0, 4.0]]]"
        ),
    ),
    Op(
        "_nn_avg_pool_backward",
        function=(
            "(grad_output: Tensor, input_size: Sequence[int], kernel_size: Sequence[int], "
            "stride: Sequence[int], padding: Sequence[int], count_include_pad: bool, "
            "divisor_override: int | None) -> Tensor"
        ),
        grad="rule",
        doc="The adjoint of _nn_avg_pool: grad_output [N, C, *out] -> [N, C, *input_size].",
    ),
]
