"""Numpy references of torch's documented optimizer update rules, and a driver that runs an
ember optimizer over a fixed sequence of gradients (the same one the references see)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

import ember

Array = np.ndarray


def gradient_sequence(
    shapes: list[tuple[int, ...]], steps: int, seed: int = 0
) -> list[list[Array]]:
    rng = np.random.default_rng(seed)
    return [[rng.standard_normal(s) for s in shapes] for _ in range(steps)]


def initial_params(shapes: list[tuple[int, ...]], seed: int = 1) -> list[Array]:
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(s) for s in shapes]


def run_ember(
    opt_cls: type,
    kwargs: dict[str, Any],
    p0: list[Array],
    grads: list[list[Array]],
    dtype: Any = ember.float64,
) -> tuple[list[ember.Tensor], Any]:
    params = [ember.tensor(p, dtype=dtype, requires_grad=True) for p in p0]
    opt = opt_cls(params, **kwargs)
    for gs in grads:
        for p, g in zip(params, gs, strict=True):
            p.grad = ember.tensor(g, dtype=dtype)
        opt.step()
    return params, opt


def run_numpy(update: Callable[..., None], kwargs: dict[str, Any], p0, grads) -> list[Array]:
    params = [p.copy() for p in p0]
    states: list[dict[str, Any]] = [{} for _ in params]
    for gs in grads:
        for p, g, s in zip(params, gs, states, strict=True):
            update(p, g.copy(), s, **kwargs)
    return params


# Each reference updates p in place, with torch's documented algorithm (float64).


def sgd_ref(
    p, g, s, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False, maximize=False, **_
):
    g = -g if maximize else g
    if weight_decay:
        g = g + weight_decay * p
    if momentum:
        if "buf" not in s:
            s["buf"] = g.copy()
        else:
            s["buf"] = momentum * s["buf"] + (1 - dampening) * g
        g = g + momentum * s["buf"] if nesterov else s["buf"]
    p -= lr * g


def adam_ref(
    p,
    g,
    s,
    lr=1e-3,
    betas=(0.9, 0.999),
    eps=1e-8,
    weight_decay=0,
    amsgrad=False,
    maximize=False,
    decoupled_weight_decay=False,
    **_,
):
    b1, b2 = betas
    if not s:
        s.update(t=0, m=np.zeros_like(p), v=np.zeros_like(p), vmax=np.zeros_like(p))
    s["t"] += 1
    t = s["t"]
    g = -g if maximize else g
    if weight_decay:
        if decoupled_weight_decay:
            p *= 1 - lr * weight_decay
        else:
            g = g + weight_decay * p
    s["m"] = b1 * s["m"] + (1 - b1) * g
    s["v"] = b2 * s["v"] + (1 - b2) * g * g
    v = s["v"]
    if amsgrad:
        s["vmax"] = np.maximum(s["vmax"], s["v"])
        v = s["vmax"]
    p -= lr / (1 - b1**t) * s["m"] / (np.sqrt(v) / math.sqrt(1 - b2**t) + eps)


def adamw_ref(p, g, s, weight_decay=1e-2, **kw):
    adam_ref(p, g, s, weight_decay=weight_decay, decoupled_weight_decay=True, **kw)


def rmsprop_ref(
    p,
    g,
    s,
    lr=1e-2,
    alpha=0.99,
    eps=1e-8,
    weight_decay=0,
    momentum=0,
    centered=False,
    maximize=False,
    **_,
):
    if not s:
        s.update(v=np.zeros_like(p), gavg=np.zeros_like(p), buf=np.zeros_like(p))
    g = -g if maximize else g
    if weight_decay:
        g = g + weight_decay * p
    s["v"] = alpha * s["v"] + (1 - alpha) * g * g
    if centered:
        s["gavg"] = alpha * s["gavg"] + (1 - alpha) * g
        avg = np.sqrt(s["v"] - s["gavg"] ** 2) + eps
    else:
        avg = np.sqrt(s["v"]) + eps
    if momentum > 0:
        s["buf"] = momentum * s["buf"] + g / avg
        p -= lr * s["buf"]
    else:
        p -= lr * g / avg


def adagrad_ref(
    p,
    g,
    s,
    lr=1e-2,
    lr_decay=0,
    weight_decay=0,
    initial_accumulator_value=0,
    eps=1e-10,
    maximize=False,
    **_,
):
    if not s:
        s.update(t=0, sum=np.full_like(p, initial_accumulator_value))
    s["t"] += 1
    g = -g if maximize else g
    if weight_decay:
        g = g + weight_decay * p
    clr = lr / (1 + (s["t"] - 1) * lr_decay)
    s["sum"] = s["sum"] + g * g
    p -= clr * g / (np.sqrt(s["sum"]) + eps)


def adadelta_ref(p, g, s, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, maximize=False, **_):
    if not s:
        s.update(v=np.zeros_like(p), u=np.zeros_like(p))
    g = -g if maximize else g
    if weight_decay:
        g = g + weight_decay * p
    s["v"] = rho * s["v"] + (1 - rho) * g * g
    delta = np.sqrt(s["u"] + eps) / np.sqrt(s["v"] + eps) * g
    s["u"] = rho * s["u"] + (1 - rho) * delta * delta
    p -= lr * delta


def adamax_ref(p, g, s, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, maximize=False, **_):
    b1, b2 = betas
    if not s:
        s.update(t=0, m=np.zeros_like(p), u=np.zeros_like(p))
    s["t"] += 1
    g = -g if maximize else g
    if weight_decay:
        g = g + weight_decay * p
    s["m"] = b1 * s["m"] + (1 - b1) * g
    s["u"] = np.maximum(b2 * s["u"], np.abs(g) + eps)
    p -= lr / (1 - b1 ** s["t"]) * s["m"] / s["u"]


def nadam_ref(
    p,
    g,
    s,
    lr=2e-3,
    betas=(0.9, 0.999),
    eps=1e-8,
    weight_decay=0,
    momentum_decay=4e-3,
    decoupled_weight_decay=False,
    maximize=False,
    **_,
):
    b1, b2 = betas
    if not s:
        s.update(t=0, m=np.zeros_like(p), v=np.zeros_like(p), mu_prod=1.0)
    s["t"] += 1
    t = s["t"]
    g = -g if maximize else g
    if weight_decay:
        if decoupled_weight_decay:
            p *= 1 - lr * weight_decay
        else:
            g = g + weight_decay * p
    mu = b1 * (1 - 0.5 * 0.96 ** (t * momentum_decay))
    mu_next = b1 * (1 - 0.5 * 0.96 ** ((t + 1) * momentum_decay))
    # torch keeps mu_product as a float32 0-d tensor.
    s["mu_prod"] = float(np.float32(s["mu_prod"]) * np.float32(mu))
    s["m"] = b1 * s["m"] + (1 - b1) * g
    s["v"] = b2 * s["v"] + (1 - b2) * g * g
    denom = np.sqrt(s["v"] / (1 - b2**t)) + eps
    p -= lr * (1 - mu) / (1 - s["mu_prod"]) * g / denom
    p -= lr * mu_next / (1 - s["mu_prod"] * mu_next) * s["m"] / denom


def radam_ref(
    p,
    g,
    s,
    lr=1e-3,
    betas=(0.9, 0.999),
    eps=1e-8,
    weight_decay=0,
    decoupled_weight_decay=False,
    maximize=False,
    **_,
):
    b1, b2 = betas
    if not s:
        s.update(t=0, m=np.zeros_like(p), v=np.zeros_like(p))
    s["t"] += 1
    t = s["t"]
    g = -g if maximize else g
    if weight_decay:
        if decoupled_weight_decay:
            p *= 1 - lr * weight_decay
        else:
            g = g + weight_decay * p
    s["m"] = b1 * s["m"] + (1 - b1) * g
    s["v"] = b2 * s["v"] + (1 - b2) * g * g
    m_hat = s["m"] / (1 - b1**t)
    rho_inf = 2 / (1 - b2) - 1
    rho_t = rho_inf - 2 * t * b2**t / (1 - b2**t)
    if rho_t > 5:
        rect = math.sqrt(
            (rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)
        )
        adaptive = math.sqrt(1 - b2**t) / (np.sqrt(s["v"]) + eps)
        p -= lr * m_hat * rect * adaptive
    else:
        p -= lr * m_hat


def asgd_ref(p, g, s, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0, maximize=False, **_):
    if not s:
        s.update(t=0, eta=np.float32(lr), mu=1.0, ax=np.zeros_like(p))
    s["t"] += 1
    g = -g if maximize else g
    if weight_decay:
        g = g + weight_decay * p
    eta = float(s["eta"])
    p *= 1 - lambd * eta
    p -= eta * g
    if s["mu"] != 1:
        s["ax"] = s["ax"] + (p - s["ax"]) * s["mu"]
    else:
        s["ax"] = p.copy()
    # torch keeps eta and mu as float32 0-d tensors.
    s["eta"] = np.float32(lr / (1 + lambd * lr * s["t"]) ** alpha)
    s["mu"] = float(np.float32(1 / max(1, s["t"] - t0)))


def rprop_ref(p, g, s, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), maximize=False, **_):
    etaminus, etaplus = etas
    if not s:
        s.update(prev=np.zeros_like(p), step=np.full_like(p, lr))
    g = -g if maximize else g
    sign = np.sign(g * s["prev"])
    factor = np.where(sign > 0, etaplus, np.where(sign < 0, etaminus, 1.0))
    s["step"] = np.clip(s["step"] * factor, step_sizes[0], step_sizes[1])
    g = np.where(factor == etaminus, 0.0, g)
    p -= np.sign(g) * s["step"]
    s["prev"] = g.copy()
