"""The norm family (fields: registry/_schema.py).

The one-pass natives behind ember.nn's layer_norm, rms_norm, group_norm and batch_norm: each
forward returns the output and its statistics; each backward recomputes the statistics from the
input (so autograd saves no forward output) and computes the gradients that ``output_mask`` asks
for (None for the others) in one pass.
"""

from registry._schema import Op

_MASK = "output_mask: Sequence[bool]"

OPS = [
    Op(
        "_nn_layer_norm",
        function=(
            "(input: Tensor, weight: Tensor | None, bias: Tensor | None, normalized_ndim: int, "
            "eps: float) -> tuple[Tensor, Tensor, Tensor]"
        ),
        grad="rule",
        doc="Layer norm over the last normalized_ndim dims: (output, mean, rstd).",
        details=(
            "mean and rstd have the input's leading shape with normalized_ndim trailing 1s; they "
            "are float32 for float16/bfloat16 inputs (the accumulation type)."
        ),
        example=(
            ">>> y, mean, rstd = ember._C._nn_layer_norm(ember.tensor([[1.0, 3.0]]), None, None, "
            "1, 0.0)\n"
            ">>> y.tolist(), mean.tolist(), rstd.tolist()\n"
            "([[-1.0, 1.0]], [[2.0]], [[1.0]])"
        ),
    ),
    Op(
        "_nn_layer_norm_backward",
        function=(
            "(grad_output: Tensor, input: Tensor, weight: Tensor | None, normalized_ndim: int, "
            f"eps: float, {_MASK}) -> tuple[Tensor | None, Tensor | None, Tensor | None]"
        ),
        grad="none",
        doc="(grad_input, grad_weight, grad_bias) of _nn_layer_norm, the statistics recomputed.",
    ),
    Op(
        "_nn_rms_norm",
        function=(
            "(input: Tensor, weight: Tensor | None, normalized_ndim: int, eps: float) -> "
            "tuple[Tensor, Tensor]"
        ),
        grad="rule",
        doc="RMS norm (x / sqrt(mean(x^2) + eps) * weight) over the last dims: (output, rstd).",
        example=(
            ">>> y, rstd = ember._C._nn_rms_norm(ember.tensor([[3.0, 4.0]]), None, 1, 0.0)\n"
            ">>> [round(v, 4) for v in y[0].tolist()]\n"
            "[0.8485, 1.1314]"
        ),
    ),
    Op(
        "_nn_rms_norm_backward",
        function=(
            "(grad_output: Tensor, input: Tensor, weight: Tensor | None, normalized_ndim: int, "
            f"eps: float, {_MASK}) -> tuple[Tensor | None, Tensor | None]"
        ),
        grad="none",
        doc="(grad_input, grad_weight) of _nn_rms_norm, rstd recomputed.",
    ),
    Op(
        "_nn_group_norm",
        function=(
            "(input: Tensor, weight: Tensor | None, bias: Tensor | None, num_groups: int, "
            "eps: float) -> tuple[Tensor, Tensor, Tensor]"
        ),
        grad="rule",
        doc="Group norm of [N, C, *]: (output, mean, rstd), the statistics [N, num_groups].",
    ),
    Op(
        "_nn_group_norm_backward",
        function=(
            "(grad_output: Tensor, input: Tensor, weight: Tensor | None, num_groups: int, "
            f"eps: float, {_MASK}) -> tuple[Tensor | None, Tensor | None, Tensor | None]"
        ),
        grad="none",
        doc="(grad_input, grad_weight, grad_bias) of _nn_group_norm, the statistics recomputed.",
    ),
    Op(
        "_nn_batch_norm",
        function=(
            "(input: Tensor, weight: Tensor | None, bias: Tensor | None, "
            "running_mean: Tensor | None, running_var: Tensor | None, training: bool, "
            "momentum: float, eps: float) -> tuple[Tensor, Tensor, Tensor]"
        ),
        grad="rule",
        doc="Batch norm of [N, C, *] per channel: (output, mean, invstd).",
        details=(
            "training normalizes by the batch statistics and updates running_mean/running_var "
            "in place (running = (1 - momentum) running + momentum batch, the variance "
            "unbiased); eval normalizes by the running statistics."
        ),
        example=(
            ">>> y, mean, invstd = ember._C._nn_batch_norm(ember.tensor([[1.0], [3.0]]), None, "
            "None, None, None, True, 0.1, 0.0)\n"
            ">>> y.tolist(), mean.tolist(), invstd.tolist()\n"
            "([[-1.0], [1.0]], [2.0], [1.0])"
        ),
    ),
    Op(
        "_nn_batch_norm_backward",
        function=(
            "(grad_output: Tensor, input: Tensor, weight: Tensor | None, "
            "running_mean: Tensor | None, running_var: Tensor | None, training: bool, eps: float, "
            f"{_MASK}) -> tuple[Tensor | None, Tensor | None, Tensor | None]"
        ),
        grad="none",
        doc=(
            "(grad_input, grad_weight, grad_bias) of _nn_batch_norm: batch statistics recomputed "
            "(training) or the running ones (eval)."
        ),
    ),
]
