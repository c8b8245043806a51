"""Gradient checks against central finite differences (use float64 inputs)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import ember
from ember.autograd._api import grad as autograd_grad
from ember.autograd.graph import is_tensor


class GradcheckError(RuntimeError):
    """Raised by gradcheck/gradgradcheck when analytical and numerical gradients disagree."""


def _as_tuple(x: Any) -> tuple[Any, ...]:
    if isinstance(x, (tuple, list)):
        return tuple(x)
    return (x,)


def _differentiable(inputs: Sequence[Any]) -> list[int]:
    return [i for i, x in enumerate(inputs) if is_tensor(x) and x.requires_grad]


def _outputs(func: Callable[..., Any], inputs: Sequence[Any]) -> list[Any]:
    return [o for o in _as_tuple(func(*inputs)) if is_tensor(o)]


def _real_coordinates(t: Any) -> Any:
    """A flat float64 view of ``t``'s values as reals: a complex z gives (Re z, Im z)."""
    t = t.detach()
    if t.is_complex():
        return ember.stack([t.real, t.imag], -1).reshape(-1).double()
    return t.double().reshape(-1)


def _steps(x: Any, eps: float) -> list[complex]:
    """The perturbations of one element: eps along each real coordinate (re, then im)."""
    return [eps, eps * 1j] if x.is_complex() else [eps]


def _numerical_jacobian(
    func: Callable[..., Any], inputs: Sequence[Any], index: int, eps: float
) -> list[Any]:
    """d(outputs)/d(inputs[index]) by central differences, one column per real coordinate of
    the input (two per complex element), one row per real coordinate of each output."""
    x = inputs[index]
    flat = x.detach().reshape(-1).clone()
    columns: list[list[Any]] = []
    for k in range(flat.numel()):
        for step in _steps(x, eps):
            values = []
            for sign in (1.0, -1.0):
                perturbed = flat.clone()
                perturbed[k] = perturbed[k] + sign * step
                args = list(inputs)
                # The perturbed input still requires grad: func may differentiate internally.
                args[index] = perturbed.reshape(x.shape).requires_grad_(x.requires_grad)
                values.append([_real_coordinates(o) for o in _outputs(func, args)])
            columns.append([(p - m) / (2 * eps) for p, m in zip(values[0], values[1], strict=True)])
    # One [out_coordinates, in_coordinates] matrix per output.
    n_outputs = len(columns[0]) if columns else len(_outputs(func, inputs))
    result = []
    for j in range(n_outputs):
        if columns:
            result.append(ember.stack([c[j] for c in columns], 1))
        else:
            out = _real_coordinates(_outputs(func, inputs)[j])
            result.append(ember.zeros((out.numel(), 0), dtype=ember.float64))
    return result


def _analytical_jacobian(func: Callable[..., Any], inputs: Sequence[Any], index: int) -> list[Any]:
    """The same matrices from backward passes: the seed 1 at element k of an output gives the
    row of Re(out_k), the seed 1j the row of Im(out_k) (torch's convention: the gradient of a
    real L is dL/dRe + i dL/dIm, read back as the pair (Re, Im))."""
    outputs = _outputs(func, inputs)
    x = inputs[index]
    width = x.numel() * (2 if x.is_complex() else 1)
    result = []
    for out in outputs:
        rows = []
        seeds = (1.0, 1j) if out.is_complex() else (1.0,)
        for k in range(out.numel()):
            for value in seeds:
                if not out.requires_grad:
                    rows.append(ember.zeros(width, dtype=ember.float64))
                    continue
                seed = ember.zeros(out.numel(), dtype=out.dtype)
                seed[k] = value
                (g,) = autograd_grad(
                    out, x, seed.reshape(out.shape), retain_graph=True, allow_unused=True
                )
                if g is None:
                    rows.append(ember.zeros(width, dtype=ember.float64))
                    continue
                if tuple(g.shape) != tuple(x.shape):
                    raise GradcheckError(
                        f"[gradcheck] gradient of input {index} has shape {list(g.shape)}, "
                        f"expected {list(x.shape)}"
                    )
                if g.dtype != x.dtype:
                    raise GradcheckError(
                        f"[gradcheck] gradient of input {index} has dtype {g.dtype}, expected "
                        f"{x.dtype}"
                    )
                rows.append(_real_coordinates(g))
        if rows:
            result.append(ember.stack(rows, 0))
        else:
            result.append(ember.zeros((0, width), dtype=ember.float64))
    return result


