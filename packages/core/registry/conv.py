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
]
