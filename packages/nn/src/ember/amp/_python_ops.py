"""Autocast for the listed ops that ember implements in Python (nn.functional's losses, pools,
transposed convolutions, attention; ember.linalg's solvers): their functions are wrapped, once,
where ember's native dispatcher cannot see them.

A wrapper costs one flag test outside autocast. Inside a region it casts the floating tensor
arguments by the op's policy and runs the function with autocast off, as torch runs the ops
below an autocast op.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Any

import ember
import ember_core._C as _C
from ember._tensor import Tensor

# torch's op name -> (module holding ember's function, its name there, policy).
_NN = "ember.nn._functional."
PYTHON_OPS: dict[str, tuple[str, str, str]] = {
    "linear": (_NN + "linear", "linear", "lower"),
    # nn.functional checks that input and weight share a dtype before the native conv runs, so
    # the cast happens here (a bfloat16 activation meets float32 weights).
    "conv1d": (_NN + "conv", "conv1d", "lower"),
    "conv2d": (_NN + "conv", "conv2d", "lower"),
    "conv3d": (_NN + "conv", "conv3d", "lower"),
    "conv_transpose1d": (_NN + "conv", "conv_transpose1d", "lower"),
    "conv_transpose2d": (_NN + "conv", "conv_transpose2d", "lower"),
    "conv_transpose3d": (_NN + "conv", "conv_transpose3d", "lower"),
    "prelu": (_NN + "activation", "prelu", "lower"),
    "scaled_dot_product_attention": (_NN + "attention", "scaled_dot_product_attention", "lower"),
    "linalg_vecdot": ("ember.linalg", "vecdot", "lower"),
    "avg_pool3d": (_NN + "pooling", "avg_pool3d", "fp32"),
    "max_pool3d": (_NN + "pooling", "max_pool3d", "fp32"),
    "adaptive_avg_pool3d": (_NN + "pooling", "adaptive_avg_pool3d", "fp32"),
    "adaptive_max_pool3d": (_NN + "pooling", "adaptive_max_pool3d", "fp32"),
    "max_unpool2d": (_NN + "pooling", "max_unpool2d", "fp32"),
    "max_unpool3d": (_NN + "pooling", "max_unpool3d", "fp32"),
    "fractional_max_pool2d": (_NN + "pooling", "fractional_max_pool2d", "fp32"),
    "fractional_max_pool3d": (_NN + "pooling", "fractional_max_pool3d", "fp32"),
    "binary_cross_entropy": (_NN + "loss", "binary_cross_entropy", "fp32"),
    "binary_cross_entropy_with_logits": (
        _NN + "loss",
        "binary_cross_entropy_with_logits",
        "fp32",
    ),
    "mse_loss": (_NN + "loss", "mse_loss", "fp32"),
    "l1_loss": (_NN + "loss", "l1_loss", "fp32"),
    "smooth_l1_loss": (_NN + "loss", "smooth_l1_loss", "fp32"),
    "huber_loss": (_NN + "loss", "huber_loss", "fp32"),
    "nll_loss": (_NN + "loss", "nll_loss", "fp32"),
    "nll_loss2d": (_NN + "loss", "nll_loss", "fp32"),
    "cross_entropy_loss": (_NN + "loss", "cross_entropy", "fp32"),
    "kl_div": (_NN + "loss", "kl_div", "fp32"),
    "poisson_nll_loss": (_NN + "loss", "poisson_nll_loss", "fp32"),
    "cosine_embedding_loss": (_NN + "loss_margin", "cosine_embedding_loss", "fp32"),
    "hinge_embedding_loss": (_NN + "loss_margin", "hinge_embedding_loss", "fp32"),
    "margin_ranking_loss": (_NN + "loss_margin", "margin_ranking_loss", "fp32"),
    "soft_margin_loss": (_NN + "loss_margin", "soft_margin_loss", "fp32"),
    "triplet_margin_loss": (_NN + "loss_margin", "triplet_margin_loss", "fp32"),
    "multi_margin_loss": (_NN + "loss_margin", "multi_margin_loss", "fp32"),
    "multilabel_margin_loss": (_NN + "loss_margin", "multilabel_margin_loss", "fp32"),
    "multilabel_margin_loss_forward": (_NN + "loss_margin", "multilabel_margin_loss", "fp32"),
    "ctc_loss": (_NN + "loss_ctc", "ctc_loss", "fp32"),
    "grid_sampler": (_NN + "vision", "grid_sample", "fp32"),
    "reflection_pad1d": (_NN + "padding", "pad", "fp32_pad"),
    "reflection_pad2d": (_NN + "padding", "pad", "fp32_pad"),
    "replication_pad1d": (_NN + "padding", "pad", "fp32_pad"),
    "replication_pad2d": (_NN + "padding", "pad", "fp32_pad"),
    "replication_pad3d": (_NN + "padding", "pad", "fp32_pad"),
    "polar": ("ember", "polar", "fp32"),
    "cholesky": ("ember", "cholesky", "fp32"),
    "inverse": ("ember", "inverse", "fp32"),
    "pinverse": ("ember", "pinverse", "fp32"),
    "qr": ("ember", "qr", "fp32"),
    "svd": ("ember", "svd", "fp32"),
    "linalg_cond": ("ember.linalg", "cond", "fp32"),
    "linalg_matrix_rank": ("ember.linalg", "matrix_rank", "fp32"),
    "linalg_solve": ("ember.linalg", "solve", "fp32"),
    "linalg_cholesky": ("ember.linalg", "cholesky", "fp32"),
    "linalg_svdvals": ("ember.linalg", "svdvals", "fp32"),
    "linalg_eigvals": ("ember.linalg", "eigvals", "fp32"),
    "linalg_eigvalsh": ("ember.linalg", "eigvalsh", "fp32"),
    "linalg_inv": ("ember.linalg", "inv", "fp32"),
}

# Where a wrapped function may have been imported under its own name (module attribute or
# `from ... import` in ember's own modules): every such reference is replaced.
_HOLDERS = (
    "ember",
    "ember.linalg",
    "ember.nn.functional",
    *(
        _NN + m
        for m in (
            "linear", "conv", "activation", "attention", "pooling", "loss", "loss_margin",
            "loss_ctc", "vision", "padding",
        )
    ),
)  # fmt: skip

_PAD_FP32_MODES = ("reflect", "replicate")
_installed: set[str] | None = None


def _cast_args(value: Any, up: bool, dtype: ember.dtype) -> Any:
    # up: float16/bfloat16 -> float32; else float32 (and the other low dtype) -> dtype.
    if isinstance(value, Tensor):
        if not value.is_floating_point() or value.dtype == ember.float64:
            return value
        if up:
            return value.float() if value.dtype != ember.float32 else value
        return value.to(dtype) if value.dtype != dtype else value
    if isinstance(value, (list, tuple)) and any(isinstance(v, Tensor) for v in value):
        return type(value)(_cast_args(v, up, dtype) for v in value)
    return value


def _wrap(fn: Callable[..., Any], policy: str) -> Callable[..., Any]:
    @functools.wraps(fn)
    def autocast_wrapper(*args: Any, **kwargs: Any) -> Any:
        if not _C._get_autocast_enabled():
            return fn(*args, **kwargs)
        if policy == "fp32_pad":
            mode = kwargs.get("mode", args[2] if len(args) > 2 else "constant")
            if mode not in _PAD_FP32_MODES:
                return fn(*args, **kwargs)
        dtype = _C._get_autocast_dtype()
        up = policy != "lower"
        args = tuple(_cast_args(a, up, dtype) for a in args)
        kwargs = {k: _cast_args(v, up, dtype) for k, v in kwargs.items()}
        _C._set_autocast_enabled(False, dtype)
        try:
            return fn(*args, **kwargs)
        finally:
            _C._set_autocast_enabled(True, dtype)

    autocast_wrapper._ember_autocast = policy  # type: ignore[attr-defined]
    return autocast_wrapper


def install() -> set[str]:
    """Wraps every function of PYTHON_OPS (once); returns the torch names now covered."""
    global _installed
    if _installed is not None:
        return _installed
    holders: list[ModuleType] = []
    for name in _HOLDERS:
        try:
            holders.append(importlib.import_module(name))
        except ImportError:  # a distribution that is not installed
            continue
    wrapped: dict[int, Callable[..., Any]] = {}
    covered: set[str] = set()
    for torch_name, (module_name, attr, policy) in PYTHON_OPS.items():
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        fn = getattr(module, attr, None)
        if fn is None:
            continue
        covered.add(torch_name)
        if getattr(fn, "_ember_autocast", None) is not None or id(fn) in wrapped:
            continue
        new = _wrap(fn, policy)
        wrapped[id(fn)] = new
        for holder in holders:
            for key, value in list(vars(holder).items()):
                if value is fn:
                    setattr(holder, key, new)
    _installed = covered
    return covered
