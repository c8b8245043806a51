"""torch's CPU autocast op lists (aten/src/ATen/autocast_mode.cpp, CPU section), by policy.

ember registers the names its native dispatch has (functions and ``Tensor.`` methods); the ops
that ember implements in Python are wrapped where they are defined (``_python_ops.py``);
``ember.amp.autocast_coverage()`` lists what is covered and what is not.
"""

from __future__ import annotations

# Run in the region's dtype (bfloat16/float16); float64 arguments are left alone.
LOWER_PRECISION = (
    "conv1d", "conv2d", "conv3d", "bmm", "mm", "linalg_vecdot", "baddbmm", "addmm", "addbmm",
    "linear", "_convolution", "matmul", "conv_tbc", "mkldnn_rnn_layer", "conv_transpose1d",
    "conv_transpose2d", "conv_transpose3d", "prelu", "scaled_dot_product_attention",
    "_native_multi_head_attention", "__matmul__", "__rmatmul__",
)  # fmt: skip

# Run in float32: float16/bfloat16 arguments are cast up.
FLOAT32 = (
    "avg_pool3d", "binary_cross_entropy", "grid_sampler", "polar", "prod", "quantile",
    "nanquantile", "stft", "cdist", "trace", "view_as_complex", "cholesky", "cholesky_inverse",
    "cholesky_solve", "inverse", "lu_solve", "orgqr", "ormqr", "pinverse", "max_pool3d",
    "max_unpool2d", "max_unpool3d", "adaptive_avg_pool3d", "reflection_pad1d", "reflection_pad2d",
    "replication_pad1d", "replication_pad2d", "replication_pad3d", "mse_loss",
    "cosine_embedding_loss", "nll_loss", "nll_loss2d", "hinge_embedding_loss", "poisson_nll_loss",
    "smooth_l1_loss", "cross_entropy_loss", "l1_loss", "huber_loss", "margin_ranking_loss",
    "soft_margin_loss", "triplet_margin_loss", "multi_margin_loss", "ctc_loss", "kl_div",
    "multilabel_margin_loss", "binary_cross_entropy_with_logits", "fft_fft", "fft_ifft",
    "fft_fft2", "fft_ifft2", "fft_fftn", "fft_ifftn", "fft_rfft", "fft_irfft", "fft_rfft2",
    "fft_irfft2", "fft_rfftn", "fft_irfftn", "fft_hfft", "fft_ihfft", "linalg_cond",
    "linalg_matrix_rank", "linalg_solve", "linalg_cholesky", "linalg_svdvals", "linalg_eigvals",
    "linalg_eigvalsh", "linalg_inv", "linalg_householder_product", "linalg_tensorinv",
    "linalg_tensorsolve", "fake_quantize_per_tensor_affine", "geqrf", "_lu_with_info", "qr",
    "svd", "triangular_solve", "fractional_max_pool2d", "fractional_max_pool3d",
    "adaptive_max_pool3d", "multilabel_margin_loss_forward", "linalg_qr", "linalg_cholesky_ex",
    "linalg_svd", "linalg_eig", "linalg_eigh", "linalg_lstsq", "linalg_inv_ex",
)  # fmt: skip

# Run in the widest floating dtype among the arguments.
PROMOTE = ("stack", "cat", "index_copy")

# ember's native ops under torch's names: every ember.fft transform runs through these three.
EMBER_ALIASES = {
    "linear": ("_nn_linear",),
    "cross_entropy_loss": ("_nn_cross_entropy",),
    "binary_cross_entropy_with_logits": ("_nn_binary_cross_entropy_with_logits",),
    "fft_fft": ("_fft_c2c", "_fft_r2c"),
    "fft_irfft": ("_fft_c2r",),
    # torch's _convolution: every nn.functional.conv*d reaches ember's one native convolution.
    "_convolution": ("_nn_conv",),
}

# Policy codes of _C._set_autocast_ops.
POLICY_CODES = {"lower": 1, "fp32": 2, "promote": 3}
