"""``weight_norm``, ``spectral_norm`` and ``orthogonal`` parametrizations (torch's names/keys).

``orthogonal`` supports the ``matrix_exp`` and ``cayley`` maps; ``householder`` needs
``linalg.householder_product``, which ember does not have yet (NotImplementedError), so the
default map of a non-square weight is ``matrix_exp`` here (torch: ``householder``).
"""

from __future__ import annotations

import math
from typing import Any

import ember
from ember._dtype import finfo
from ember._grad_mode import no_grad
from ember._tensor import Tensor
from ember.nn.modules.module import Module
from ember.nn.utils import parametrize

__all__ = ["orthogonal", "spectral_norm", "weight_norm"]


def _norm_except_dim(v: Any, dim: int) -> Any:
    # torch.norm_except_dim(v, 2, dim): the 2-norm over every dim but `dim` (all when dim=-1).
    if dim == -1:
        return ember.linalg.vector_norm(v)
    dims = [d for d in range(v.dim()) if d != dim]
    return ember.linalg.vector_norm(v, 2, dim=dims, keepdim=True)


def _normalize(x: Any, eps: float) -> Any:
    return x / ember.clamp(ember.linalg.vector_norm(x), min=eps)


class _WeightNorm(Module):
    def __init__(self, dim: int | None = 0) -> None:
        super().__init__()
        self.dim = -1 if dim is None else dim

    def forward(self, weight_g: Tensor, weight_v: Tensor) -> Tensor:
        out: Tensor = weight_v * (weight_g / _norm_except_dim(weight_v, self.dim))
        return out

    def right_inverse(self, weight: Tensor) -> tuple[Tensor, Tensor]:
        return _norm_except_dim(weight, self.dim), weight


def weight_norm(module: Module, name: str = "weight", dim: int | None = 0) -> Module:
    """``weight = g * v / ||v||`` with magnitude ``original0`` (g) and direction ``original1``.

    State-dict keys are ``parametrizations.weight.original0/1``; legacy ``weight_g``/``weight_v``
    keys are accepted on load.

    Example:
        >>> m = ember.nn.utils.parametrizations.weight_norm(ember.nn.Linear(20, 40))
        >>> tuple(m.parametrizations.weight.original0.shape)
        (40, 1)
    """
    parametrize.register_parametrization(module, name, _WeightNorm(dim), unsafe=True)

    def compat_hook(
        state_dict: dict[str, Any],
        prefix: str,
        local_metadata: Any,
        strict: bool,
        missing_keys: list[str],
        unexpected_keys: list[str],
        error_msgs: list[str],
    ) -> None:
        g_key, v_key = f"{prefix}{name}_g", f"{prefix}{name}_v"
        if g_key in state_dict and v_key in state_dict:
            state_dict[f"{prefix}parametrizations.{name}.original0"] = state_dict.pop(g_key)
            state_dict[f"{prefix}parametrizations.{name}.original1"] = state_dict.pop(v_key)

    module._register_load_state_dict_pre_hook(compat_hook)
    return module


class _SpectralNorm(Module):
    _u: Tensor
    _v: Tensor

    def __init__(
        self, weight: Tensor, n_power_iterations: int = 1, dim: int = 0, eps: float = 1e-12
    ) -> None:
        super().__init__()
        ndim = weight.ndim
        if dim >= ndim or dim < -ndim:
            raise IndexError(
                f"Dimension out of range (expected to be in range of [-{ndim}, {ndim - 1}] but "
                f"got {dim})"
            )
        if n_power_iterations <= 0:
            raise ValueError(
                "Expected n_power_iterations to be positive, but got "
                f"n_power_iterations={n_power_iterations}"
            )
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps = eps
        if ndim > 1:
            self.n_power_iterations = n_power_iterations
            with no_grad():
                mat = self._reshape_weight_to_matrix(weight)
                h, w = mat.shape
                u = mat.new_empty(h).normal_(0, 1)
                v = mat.new_empty(w).normal_(0, 1)
            self.register_buffer("_u", _normalize(u, eps))
            self.register_buffer("_v", _normalize(v, eps))
            self._power_method(mat, 15)

    def _reshape_weight_to_matrix(self, weight: Any) -> Any:
        if self.dim != 0:
            weight = weight.permute(self.dim, *(d for d in range(weight.dim()) if d != self.dim))
        return weight.flatten(1)

    def _power_method(self, weight_mat: Any, n_power_iterations: int) -> None:
        # Power iteration on the detached matrix; u and v are updated in place (buffers).
        with no_grad():
            for _ in range(n_power_iterations):
                self._u.copy_(_normalize(ember.mv(weight_mat, self._v), self.eps))
                self._v.copy_(_normalize(ember.mv(weight_mat.T, self._u), self.eps))

    def forward(self, weight: Tensor) -> Tensor:
        w: Any = weight
        if w.ndim == 1:
            out: Tensor = _normalize(w, self.eps)
            return out
        mat = self._reshape_weight_to_matrix(w)
        if self.training:
            self._power_method(mat, self.n_power_iterations)
        u = self._u.clone()
        v = self._v.clone()
        sigma = ember.vdot(u, ember.mv(mat, v))
        result: Tensor = w / sigma
        return result

    def right_inverse(self, value: Tensor) -> Tensor:
        return value


