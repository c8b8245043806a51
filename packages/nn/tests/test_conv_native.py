"""The convolution natives (_nn_conv, _nn_conv_input_grad, _nn_conv_weight_grad) on their own.

Values against naive numpy loops (float64) over every path the natives take: im2col + BLAS,
the 1x1 pointwise product, the direct stride-1 float32 kernel (AVX-512 CPUs), one sample on
the caller or samples split over the pool. Gradients by gradcheck and gradgradcheck in float64
(the three natives are each other's derivatives), bad input by typed errors naming the op.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

import ember
from ember.autograd import gradcheck, gradgradcheck
from ember_core import _C

_rng = np.random.default_rng(11)


def _windows(x: np.ndarray, k: tuple[int, ...], s: Any, p: Any, dil: Any, out: Any) -> Any:
    """Yields (kernel position, x_pad slice [N, C, *out]) and the padded array's crop slice."""
    d = len(k)
    # Pad right far enough for every window (output sizes may reach past the padded input).
    right = [
        max(p[i], (out[i] - 1) * s[i] + dil[i] * (k[i] - 1) + 1 - p[i] - x.shape[2 + i])
        for i in range(d)
    ]
    xp = np.pad(x, [(0, 0), (0, 0)] + [(p[i], right[i]) for i in range(d)])
    for t in itertools.product(*[range(v) for v in k]):
        idx = tuple(
            slice(t[i] * dil[i], t[i] * dil[i] + s[i] * (out[i] - 1) + 1, s[i]) for i in range(d)
        )
        yield t, idx, xp


def conv_ref(x, w, b, s, p, dil, groups, out):  # type: ignore[no-untyped-def]
    n, c_out = x.shape[0], w.shape[0]
    cg, og = x.shape[1] // groups, c_out // groups
    y = np.zeros((n, c_out, *out))
    for t, idx, xp in _windows(x, w.shape[2:], s, p, dil, out):
        for g in range(groups):
            window = xp[(slice(None), slice(g * cg, (g + 1) * cg), *idx)]
            wt = w[(slice(g * og, (g + 1) * og), slice(None), *t)]
            y[:, g * og : (g + 1) * og] += np.einsum("nc...,oc->no...", window, wt)
    if b is not None:
        y += b.reshape(-1, *([1] * len(out)))
    return y


def input_grad_ref(go, w, in_size, s, p, dil, groups):  # type: ignore[no-untyped-def]
    n, out = go.shape[0], go.shape[2:]
    c = w.shape[1] * groups
    cg, og = w.shape[1], w.shape[0] // groups
    x0 = np.zeros((n, c, *in_size))
    dxp = None
    for t, idx, xp in _windows(x0, w.shape[2:], s, p, dil, out):
        if dxp is None:
            dxp = np.zeros_like(xp)
        for g in range(groups):
            wt = w[(slice(g * og, (g + 1) * og), slice(None), *t)]
            dxp[(slice(None), slice(g * cg, (g + 1) * cg), *idx)] += np.einsum(
                "no...,oc->nc...", go[:, g * og : (g + 1) * og], wt
            )
    assert dxp is not None
    crop = tuple(slice(p[i], p[i] + in_size[i]) for i in range(len(in_size)))
    return dxp[(slice(None), slice(None), *crop)]


def weight_grad_ref(go, x, k, s, p, dil, groups):  # type: ignore[no-untyped-def]
    c_out, out = go.shape[1], go.shape[2:]
    cg, og = x.shape[1] // groups, c_out // groups
    dw = np.zeros((c_out, cg, *k))
    for t, idx, xp in _windows(x, k, s, p, dil, out):
        for g in range(groups):
            window = xp[(slice(None), slice(g * cg, (g + 1) * cg), *idx)]
            axes = [0, *range(2, window.ndim)]
            dw[(slice(g * og, (g + 1) * og), slice(None), *t)] = np.tensordot(
                go[:, g * og : (g + 1) * og], window, axes=(axes, axes)
            )
    return dw


def _out(in_size, k, s, p, dil):  # type: ignore[no-untyped-def]
    return tuple(
        (in_size[i] + 2 * p[i] - dil[i] * (k[i] - 1) - 1) // s[i] + 1 for i in range(len(k))
    )


