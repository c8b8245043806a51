"""ember.amp: autocast's op lists (output dtypes inside and outside regions), nesting, the
decorator, gradients through casts, and GradScaler's scaling, skipping and scale updates."""

from __future__ import annotations

import threading
import warnings

import numpy as np
import pytest

import ember
import ember.amp
import ember.optim
from ember.amp import GradScaler, autocast

F32, BF16, F16 = ember.float32, ember.bfloat16, ember.float16


def mats(n: int = 4) -> tuple[ember.Tensor, ember.Tensor]:
    rng = np.random.default_rng(0)
    return (
        ember.tensor(rng.standard_normal((n, n)), dtype=F32),
        ember.tensor(rng.standard_normal((n, n)), dtype=F32),
    )


LOWER = [
    ("matmul", lambda a, b: ember.matmul(a, b)),
    ("@", lambda a, b: a @ b),
    ("Tensor.matmul", lambda a, b: a.matmul(b)),
    ("mm", lambda a, b: ember.mm(a, b)),
    ("Tensor.mm", lambda a, b: a.mm(b)),
    ("bmm", lambda a, b: ember.bmm(a[None], b[None])),
    ("addmm", lambda a, b: ember.addmm(a, a, b)),
    ("baddbmm", lambda a, b: ember.baddbmm(a[None], a[None], b[None])),
]


@pytest.mark.parametrize("dtype", [BF16, F16])
@pytest.mark.parametrize("name, op", LOWER, ids=[n for n, _ in LOWER])
def test_lower_precision_ops(name: str, op, dtype) -> None:
    a, b = mats()
    with autocast("cpu", dtype=dtype):
        out = op(a, b)
    assert out.dtype == dtype, name
    # The cast happens before the op: the result is the low-precision op on rounded inputs.
    want = op(a.to(dtype), b.to(dtype))
    assert ember.equal(out, want)
    assert op(a, b).dtype == F32  # outside the region nothing changes


def test_float64_is_not_cast() -> None:
    a, b = mats()
    with autocast("cpu"):
        assert (a.double() @ b.double()).dtype == ember.float64


def test_other_ops_are_untouched() -> None:
    a, b = mats()
    with autocast("cpu"):
        assert (a + b).dtype == F32
        assert ember.exp(a).dtype == F32
        assert (a.to(BF16) + b.to(BF16)).dtype == BF16


def test_float32_ops() -> None:
    a, _ = mats()
    with autocast("cpu", dtype=BF16):
        assert ember.prod(a.to(BF16)).dtype == F32
        assert a.to(BF16).prod().dtype == F32
    assert ember.prod(a.to(BF16)).dtype == BF16


def test_promote_ops() -> None:
    a, b = mats()
    with autocast("cpu", dtype=BF16):
        assert ember.cat([a.to(BF16), b]).dtype == F32
        assert ember.stack([a.to(BF16), b.to(BF16)]).dtype == BF16
        assert ember.stack((a.to(BF16), b)).dtype == F32
    # Outside, cat of mixed dtypes follows normal type promotion (float32 as well).
    assert ember.cat([a.to(BF16), b]).dtype == F32


def test_nesting_enabled_false_and_state_queries() -> None:
    a, b = mats()
    assert not ember.amp.is_autocast_enabled("cpu")
    with autocast("cpu", dtype=BF16):
        assert ember.amp.is_autocast_enabled("cpu")
        assert ember.amp.get_autocast_dtype("cpu") == BF16
        assert not ember.amp.is_autocast_enabled()  # no argument asks about CUDA, as in torch
        with autocast("cpu", enabled=False):
            assert not ember.amp.is_autocast_enabled("cpu")
            assert (a @ b).dtype == F32
        with autocast("cpu", dtype=F16):
            assert (a @ b).dtype == F16
        assert (a @ b).dtype == BF16
    assert not ember.amp.is_autocast_enabled("cpu")
    assert (a @ b).dtype == F32


def test_state_restored_after_exception() -> None:
    with pytest.raises(KeyError), autocast("cpu"):
        raise KeyError("x")
    assert not ember.amp.is_autocast_enabled("cpu")


def test_decorator_and_top_level_names() -> None:
    a, b = mats()

    @ember.autocast("cpu", dtype=BF16)
    def f(x: ember.Tensor, y: ember.Tensor) -> ember.Tensor:
        return x @ y

    assert f(a, b).dtype == BF16
    assert (a @ b).dtype == F32
    assert ember.autocast is autocast
    assert ember.is_autocast_enabled("cpu") is False
    assert ember.get_autocast_dtype("cpu") == BF16
    assert ember.amp.is_autocast_available("cpu")


