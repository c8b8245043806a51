"""``addr`` and ``addbmm``, torch's scaled sums with an outer product or a batch of matrix
products, written as one ``addmm`` each (one GEMM; autograd records addmm and the reshapes)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from ember._linalg_helpers import N, check_tensor

if TYPE_CHECKING:
    from ember._tensor import Tensor

__all__ = ["addbmm", "addr"]

Number = int | float | bool


def _check_scalars(x: Any, beta: object, alpha: object, op: str) -> None:
    for name, value in (("beta", beta), ("alpha", alpha)):
        if not isinstance(value, (int, float, bool, complex)):
            raise TypeError(f"[{op}] argument '{name}' must be Number, not {type(value).__name__}")
        if isinstance(value, float) and not (x.is_floating_point() or x.is_complex()):
            raise RuntimeError(
                f"[{op}] For integral input tensors, argument {name} must not be a floating point "
                "number."
            )


def _addmm(op: str, input: Any, a: Any, b: Any, beta: Any, alpha: Any, out: Any) -> Any:
    """beta * input + alpha * (a @ b); a beta of 0 ignores input (NaN included), as torch."""
    _check_scalars(a, beta, alpha, op)
    return N.addmm(input, a, b, beta=beta, alpha=alpha, out=out)


def _addr_operands(vec1: object, vec2: object, op: str) -> tuple[Any, Any]:
    u: Any = check_tensor(vec1, op, "vec1")
    v: Any = check_tensor(vec2, op, "vec2")
    for name, t in (("vec1", u), ("vec2", v)):
        if t.dim() != 1:
            raise RuntimeError(f"[{op}] Expected 1-D argument {name}, but got {t.dim()}-D")
    return u.unsqueeze(1), v.unsqueeze(0)


def addr(
    input: Tensor,
    vec1: Tensor,
    vec2: Tensor,
    *,
    beta: Number = 1,
    alpha: Number = 1,
    out: Tensor | None = None,
) -> Tensor:
    """``beta * input + alpha * outer(vec1, vec2)`` (input broadcasts to the outer product).

    Example:
        >>> ember.addr(ember.zeros(2, 2), ember.tensor([1.0, 2.0]), ember.tensor([3.0, 4.0]))
        tensor([[3., 4.],
                [6., 8.]])
    """
    op = "addr"
    x: Any = check_tensor(input, op, "input")
    u, v = _addr_operands(vec1, vec2, op)
    if u.dtype == N.bool and v.dtype == N.bool and x.dtype == N.bool:
        # bool GEMM does not exist: torch's definition is (beta and input) or (alpha and outer).
        product = u & v
        result = (x & bool(beta)) | (product & bool(alpha)) if beta else product & bool(alpha)
        return cast("Tensor", result if out is None else N.positive(result, out=out))
    return cast("Tensor", _addmm(op, x.expand(u.shape[0], v.shape[1]), u, v, beta, alpha, out))


def addr_(
    self: Tensor, vec1: Tensor, vec2: Tensor, *, beta: Number = 1, alpha: Number = 1
) -> Tensor:
    """In-place :func:`ember.addr`: ``self`` must already have the outer product's shape."""
    x: Any = check_tensor(self, "addr_", "self")
    u, v = _addr_operands(vec1, vec2, "addr_")
    if x.dim() != 2:
        raise RuntimeError(f"[addr_] 2D tensor expected, got {x.dim()}D tensor for input")
    # Computed then copied: addmm(out=self) would alias an input and could not be recorded.
    return cast("Tensor", x.copy_(_addmm("addr_", x, u, v, beta, alpha, None)))


def _addbmm_operands(batch1: object, batch2: object, op: str) -> tuple[Any, Any]:
    b1: Any = check_tensor(batch1, op, "batch1")
    b2: Any = check_tensor(batch2, op, "batch2")
    for name, t in (("batch1", b1), ("batch2", b2)):
        if t.dim() != 3:
            raise RuntimeError(f"[{op}] {name} must be a 3D tensor, got {t.dim()}D")
    if b1.shape[0] != b2.shape[0]:
        raise RuntimeError(
            f"[{op}] batch1 and batch2 must have same number of batches, got {b1.shape[0]} and "
            f"{b2.shape[0]}"
        )
    if b1.shape[2] != b2.shape[1]:
        raise RuntimeError(
            f"[{op}] Incompatible matrix sizes for bmm ({b1.shape[1]}x{b1.shape[2]} and "
            f"{b2.shape[1]}x{b2.shape[2]})"
        )
    batches, rows, inner = b1.shape
    # sum_b b1[b] @ b2[b] is one product over the joint (batch, inner) axis.
    left = b1.permute(1, 0, 2).reshape(rows, batches * inner)
    right = b2.reshape(batches * inner, b2.shape[2])
    return left, right


def addbmm(
    input: Tensor,
    batch1: Tensor,
    batch2: Tensor,
    *,
    beta: Number = 1,
    alpha: Number = 1,
    out: Tensor | None = None,
) -> Tensor:
    """``beta * input + alpha * sum_b batch1[b] @ batch2[b]`` (input broadcasts to [n, p]).

    Example:
        >>> ember.addbmm(ember.zeros(1, 1), ember.ones(3, 1, 2), ember.ones(3, 2, 1))
        tensor([[6.]])
    """
    op = "addbmm"
    x: Any = check_tensor(input, op, "input")
    left, right = _addbmm_operands(batch1, batch2, op)
    shape = (left.shape[0], right.shape[1])
    try:
        x = x.expand(*shape)
    except RuntimeError:
        raise RuntimeError(
            f"[{op}] input of shape {list(x.shape)} does not broadcast to {list(shape)}"
        ) from None
    return cast("Tensor", _addmm(op, x, left, right, beta, alpha, out))


def addbmm_(
    self: Tensor, batch1: Tensor, batch2: Tensor, *, beta: Number = 1, alpha: Number = 1
) -> Tensor:
    """In-place :func:`ember.addbmm`: ``self`` must already have shape [n, p]."""
    x: Any = check_tensor(self, "addbmm_", "self")
    left, right = _addbmm_operands(batch1, batch2, "addbmm_")
    if tuple(x.shape) != (left.shape[0], right.shape[1]):
        raise RuntimeError(
            f"[addbmm_] self of shape {list(x.shape)} must have the product's shape "
            f"{[left.shape[0], right.shape[1]]}"
        )
    return cast("Tensor", x.copy_(_addmm("addbmm_", x, left, right, beta, alpha, None)))
