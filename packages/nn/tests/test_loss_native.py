"""The fused cross-entropy native (_nn_cross_entropy and its backward) and the softmax backward
native (_nn_softmax_backward): values against numpy in float64 for every combination of weight,
ignore_index, label smoothing and reduction, gradients by gradcheck, bad arguments."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

import ember
import ember.nn.functional as F
from ember.autograd import gradcheck, gradgradcheck
from ember_core import _C

rng = np.random.default_rng(11)


def t(a: Any, grad: bool = False, dtype: Any = ember.float64) -> ember.Tensor:
    x = ember.from_numpy(np.array(a, dtype=np.float64)).to(dtype)
    return x.requires_grad_() if grad else x


def ce_np(
    x: np.ndarray,
    target: np.ndarray,
    weight: np.ndarray | None,
    ignore: int,
    eps: float,
    reduction: str,
) -> np.ndarray:
    """torch's cross_entropy in numpy: x [N, C, *], target [N, *]."""
    c = x.shape[1]
    m = x.max(1, keepdims=True)
    logp = x - m - np.log(np.exp(x - m).sum(1, keepdims=True))
    w = np.ones(c) if weight is None else weight
    valid = target != ignore
    safe = np.where(valid, target, 0)
    picked = np.take_along_axis(logp, safe[:, None], 1)[:, 0]
    wt = w[safe] * valid
    wshape = [1, c] + [1] * (x.ndim - 2)
    nll = -picked * wt
    smooth = -(logp * w.reshape(wshape)).sum(1) * valid
    loss = (1 - eps) * nll + eps / c * smooth
    if reduction == "none":
        return loss
    if reduction == "sum":
        return np.asarray(loss.sum())
    return np.asarray(loss.sum() / wt.sum())


CASES = list(
    itertools.product(
        [(6, 5), (3, 4, 5), (2, 3, 2, 3)],  # input shape
        [False, True],  # weight
        [-100, 1],  # ignore_index (1 is a class: some targets get ignored)
        [0.0, 0.2],  # label_smoothing
        ["mean", "sum", "none"],
    )
)


def _targets(shape: tuple[int, ...]) -> np.ndarray:
    n, c, rest = shape[0], shape[1], shape[2:]
    return rng.integers(0, c, (n, *rest))


@pytest.mark.parametrize("shape, weighted, ignore, eps, reduction", CASES)
def test_cross_entropy_values(
    shape: tuple[int, ...], weighted: bool, ignore: int, eps: float, reduction: str
) -> None:
    x = rng.standard_normal(shape) * 3
    target = _targets(shape)
    w = rng.uniform(0.2, 2.0, shape[1]) if weighted else None
    got = F.cross_entropy(
        t(x),
        ember.from_numpy(target),
        None if w is None else t(w),
        ignore_index=ignore,
        reduction=reduction,
        label_smoothing=eps,
    )
    np.testing.assert_allclose(
        got.numpy(), ce_np(x, target, w, ignore, eps, reduction), rtol=1e-12, atol=1e-12
    )


@pytest.mark.parametrize(
    "shape, weighted, ignore, eps, reduction",
    [c for c in CASES if c[0] != (2, 3, 2, 3)],
)
def test_cross_entropy_gradcheck(
    shape: tuple[int, ...], weighted: bool, ignore: int, eps: float, reduction: str
) -> None:
    x = t(rng.standard_normal(shape), True)
    target = ember.from_numpy(_targets(shape))
    w = t(rng.uniform(0.2, 2.0, shape[1])) if weighted else None

    def fn(a: ember.Tensor) -> ember.Tensor:
        return F.cross_entropy(
            a, target, w, ignore_index=ignore, reduction=reduction, label_smoothing=eps
        )

    assert gradcheck(fn, (x,))


def test_cross_entropy_gradgradcheck() -> None:
    x = t(rng.standard_normal((4, 3)), True)
    target = ember.tensor([0, 2, 1, 1])
    w = t([0.5, 1.0, 2.0])
    assert gradgradcheck(lambda a: F.cross_entropy(a, target, w, label_smoothing=0.1), (x,))
    assert gradgradcheck(
        lambda a: F.cross_entropy(a, target, ignore_index=1, reduction="none"), (x,)
    )


def test_cross_entropy_unbatched_and_byte_targets() -> None:
    x = rng.standard_normal(5)
    got = F.cross_entropy(t(x), ember.tensor(3))
    ref = ce_np(x[None], np.array([3]), None, -100, 0.0, "mean")
    np.testing.assert_allclose(got.numpy(), ref, rtol=1e-12)
    none = F.cross_entropy(t(x), ember.tensor(3), reduction="none")
    assert none.shape == ()
    xb = rng.standard_normal((3, 4))
    tb = ember.tensor([0, 3, 1], dtype=ember.uint8)
    got_b = F.cross_entropy(t(xb), tb)
    np.testing.assert_allclose(got_b.numpy(), ce_np(xb, np.array([0, 3, 1]), None, -100, 0, "mean"))


def test_cross_entropy_all_ignored_mean_is_nan() -> None:
    x = t(rng.standard_normal((2, 3)), True)
    loss = F.cross_entropy(x, ember.tensor([-100, -100]))
    assert np.isnan(float(loss))
    total = F.cross_entropy(x, ember.tensor([-100, -100]), reduction="sum")
    assert float(total) == 0.0