def test_per_thread() -> None:
    a, b = mats()
    seen = []
    with autocast("cpu"):
        t = threading.Thread(target=lambda: seen.append((a @ b).dtype))
        t.start()
        t.join()
        assert (a @ b).dtype == BF16
    assert seen == [F32]


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="Expected `device_type` of type `str`"):
        autocast(3)  # type: ignore[arg-type]
    with pytest.raises(RuntimeError, match="unsupported autocast device_type 'tpu'"):
        autocast("tpu")
    with pytest.warns(UserWarning, match="CPU Autocast only supports dtype of"):
        ctx = autocast("cpu", dtype=ember.float64)
    a, b = mats()
    with ctx:
        assert (a @ b).dtype == F32
    if not ember.cuda.is_available():
        with pytest.warns(UserWarning, match="CUDA is not available. Disabling"):
            autocast("cuda")


def test_out_argument_is_not_cast() -> None:
    a, b = mats()
    out = ember.empty(4, 4)
    with autocast("cpu"):
        ember.matmul(a, b, out=out)
    assert out.dtype == F32
    np.testing.assert_allclose(out.numpy(), (a @ b).numpy(), rtol=1e-6)


def test_gradients_flow_through_casts() -> None:
    a, b = mats()
    w = b.clone().requires_grad_(True)
    x = a.clone().requires_grad_(True)
    with autocast("cpu", dtype=BF16):
        y = x @ w
        assert y.dtype == BF16
        loss = y.float().sum()
    loss.backward()
    assert w.grad is not None and w.grad.dtype == F32 and x.grad.dtype == F32
    # d(sum(x @ w))/dw = x^T @ 1, computed from the bfloat16 copy of x.
    want = x.detach().to(BF16).float().T @ ember.ones(4, 4)
    np.testing.assert_allclose(w.grad.numpy(), want.numpy(), rtol=1e-2)


def test_weight_cast_is_cached_within_a_region() -> None:
    a, b = mats()
    w = b.clone().requires_grad_(True)
    with autocast("cpu"):
        y1 = a @ w
        y2 = a @ w
        # Both products used the same cast of w: one ToCopy node feeds both.
        n1 = y1.grad_fn.next_functions[1][0]
        n2 = y2.grad_fn.next_functions[1][0]
        assert n1 is n2
    with autocast("cpu", cache_enabled=False):
        z1, z2 = a @ w, a @ w
        assert z1.grad_fn.next_functions[1][0] is not z2.grad_fn.next_functions[1][0]


def test_coverage_report() -> None:
    cov = ember.amp.autocast_coverage()
    assert {"matmul", "mm", "bmm", "addmm", "baddbmm", "cat", "stack", "prod"} <= set(
        cov["covered"]
    )
    assert set(cov["covered"]).isdisjoint(cov["not_covered"])


def test_one_element_add_path_unchanged() -> None:
    # The fast path of ops outside the lists never leaves C++ (no Python frame in between).
    a = ember.ones(1)
    with autocast("cpu"):
        assert ember.add(a, a).dtype == F32


# -- GradScaler ---------------------------------------------------------------------------------


def scaler_setup(init_scale: float = 4.0, **kw):
    w = ember.tensor([1.0, 2.0], requires_grad=True)
    opt = ember.optim.SGD([w], lr=0.1)
    return w, opt, GradScaler("cpu", init_scale=init_scale, **kw)


def test_scale_unscale_and_step() -> None:
    w, opt, scaler = scaler_setup()
    loss = (w * w).sum()
    scaled = scaler.scale(loss)
    assert float(scaled) == pytest.approx(4.0 * float(loss))
    scaled.backward()
    np.testing.assert_allclose(w.grad.numpy(), [8.0, 16.0])
    scaler.unscale_(opt)
    np.testing.assert_allclose(w.grad.numpy(), [2.0, 4.0])
    scaler.step(opt)
    np.testing.assert_allclose(w.detach().numpy(), [0.8, 1.6], rtol=1e-6)
    scaler.update()
    assert scaler.get_scale() == 4.0 and scaler._get_growth_tracker() == 1


def test_inf_gradient_skips_step_and_backs_off() -> None:
    w, opt, scaler = scaler_setup()
    scaler.scale((w * w).sum()).backward()
    w.grad[0] = float("inf")
    before = w.detach().clone()
    assert scaler.step(opt) is None
    assert ember.equal(w.detach(), before)
    scaler.update()
    assert scaler.get_scale() == 2.0 and scaler._get_growth_tracker() == 0


