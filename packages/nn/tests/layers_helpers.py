"""Helpers for the nn layer tests: float64 tensors from numpy, gradcheck, numpy comparisons."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

import ember
from ember.autograd import gradcheck

RNG = np.random.default_rng(1234)


def t(a: Any, requires_grad: bool = False) -> Any:
    """An ember tensor with a copy of ``a`` (float64 arrays stay float64)."""
    x = ember.from_numpy(np.ascontiguousarray(np.array(a)))
    if requires_grad:
        x.requires_grad_(True)
    return x


def randn(*shape: int, scale: float = 1.0) -> np.ndarray:
    return RNG.standard_normal(shape) * scale


def away_from(a: np.ndarray, points: tuple[float, ...], gap: float = 0.05) -> np.ndarray:
    """``a`` with values near the kinks in ``points`` pushed away (finite differences)."""
    out = a.copy()
    for p in points:
        near = np.abs(out - p) < gap
        out[near] = p + gap * np.where(out[near] >= p, 2.0, -2.0)
    return out


def close(actual: Any, expected: Any, rtol: float = 1e-10, atol: float = 1e-12) -> None:
    got = actual.detach().numpy() if hasattr(actual, "detach") else np.asarray(actual)
    np.testing.assert_allclose(got, np.asarray(expected), rtol=rtol, atol=atol)


def check_grad(fn: Callable[..., Any], *arrays: np.ndarray) -> None:
    """gradcheck in float64 of ``fn`` over fresh leaves made from ``arrays``."""
    inputs = tuple(t(a, requires_grad=True) for a in arrays)
    assert gradcheck(fn, inputs, eps=1e-6, atol=1e-5, rtol=1e-3)