def gradcheck(
    func: Callable[..., Any],
    inputs: Any,
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    raise_exception: bool = True,
    nondet_tol: float = 0.0,
    check_undefined_grad: bool = True,
    fast_mode: bool = False,
) -> bool:
    """Checks ``func``'s gradients against finite differences, as ``torch.autograd.gradcheck``.

    Every tensor input with ``requires_grad=True`` is checked against every tensor output; use
    float64 or complex128 inputs (float32 finite differences are too coarse).

    Complex numbers are checked as pairs of reals, as torch does: a complex input element is
    perturbed along its real and its imaginary part (two columns of the Jacobian), and a
    complex output element gives two rows, from backward passes seeded with ``1`` (the row of
    its real part) and ``1j`` (its imaginary part). A gradient ``g`` read as the pair
    ``(g.real, g.imag)`` must then equal ``(dL/dRe x, dL/dIm x)``: torch's convention for the
    gradient of a real ``L`` with respect to a complex ``x``.

    Example:
        >>> x = ember.randn(3, dtype=ember.float64, requires_grad=True)
        >>> ember.autograd.gradcheck(lambda t: (t * t).sum(), (x,))
        True
    """
    inputs = _as_tuple(inputs)
    indices = _differentiable(inputs)
    if not indices:
        raise ValueError(
            "[gradcheck] expected at least one input tensor to require gradient, but none did"
        )
    for i in indices:
        if inputs[i].dtype not in (ember.float64, ember.complex128):
            raise ValueError(
                f"[gradcheck] input {i} is {inputs[i].dtype}; gradcheck needs float64 or "
                "complex128 inputs (finite differences in lower precision are not reliable)"
            )
    for i in indices:
        numerical = _numerical_jacobian(func, inputs, i, eps)
        analytical = _analytical_jacobian(func, inputs, i)
        for j, (a, n) in enumerate(zip(analytical, numerical, strict=True)):
            matches = a.numel() == 0 or bool(ember.isclose(a, n, rtol=rtol, atol=atol).all())
            if not matches:
                if raise_exception:
                    raise GradcheckError(
                        f"[gradcheck] Jacobian mismatch for output {j} with respect to input "
                        f"{i},\nnumerical:{n}\nanalytical:{a}\n"
                    )
                return False
    return True


def gradgradcheck(
    func: Callable[..., Any],
    inputs: Any,
    grad_outputs: Any = None,
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    raise_exception: bool = True,
    gen_non_contig_grad_outputs: bool = False,
    fast_mode: bool = False,
) -> bool:
    """Checks second derivatives: gradcheck of the function ``inputs -> grad(func)(inputs)``.

    Complex inputs and outputs follow gradcheck's convention (pairs of reals); the random
    ``grad_outputs`` drawn for complex outputs are complex.

    Example:
        >>> x = ember.randn(3, dtype=ember.float64, requires_grad=True)
        >>> ember.autograd.gradgradcheck(lambda t: (t ** 3).sum(), (x,))
        True
    """
    inputs = _as_tuple(inputs)
    indices = _differentiable(inputs)
    outputs = _outputs(func, inputs)
    if grad_outputs is None:
        # Only outputs that carry gradients get a seed (not the indices of sort, max, ...).
        grad_outputs = tuple(
            ember.randn(o.shape, dtype=o.dtype, requires_grad=True)
            for o in outputs
            if o.requires_grad
        )
    grad_outputs = _as_tuple(grad_outputs)
    n_inputs = len(inputs)

    def first_derivatives(*args: Any) -> tuple[Any, ...]:
        primal, seeds = args[:n_inputs], args[n_inputs:]
        outs = [o for o in _outputs(func, primal) if o.requires_grad]
        grads = autograd_grad(
            outs,
            [primal[i] for i in indices],
            seeds[: len(outs)],
            create_graph=True,
            allow_unused=True,
            materialize_grads=True,
        )
        return grads

    return gradcheck(
        first_derivatives,
        (*inputs, *grad_outputs),
        eps=eps,
        atol=atol,
        rtol=rtol,
        raise_exception=raise_exception,
    )
