"""logit, ldexp and frexp (ember/_float_parts.py) against numpy and closed forms, and against
torch 2.13 when it is importable."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ember

FLOATS = [ember.float16, ember.bfloat16, ember.float32, ember.float64]
NP = {ember.float16: np.float16, ember.float32: np.float32, ember.float64: np.float64}


def test_logit_values_and_eps() -> None:
    p = np.array([1e-6, 0.1, 0.3, 0.5, 0.7, 0.999, 0.0, 1.0])
    with np.errstate(divide="ignore"):
        expected = np.log(p / (1 - p))
    np.testing.assert_allclose(ember.logit(ember.tensor(p)).numpy(), expected, rtol=1e-12)
    clamped = np.clip(p, 0.2, 0.8)
    np.testing.assert_allclose(
        ember.logit(ember.tensor(p), 0.2).numpy(), np.log(clamped / (1 - clamped)), rtol=1e-12
    )
    x = ember.tensor(p)
    assert x.logit(eps=0.2).tolist() == ember.special.logit(x, 0.2).tolist()
    assert ember.logit(ember.tensor([1, 0])).dtype == ember.float32  # integers promote
    out = ember.empty(0, dtype=ember.float64)
    ember.logit(ember.tensor([0.5], dtype=ember.float64), out=out)
    assert out.tolist() == [0.0]


def test_logit_inplace() -> None:
    x = ember.tensor([0.25, 0.5], dtype=ember.float64)
    assert x.logit_() is x
    np.testing.assert_allclose(x.numpy(), [np.log(1 / 3), 0.0], rtol=1e-12)
    with pytest.raises(RuntimeError, match=r"\[logit_\].*can't be cast"):
        ember.tensor([1]).logit_()


def test_logit_bad_input() -> None:
    with pytest.raises(TypeError, match=r"\[logit\] argument 'eps' must be float"):
        ember.logit(ember.tensor([0.5]), eps="a")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"\[logit\]"):
        ember.logit([0.5])  # type: ignore[arg-type]


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.floats(-1e3, 1e3, allow_nan=False), min_size=1, max_size=6),
    st.integers(-20, 20),
)
def test_ldexp_matches_numpy(values: list[float], e: int) -> None:
    a = np.array(values)
    exps = np.arange(len(values)) + e
    result = ember.ldexp(ember.tensor(a), ember.tensor(exps))
    np.testing.assert_array_equal(result.numpy(), np.ldexp(a, exps))


def test_ldexp_dtypes_and_inplace() -> None:
    assert ember.ldexp(ember.tensor([1, 2]), ember.tensor([1, 2])).tolist() == [2.0, 8.0]
    assert ember.ldexp(ember.tensor([1, 2]), ember.tensor([1, 2])).dtype == ember.float32
    half = ember.ldexp(ember.tensor([1.0], dtype=ember.float16), ember.tensor([3]))
    assert half.dtype == ember.float16 and half.tolist() == [8.0]
    wide = ember.ldexp(
        ember.tensor([1], dtype=ember.int32), ember.tensor([2.0], dtype=ember.float64)
    )
    assert wide.dtype == ember.float64
    x = ember.tensor([1.0, 3.0])
    assert x.ldexp_(ember.tensor([3, -1])) is x and x.tolist() == [8.0, 1.5]
    assert ember.tensor([1.0]).ldexp(ember.tensor([2])).tolist() == [4.0]
    with pytest.raises(RuntimeError, match=r"\[ldexp_\].*can't be cast"):
        ember.tensor([1]).ldexp_(ember.tensor([3]))


def test_ldexp_integer_exponents_are_exact() -> None:
    # 2**e alone overflows (or underflows) where x * 2**e does not: one rounding, as np.ldexp.
    cases = [(2.0**-20, 140), (0.5, 128), (2.0**100, -240), (1.5, -149), (3.0, -1075)]
    for dtype in (np.float32, np.float64):
        a = np.array([c[0] for c in cases], dtype=dtype)
        e = np.array([c[1] for c in cases]) * (8 if dtype == np.float64 else 1)
        result = ember.ldexp(ember.tensor(a), ember.tensor(e))
        with np.errstate(over="ignore"):
            np.testing.assert_array_equal(result.numpy(), np.ldexp(a, e))
    half = ember.ldexp(ember.tensor([2.0**-10], dtype=ember.float16), ember.tensor([20]))
    assert half.tolist() == [1024.0] and half.dtype == ember.float16
    # A float exponent follows torch's definition, input * pow(2, other): 2**128 overflows.
    assert ember.ldexp(ember.tensor([2.0**-20]), ember.tensor([140.0])).tolist() == [float("inf")]


def test_ldexp_bad_input() -> None:
    with pytest.raises(TypeError, match=r"\[ldexp\] argument 'other' must be Tensor"):
        ember.ldexp(ember.tensor([1.0]), 2)  # type: ignore[arg-type]
    with pytest.raises(RuntimeError, match=r"\[ldexp\].*broadcast"):
        ember.ldexp(ember.ones(2), ember.ones(3))
    with pytest.raises(NotImplementedError, match=r"\[ldexp\] complex"):
        ember.ldexp(ember.tensor([1j]), ember.tensor([1]))


@pytest.mark.parametrize("dtype", [ember.float16, ember.float32, ember.float64])
def test_frexp_matches_numpy(dtype: ember.dtype) -> None:
    info = np.finfo(NP[dtype])
    a = np.array(
        [
            0.0,
            -0.0,
            1.0,
            -3.0,
            8.0,
            0.1,
            info.max,
            -info.max,
            info.tiny,
            info.tiny / 8,
            info.smallest_subnormal,
            np.inf,
            -np.inf,
            np.nan,
        ],
        dtype=NP[dtype],
    )
    mantissa, exponent = ember.frexp(ember.tensor(a))
    m, e = np.frexp(a)
    np.testing.assert_array_equal(mantissa.numpy(), m)
    np.testing.assert_array_equal(exponent.numpy(), e)
    assert exponent.dtype == ember.int32 and mantissa.dtype == dtype


@settings(max_examples=30, deadline=None)
@given(st.lists(st.floats(allow_nan=False, allow_infinity=False, width=32), min_size=1, max_size=8))
def test_frexp_roundtrips(values: list[float]) -> None:
    x = ember.tensor(values, dtype=ember.float32)
    result = x.frexp()
    m, e = np.frexp(np.array(values, dtype=np.float32))
    np.testing.assert_array_equal(result.mantissa.numpy(), m)
    np.testing.assert_array_equal(result.exponent.numpy(), e)
    np.testing.assert_array_equal(ember.ldexp(result.mantissa, result.exponent).numpy(), x.numpy())


def test_frexp_bfloat16_and_result_type() -> None:
    result = ember.frexp(ember.tensor([1.0, 1e-40, 6.0], dtype=ember.bfloat16))
    assert type(result).__name__ == "frexp" and result._fields == ("mantissa", "exponent")
    assert type(result) is ember.return_types.frexp
    assert ember.ldexp(result.mantissa.float(), result.exponent).tolist() == (
        ember.tensor([1.0, 1e-40, 6.0], dtype=ember.bfloat16).float().tolist()
    )
    assert result.exponent.tolist()[0] == 1 and result.mantissa.tolist()[0] == 0.5


def test_frexp_out_and_bad_input() -> None:
    m, e = ember.empty(0), ember.empty(0, dtype=ember.int32)
    ember.frexp(ember.tensor([8.0]), out=(m, e))
    assert m.tolist() == [0.5] and e.tolist() == [4]
    with pytest.raises(RuntimeError, match=r"\[frexp\].*floating-point"):
        ember.frexp(ember.tensor([1]))
    with pytest.raises(RuntimeError, match=r"\[frexp\].*exponent to have int dtype"):
        ember.frexp(ember.tensor([1.0]), out=(ember.empty(0), ember.empty(0)))
    with pytest.raises(TypeError, match=r"\[frexp\]"):
        ember.frexp([1.0])  # type: ignore[arg-type]


@pytest.mark.parametrize("dtype", [ember.float16, ember.float32, ember.float64])
def test_nextafter_edges_match_numpy(dtype: ember.dtype) -> None:
    info = np.finfo(NP[dtype])
    a = np.array([0.0, -0.0, 0.0, 1.0, 1.0, -1.0, info.max, np.nan, 2.0, info.smallest_subnormal])
    b = np.array([1.0, -1.0, -1.0, 2.0, 0.0, -np.inf, np.inf, 1.0, 2.0, 0.0])
    a, b = a.astype(NP[dtype]), b.astype(NP[dtype])
    result = ember.nextafter(ember.tensor(a), ember.tensor(b))
    with np.errstate(over="ignore"):
        expected = np.nextafter(a, b)
    np.testing.assert_array_equal(result.numpy(), expected)
    assert np.array_equal(np.signbit(result.numpy()), np.signbit(expected))


def test_nextafter_bfloat16_and_bad_input() -> None:
    x = ember.tensor([1.0, 1.0, 0.0, -2.0], dtype=ember.bfloat16)
    y = ember.tensor([2.0, 0.0, -1.0, -3.0], dtype=ember.bfloat16)
    # bfloat16 has 7 mantissa bits: 1 + 2**-7 above 1, 1 - 2**-8 below, 2**-133 from 0.
    assert ember.nextafter(x, y).float().tolist() == [
        1 + 2**-7,
        1 - 2**-8,
        -(2.0**-133),
        -2 - 2**-6,
    ]
    assert x.nextafter(y).float().tolist() == ember.nextafter(x, y).float().tolist()
    z = x.clone()
    assert z.nextafter_(y) is z and z.float().tolist() == ember.nextafter(x, y).float().tolist()
    with pytest.raises(NotImplementedError, match=r"\[nextafter\]"):
        ember.nextafter(ember.tensor([1]), ember.tensor([2]))
    with pytest.raises(TypeError):
        ember.nextafter(ember.tensor([1.0]), "2")  # type: ignore[arg-type]


def test_against_torch() -> None:
    torch = pytest.importorskip("torch")
    a = np.array([1e-40, 3e-45, -1e-39, 0.3, -7.0, 0.0, np.inf], dtype=np.float32)
    for dtype in ("float16", "bfloat16", "float32", "float64"):
        t = torch.tensor(a).to(getattr(torch, dtype))
        x = ember.tensor(a).to(getattr(ember, dtype))
        tm, te = torch.frexp(t)
        m, e = ember.frexp(x)
        assert m.float().tolist() == tm.float().tolist() and e.tolist() == te.tolist()
    p = np.array([0.01, 0.2, 0.5, 0.9])
    np.testing.assert_allclose(
        ember.logit(ember.tensor(p), 0.1).numpy(), torch.logit(torch.tensor(p), 0.1).numpy()
    )
    np.testing.assert_array_equal(
        ember.ldexp(ember.tensor([1.0, 3.0]), ember.tensor([3, -1])).numpy(),
        torch.ldexp(torch.tensor([1.0, 3.0]), torch.tensor([3, -1])).numpy(),
    )
    values = [0.0, -0.0, 1.0, -1.0, 65504.0, float("nan"), 3.0]
    targets = [-1.0, 1.0, 2.0, float("-inf"), float("inf"), 0.0, 3.0]
    for dtype in ("float16", "bfloat16", "float32", "float64"):
        t = torch.nextafter(
            torch.tensor(values).to(getattr(torch, dtype)),
            torch.tensor(targets).to(getattr(torch, dtype)),
        )
        e = ember.nextafter(
            ember.tensor(values).to(getattr(ember, dtype)),
            ember.tensor(targets).to(getattr(ember, dtype)),
        )
        np.testing.assert_array_equal(e.double().numpy(), t.double().numpy())