# (N, C, C_out, spatial, kernel, stride, padding, dilation, groups, output size or None)
CASES = [
    (4, 16, 32, (12, 12), (3, 3), (1, 1), (1, 1), (1, 1), 1, None),  # the direct kernel
    (3, 6, 9, (7, 11), (2, 3), (1, 1), (0, 2), (1, 2), 3, None),  # groups, dilation
    (2, 4, 4, (5, 5), (5, 5), (1, 1), (4, 4), (1, 1), 2, None),  # pad = dil * (k - 1)
    (2, 3, 5, (6, 5), (3, 3), (1, 1), (3, 2), (1, 1), 1, None),  # pad > dil * (k - 1)
    (4, 3, 17, (9, 6), (3, 1), (1, 1), (2, 0), (1, 1), 1, None),  # 17 rows: tile remainders
    (2, 4, 6, (6, 7), (2, 2), (1, 1), (0, 0), (1, 1), 2, (6, 7)),  # 'same', even kernel
    (2, 5, 3, (6, 6), (3, 3), (2, 1), (1, 0), (1, 1), 1, None),  # strided: im2col + BLAS
    (3, 8, 6, (5, 4), (1, 1), (1, 1), (0, 0), (1, 1), 2, None),  # 1x1: the input is its columns
    (1, 3, 4, (6, 6), (3, 3), (1, 1), (1, 1), (2, 2), 1, None),  # one sample
    (2, 4, 8, (13,), (4,), (1,), (3,), (2,), 1, None),  # conv1d
    (2, 2, 3, (4, 5, 3), (2, 3, 1), (1, 2, 1), (1, 0, 0), (1, 1, 1), 1, None),  # conv3d
    (3, 4, 4, (1, 9), (1, 3), (1, 1), (0, 1), (1, 1), 4, None),  # depthwise, one row
    # Multiples of 16 channels per group: the direct kernels with channels in the vector lanes.
    (3, 8, 32, (9, 7), (3, 2), (1, 1), (1, 0), (2, 1), 2, None),  # groups, 16 per group
    (2, 16, 48, (5, 13), (3, 3), (1, 1), (2, 1), (1, 1), 1, None),  # 48 = 32 + 16 lanes
    (2, 16, 16, (30,), (5,), (1,), (2,), (1,), 1, None),  # conv1d, lanes both ways
    # A plane's last tile of the direct forward: 63 and 15 positions (one vector), 24 (two).
    (3, 5, 10, (7, 7), (3, 3), (1, 1), (1, 1), (1, 1), 1, None),
    (2, 16, 32, (3, 3), (3, 3), (1, 1), (1, 1), (1, 1), 1, None),
    (2, 4, 9, (4, 4), (3, 3), (1, 1), (1, 1), (1, 1), 1, None),
]


