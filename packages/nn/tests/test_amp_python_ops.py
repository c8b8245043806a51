"""Autocast of the listed ops ember implements in Python or reaches through one native op:
each runs in the right dtype inside a region (float32 for losses/pools/solvers, the region's
dtype for convolutions/attention), is untouched outside one, and follows enabled=False nesting."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import ember
import ember.nn.functional as F
from ember.amp import _python_ops

bf16, f32 = ember.bfloat16, ember.float32


def r(*shape: int, dtype: Any = bf16) -> ember.Tensor:
    return ember.randn(*shape).to(dtype=dtype)


def pos(*shape: int, dtype: Any = bf16) -> ember.Tensor:
    return (ember.rand(*shape) * 0.8 + 0.1).to(dtype=dtype)


def spd(dtype: Any = bf16) -> ember.Tensor:
    a = ember.randn(3, 3)
    return (a @ a.T + 3 * ember.eye(3)).to(dtype=dtype)


def _unpool(fn: Callable[..., Any], d: int) -> Any:
    x = r(1, 1, *([4] * d), dtype=f32)
    pooled, idx = (F.max_pool2d if d == 2 else F.max_pool3d)(x, 2, return_indices=True)
    return fn(pooled.to(dtype=bf16), idx, 2)


# torch's name -> a call of ember's function on bfloat16 inputs (float32 policy ops).
FP32_SAMPLES: dict[str, Callable[[], Any]] = {
    "avg_pool3d": lambda: F.avg_pool3d(r(1, 2, 4, 4, 4), 2),
    "max_pool3d": lambda: F.max_pool3d(r(1, 2, 4, 4, 4), 2),
    "adaptive_avg_pool3d": lambda: F.adaptive_avg_pool3d(r(1, 2, 4, 4, 4), 2),
    "adaptive_max_pool3d": lambda: F.adaptive_max_pool3d(r(1, 2, 4, 4, 4), 2),
    "max_unpool2d": lambda: _unpool(F.max_unpool2d, 2),
    "max_unpool3d": lambda: _unpool(F.max_unpool3d, 3),
    "binary_cross_entropy": lambda: F.binary_cross_entropy(pos(4), pos(4)),
    "binary_cross_entropy_with_logits": lambda: F.binary_cross_entropy_with_logits(r(4), pos(4)),
    "mse_loss": lambda: F.mse_loss(r(4), r(4)),
    "l1_loss": lambda: F.l1_loss(r(4), r(4)),
    "smooth_l1_loss": lambda: F.smooth_l1_loss(r(4), r(4)),
    "huber_loss": lambda: F.huber_loss(r(4), r(4)),
    "nll_loss": lambda: F.nll_loss(r(3, 5), ember.tensor([0, 1, 4])),
    "nll_loss2d": lambda: F.nll_loss(r(2, 3, 4, 4), ember.zeros(2, 4, 4, dtype=ember.int64)),
    "cross_entropy_loss": lambda: F.cross_entropy(r(3, 5), ember.tensor([0, 1, 4])),
    "kl_div": lambda: F.kl_div(r(4), pos(4), reduction="batchmean"),
    "poisson_nll_loss": lambda: F.poisson_nll_loss(r(4), pos(4)),
    "cosine_embedding_loss": lambda: F.cosine_embedding_loss(r(3, 4), r(3, 4), ember.ones(3)),
    "hinge_embedding_loss": lambda: F.hinge_embedding_loss(r(4), ember.ones(4)),
    "margin_ranking_loss": lambda: F.margin_ranking_loss(r(4), r(4), ember.ones(4)),
    "soft_margin_loss": lambda: F.soft_margin_loss(r(4), ember.ones(4)),
    "triplet_margin_loss": lambda: F.triplet_margin_loss(r(3, 4), r(3, 4), r(3, 4)),
    "multi_margin_loss": lambda: F.multi_margin_loss(r(3, 5), ember.tensor([0, 1, 4])),
    "multilabel_margin_loss": lambda: F.multilabel_margin_loss(
        r(2, 4), ember.tensor([[0, 1, -1, 0], [2, -1, 0, 0]])
    ),
    "ctc_loss": lambda: F.ctc_loss(
        r(6, 1, 4).log_softmax(-1),
        ember.tensor([[1, 2]]),
        ember.tensor([6]),
        ember.tensor([2]),
    ),
    "grid_sampler": lambda: F.grid_sample(
        r(1, 1, 4, 4), (ember.rand(1, 3, 3, 2) * 2 - 1).to(dtype=bf16), align_corners=False
    ),
    "reflection_pad2d": lambda: F.pad(r(1, 1, 3, 3), (1, 1, 1, 1), mode="reflect"),
    "replication_pad1d": lambda: F.pad(r(1, 1, 3), (2, 1), mode="replicate"),
    "polar": lambda: ember.polar(pos(3), r(3)),
    "cholesky": lambda: ember.cholesky(spd()),
    "inverse": lambda: ember.inverse(spd()),
    "pinverse": lambda: ember.pinverse(spd()),
    "qr": lambda: ember.qr(spd())[0],
    "svd": lambda: ember.svd(spd())[1],
    "linalg_cond": lambda: ember.linalg.cond(spd()),
    "linalg_matrix_rank": lambda: ember.linalg.matrix_rank(spd(), atol=1e-3, rtol=0.0),
    "linalg_solve": lambda: ember.linalg.solve(spd(), r(3)),
    "linalg_cholesky": lambda: ember.linalg.cholesky(spd()),
    "linalg_svdvals": lambda: ember.linalg.svdvals(spd()),
    "linalg_eigvals": lambda: ember.linalg.eigvals(spd()),
    "linalg_eigvalsh": lambda: ember.linalg.eigvalsh(spd()),
    "linalg_inv": lambda: ember.linalg.inv(spd()),
}

# torch's name -> a call on float32 inputs (lower-precision policy ops).
LOWER_SAMPLES: dict[str, Callable[[], Any]] = {
    "linear": lambda: F.linear(r(2, 3, dtype=f32), r(4, 3, dtype=f32), r(4, dtype=f32)),
    "conv1d": lambda: F.conv1d(r(1, 2, 6, dtype=f32), r(3, 2, 3, dtype=f32)),
    "conv2d": lambda: F.conv2d(r(1, 2, 5, 5, dtype=f32), r(3, 2, 3, 3, dtype=f32), r(3, dtype=f32)),
    "conv3d": lambda: F.conv3d(r(1, 2, 4, 4, 4, dtype=f32), r(3, 2, 2, 2, 2, dtype=f32)),
    "conv_transpose1d": lambda: F.conv_transpose1d(r(1, 2, 5, dtype=f32), r(2, 3, 3, dtype=f32)),
    "conv_transpose2d": lambda: F.conv_transpose2d(
        r(1, 2, 4, 4, dtype=f32), r(2, 3, 3, 3, dtype=f32), stride=2
    ),
    "conv_transpose3d": lambda: F.conv_transpose3d(
        r(1, 2, 3, 3, 3, dtype=f32), r(2, 1, 2, 2, 2, dtype=f32)
    ),
    "prelu": lambda: F.prelu(r(2, 3, dtype=f32), r(3, dtype=f32)),
    "scaled_dot_product_attention": lambda: F.scaled_dot_product_attention(
        r(1, 2, 4, 8, dtype=f32), r(1, 2, 4, 8, dtype=f32), r(1, 2, 4, 8, dtype=f32)
    ),
    "linalg_vecdot": lambda: ember.linalg.vecdot(r(3, 4, dtype=f32), r(3, 4, dtype=f32)),
}


def _first_tensor(out: Any) -> ember.Tensor:
    return out if isinstance(out, ember.Tensor) else out[0]


@pytest.mark.parametrize("name", sorted(FP32_SAMPLES))
def test_float32_policy_ops(name: str) -> None:
    with ember.autocast("cpu", dtype=bf16):
        out = _first_tensor(FP32_SAMPLES[name]())
    assert out.dtype in (f32, ember.complex64, ember.int64), (name, out.dtype)
    assert out.dtype != bf16


@pytest.mark.parametrize("dtype", [bf16, ember.float16])
@pytest.mark.parametrize("name", sorted(LOWER_SAMPLES))
def test_lower_precision_policy_ops(name: str, dtype: Any) -> None:
    with ember.autocast("cpu", dtype=dtype):
        out = _first_tensor(LOWER_SAMPLES[name]())
    assert out.dtype == dtype, (name, out.dtype)


def test_every_wrapped_op_has_a_sample() -> None:
    assert ember.amp.autocast_coverage()  # installs the wrappers
    listed = set(_python_ops.PYTHON_OPS)
    pads = {n for n in listed if "_pad" in n}
    missing = listed - set(FP32_SAMPLES) - set(LOWER_SAMPLES) - pads - {"nll_loss2d"}
    # Aliases, and fractional pools (ember raises NotImplementedError for them).
    missing -= {"multilabel_margin_loss_forward", "_convolution"}
    missing -= {"fractional_max_pool2d", "fractional_max_pool3d"}
    assert not missing, missing


def test_outside_a_region_and_with_enabled_false_nothing_is_cast() -> None:
    ember.amp.autocast_coverage()
    a, b = r(4), r(4)
    assert F.mse_loss(a, b).dtype == bf16
    with ember.autocast("cpu"):
        with ember.autocast("cpu", enabled=False):
            assert F.mse_loss(a, b).dtype == bf16
            assert F.conv2d(r(1, 1, 3, 3, dtype=f32), r(1, 1, 2, 2, dtype=f32)).dtype == f32
        assert F.mse_loss(a, b).dtype == f32  # the outer region is back on


def test_constant_pad_keeps_its_dtype_and_modules_are_covered() -> None:
    with ember.autocast("cpu"):
        assert F.pad(r(1, 3), (1, 1)).dtype == bf16  # only reflect/replicate are float32 ops
        assert ember.nn.MSELoss()(r(4), r(4)).dtype == f32
        assert ember.nn.CrossEntropyLoss()(r(3, 5), ember.tensor([0, 1, 2])).dtype == f32
        assert ember.nn.Conv2d(2, 3, 3)(r(1, 2, 5, 5, dtype=f32)).dtype == bf16
        # A bfloat16 activation meets float32 weights (the second layer of a CNN).
        conv = ember.nn.Conv2d(2, 3, 3, padding=1)
        assert conv(r(1, 2, 5, 5, dtype=bf16)).dtype == bf16


def test_decorated_function_and_gradients_through_a_wrapped_loss() -> None:
    w = ember.randn(4, 3, requires_grad=True)

    @ember.autocast("cpu")
    def loss_of(x: ember.Tensor) -> ember.Tensor:
        out: ember.Tensor = F.mse_loss(F.linear(x, w), ember.zeros(2, 4))
        return out

    loss = loss_of(ember.randn(2, 3))
    assert loss.dtype == f32
    loss.backward()
    assert w.grad is not None and w.grad.dtype == f32


def test_wrapped_functions_keep_their_names_and_docs() -> None:
    ember.amp.autocast_coverage()
    assert F.mse_loss.__name__ == "mse_loss" and "mse" in (F.mse_loss.__doc__ or "").lower()
    assert F.mse_loss.__wrapped__ is not None  # type: ignore[attr-defined]