def spectral_norm(
    module: Module,
    name: str = "weight",
    n_power_iterations: int = 1,
    eps: float = 1e-12,
    dim: int | None = None,
) -> Module:
    """Divides the weight by its largest singular value, estimated by power iteration.

    Buffers ``parametrizations.weight.0._u`` / ``._v`` hold the iteration's vectors; in training
    mode every access runs ``n_power_iterations`` more steps, as torch.

    Example:
        >>> m = ember.nn.utils.parametrizations.spectral_norm(ember.nn.Linear(20, 40))
        >>> sorted(k for k in m.state_dict() if "_u" in k or "_v" in k)
        ['parametrizations.weight.0._u', 'parametrizations.weight.0._v']
    """
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if dim is None:
        dim = 1 if type(module).__name__.startswith("ConvTranspose") else 0
    parametrize.register_parametrization(
        module, name, _SpectralNorm(weight, n_power_iterations, dim, eps)
    )
    return module


def _matrix_exp(a: Any) -> Any:
    # exp(A) by scaling and squaring with a degree-18 Taylor series (ember has no native
    # matrix_exp yet); every step is a differentiable op, so gradients flow through it.
    norm = float(ember.linalg.vector_norm(a.detach(), math.inf, dim=(-2, -1)).max())
    squarings = max(0, math.ceil(math.log2(norm / 0.5))) if norm > 0.5 else 0
    x = a / (2**squarings)
    n = a.shape[-1]
    eye = ember.eye(n, dtype=a.dtype)
    result = eye + x
    term = x
    for k in range(2, 19):
        term = term.matmul(x) / k
        result = result + term
    for _ in range(squarings):
        result = result.matmul(result)
    return result


def _make_orthogonal(a: Any) -> Any:
    q, r = ember.linalg.qr(a)
    return q * ember.diagonal(r, 0, -2, -1).sign().unsqueeze(-2)


def _is_orthogonal(q: Any) -> bool:
    n, k = q.shape[-2], q.shape[-1]
    eye = ember.eye(k, dtype=q.dtype)
    eps = 10 * n * finfo(q.dtype).eps
    return bool(((q.mT.matmul(q) - eye).abs() <= eps).all())


class _Orthogonal(Module):
    base: Tensor

    def __init__(self, weight: Tensor, orthogonal_map: str, *, use_trivialization: bool) -> None:
        super().__init__()
        self.shape = tuple(_any(weight).shape)
        self.orthogonal_map = orthogonal_map
        if use_trivialization:
            self.register_buffer("base", None)

    def forward(self, x_in: Tensor) -> Tensor:
        x: Any = x_in
        n, k = x.shape[-2], x.shape[-1]
        transposed = n < k
        if transposed:
            x = x.mT
            n, k = k, n
        x = x.tril()
        if n != k:
            x = ember.cat([x, x.new_zeros(n, n - k).expand(*x.shape[:-2], -1, -1)], dim=-1)
        a = x - x.mT
        if self.orthogonal_map == "matrix_exp":
            q = _matrix_exp(a)
        else:  # cayley: (I - A/2)^-1 (I + A/2)
            eye = ember.eye(n, dtype=a.dtype)
            q = ember.linalg.solve(eye - 0.5 * a, eye + 0.5 * a)
        if n != k:
            q = q[..., :k]
        if "base" in self._buffers and self.base is not None:
            q = self.base.matmul(q)
        if transposed:
            q = q.mT
        out: Tensor = q
        return out

    def right_inverse(self, q_in: Tensor) -> Tensor:
        q: Any = q_in
        if tuple(q.shape) != self.shape:
            raise ValueError(
                f"Expected a matrix or batch of matrices of shape {self.shape}. Got a tensor of "
                f"shape {tuple(q.shape)}."
            )
        if "base" not in self._buffers:
            raise NotImplementedError(
                "It is not possible to assign to the matrix exponential or the Cayley "
                "parametrizations when use_trivialization=False."
            )
        with no_grad():
            q_init = q
            n, k = q.shape[-2], q.shape[-1]
            if n < k:
                q = q.mT
                n, k = k, n
            if n == k:
                q = q.clone() if _is_orthogonal(q) else _make_orthogonal(q)
            else:
                extra = ember.randn(*q.shape[:-2], n, n - k, dtype=q.dtype)
                q = _make_orthogonal(ember.cat([q, extra], dim=-1))
            self.base = q
            neg_id = ember.zeros_like(q_init)
            neg_id.diagonal(0, -2, -1).fill_(-1.0)
        result: Tensor = neg_id
        return result


def _any(t: object) -> Any:
    return t


def orthogonal(
    module: Module,
    name: str = "weight",
    orthogonal_map: str | None = None,
    *,
    use_trivialization: bool = True,
) -> Module:
    """Keeps ``module.<name>`` (semi-)orthogonal: ``Q = base @ map(skew(X))``.

    Example:
        >>> m = ember.nn.utils.parametrizations.orthogonal(
        ...     ember.nn.Linear(3, 3, dtype=ember.float64))
        >>> w = m.weight
        >>> bool(((w.T @ w) - ember.eye(3, dtype=ember.float64)).abs().max() < 1e-6)
        True
    """
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if weight.ndim < 2:
        raise ValueError(
            f"Expected a matrix or batch of matrices. Got a tensor of {weight.ndim} dimensions."
        )
    if orthogonal_map is None:
        orthogonal_map = "matrix_exp"
    if orthogonal_map not in ("matrix_exp", "cayley", "householder"):
        raise ValueError(
            'orthogonal_map has to be one of "matrix_exp", "cayley", "householder". '
            f"Got: {orthogonal_map}"
        )
    if orthogonal_map == "householder":
        raise NotImplementedError(
            "[orthogonal] orthogonal_map='householder' needs linalg.householder_product, which "
            "ember does not have yet; use 'matrix_exp' or 'cayley'"
        )
    orth = _Orthogonal(weight, orthogonal_map, use_trivialization=use_trivialization)
    parametrize.register_parametrization(module, name, orth, unsafe=True)
    return module