@pytest.mark.parametrize("dtype, tol", [(ember.float32, 1e-5), (ember.bfloat16, 2e-2)])
def test_cross_entropy_reduced_precision(dtype: Any, tol: float) -> None:
    x = rng.standard_normal((16, 10)) * 2
    target = rng.integers(0, 10, 16)
    xr = t(x, True, dtype)
    loss = F.cross_entropy(xr, ember.from_numpy(target), label_smoothing=0.1)
    assert loss.dtype == dtype
    xq = t(x, dtype=dtype).double().numpy()
    ref = ce_np(xq, target, None, -100, 0.1, "mean")
    np.testing.assert_allclose(float(loss), ref, rtol=tol)
    loss.backward()
    assert xr.grad is not None and xr.grad.dtype == dtype
    p = np.exp(xq - xq.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    onehot = np.eye(10)[target]
    ref_grad = (p - 0.9 * onehot - 0.01) / 16
    np.testing.assert_allclose(xr.grad.double().numpy(), ref_grad, atol=tol * 0.1)


def test_cross_entropy_errors() -> None:
    x = ember.randn(3, 4)
    with pytest.raises(IndexError, match=r"Target 4 is out of bounds\."):
        F.cross_entropy(x, ember.tensor([0, 4, 1]))
    with pytest.raises(IndexError, match=r"Target -1 is out of bounds\."):
        F.cross_entropy(x, ember.tensor([0, -1, 1]))
    with pytest.raises(RuntimeError, match="expected target dtype to be Long"):
        F.cross_entropy(x, ember.tensor([0, 1, 1], dtype=ember.int32))
    with pytest.raises(RuntimeError, match="weight tensor should be defined"):
        F.cross_entropy(x, ember.tensor([0, 1, 1]), ember.ones(3))
    with pytest.raises(ValueError, match="Expected input batch_size"):
        F.cross_entropy(x, ember.tensor([0, 1]))
    with pytest.raises(RuntimeError, match="label_smoothing must be between"):
        F.cross_entropy(x, ember.tensor([0, 1, 1]), label_smoothing=1.5)
    with pytest.raises(NotImplementedError, match="cross_entropy: not implemented"):
        F.cross_entropy(ember.ones(3, 4, dtype=ember.int64), ember.tensor([0, 1, 1]))
    with pytest.raises(ValueError, match="not a valid value for reduction"):
        _C._nn_cross_entropy(x, ember.tensor([0, 1, 1]), None, "avg", -100, 0.0)
    with pytest.raises(RuntimeError, match=r"cross_entropy\] expected target of shape"):
        _C._nn_cross_entropy(x, ember.tensor([[0, 1, 1]]), None, "mean", -100, 0.0)
    _, lse, total = _C._nn_cross_entropy(x, ember.tensor([0, 1, 1]), None, "none", -100, 0.0)
    with pytest.raises(RuntimeError, match=r"cross_entropy_backward\] expected a gradient"):
        _C._nn_cross_entropy_backward(
            ember.ones(2), x, ember.tensor([0, 1, 1]), None, lse, total, "none", -100, 0.0
        )


# ---- softmax / log_softmax backward ---------------------------------------------------------


@pytest.mark.parametrize("shape, dim", [((4, 7), 1), ((4, 7), 0), ((2, 3, 5), 1), ((6,), 0)])
@pytest.mark.parametrize("log", [False, True])
def test_softmax_backward_native(shape: tuple[int, ...], dim: int, log: bool) -> None:
    x = rng.standard_normal(shape)
    g = rng.standard_normal(shape)
    e = np.exp(x - x.max(dim, keepdims=True))
    p = e / e.sum(dim, keepdims=True)
    if log:
        y = np.log(p)
        ref = g - p * g.sum(dim, keepdims=True)
    else:
        y = p
        ref = p * (g - (g * p).sum(dim, keepdims=True))
    got = _C._nn_softmax_backward(t(g), t(y), dim, log)
    np.testing.assert_allclose(got.numpy(), ref, rtol=1e-12, atol=1e-12)
    got32 = _C._nn_softmax_backward(t(g, dtype=ember.float32), t(y, dtype=ember.float32), dim, log)
    np.testing.assert_allclose(got32.numpy(), ref, rtol=1e-4, atol=1e-5)
    # Through autograd: the softmax rules call the native when not building a graph.
    xs = t(x, True)
    out = ember.log_softmax(xs, dim) if log else ember.softmax(xs, dim)
    out.backward(t(g))
    assert xs.grad is not None
    np.testing.assert_allclose(xs.grad.numpy(), ref, rtol=1e-10, atol=1e-12)


def test_softmax_backward_errors() -> None:
    with pytest.raises(RuntimeError, match=r"softmax_backward\] expected grad_output and output"):
        _C._nn_softmax_backward(ember.ones(2, 3), ember.ones(3, 2), 1, False)
    with pytest.raises(IndexError):
        _C._nn_softmax_backward(ember.ones(2, 3), ember.ones(2, 3), 2, True)
    with pytest.raises(RuntimeError, match="floating point output"):
        _C._nn_softmax_backward(ember.ones(2, dtype=ember.int64), ember.ones(2, dtype=ember.int64),
                                0, True)  # fmt: skip


def test_against_torch() -> None:
    torch = pytest.importorskip("torch")
    x = rng.standard_normal((8, 5, 3)).astype(np.float32)
    target = rng.integers(0, 5, (8, 3))
    w = rng.uniform(0.5, 2, 5).astype(np.float32)
    e = ember.from_numpy(x).requires_grad_()
    r = torch.from_numpy(x).requires_grad_()
    le = F.cross_entropy(e, ember.from_numpy(target), ember.from_numpy(w), label_smoothing=0.2)
    lr = torch.nn.functional.cross_entropy(
        r, torch.from_numpy(target), torch.from_numpy(w), label_smoothing=0.2
    )
    le.backward()
    lr.backward()
    np.testing.assert_allclose(le.item(), lr.item(), rtol=1e-5)
    assert e.grad is not None
    np.testing.assert_allclose(e.grad.numpy(), r.grad.numpy(), rtol=1e-4, atol=1e-6)