def _case(case: Any) -> Any:
    n, c, c_out, spatial, k, s, p, dil, groups, out = case
    out = out or _out(spatial, k, s, p, dil)
    x = _rng.standard_normal((n, c, *spatial))
    w = _rng.standard_normal((c_out, c // groups, *k))
    b = _rng.standard_normal(c_out)
    go = _rng.standard_normal((n, c_out, *out))
    return x, w, b, go, s, p, dil, groups, out


def _t(a: np.ndarray, dtype: Any = np.float64) -> ember.Tensor:
    return ember.from_numpy(np.ascontiguousarray(a, dtype=dtype))


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("case", CASES)
def test_natives_match_numpy(case: Any, dtype: Any, threads: int) -> None:
    x, w, b, go, s, p, dil, groups, out = _case(case)
    before = ember.get_num_threads()
    ember.set_num_threads(threads)
    try:
        y = _C._nn_conv(_t(x, dtype), _t(w, dtype), _t(b, dtype), s, p, dil, groups, out)
        dx = _C._nn_conv_input_grad(_t(go, dtype), _t(w, dtype), x.shape[2:], s, p, dil, groups)
        dw = _C._nn_conv_weight_grad(_t(go, dtype), _t(x, dtype), w.shape[2:], s, p, dil, groups)
        y0 = _C._nn_conv(_t(x, dtype), _t(w, dtype), None, s, p, dil, groups, out)
    finally:
        ember.set_num_threads(before)
    tol = 1e-10 if dtype == np.float64 else 2e-4
    for got, want in [
        (y, conv_ref(x, w, b, s, p, dil, groups, out)),
        (y0, conv_ref(x, w, None, s, p, dil, groups, out)),
        (dx, input_grad_ref(go, w, x.shape[2:], s, p, dil, groups)),
        (dw, weight_grad_ref(go, x, w.shape[2:], s, p, dil, groups)),
    ]:
        assert got.dtype == (ember.float64 if dtype == np.float64 else ember.float32)
        assert tuple(got.shape) == want.shape
        scale = max(1.0, float(np.abs(want).max()))
        np.testing.assert_allclose(got.numpy(), want, atol=tol * scale, rtol=tol)


@pytest.mark.parametrize("case", [CASES[1], CASES[3], CASES[5], CASES[6], CASES[9], CASES[10]])
def test_natives_gradcheck_and_gradgradcheck(case: Any) -> None:
    small = (min(case[0], 2), *case[1:])
    x, w, b, go, s, p, dil, groups, out = _case(small)
    xs, ws, bs, gs = (_t(a).requires_grad_() for a in (x, w, b, go))

    def conv(x: Any, w: Any, b: Any) -> Any:
        return _C._nn_conv(x, w, b, s, p, dil, groups, out)

    def input_grad(g: Any, w: Any) -> Any:
        return _C._nn_conv_input_grad(g, w, x.shape[2:], s, p, dil, groups)

    def weight_grad(g: Any, x: Any) -> Any:
        return _C._nn_conv_weight_grad(g, x, w.shape[2:], s, p, dil, groups)

    for func, inputs in [(conv, (xs, ws, bs)), (input_grad, (gs, ws)), (weight_grad, (gs, xs))]:
        assert gradcheck(func, inputs)
        assert gradgradcheck(func, inputs)


def test_half_types_compute_in_float32() -> None:
    x, w, b, _, s, p, dil, groups, out = _case(CASES[0])
    want = conv_ref(x, w, b, s, p, dil, groups, out)
    for dtype in (ember.float16, ember.bfloat16):
        xs, ws, bs = (_t(a).to(dtype) for a in (x, w, b))
        y = _C._nn_conv(xs, ws, bs, s, p, dil, groups, out)
        assert y.dtype == dtype
        np.testing.assert_allclose(y.float().numpy(), want, atol=0.1 * np.abs(want).max())


def test_empty_batch_and_non_contiguous_input() -> None:
    w = _t(_rng.standard_normal((4, 3, 3, 3)))
    y = _C._nn_conv(
        ember.zeros(0, 3, 5, 5, dtype=ember.float64), w, None, (1, 1), (1, 1), (1, 1), 1, (5, 5)
    )
    assert tuple(y.shape) == (0, 4, 5, 5)
    dw = _C._nn_conv_weight_grad(
        ember.zeros(0, 4, 5, 5, dtype=ember.float64),
        ember.zeros(0, 3, 5, 5, dtype=ember.float64),
        (3, 3),
        (1, 1),
        (1, 1),
        (1, 1),
        1,
    )
    assert np.array_equal(dw.numpy(), np.zeros((4, 3, 3, 3)))
    x = _rng.standard_normal((2, 5, 5, 3)).astype(np.float32)
    xt = _t(x, np.float32).permute(0, 3, 1, 2)  # channels-last strides
    got = _C._nn_conv(xt, w.float(), None, (1, 1), (1, 1), (1, 1), 1, (5, 5))
    want = conv_ref(
        x.transpose(0, 3, 1, 2).astype(np.float64),
        w.numpy(),
        None,
        (1, 1),
        (1, 1),
        (1, 1),
        1,
        (5, 5),
    )
    np.testing.assert_allclose(got.numpy(), want, atol=1e-4)


def _f(*shape: int, dtype: Any = ember.float32) -> ember.Tensor:
    return ember.zeros(*shape, dtype=dtype)


@pytest.mark.parametrize(
    ("call", "exc", "match"),
    [
        (
            lambda: _C._nn_conv(
                _f(2, 4, 5, 5), _f(6, 3, 3, 3), None, (1, 1), (0, 0), (1, 1), 1, (3, 3)
            ),
            RuntimeError,
            r"\[nn_conv\] groups=1 .*\(2, 4, 5, 5\)",
        ),
        (
            lambda: _C._nn_conv(
                _f(2, 4, 5, 5), _f(6, 2, 3, 3), None, (1, 1), (0, 0), (1, 1), 4, (3, 3)
            ),
            RuntimeError,
            r"\[nn_conv\] groups=4",
        ),
        (
            lambda: _C._nn_conv(
                _f(2, 4, 5, 5), _f(6, 4, 3, 3), _f(5), (1, 1), (0, 0), (1, 1), 1, (3, 3)
            ),
            RuntimeError,
            r"\[nn_conv\] expected a bias of shape \[6\]",
        ),
        (
            lambda: _C._nn_conv(
                _f(2, 4, 5, 5),
                _f(6, 4, 3, 3, dtype=ember.float64),
                None,
                (1, 1),
                (0, 0),
                (1, 1),
                1,
                (3, 3),
            ),
            RuntimeError,
            r"\[nn_conv\] .*dtype",
        ),
        (
            lambda: _C._nn_conv(
                _f(2, 4, 5, 5, dtype=ember.int64),
                _f(6, 4, 3, 3, dtype=ember.int64),
                None,
                (1, 1),
                (0, 0),
                (1, 1),
                1,
                (3, 3),
            ),
            RuntimeError,
            r"\[nn_conv\] not implemented for 'int64'",
        ),
        (
            lambda: _C._nn_conv(
                _f(2, 4, 5), _f(6, 4, 3, 3), None, (1, 1), (0, 0), (1, 1), 1, (3, 3)
            ),
            RuntimeError,
            r"\[nn_conv\] expected .*\(2, 4, 5\)",
        ),
        (
            lambda: _C._nn_conv(
                _f(2, 4, 5, 5), _f(6, 4, 3, 3), None, (0, 1), (0, 0), (1, 1), 1, (3, 3)
            ),
            RuntimeError,
            r"\[nn_conv\] .*stride",
        ),
        (
            lambda: _C._nn_conv(
                _f(2, 4, 5, 5), _f(6, 4, 3, 3), None, (1, 1), (0, 0), (1, 1), "1", (3, 3)
            ),
            TypeError,
            r"nn_conv.*groups",
        ),
        (
            lambda: _C._nn_conv_input_grad(
                _f(2, 5, 3, 3), _f(6, 4, 3, 3), (5, 5), (1, 1), (0, 0), (1, 1), 1
            ),
            RuntimeError,
            r"\[nn_conv_input_grad\] .*\(2, 5, 3, 3\)",
        ),
        (
            lambda: _C._nn_conv_input_grad(
                _f(2, 6, 3, 3), _f(6, 4, 3, 3), (5,), (1, 1), (0, 0), (1, 1), 1
            ),
            RuntimeError,
            r"\[nn_conv_input_grad\]",
        ),
        (
            lambda: _C._nn_conv_weight_grad(
                _f(3, 6, 3, 3), _f(2, 4, 5, 5), (3, 3), (1, 1), (0, 0), (1, 1), 1
            ),
            RuntimeError,
            r"\[nn_conv_weight_grad\] .*\(3, 6, 3, 3\).*\(2, 4, 5, 5\)",
        ),
        (
            lambda: _C._nn_conv_weight_grad(
                _f(2, 6, 3, 3), _f(2, 4, 5, 5), (3, 3), (1, 1), (0, 0), (1, 1), 3
            ),
            RuntimeError,
            r"\[nn_conv_weight_grad\]",
        ),
    ],
)
def test_bad_input_raises(call: Any, exc: type[Exception], match: str) -> None:
    with pytest.raises(exc, match=match):
        call()


@pytest.mark.parametrize("case", [CASES[0], CASES[1], CASES[3], CASES[5], CASES[6], CASES[9]])
def test_against_torch(case: Any) -> None:
    torch = pytest.importorskip("torch")
    x, w, b, go, s, p, dil, groups, out = _case(case)
    d = len(s)
    if out != _out(x.shape[2:], w.shape[2:], s, p, dil):
        pytest.skip("torch's conv has no explicit output size")
    conv = getattr(torch.nn.functional, f"conv{d}d")
    tx, tw, tb = (torch.tensor(a, dtype=torch.float32, requires_grad=True) for a in (x, w, b))
    ty = conv(tx, tw, tb, stride=s, padding=p, dilation=dil, groups=groups)
    ty.backward(torch.tensor(go, dtype=torch.float32))
    ex, ew, eb = (_t(a, np.float32).requires_grad_() for a in (x, w, b))
    ey = _C._nn_conv(ex, ew, eb, s, p, dil, groups, out)
    ey.backward(_t(go, np.float32))
    for got, want in [(ey, ty), (ex.grad, tx.grad), (ew.grad, tw.grad), (eb.grad, tb.grad)]:
        assert got is not None and want is not None
        np.testing.assert_allclose(
            got.detach().numpy(),
            want.detach().numpy(),
            atol=2e-4 * max(1.0, float(want.detach().abs().max())),
            rtol=1e-4,
        )


def _grad_layouts(go: np.ndarray) -> list[tuple[ember.Tensor, np.ndarray]]:
    """grad_output as the backward hands it over: broadcast, channels-last, strided columns."""
    row = go[:, :, :1].copy()  # one spatial row per plane: stride 0 along the rows' dim
    wide = np.concatenate([go, go], axis=-1)
    return [
        (ember.full((), 0.5).expand(*go.shape), np.full(go.shape, 0.5)),  # sum().backward()
        (_t(go[:1], np.float32).expand(*go.shape), np.broadcast_to(go[:1], go.shape)),
        (_t(row, np.float32).expand(*go.shape), np.broadcast_to(row, go.shape)),
        (_t(np.moveaxis(go, 1, -1), np.float32).movedim(-1, 1), go),  # channels-last
        (_t(wide, np.float32)[..., ::2], wide[..., ::2]),  # column stride 2
    ]


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("case", [CASES[0], CASES[1], CASES[4], CASES[6], CASES[9], CASES[15]])
def test_gradients_read_strided_grad_output(case: Any, threads: int) -> None:
    # The direct float32 kernels read grad_output through its strides (no contiguous copy);
    # every layout must give the dense layout's values, on every path.
    x, w, _, go, s, p, dil, groups, _ = _case(case)
    before = ember.get_num_threads()
    ember.set_num_threads(threads)
    try:
        for g, g_np in _grad_layouts(go.astype(np.float32)):
            g_np = g_np.astype(np.float64)
            dx = _C._nn_conv_input_grad(g, _t(w, np.float32), x.shape[2:], s, p, dil, groups)
            dw = _C._nn_conv_weight_grad(g, _t(x, np.float32), w.shape[2:], s, p, dil, groups)
            for got, want in [
                (dx, input_grad_ref(g_np, w, x.shape[2:], s, p, dil, groups)),
                (dw, weight_grad_ref(g_np, x, w.shape[2:], s, p, dil, groups)),
            ]:
                scale = max(1.0, float(np.abs(want).max()))
                np.testing.assert_allclose(got.numpy(), want, atol=2e-4 * scale, rtol=2e-4)
    finally:
        ember.set_num_threads(before)


def test_bias_gradient_of_broadcast_grads() -> None:
    # The bias rule sums one slice of each stride-0 dim times its length: the backward of
    # sum, mean and a partial sum must match the dense sums.
    x, w, b, _, s, p, dil, groups, out = _case(CASES[0])
    xs, ws = _t(x, np.float32), _t(w, np.float32)
    n, hw = x.shape[0], int(np.prod(out))
    for reduce, want in [
        (lambda y: y.sum(), np.full(b.shape, n * hw)),
        (lambda y: y.mean(), np.full(b.shape, 1.0 / w.shape[0])),
        (lambda y: (y.sum([0, 2]) * ember.arange(float(out[1]))).sum(), None),
    ]:
        bs = _t(b, np.float32).requires_grad_()
        reduce(_C._nn_conv(xs, ws, bs, s, p, dil, groups, out)).backward()
        if want is None:
            want = np.full(b.shape, n * out[0] * np.arange(out[1]).sum())
        np.testing.assert_allclose(bs.grad.numpy(), want, rtol=1e-5)
    xd, wd = _t(x[:2, :4]), _t(w[:3, :4])
    bd = _t(b[:3]).requires_grad_()

    def conv_sum(bias: Any) -> Any:
        return _C._nn_conv(xd, wd, bias, s, p, dil, groups, out).sum([0, 2])

    assert gradcheck(conv_sum, (bd,))
