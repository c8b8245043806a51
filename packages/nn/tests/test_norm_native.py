"""The one-pass normalization natives (_nn_layer_norm, _nn_rms_norm, _nn_group_norm,
_nn_batch_norm and their backward passes), through ember.nn.functional and on their own:
values against numpy in float64, gradients by gradcheck, half types against a float64
reference, bad arguments."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import ember
import ember.nn.functional as F
from ember.autograd import gradcheck, gradgradcheck
from ember_core import _C

rng = np.random.default_rng(7)


def t(a: Any, grad: bool = False, dtype: Any = ember.float64) -> ember.Tensor:
    x = ember.from_numpy(np.array(a, dtype=np.float64)).to(dtype)  # a copy: ops write in place
    return x.requires_grad_() if grad else x


def normalize_np(x: np.ndarray, axes: tuple[int, ...], eps: float) -> np.ndarray:
    mean = x.mean(axes, keepdims=True)
    var = x.var(axes, keepdims=True)
    return (x - mean) / np.sqrt(var + eps)


# ---- layer norm / RMS norm --------------------------------------------------------------


@pytest.mark.parametrize("shape, normalized", [((4, 6), [6]), ((2, 3, 4, 5), [4, 5]), ((7,), [7])])
@pytest.mark.parametrize("affine", [(True, True), (True, False), (False, True), (False, False)])
def test_layer_norm_values(shape: tuple[int, ...], normalized: list[int], affine: Any) -> None:
    x = rng.standard_normal(shape) * 3 + 1
    w = rng.standard_normal(normalized) if affine[0] else None
    b = rng.standard_normal(normalized) if affine[1] else None
    axes = tuple(range(-len(normalized), 0))
    ref = normalize_np(x, axes, 1e-5)
    if w is not None:
        ref = ref * w
    if b is not None:
        ref = ref + b
    got = F.layer_norm(t(x), normalized, None if w is None else t(w), None if b is None else t(b))
    np.testing.assert_allclose(got.numpy(), ref, rtol=1e-12, atol=1e-12)


def test_layer_norm_statistics_outputs() -> None:
    x = rng.standard_normal((3, 4, 5))
    _, mean, rstd = _C._nn_layer_norm(t(x), None, None, 2, 1e-5)
    assert list(mean.shape) == [3, 1, 1] and list(rstd.shape) == [3, 1, 1]
    np.testing.assert_allclose(mean.numpy().ravel(), x.reshape(3, -1).mean(1), rtol=1e-12)
    np.testing.assert_allclose(
        rstd.numpy().ravel(), 1 / np.sqrt(x.reshape(3, -1).var(1) + 1e-5), rtol=1e-12
    )
    _, mean16, rstd16 = _C._nn_layer_norm(t(x, dtype=ember.float16), None, None, 1, 1e-5)
    assert mean16.dtype == ember.float32 and rstd16.dtype == ember.float32


@pytest.mark.parametrize("affine", [(True, True), (False, False), (True, False)])
def test_layer_norm_gradcheck(affine: Any) -> None:
    x = t(rng.standard_normal((3, 2, 4)), True)
    w = t(rng.standard_normal((2, 4)), True) if affine[0] else None
    b = t(rng.standard_normal((2, 4)), True) if affine[1] else None
    inputs = tuple(v for v in (x, w, b) if v is not None)

    def fn(*xs: ember.Tensor) -> ember.Tensor:
        it = iter(xs)
        xx = next(it)
        ww = next(it) if w is not None else None
        bb = next(it) if b is not None else None
        return F.layer_norm(xx, [2, 4], ww, bb, eps=1e-3)

    assert gradcheck(fn, inputs)
    assert gradgradcheck(fn, inputs)


def test_layer_norm_weight_grad_only() -> None:
    # Only the weight needs a gradient: the fused backward computes just that.
    x = t(rng.standard_normal((5, 3)))
    w = t(rng.standard_normal(3), True)
    gradcheck(lambda ww: F.layer_norm(x, [3], ww), (w,))
    g = rng.standard_normal((5, 3))
    F.layer_norm(x, [3], w).backward(t(g))
    assert w.grad is not None
    np.testing.assert_allclose(w.grad.numpy(), (g * normalize_np(x.numpy(), (1,), 1e-5)).sum(0))


@pytest.mark.parametrize("dtype, tol", [(ember.float32, 1e-5), (ember.float16, 4e-3),
                                        (ember.bfloat16, 3e-2)])  # fmt: skip
def test_layer_norm_reduced_precision(dtype: Any, tol: float) -> None:
    x = rng.standard_normal((8, 64)) * 2 + 5
    w, b = rng.standard_normal(64), rng.standard_normal(64)
    xr = t(x, dtype=dtype)
    got = F.layer_norm(xr, [64], t(w, dtype=dtype), t(b, dtype=dtype))
    assert got.dtype == dtype
    # The reference sees the same rounded input and parameters.
    xq, wq, bq = (t(a, dtype=dtype).double().numpy() for a in (x, w, b))
    ref = normalize_np(xq, (1,), 1e-5) * wq + bq
    np.testing.assert_allclose(got.double().numpy(), ref, rtol=tol, atol=tol * 4)
    # Backward in the half type too, float32 accumulation: close to the float64 gradient.
    xg = xr.clone().requires_grad_()
    F.layer_norm(xg, [64]).backward(ember.ones(8, 64, dtype=dtype))
    assert xg.grad is not None and xg.grad.dtype == dtype
    assert float(xg.grad.double().abs().max()) < 0.05


def test_rms_norm_values_and_gradients() -> None:
    x = rng.standard_normal((4, 5))
    w = rng.standard_normal(5)
    ref = x / np.sqrt((x * x).mean(1, keepdims=True) + 1e-6) * w
    got = F.rms_norm(t(x), [5], t(w), eps=1e-6)
    np.testing.assert_allclose(got.numpy(), ref, rtol=1e-12)
    # eps=None: the dtype's epsilon
    ref_default = x / np.sqrt((x * x).mean(1, keepdims=True) + np.finfo(np.float64).eps)
    np.testing.assert_allclose(F.rms_norm(t(x), [5]).numpy(), ref_default, rtol=1e-12)
    xg, wg = t(x, True), t(w, True)
    fn = lambda a, b: F.rms_norm(a, [5], b, eps=1e-3)  # noqa: E731
    assert gradcheck(fn, (xg, wg))
    assert gradgradcheck(fn, (xg, wg))
    assert gradcheck(lambda a: F.rms_norm(a, [5]), (xg,))


# ---- group norm ---------------------------------------------------------------------------


@pytest.mark.parametrize("shape, groups", [((2, 6, 5), 3), ((3, 4, 2, 3), 2), ((2, 4), 4)])
def test_group_norm_values(shape: tuple[int, ...], groups: int) -> None:
    x = rng.standard_normal(shape) * 2 - 1
    c = shape[1]
    w, b = rng.standard_normal(c), rng.standard_normal(c)
    n = shape[0]
    g = x.reshape(n, groups, -1)
    ref = normalize_np(g, (2,), 1e-5).reshape(shape)
    cshape = [c] + [1] * (len(shape) - 2)
    ref = ref * w.reshape(cshape) + b.reshape(cshape)
    got = F.group_norm(t(x), groups, t(w), t(b))
    np.testing.assert_allclose(got.numpy(), ref, rtol=1e-12, atol=1e-12)


def test_group_norm_gradcheck() -> None:
    x = t(rng.standard_normal((2, 4, 3)), True)
    w, b = t(rng.standard_normal(4), True), t(rng.standard_normal(4), True)
    fn = lambda a, ww, bb: F.group_norm(a, 2, ww, bb, eps=1e-3)  # noqa: E731
    assert gradcheck(fn, (x, w, b))
    assert gradgradcheck(fn, (x, w, b))
    assert gradcheck(lambda a: F.group_norm(a, 4), (x,))


# ---- batch norm ---------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(5, 3), (4, 3, 6), (2, 3, 4, 5)])
def test_batch_norm_training_values_and_running_stats(shape: tuple[int, ...]) -> None:
    x = rng.standard_normal(shape) * 2 + 3
    w, b = rng.standard_normal(3), rng.standard_normal(3)
    rm0, rv0 = rng.standard_normal(3), rng.uniform(0.5, 2, 3)
    rm, rv = t(rm0), t(rv0)
    axes = (0, *range(2, len(shape)))
    cshape = [3] + [1] * (len(shape) - 2)
    ref = normalize_np(x, axes, 1e-5) * w.reshape(cshape) + b.reshape(cshape)
    got = F.batch_norm(t(x), rm, rv, t(w), t(b), training=True, momentum=0.3)
    np.testing.assert_allclose(got.numpy(), ref, rtol=1e-12, atol=1e-12)
    count = x.size // 3
    np.testing.assert_allclose(rm.numpy(), 0.7 * rm0 + 0.3 * x.mean(axes), rtol=1e-12)
    unbiased = x.var(axes) * count / (count - 1)
    np.testing.assert_allclose(rv.numpy(), 0.7 * rv0 + 0.3 * unbiased, rtol=1e-12)


def test_batch_norm_running_stats_in_float32_with_half_input() -> None:
    x = rng.standard_normal((6, 2, 4))
    rm, rv = ember.zeros(2), ember.ones(2)
    F.batch_norm(t(x, dtype=ember.bfloat16), rm, rv, training=True, momentum=1.0)
    xq = t(x, dtype=ember.bfloat16).double().numpy()
    np.testing.assert_allclose(rm.numpy(), xq.mean((0, 2)), rtol=1e-5)
    np.testing.assert_allclose(rv.numpy(), xq.var((0, 2), ddof=1), rtol=1e-5)


def test_batch_norm_eval_values() -> None:
    x = rng.standard_normal((4, 3, 2))
    rm, rv = rng.standard_normal(3), rng.uniform(0.5, 2, 3)
    w, b = rng.standard_normal(3), rng.standard_normal(3)
    ref = (x - rm[:, None]) / np.sqrt(rv[:, None] + 1e-5) * w[:, None] + b[:, None]
    got = F.batch_norm(t(x), t(rm), t(rv), t(w), t(b), training=False)
    np.testing.assert_allclose(got.numpy(), ref, rtol=1e-12)
    y, _, invstd = _C._nn_batch_norm(t(x), t(w), t(b), t(rm), t(rv), False, 0.1, 1e-5)
    np.testing.assert_allclose(y.numpy(), ref, rtol=1e-12)
    np.testing.assert_allclose(invstd.numpy(), 1 / np.sqrt(rv + 1e-5), rtol=1e-12)


@pytest.mark.parametrize("training", [True, False])
def test_batch_norm_gradcheck(training: bool) -> None:
    x = t(rng.standard_normal((3, 2, 4)), True)
    w, b = t(rng.standard_normal(2), True), t(rng.standard_normal(2), True)
    rm, rv = t(np.zeros(2)), t(np.ones(2) * 1.5)

    def fn(a: ember.Tensor, ww: ember.Tensor, bb: ember.Tensor) -> ember.Tensor:
        # The native itself, so that gradcheck's repeated calls see the same running stats.
        return _C._nn_batch_norm(a, ww, bb, rm.clone(), rv.clone(), training, 0.1, 1e-3)[0]

    assert gradcheck(fn, (x, w, b))
    assert gradgradcheck(fn, (x, w, b))
    assert gradcheck(lambda a: F.batch_norm(a, None, None, training=True), (x,))


def test_batch_norm_output_modified_in_place_still_differentiates() -> None:
    # relu_ after batch_norm (ResNet's ReLU(inplace=True)): the backward saves no forward output.
    x = t(rng.standard_normal((4, 3, 5)), True)
    w = t(rng.standard_normal(3), True)
    y = F.batch_norm(x, ember.zeros(3, dtype=ember.float64), ember.ones(3, dtype=ember.float64),
                     w, None, training=True)  # fmt: skip
    y.relu_().sum().backward()
    assert x.grad is not None and w.grad is not None
    ln = F.layer_norm(x, [5])
    ln.relu_().sum().backward()


@pytest.mark.parametrize("kind", ["batch", "group", "layer"])
def test_float32_gradients_with_a_large_mean(kind: str) -> None:
    # The backward passes recompute the statistics; with a mean far from 0 (1000) the float32
    # gradients must still match the float64 ones (no cancellation in sum g (x - mean)).
    x = rng.standard_normal((4, 4, 16)) + 1000.0
    g = rng.standard_normal((4, 4, 16))
    w = rng.uniform(0.5, 1.5, 4)
    grads = []
    for dtype in (ember.float64, ember.float32):
        xs, ws = t(x, True, dtype), t(w, True, dtype)
        if kind == "batch":
            y = F.batch_norm(xs, None, None, ws, None, training=True)
        elif kind == "group":
            y = F.group_norm(xs, 2, ws)
        else:
            y = F.layer_norm(xs, [16])
        y.backward(t(g, dtype=dtype))
        assert xs.grad is not None
        grads.append(xs.grad.double().numpy())
    scale = np.abs(grads[0]).max()
    np.testing.assert_allclose(grads[1], grads[0], atol=2e-3 * scale)


# ---- bad arguments ------------------------------------------------------------------------


def test_bad_arguments_name_the_op() -> None:
    x = ember.randn(2, 3)
    with pytest.raises(RuntimeError, match=r"layer_norm.*normalized_ndim"):
        _C._nn_layer_norm(x, None, None, 3, 1e-5)
    with pytest.raises(RuntimeError, match=r"layer_norm.*weight of shape"):
        _C._nn_layer_norm(x, ember.ones(4), None, 1, 1e-5)
    with pytest.raises(RuntimeError, match=r"layer_norm.*floating point input"):
        _C._nn_layer_norm(ember.ones(2, 3, dtype=ember.int64), None, None, 1, 1e-5)
    with pytest.raises(NotImplementedError, match=r"layer_norm: not implemented for"):
        F.layer_norm(ember.ones(2, 3, dtype=ember.int64), [3])
    with pytest.raises(RuntimeError, match=r"normalized_shape"):
        F.layer_norm(x, [4])
    with pytest.raises(ValueError, match=r"output_mask must hold 3"):
        _C._nn_layer_norm_backward(x, x, None, 1, 1e-5, [True])
    with pytest.raises(TypeError, match=r"output_mask"):
        _C._nn_layer_norm_backward(x, x, None, 1, 1e-5, None)
    with pytest.raises(RuntimeError, match=r"grad_output and input of one shape"):
        _C._nn_layer_norm_backward(ember.randn(3, 2), x, None, 1, 1e-5, [True, True, True])
    with pytest.raises(RuntimeError, match=r"divisible by num_groups"):
        _C._nn_group_norm(ember.randn(2, 3, 4), None, None, 2, 1e-5)
    with pytest.raises(RuntimeError, match=r"group_norm.*weight of shape"):
        _C._nn_group_norm(ember.randn(2, 4, 4), ember.ones(3), None, 2, 1e-5)
    with pytest.raises(RuntimeError, match=r"running_mean and running_var must be defined"):
        _C._nn_batch_norm(ember.randn(2, 3), None, None, None, None, False, 0.1, 1e-5)
    with pytest.raises(RuntimeError, match=r"batch_norm.*running_mean of shape"):
        _C._nn_batch_norm(ember.randn(2, 3), None, None, ember.zeros(2), None, True, 0.1, 1e-5)
    with pytest.raises(RuntimeError, match=r"at least 2 dims"):
        _C._nn_batch_norm(ember.randn(3), None, None, None, None, True, 0.1, 1e-5)
    with pytest.raises(ValueError, match=r"Expected more than 1 value per channel"):
        F.batch_norm(ember.randn(1, 3), None, None, training=True)


def test_against_torch() -> None:
    torch = pytest.importorskip("torch")
    x = rng.standard_normal((4, 6, 5)).astype(np.float32)
    w, b = rng.standard_normal(5).astype(np.float32), rng.standard_normal(5).astype(np.float32)
    e = F.layer_norm(ember.from_numpy(x), [5], ember.from_numpy(w), ember.from_numpy(b))
    r = torch.nn.functional.layer_norm(
        torch.from_numpy(x), [5], torch.from_numpy(w), torch.from_numpy(b)
    )
    np.testing.assert_allclose(e.numpy(), r.numpy(), rtol=1e-5, atol=1e-5)
    ge = F.group_norm(ember.from_numpy(x), 3)
    gr = torch.nn.functional.group_norm(torch.from_numpy(x), 3)
    np.testing.assert_allclose(ge.numpy(), gr.numpy(), rtol=1e-5, atol=1e-5)
