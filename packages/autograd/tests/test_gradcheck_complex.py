"""Complex autograd against finite differences, hand formulas and a numpy oracle.

torch's convention throughout: for a real loss L of z = x + iy, ``z.grad = dL/dx + i dL/dy``;
gradcheck treats each complex number as a pair of reals (see its docstring). Covers the ops
that accept complex values, mixed real/complex inputs (real inputs get the real part of the
gradient), every ``ember.fft`` transform, and a complex-valued training loop.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from autograd_test_helpers import assert_close, raises, shapes
from hypothesis import given, settings
from hypothesis import strategies as st

import ember
from ember.autograd import gradcheck, gradgradcheck

_rng = np.random.default_rng(7)


def cz(*shape: int) -> ember.Tensor:
    """complex128 requiring grad, parts in [-1, 1), at least 0.3 from 0 (abs, angle, log)."""
    values = _rng.uniform(-1, 1, shape) + 1j * _rng.uniform(-1, 1, shape)
    values = np.where(np.abs(values) < 0.3, values + 0.5, values)
    return ember.from_numpy(np.array(values, dtype=np.complex128)).requires_grad_()


def r(*shape: int) -> ember.Tensor:
    """float64 requiring grad, uniform in [-1, 1)."""
    return ember.from_numpy(np.array(_rng.uniform(-1, 1, shape))).requires_grad_()


def _check(func: Callable[..., Any], inputs: tuple[Any, ...], second: bool = True) -> None:
    assert gradcheck(func, inputs)
    if second:
        assert gradgradcheck(func, inputs)


# (id, function, inputs): every existing rule that sees complex values, with complex128 inputs.
COMPLEX_OPS: list[tuple[str, Callable[..., Any], tuple[Any, ...]]] = [
    ("neg", lambda z: -z, (cz(3),)),
    ("abs", lambda z: z.abs(), (cz(2, 2),)),
    ("angle", lambda z: z.angle(), (cz(3),)),
    ("exp", lambda z: z.exp(), (cz(3),)),
    ("log", lambda z: z.log(), (cz(3),)),
    ("sqrt", lambda z: z.sqrt(), (cz(3),)),
    ("square", lambda z: z.square(), (cz(3),)),
    ("reciprocal", lambda z: z.reciprocal(), (cz(3),)),
    ("sin", lambda z: z.sin(), (cz(3),)),
    ("cos", lambda z: z.cos(), (cz(3),)),
    ("tanh", lambda z: z.tanh(), (cz(3),)),
    ("add", lambda a, b: a + b, (cz(2, 2), cz(2))),
    ("sub", lambda a, b: a - b, (cz(3), cz(3))),
    ("mul", lambda a, b: a * b, (cz(2, 3), cz(3))),
    ("mul scalar", lambda a: a * (0.5 + 2j), (cz(3),)),
    ("div", lambda a, b: a / b, (cz(3), cz(3))),
    ("rdiv", lambda a: (1 - 1j) / a, (cz(3),)),
    ("pow", lambda a, b: a**b, (cz(3), cz(3))),
    ("pow scalar", lambda a: a**3, (cz(3),)),
    ("rpow", lambda a: (2 + 1j) ** a, (cz(3),)),
    ("addcmul", lambda a, b, c: ember.addcmul(a, b, c, value=2.0), (cz(3), cz(3), cz(3))),
    ("where", lambda a, b: ember.where(ember.tensor([True, False, True]), a, b), (cz(3), cz(3))),
    ("sum", lambda z: z.sum(0), (cz(2, 3),)),
    ("mean", lambda z: z.mean(), (cz(2, 3),)),
    ("prod", lambda z: z.prod(1), (cz(2, 3),)),
    ("prod all", lambda z: z.prod(), (cz(2, 2),)),
    ("matmul", lambda a, b: a @ b, (cz(2, 3), cz(3, 2))),
    ("matmul 1d", lambda a, b: a @ b, (cz(3), cz(3, 2))),
    ("matmul vec", lambda a, b: a @ b, (cz(2, 3), cz(3))),
    ("mm", lambda a, b: ember.mm(a, b), (cz(2, 3), cz(3, 2))),
    ("bmm", lambda a, b: ember.bmm(a, b), (cz(2, 2, 3), cz(2, 3, 2))),
    ("mv", lambda a, b: ember.mv(a, b), (cz(2, 3), cz(3))),
    ("dot", lambda a, b: ember.dot(a, b), (cz(3), cz(3))),
    ("vdot", lambda a, b: ember.vdot(a, b), (cz(3), cz(3))),
    ("outer", lambda a, b: ember.outer(a, b), (cz(3), cz(2))),
    ("addmm", lambda c, a, b: ember.addmm(c, a, b, beta=0.5, alpha=2), (cz(2), cz(2, 3), cz(3, 2))),
    ("addmv", lambda c, a, b: ember.addmv(c, a, b, alpha=1.5), (cz(2), cz(2, 3), cz(3))),
    ("baddbmm", lambda c, a, b: ember.baddbmm(c, a, b), (cz(2, 2, 2), cz(2, 2, 3), cz(2, 3, 2))),
    ("kron", lambda a, b: ember.kron(a, b), (cz(2), cz(2))),
    ("cross", lambda a, b: ember.cross(a, b, dim=0), (cz(3), cz(3))),
    ("mH", lambda a: a.mH, (cz(2, 3),)),
    ("H", lambda a: a.H @ a, (cz(2, 3),)),
    ("real", lambda z: z.real, (cz(3),)),
    ("imag", lambda z: z.imag, (cz(3),)),
    ("ember.real", lambda z: ember.real(z) * ember.imag(z), (cz(3),)),
    ("conj", lambda z: z.conj() * z, (cz(3),)),
    ("conj_physical", lambda z: ember.conj_physical(z), (cz(3),)),
    ("conj_physical_", lambda z: (z * 1).conj_physical_(), (cz(3),)),
    ("view_as_real", lambda z: ember.view_as_real(z) ** 2, (cz(2, 2),)),
    ("view_as_complex", lambda x: ember.view_as_complex(x) ** 2, (r(2, 2),)),
    ("view roundtrip", lambda z: ember.view_as_complex(ember.view_as_real(z) * 2), (cz(3),)),
    ("narrow", lambda z: z.narrow(0, 1, 2), (cz(4),)),
    ("select", lambda z: z[1], (cz(3, 2),)),
    ("slice setitem", lambda z, v: _setitem(z, v), (cz(4), cz(2))),
    ("diagonal", lambda z: z.diagonal(), (cz(3, 3),)),
    ("cat", lambda a, b: ember.cat([a, b]), (cz(2), cz(3))),
    ("stack", lambda a, b: ember.stack([a, b], 1), (cz(2), cz(2))),
    ("reshape/permute", lambda z: z.reshape(3, 2).permute(1, 0).flip(0), (cz(2, 3),)),
    ("expand", lambda z: z.expand(2, 3) * z, (cz(3),)),
    ("split", lambda z: z.split(2)[1], (cz(5),)),
    ("repeat", lambda z: z.repeat(2), (cz(2),)),
    ("trace", lambda z: ember.trace(z), (cz(3, 3),)),
    ("tril", lambda z: ember.tril(z), (cz(3, 3),)),
    ("diag_embed", lambda z: ember.diag_embed(z), (cz(3),)),
    ("roll", lambda z: ember.roll(z, 1), (cz(4),)),
    ("masked_fill", lambda z: z.masked_fill(ember.tensor([True, False]), 0.5j), (cz(2),)),
    # The elementwise functions and reductions made complex with their conjugated rules.
    ("sgn", lambda z: z.sgn(), (cz(3),)),
    ("sigmoid", lambda z: z.sigmoid(), (cz(3),)),
    ("log1p", lambda z: z.log1p(), (cz(3),)),
    ("expm1", lambda z: z.expm1(), (cz(3),)),
    ("sinh", lambda z: z.sinh(), (cz(3),)),
    ("cosh", lambda z: z.cosh(), (cz(3),)),
    ("tan", lambda z: z.tan(), (cz(3),)),
    ("asin", lambda z: z.asin(), (cz(3),)),
    ("acos", lambda z: z.acos(), (cz(3),)),
    ("atan", lambda z: z.atan(), (cz(3),)),
    ("asinh", lambda z: z.asinh(), (cz(3),)),
    ("acosh", lambda z: z.acosh(), (cz(3),)),
    ("atanh", lambda z: z.atanh(), (cz(3),)),
    ("log2", lambda z: z.log2(), (cz(3),)),
    ("log10", lambda z: z.log10(), (cz(3),)),
    ("exp2", lambda z: z.exp2(), (cz(3),)),
    ("rsqrt", lambda z: z.rsqrt(), (cz(3),)),
    ("sinc", lambda z: z.sinc(), (cz(3),)),
    ("cumsum", lambda z: z.cumsum(1), (cz(2, 3),)),
    ("cumprod", lambda z: z.cumprod(1), (cz(2, 3),)),
    ("cumprod with a zero", lambda z: (z * ember.tensor([1.0, 0.0, 1.0])).cumprod(0), (cz(3),)),
    ("var", lambda z: z.var(1), (cz(2, 3),)),
    ("var correction", lambda z: ember.var(z, correction=0), (cz(2, 3),)),
    ("std", lambda z: z.std(0, keepdim=True), (cz(3, 2),)),
    ("var_mean", lambda z: ember.var_mean(z, 1)[0] * ember.var_mean(z, 1)[1], (cz(2, 3),)),
    ("std_mean", lambda z: ember.std_mean(z)[0] + ember.std_mean(z)[1], (cz(2, 3),)),
    ("logsumexp", lambda z: z.logsumexp(1), (cz(2, 3),)),
    ("vector_norm", lambda z: ember.linalg.vector_norm(z), (cz(2, 3),)),
    ("vector_norm 1", lambda z: ember.linalg.vector_norm(z, 1, dim=0), (cz(2, 3),)),
    ("vector_norm 3", lambda z: ember.linalg.vector_norm(z, 3, dim=1), (cz(2, 3),)),
    ("vector_norm inf", lambda z: ember.linalg.vector_norm(z, float("inf")), (cz(4),)),
    ("norm", lambda z: ember.norm(z), (cz(2, 3),)),
    ("linalg.norm fro", lambda z: ember.linalg.norm(z), (cz(2, 3),)),
    ("matrix_norm 1", lambda z: ember.linalg.matrix_norm(z, 1), (cz(2, 3),)),
    ("dist", lambda a, b: ember.dist(a, b), (cz(3), cz(3))),
    ("dist 3", lambda a, b: a.dist(b, 3), (cz(2, 3), cz(3))),
    ("inner", lambda a, b: ember.inner(a, b), (cz(2, 3), cz(4, 3))),
    ("inner 1d", lambda a, b: a.inner(b), (cz(3), cz(3))),
]


def test_tensordot_first_derivatives() -> None:
    # Second derivatives go through the einsum rule, which does not conjugate yet (see
    # docs/autograd.md).
    _check(lambda a, b: ember.tensordot(a, b, 1), (cz(2, 3), cz(3, 2)), second=False)


def _setitem(z: ember.Tensor, v: ember.Tensor) -> ember.Tensor:
    out = z * 1
    out[1:3] = v
    return out


@pytest.mark.parametrize(("name", "func", "inputs"), COMPLEX_OPS, ids=[c[0] for c in COMPLEX_OPS])
def test_complex_op(name: str, func: Callable[..., Any], inputs: tuple[Any, ...]) -> None:
    _check(func, inputs)


# A real input promoted into a complex op: its gradient is the real part (torch's handle_r_to_c).
MIXED_OPS: list[tuple[str, Callable[..., Any], tuple[Any, ...]]] = [
    ("mul", lambda x, z: x * z, (r(2, 3), cz(3))),
    ("add", lambda x, z: x + z, (r(3), cz(2, 3))),
    ("div", lambda x, z: z / x, (r(3) + 2, cz(3))),
    ("to complex, matmul", lambda x, z: x.to(ember.complex128) @ z, (r(2, 3), cz(3, 2))),
    ("real scalar times 1j", lambda x: (x * 1j).exp(), (r(3),)),
    ("complex()", lambda x, y: ember.complex(x, y) ** 2, (r(3), r(2, 3))),
    ("where", lambda x, z: ember.where(ember.tensor([True, False]), x, z), (r(2), cz(2))),
    ("abs of complex", lambda x, z: (x * z).abs(), (r(3), cz(3))),
    ("polar", lambda m, t: ember.polar(m, t) * (1 + 2j), (r(3) + 2, r(2, 3))),
    ("dist real-complex", lambda x, z: ember.dist(x, z), (r(3), cz(3))),
]


@pytest.mark.parametrize(("name", "func", "inputs"), MIXED_OPS, ids=[c[0] for c in MIXED_OPS])
def test_mixed_real_complex(name: str, func: Callable[..., Any], inputs: tuple[Any, ...]) -> None:
    _check(func, inputs)
    out = func(*inputs)
    grads = ember.autograd.grad(out, inputs, ember.ones_like(out))
    for x, g in zip(inputs, grads, strict=True):
        assert g.dtype == x.dtype


# ------------------------------------------------------------------------------------------------
# ember.fft: every transform, norm mode, odd and even lengths, padding and trimming, dims.

NORMS = [None, "ortho", "forward"]
ONE_D = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
REAL_INPUT = {"rfft", "ihfft", "rfft2", "ihfft2", "rfftn", "ihfftn"}


def _fft_input(name: str, *shape: int) -> ember.Tensor:
    return r(*shape) if name in REAL_INPUT else cz(*shape)


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("name", ONE_D)
@pytest.mark.parametrize(("length", "n"), [(4, None), (5, None), (5, 8), (6, 3)])
def test_fft_1d(name: str, norm: str | None, length: int, n: int | None) -> None:
    fn = getattr(ember.fft, name)
    x = _fft_input(name, length)
    second = norm == "ortho" and n != 8  # second derivatives on a subset (time)
    _check(lambda t: fn(t, n=n, norm=norm), (x,), second)


@pytest.mark.parametrize("name", ONE_D)
def test_fft_1d_along_a_dim_of_a_batch(name: str) -> None:
    fn = getattr(ember.fft, name)
    _check(lambda t: fn(t, dim=0, norm="backward"), (_fft_input(name, 3, 2),))


def test_fft_of_a_real_input() -> None:
    # fft of a real tensor runs the full-spectrum r2c kernel (onesided=False).
    _check(lambda t: ember.fft.fft(t, n=6), (r(2, 5),))
    _check(lambda t: ember.fft.fftn(t), (r(2, 3),), second=False)


TWO_D = ["fft2", "ifft2", "rfft2", "irfft2", "hfft2", "ihfft2"]
N_D = ["fftn", "ifftn", "rfftn", "irfftn", "hfftn", "ihfftn"]


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("name", TWO_D)
def test_fft_2d(name: str, norm: str | None) -> None:
    fn = getattr(ember.fft, name)
    _check(lambda t: fn(t, norm=norm), (_fft_input(name, 3, 4),), second=norm is None)
    _check(lambda t: fn(t, s=(2, 5), norm=norm), (_fft_input(name, 3, 3),), second=False)


@pytest.mark.parametrize("name", N_D)
def test_fft_nd(name: str) -> None:
    fn = getattr(ember.fft, name)
    _check(lambda t: fn(t), (_fft_input(name, 2, 3, 2),), second=False)
    _check(lambda t: fn(t, s=(3, 4), dim=(0, 2), norm="ortho"), (_fft_input(name, 2, 2, 3),))


_SWAPPED = {None: "forward", "backward": "forward", "ortho": "ortho", "forward": "backward"}


def _fit(a: np.ndarray, length: int, axis: int) -> np.ndarray:
    """a trimmed or zero-padded to ``length`` along ``axis`` (the adjoint of a pad is a trim)."""
    have = a.shape[axis]
    if have >= length:
        return np.take(a, range(length), axis=axis)
    pad = [(0, 0)] * a.ndim
    pad[axis] = (0, length - have)
    return np.pad(a, pad)


@settings(max_examples=30, deadline=None)
@given(
    shape=shapes(1, 5, 1, 3),
    data=st.data(),
)
def test_fft_gradient_is_the_adjoint_transform(shape: tuple[int, ...], data: Any) -> None:
    # L = Re(sum(conj(w) * f(x))) for a linear f: x.grad = f^H(w), numpy's inverse transform with
    # the swapped norm (the same scale), fitted back to x's length.
    ndim = len(shape)
    dim = data.draw(st.integers(-ndim, ndim - 1))
    n = data.draw(st.none() | st.integers(1, 7))
    norm = data.draw(st.sampled_from([None, "backward", "ortho", "forward"]))
    real = data.draw(st.booleans())
    rng = np.random.default_rng(len(shape) + (n or 0))
    x = rng.standard_normal(shape) + (0 if real else 1j * rng.standard_normal(shape))
    xt = ember.from_numpy(np.asarray(x)).requires_grad_()
    out = (ember.fft.rfft if real else ember.fft.fft)(xt, n=n, dim=dim, norm=norm)
    w = rng.standard_normal(tuple(out.shape)) + 1j * rng.standard_normal(tuple(out.shape))
    (grad,) = ember.autograd.grad(out, xt, ember.from_numpy(w))
    length = shape[dim] if n is None else n
    spectrum = _fit(w, length, dim)  # rfft: the dropped half has no gradient (zeros)
    expected = np.fft.ifft(spectrum, axis=dim, norm=_SWAPPED[norm])
    expected = _fit(expected.real if real else expected, shape[dim], dim)
    assert_close(grad, expected, rtol=1e-9, atol=1e-9)


# ------------------------------------------------------------------------------------------------
# Hand formulas (torch's values) and training.


def test_grad_of_squared_magnitude_is_two_z() -> None:
    z = cz(4)
    (z * z.conj()).real.sum().backward()
    assert_close(z.grad, 2 * z.detach().numpy())


def test_hand_formulas() -> None:
    z = cz(3)
    zn = z.detach().numpy()
    cases: list[tuple[Callable[[ember.Tensor], ember.Tensor], np.ndarray]] = [
        (lambda t: t.abs().sum(), zn / np.abs(zn)),
        (lambda t: t.angle().sum(), 1j * zn / np.abs(zn) ** 2),
        (lambda t: (t.real + 2 * t.imag).sum(), np.full(3, 1 + 2j)),
        (lambda t: (t * t).real.sum(), np.conj(2 * zn)),  # holomorphic: conj(f'(z))
        (lambda t: (t * t).imag.sum(), 1j * np.conj(2 * zn)),
        (lambda t: t.exp().abs().sum(), np.exp(zn.real)),  # |e^z| = e^x: flat in y
        (lambda t: ember.view_as_real(t).sum(), np.full(3, 1 + 1j)),
        # Parseval: sum |fft(z)|^2 = n sum |z|^2.
        (lambda t: ember.fft.fft(t).abs().square().sum(), 2 * 3 * zn),
    ]
    for func, expected in cases:
        (grad,) = ember.autograd.grad(func(z), z)
        assert_close(grad, expected, rtol=1e-10, atol=1e-12)


def test_real_input_gets_the_real_part() -> None:
    x = r(3)
    w = cz(3)
    (x * w).real.sum().backward()
    assert x.grad.dtype == ember.float64
    assert_close(x.grad, w.detach().numpy().real)
    assert_close(w.grad, x.detach().numpy().astype(np.complex128))


def test_fit_a_complex_linear_map() -> None:
    rng = np.random.default_rng(3)
    x = ember.from_numpy(rng.standard_normal((32, 3)) + 1j * rng.standard_normal((32, 3)))
    truth = rng.standard_normal((3, 2)) + 1j * rng.standard_normal((3, 2))
    y = x @ ember.from_numpy(truth)
    w = ember.zeros(3, 2, dtype=ember.complex128, requires_grad=True)
    first = None
    for _ in range(150):
        residual = x @ w - y
        loss = (residual * residual.conj()).real.mean()
        first = float(loss) if first is None else first
        w.grad = None
        loss.backward()
        with ember.no_grad():
            w -= 0.3 * w.grad
    assert first is not None and first > 1.0
    assert float(loss) < 1e-10
    assert_close(w, truth, rtol=1e-5, atol=1e-5)


# ------------------------------------------------------------------------------------------------
# Errors.


def test_only_float_and_complex_tensors_require_grad() -> None:
    z = ember.zeros(2, dtype=ember.complex64).requires_grad_()
    assert z.requires_grad
    for dtype in (ember.int64, ember.bool):
        raises(
            RuntimeError,
            "requires_grad",
            lambda dtype=dtype: ember.zeros(2, dtype=dtype).requires_grad_(),
            "floating point and complex",
        )
    raises(
        RuntimeError,
        "zeros",
        lambda: ember.zeros(2, dtype=ember.int32, requires_grad=True),
        "floating point and complex",
    )


def test_complex_output_needs_an_explicit_gradient() -> None:
    z = cz(2)
    raises(RuntimeError, "backward", lambda: z.sum().backward(), "real scalar outputs")
    z.sum().backward(ember.tensor(1 + 0j, dtype=ember.complex128))
    assert_close(z.grad, np.ones(2, dtype=np.complex128))


def test_gradcheck_wants_double_precision() -> None:
    z = ember.zeros(2, dtype=ember.complex64, requires_grad=True)
    raises(ValueError, "gradcheck", lambda: gradcheck(lambda t: t * 2, (z,)), "complex128")


def test_gradcheck_catches_a_missing_conjugate() -> None:
    # A "gradient" g * f'(z) instead of g * conj(f'(z)) must fail the check.
    class WrongSquare(ember.autograd.Function):
        @staticmethod
        def forward(ctx: Any, t: ember.Tensor) -> ember.Tensor:
            ctx.save_for_backward(t)
            return t.detach() * t.detach()

        @staticmethod
        def backward(ctx: Any, g: ember.Tensor) -> ember.Tensor:
            (t,) = ctx.saved_tensors
            return g * 2 * t

    z = cz(2)
    assert not gradcheck(lambda t: WrongSquare.apply(t).real, (z,), raise_exception=False)
    assert gradcheck(lambda t: (t * t).real, (z,))