def test_nan_gradient_skips_step() -> None:
    w, opt, scaler = scaler_setup()
    scaler.scale((w * w).sum()).backward()
    w.grad[1] = float("nan")
    before = w.detach().clone()
    scaler.step(opt)
    assert ember.equal(w.detach(), before)


def test_growth_after_interval() -> None:
    w, opt, scaler = scaler_setup(growth_interval=3)
    for _ in range(3):
        opt.zero_grad()
        scaler.scale((w * w).sum()).backward()
        scaler.step(opt)
        scaler.update()
    assert scaler.get_scale() == 8.0 and scaler._get_growth_tracker() == 0


def test_stage_errors() -> None:
    w, opt, scaler = scaler_setup()
    with pytest.raises(AssertionError, match="Attempted unscale_ but _scale is None"):
        scaler.unscale_(opt)
    scaler.scale((w * w).sum()).backward()
    scaler.unscale_(opt)
    with pytest.raises(RuntimeError, match="unscale_\\(\\) has already been called"):
        scaler.unscale_(opt)
    scaler.step(opt)
    with pytest.raises(RuntimeError, match="step\\(\\) has already been called"):
        scaler.step(opt)
    with pytest.raises(RuntimeError, match="unscale_\\(\\) is being called after step\\(\\)"):
        scaler.unscale_(opt)
    with pytest.raises(RuntimeError, match="Closure use is not currently supported"):
        scaler.step(opt, closure=lambda: 0)
    scaler.update()
    with pytest.raises(AssertionError, match="No inf checks were recorded prior to update"):
        scaler.update()


def test_fp16_grads_refused_and_scale_of_structures() -> None:
    w = ember.ones(2, dtype=F16, requires_grad=True)
    opt = ember.optim.SGD([w], lr=0.1)
    scaler = GradScaler("cpu", init_scale=2.0)
    out = scaler.scale([ember.ones(1), (ember.ones(1),), {"k": ember.ones(1)}])
    assert float(out[0]) == 2.0 and float(out[1][0]) == 2.0 and float(out[2]["k"]) == 2.0
    w.grad = ember.ones(2, dtype=F16)
    with pytest.raises(ValueError, match=r"Attempting to unscale FP16 gradients\."):
        scaler.unscale_(opt)


def test_update_new_scale_and_state_dict() -> None:
    w, _, scaler = scaler_setup()
    scaler.scale((w * w).sum())
    scaler.update(16.0)
    assert scaler.get_scale() == 16.0
    scaler.update(ember.tensor(32.0))
    assert scaler.get_scale() == 32.0
    with pytest.raises(TypeError, match="new_scale should be a float"):
        scaler.update(3)  # type: ignore[arg-type]
    sd = scaler.state_dict()
    assert sd == {
        "scale": 32.0,
        "growth_factor": 2.0,
        "backoff_factor": 0.5,
        "growth_interval": 2000,
        "_growth_tracker": 0,
    }
    other = GradScaler("cpu")
    other.load_state_dict(sd)
    assert other.get_scale() == 32.0
    with pytest.raises(RuntimeError, match="The source state dict is empty"):
        other.load_state_dict({})


def test_disabled_scaler_is_a_pass_through() -> None:
    w, _, _ = scaler_setup()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scaler = GradScaler()  # torch's default device "cuda": disabled without CUDA
    if not ember.cuda.is_available():
        assert not scaler.is_enabled()
    scaler = GradScaler("cpu", enabled=False)
    loss = (w * w).sum()
    assert scaler.scale(loss) is loss and scaler.get_scale() == 1.0 and scaler.state_dict() == {}
    with pytest.raises(ValueError, match=r"The growth factor must be > 1\.0"):
        GradScaler("cpu", growth_factor=0.5)


def test_mixed_precision_training_loop_converges() -> None:
    rng = np.random.default_rng(0)
    x = ember.tensor(rng.standard_normal((64, 3)), dtype=F32)
    true_w = ember.tensor([[1.0], [-2.0], [0.5]])
    y = x @ true_w
    w = ember.zeros(3, 1, requires_grad=True)
    opt = ember.optim.Adam([w], lr=0.05)
    scaler = GradScaler("cpu", init_scale=2.0**10)
    for _ in range(200):
        opt.zero_grad()
        with autocast("cpu", dtype=BF16):
            pred = x @ w
        loss = ((pred.float() - y) ** 2).mean()
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
    np.testing.assert_allclose(w.detach().numpy(), true_w.numpy(), atol=0.05)
