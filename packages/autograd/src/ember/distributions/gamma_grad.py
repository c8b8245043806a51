"""Implicit reparameterization gradients of gamma draws.

For x ~ Gamma(alpha, 1) drawn as x = F^-1(u; alpha), holding u fixed gives
dx/dalpha = -(dF/dalpha)(alpha, x) / f(x; alpha) (Figurnov et al., 2018), the gradient torch's
``_standard_gamma`` backward computes. F = P(alpha, x) is ember.special.gammainc (float64), and
dF/dalpha a central difference in alpha, accurate to ~1e-8 relative: ample for a stochastic
gradient.
"""

from __future__ import annotations

from typing import Any

import ember
from ember._grad_mode import no_grad
from ember._tensor import Tensor
from ember.autograd import Function
from ember.special import _regularized_gamma as _p_and_q

__all__ = ["standard_gamma_rsample"]


def _dsample_dalpha(alpha: Tensor, x: Tensor) -> Tensor:
    """-(dP/dalpha)(alpha, x) / pdf(x; alpha), the implicit derivative of a Gamma(alpha, 1) draw."""
    a = alpha.double()
    xd = x.double()
    h = 1e-5 * a.clamp(min=1.0)
    p_hi, q_hi = _p_and_q(a + h, xd)
    p_lo, q_lo = _p_and_q((a - h).clamp(min=1e-300), xd)
    # Difference whichever of P and Q is the small one: no cancellation against 1.
    use_p = p_hi < 0.5
    dp = ember.where(use_p, p_hi - p_lo, q_lo - q_hi) / (2 * h)
    log_pdf = (a - 1) * xd.log() - xd - a.lgamma()
    return (-dp / log_pdf.exp()).to(alpha.dtype)


class _StandardGamma(Function):
    @staticmethod
    def forward(ctx: Any, alpha: Tensor) -> Tensor:
        from ember.distributions.gamma_family import standard_gamma

        x = standard_gamma(alpha)
        ctx.save_for_backward(alpha, x)
        return x

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Tensor:
        alpha, x = ctx.saved_tensors
        with no_grad():
            return grad * _dsample_dalpha(alpha, x)


def standard_gamma_rsample(alpha: Tensor) -> Tensor:
    """Gamma(alpha, 1) draws whose gradient in alpha is the implicit reparameterization one.

    Example:
        >>> a = ember.tensor([2.0], requires_grad=True)
        >>> standard_gamma_rsample(a).sum().backward()
        >>> a.grad.shape
        ember.Size([1])
    """
    return _StandardGamma.apply(alpha)
