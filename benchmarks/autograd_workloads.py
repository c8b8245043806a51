"""Autograd workloads: record + backward, side by side with torch.

numpy has no autograd: its column computes the same gradients by hand (it is the value oracle and
a lower bound on the arithmetic, not an autograd competitor).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

CHAIN_OPS = 100


def _leaf(lib: Any, a: Any) -> Any:
    return lib.from_numpy(a.copy()).requires_grad_()


def chain_inputs(np: Any) -> dict[str, Any]:
    return {"x": np.random.default_rng(0).standard_normal(16).astype(np.float32)}


def chain(lib: Any, data: dict[str, Any]) -> tuple[Callable[[int], None], Callable[[], Any]]:
    """A 100-op chain on [16] (alternating * 1.01 and + 0.5), then sum().backward()."""
    if lib.name == "numpy":
        np = lib.np
        x = data["x"]

        def numpy_grad() -> Any:
            y = x
            for i in range(CHAIN_OPS):
                y = y * np.float32(1.01) if i % 2 else y + np.float32(0.5)
            return np.full_like(x, np.float32(1.01) ** (CHAIN_OPS // 2))

        return _batch(numpy_grad), numpy_grad
    x = _leaf(lib, data["x"])

    def run() -> Any:
        x.grad = None
        y = x
        for i in range(CHAIN_OPS):
            y = y * 1.01 if i % 2 else y + 0.5
        y.sum().backward()
        return x.grad

    return _batch(run), run


def matmul_inputs(np: Any) -> dict[str, Any]:
    rng = np.random.default_rng(0)
    n = 1024
    return {
        "a": rng.standard_normal((n, n)).astype(np.float32),
        "b": rng.standard_normal((n, n)).astype(np.float32),
        "g": rng.standard_normal((n, n)).astype(np.float32),
    }


def matmul_backward(
    lib: Any, data: dict[str, Any]
) -> tuple[Callable[[int], None], Callable[[], Any]]:
    """Backward only of out = a @ b (the graph is kept and run again each time)."""
    if lib.name == "numpy":
        a, b, g = data["a"], data["b"], data["g"]

        def numpy_grad() -> Any:
            return g @ b.T, a.T @ g

        return _batch(numpy_grad), lambda: numpy_grad()[0]
    a, b = _leaf(lib, data["a"]), _leaf(lib, data["b"])
    g = lib.from_numpy(data["g"])
    out = a @ b

    def run() -> Any:
        a.grad = b.grad = None
        out.backward(g, retain_graph=True)
        return a.grad

    return _batch(run), run


def softmax_inputs(np: Any) -> dict[str, Any]:
    rng = np.random.default_rng(0)
    return {
        "x": rng.standard_normal((4096, 4096)).astype(np.float32),
        "g": rng.standard_normal((4096, 4096)).astype(np.float32),
    }


def softmax_backward(
    lib: Any, data: dict[str, Any]
) -> tuple[Callable[[int], None], Callable[[], Any]]:
    """Backward only of y = x.softmax(-1) on [4096, 4096]."""
    if lib.name == "numpy":
        np = lib.np
        x, g = data["x"], data["g"]
        e = np.exp(x - x.max(-1, keepdims=True))
        y = e / e.sum(-1, keepdims=True)

        def numpy_grad() -> Any:
            gy = g * y
            return gy - y * gy.sum(-1, keepdims=True)

        return _batch(numpy_grad), numpy_grad
    x = _leaf(lib, data["x"])
    g = lib.from_numpy(data["g"])
    y = x.softmax(-1)

    def run() -> Any:
        x.grad = None
        y.backward(g, retain_graph=True)
        return x.grad

    return _batch(run), run


def _batch(fn: Callable[[], Any]) -> Callable[[int], None]:
    def batch(n: int) -> None:
        for _ in range(n):
            fn()

    return batch
