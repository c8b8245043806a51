"""Integer arithmetic wraps modulo 2**bits, as torch's does, without signed overflow (undefined
behaviour in C++; UBSan found it through the registry fuzzer)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import ember

INT_DTYPES = [ember.int8, ember.int16, ember.int32, ember.int64, ember.uint8]
NP = {
    ember.int8: np.int8,
    ember.int16: np.int16,
    ember.int32: np.int32,
    ember.int64: np.int64,
    ember.uint8: np.uint8,
}


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_add_sub_mul_neg_abs_square_wrap_like_numpy(dtype: ember.dtype) -> None:
    info = np.iinfo(NP[dtype])
    values = np.array([info.min, info.min + 1, -1 if info.min < 0 else 0, 1, info.max], NP[dtype])
    a = ember.from_numpy(values)
    b = ember.from_numpy(values[::-1].copy())
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal((a + b).numpy(), values + values[::-1])
        np.testing.assert_array_equal((a - b).numpy(), values - values[::-1])
        np.testing.assert_array_equal((a * b).numpy(), values * values[::-1])
        np.testing.assert_array_equal(a.square().numpy(), values * values)
        np.testing.assert_array_equal(ember.add(a, b, alpha=3).numpy(), values + 3 * values[::-1])
        if info.min < 0:
            np.testing.assert_array_equal((-a).numpy(), -values)
            np.testing.assert_array_equal(a.abs().numpy(), np.abs(values))


def test_a_python_int_that_wraps_in_the_tensor_dtype_multiplies_as_torch_does() -> None:
    x = ember.tensor([2**31 - 1], dtype=ember.int32)
    assert (x * 2).tolist() == [-2]
    assert (x * (-(2**31) - 1)).tolist() == [1]  # the int wraps to 2**31 - 1 first, as in torch


def test_alpha_and_beta_past_int64_are_never_converted_to_integers() -> None:
    # Converting inf or -1e308 to int64 is undefined behaviour (UBSan's float-cast-overflow):
    # float tensors use alpha as a double only, integer ones refuse what int64 cannot hold.
    x = ember.ones(3)
    assert ember.add(x, x, alpha=float("inf")).tolist() == [math.inf] * 3
    assert ember.sub(x, x, alpha=-1e308).tolist() == [math.inf] * 3
    i = ember.ones(3, dtype=ember.int64)
    # -(-2**63) wraps, as torch's integer arithmetic does: 1 + 2**63 -> -(2**63 - 1).
    assert ember.sub(i, i, alpha=-(2**63)).tolist() == [-(2**63) + 1] * 3
    m = ember.ones(2, 2, dtype=ember.int64)
    with pytest.raises(RuntimeError, match="must fit in int64"):
        ember.addmm(m, m, m, alpha=float("inf"))
    with pytest.raises(RuntimeError, match=r"\[index_add\] alpha nan does not fit"):
        i.index_add(0, ember.tensor([0]), ember.ones(1, dtype=ember.int64), alpha=math.nan)


@pytest.mark.parametrize("decimals", [-(2**63), 2**63 - 1, -400, 400])
def test_round_decimals_at_the_int64_extremes_is_nan_as_in_torch(decimals: int) -> None:
    # 10**|decimals| overflows to inf, so x * inf / inf and x / inf * inf are NaN (torch 2.13 too).
    # Was -decimals on INT64_MIN: signed overflow (UBSan found it through the registry fuzzer).
    x = ember.tensor([1.5, -2.0, 0.0])
    assert np.isnan(x.round(decimals=decimals).numpy()).all()
    y = ember.ones(1).expand(4).clone()
    y.round_(decimals=decimals)
    assert np.isnan(y.numpy()).all()


def test_round_decimals_still_rounds_to_the_power_of_ten() -> None:
    x = ember.tensor([1234.5678, -0.125], dtype=ember.float64)
    np.testing.assert_allclose(x.round(decimals=2).numpy(), [1234.57, -0.12])
    np.testing.assert_allclose(x.round(decimals=-2).numpy(), [1200.0, -0.0])


@pytest.mark.parametrize("diagonal", [2**63 - 1, -(2**63), 2**62, -(2**62), 4, -4])
def test_triu_tril_with_a_diagonal_past_the_matrix_keep_all_or_nothing(diagonal: int) -> None:
    # Was i + diagonal (+ 1) in int64: signed overflow at 2**63 - 1 (UBSan, registry fuzzer).
    x = ember.ones(3, 3, dtype=ember.float16)
    above = diagonal > 0
    np.testing.assert_array_equal(x.triu(diagonal).numpy(), np.zeros((3, 3)) if above else 1)
    np.testing.assert_array_equal(x.tril(diagonal).numpy(), 1 if above else np.zeros((3, 3)))
