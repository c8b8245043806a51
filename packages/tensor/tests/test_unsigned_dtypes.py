"""uint16/uint32/uint64: torch's "limited support" dtypes, and the arithmetic ember adds.

What torch 2.13 supports on them works, with values near each type's maximum checked against
numpy. ember also runs the integer arithmetic, comparisons and orderings torch refuses on them
(the Array API standard needs them), with numpy's wrapping results; mean and uint64 with a
signed type still raise torch's exception class with a message naming the op and dtype.
"""

from __future__ import annotations

import io
import pickle
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ember
from conftest import shapes

UNSIGNED = {ember.uint16: np.uint16, ember.uint32: np.uint32, ember.uint64: np.uint64}
BITS = {ember.uint16: 16, ember.uint32: 32, ember.uint64: 64}
DTYPES = tuple(UNSIGNED)
OTHER_DTYPES = (
    ember.bool, ember.uint8, ember.int8, ember.int16, ember.int32, ember.int64,
    ember.float16, ember.bfloat16, ember.float32, ember.float64, ember.complex64, ember.complex128,
)  # fmt: skip


def top(dtype: Any) -> int:
    return int(2 ** BITS[dtype] - 1)


def near_max(dtype: Any) -> list[int]:
    """Values at both ends of the type: 0, 1, the maximum and its neighbours, the top bit."""
    m = top(dtype)
    return [0, 1, 2, m // 2, m // 2 + 1, m - 2, m - 1, m]


def pair(dtype: Any) -> tuple[Any, np.ndarray]:
    values = near_max(dtype)
    return ember.tensor(values, dtype=dtype), np.array(values, dtype=UNSIGNED[dtype])


def same(t: Any, expected: np.ndarray) -> None:
    got = t.numpy()
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    assert got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)


# ---------------------------------------------------------------- dtype objects


@pytest.mark.parametrize("dtype", DTYPES)
def test_dtype_attributes(dtype: Any) -> None:
    bits = BITS[dtype]
    assert repr(dtype) == f"ember.uint{bits}"
    assert not dtype.is_signed and not dtype.is_floating_point and not dtype.is_complex
    assert dtype.itemsize == bits // 8
    info = ember.iinfo(dtype)
    assert (info.min, info.max, info.bits, info.dtype) == (0, top(dtype), bits, f"uint{bits}")
    assert info.max == np.iinfo(UNSIGNED[dtype]).max
    assert ember.tensor([1], dtype=dtype).element_size() == bits // 8
    assert ember.tensor([1], dtype=dtype).type() == f"torch.UInt{bits}Tensor"
    assert not ember.tensor([1], dtype=dtype).is_floating_point()


@pytest.mark.parametrize("dtype", DTYPES)
def test_dtype_pickles_by_name(dtype: Any) -> None:
    assert pickle.loads(pickle.dumps(dtype)) is dtype


# ---------------------------------------------------------------- creation and Python values


@pytest.mark.parametrize("dtype", DTYPES)
def test_tensor_tolist_item_numpy_round_trip_at_the_maximum(dtype: Any) -> None:
    values = near_max(dtype)
    t = ember.tensor(values, dtype=dtype)
    assert t.dtype == dtype
    assert t.tolist() == values  # exact Python ints, 2**64 - 1 included
    assert all(type(v) is int for v in t.tolist())
    assert t[-1].item() == top(dtype) and type(t[-1].item()) is int
    arr = t.numpy()
    np.testing.assert_array_equal(arr, np.array(values, dtype=UNSIGNED[dtype]))
    back = ember.from_numpy(arr)
    assert back.dtype == dtype and back.tolist() == values
    assert ember.tensor(arr).tolist() == values
    assert ember.as_tensor(arr).dtype == dtype


@pytest.mark.parametrize("dtype", DTYPES)
def test_from_numpy_shares_memory(dtype: Any) -> None:
    arr = np.array([1, 2, 3], dtype=UNSIGNED[dtype])
    t = ember.from_numpy(arr)
    arr[0] = top(dtype)
    assert t[0].item() == top(dtype)
    assert bytes(memoryview(t)) == arr.tobytes()


@pytest.mark.parametrize("dtype", DTYPES)
def test_factories(dtype: Any) -> None:
    # full/fill_ take Python ints up to int64's maximum (tensor() takes all of uint64's range).
    m = min(top(dtype), 2**63 - 1)
    same(ember.zeros(2, 3, dtype=dtype), np.zeros((2, 3), UNSIGNED[dtype]))
    same(ember.ones(4, dtype=dtype), np.ones(4, UNSIGNED[dtype]))
    same(ember.full((2,), m, dtype=dtype), np.full(2, m, UNSIGNED[dtype]))
    assert ember.empty(3, dtype=dtype).dtype == dtype
    x = ember.tensor([5, 6], dtype=dtype)
    same(ember.zeros_like(x), np.zeros(2, UNSIGNED[dtype]))
    same(ember.ones_like(x), np.ones(2, UNSIGNED[dtype]))
    same(ember.full_like(x, m), np.full(2, m, UNSIGNED[dtype]))
    assert ember.empty_like(x).dtype == dtype
    same(x.new_zeros(3), np.zeros(3, UNSIGNED[dtype]))
    same(x.new_ones(2), np.ones(2, UNSIGNED[dtype]))
    assert x.new_tensor([m]).tolist() == [m]


@pytest.mark.parametrize("dtype", DTYPES)
def test_full_and_fill_wrap_negatives_and_refuse_overflow(dtype: Any) -> None:
    m = top(dtype)
    # torch (c10::overflows): an unsigned type takes -1 as its maximum.
    assert ember.full((2,), -1, dtype=dtype).tolist() == [m, m]
    assert ember.zeros(2, dtype=dtype).fill_(-1).tolist() == [m, m]
    if dtype != ember.uint64:
        with pytest.raises(RuntimeError, match="overflow"):
            ember.full((1,), m + 1, dtype=dtype)
        with pytest.raises(RuntimeError, match="overflow"):
            ember.tensor([m + 1], dtype=dtype)
        assert ember.tensor([-1], dtype=dtype).tolist() == [m]
    else:
        with pytest.raises(OverflowError):
            ember.tensor([-1], dtype=dtype)
        with pytest.raises(OverflowError):
            ember.tensor([2**64], dtype=dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_randint(dtype: Any) -> None:
    high = min(top(dtype), 2**40)
    t = ember.randint(0, high, (500,), dtype=dtype)
    assert t.dtype == dtype
    values = np.array(t.tolist(), dtype=np.uint64)
    assert values.min() >= 0 and values.max() < high
    assert len(set(values.tolist())) > 400  # a 2**16 or wider range: few repeats
    small = ember.randint(3, 5, (200,), dtype=dtype).tolist()
    assert set(small) == {3, 4}


# ---------------------------------------------------------------- casts


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("other", OTHER_DTYPES + DTYPES)
def test_casts_both_ways(dtype: Any, other: Any) -> None:
    t, ref = pair(dtype)
    converted = t.to(other)
    assert converted.dtype == other
    if other == ember.bfloat16:
        expected = ref.astype(np.float32)
        got = converted.float().numpy()
        np.testing.assert_allclose(got, expected, rtol=2**-8)
    elif other == ember.bool:
        np.testing.assert_array_equal(converted.numpy(), ref != 0)
    else:
        np_other = np.dtype(converted.numpy().dtype)
        with np.errstate(over="ignore"):
            expected = ref.astype(np_other)
        np.testing.assert_array_equal(converted.numpy(), expected)
    # and back: integers wrap modulo 2**bits; small values survive every dtype exactly
    small = ember.tensor([0, 1, 2, 7, 100], dtype=other)
    expected_back = [0, 1, 1, 1, 1] if other == ember.bool else [0, 1, 2, 7, 100]
    back = small.to(dtype)
    assert back.dtype == dtype and back.tolist() == expected_back
    dst = ember.zeros(5, dtype=dtype)
    dst.copy_(small)
    assert dst.tolist() == expected_back
    src = ember.tensor([0, 1, 2, 7, 100], dtype=dtype)
    dst_other = ember.zeros(5, dtype=other)
    dst_other.copy_(src)
    assert dst_other.to(ember.float64).tolist() == [float(v) for v in expected_back]


@pytest.mark.parametrize("dtype", DTYPES)
def test_casts_from_signed_and_float_wrap_like_torch(dtype: Any) -> None:
    m = top(dtype)
    assert ember.tensor([-1, -2]).to(dtype).tolist() == [m, m - 1]
    assert ember.tensor([-1.0, 3.9, 0.0]).to(dtype).tolist() == [m, 3, 0]
    assert ember.tensor([-1.0], dtype=ember.float64).to(dtype).tolist() == [m]
    big = ember.tensor([1e19], dtype=ember.float64).to(ember.uint64).tolist()
    assert big == [10**19]


# ---------------------------------------------------------------- data movement


@pytest.mark.parametrize("dtype", DTYPES)
def test_views_and_copies(dtype: Any) -> None:
    values = near_max(dtype)
    t = ember.tensor(values, dtype=dtype).reshape(2, 4)
    ref = np.array(values, dtype=UNSIGNED[dtype]).reshape(2, 4)
    same(t, ref)
    same(t.t(), ref.T)
    same(t.transpose(0, 1).contiguous(), np.ascontiguousarray(ref.T))
    same(t.view(4, 2), ref.reshape(4, 2))
    same(t.clone(), ref)
    same(t.flatten(), ref.ravel())
    same(ember.cat([t, t]), np.concatenate([ref, ref]))
    same(ember.stack([t, t]), np.stack([ref, ref]))
    same(t.repeat(2, 3), np.tile(ref, (2, 3)))
    same(t.unsqueeze(0).expand(3, 2, 4).contiguous(), np.broadcast_to(ref, (3, 2, 4)))


@pytest.mark.parametrize("dtype", DTYPES)
def test_fill_zero_and_indexing(dtype: Any) -> None:
    m = top(dtype)
    small = min(m, 2**63 - 1)  # Python ints in setitem/fill_ go through int64
    t, ref = pair(dtype)
    same(t[1:5], ref[1:5])
    same(t[ember.tensor([7, 0, 3])], ref[[7, 0, 3]])
    mask = ref > 3
    same(t[ember.from_numpy(mask)], ref[mask])
    t[0] = small
    ref[0] = small
    same(t, ref)
    t[6] = ember.tensor(m, dtype=dtype)
    ref[6] = m
    same(t, ref)
    t[ember.tensor([1, 2])] = ember.tensor([m - 5, 9], dtype=dtype)
    ref[[1, 2]] = [m - 5, 9]
    same(t, ref)
    t[3:5] = 4
    ref[3:5] = 4
    same(t, ref)
    same(t.fill_(small), np.full(8, small, UNSIGNED[dtype]))
    same(t.fill_(ember.tensor(m, dtype=dtype)), np.full(8, m, UNSIGNED[dtype]))
    same(t.zero_(), np.zeros(8, UNSIGNED[dtype]))


# ---------------------------------------------------------------- the supported math


@pytest.mark.parametrize("dtype", DTYPES)
def test_eq_ne(dtype: Any) -> None:
    t, ref = pair(dtype)
    other, oref = t.clone(), ref.copy()
    other[2] = 5
    oref[2] = 5
    np.testing.assert_array_equal((t == other).numpy(), ref == oref)
    np.testing.assert_array_equal((t != other).numpy(), ref != oref)
    biggest = ember.tensor(top(dtype), dtype=dtype)
    np.testing.assert_array_equal((t == biggest).numpy(), ref == top(dtype))
    np.testing.assert_array_equal((t == top(dtype)).numpy(), ref == top(dtype))
    np.testing.assert_array_equal((t == 2**15).numpy(), ref == 2**15)
    np.testing.assert_array_equal(t.eq(1).numpy(), ref == 1)
    np.testing.assert_array_equal((t == 1.5).numpy(), ref == 1.5)
    np.testing.assert_array_equal(t.ne(0).numpy(), ref != 0)


@pytest.mark.parametrize("dtype", DTYPES)
def test_mul_wraps_modulo_2_pow_bits(dtype: Any) -> None:
    t, ref = pair(dtype)
    with np.errstate(over="ignore"):
        same(t * t, ref * ref)
        same(t * 3, ref * UNSIGNED[dtype](3))
        same(ember.mul(t, t), ref * ref)
    same(t * True, ref)
    r = t * 2.5
    assert r.dtype == ember.float32
    np.testing.assert_allclose(r.numpy(), ref.astype(np.float32) * np.float32(2.5), rtol=1e-6)
    u = t.clone()
    u.mul_(2)
    with np.errstate(over="ignore"):
        same(u, ref * UNSIGNED[dtype](2))


@pytest.mark.parametrize("dtype", DTYPES)
def test_true_division_and_float_math_promote_to_float32(dtype: Any) -> None:
    t, ref = pair(dtype)
    f = ref.astype(np.float32)
    for got, expected in (
        (t / 2, f / np.float32(2)),
        (t / t[1:2], f / np.float32(1)),
        (t.sqrt(), np.sqrt(f)),
        (ember.exp(ember.tensor([0, 1, 2], dtype=dtype)), np.exp(np.float32([0, 1, 2]))),
    ):
        assert got.dtype == ember.float32
        np.testing.assert_allclose(got.numpy(), expected, rtol=1e-6)
    mixed = t * ember.tensor(2.0)
    assert mixed.dtype == ember.float32
    assert (t.to(ember.float64) + ember.zeros(8, dtype=ember.float64)).dtype == ember.float64
    assert ember.promote_types(dtype, ember.float32) == ember.float32
    assert ember.promote_types(dtype, ember.float16) == ember.float16
    assert ember.promote_types(dtype, ember.float64) == ember.float64
    assert ember.promote_types(dtype, dtype) == dtype
    assert (t * ember.ones(8, dtype=ember.float16)).dtype == ember.float16


@pytest.mark.parametrize("dtype", DTYPES)
def test_bitwise_and_or_xor(dtype: Any) -> None:
    t, ref = pair(dtype)
    mask = top(dtype) // 3
    other = ember.full((8,), mask, dtype=dtype)
    o = np.full(8, mask, UNSIGNED[dtype])
    same(t & other, ref & o)
    same(t | other, ref | o)
    same(t ^ other, ref ^ o)
    same(t & 1, ref & UNSIGNED[dtype](1))
    same(t ^ 3, ref ^ UNSIGNED[dtype](3))
    same(t.bitwise_or(other), ref | o)


def wrapped_sum(ref: np.ndarray) -> int:
    """torch sums uint16/32/64 in int64: modulo 2**64, read as a signed value."""
    total = int(sum(int(v) for v in ref.ravel())) % 2**64
    return total - 2**64 if total >= 2**63 else total


@pytest.mark.parametrize("dtype", DTYPES)
def test_sum_prod_cumsum_give_int64(dtype: Any) -> None:
    t, ref = pair(dtype)
    s = t.sum()
    assert s.dtype == ember.int64 and s.item() == wrapped_sum(ref)
    small = ember.tensor([[1, 2, 3], [4, 5, 6]], dtype=dtype)
    sref = np.array([[1, 2, 3], [4, 5, 6]], dtype=np.int64)
    same(small.sum(0), sref.sum(0))
    same(small.sum(1, keepdim=True), sref.sum(1, keepdims=True))
    same(small.prod(1), sref.prod(1))
    assert small.prod().item() == 720 and small.prod().dtype == ember.int64
    assert small.nansum().item() == 21
    c = t.cumsum(0)
    assert c.dtype == ember.int64
    with np.errstate(over="ignore"):
        same(c, np.cumsum(ref.astype(np.int64)))
    same(small.cumsum(1), np.cumsum(sref, 1))
    same(small.cumprod(1), np.cumprod(sref, 1))
    assert t.sum(dtype=ember.float64).item() == pytest.approx(float(ref.astype(np.float64).sum()))


@pytest.mark.parametrize("dtype", DTYPES)
def test_sort_unique_any_all(dtype: Any) -> None:
    rng = np.random.default_rng(0)
    ref = rng.integers(0, 2 ** BITS[dtype], size=40, dtype=UNSIGNED[dtype], endpoint=False)
    ref[:5] = top(dtype)
    ref[5:8] = ref[10]
    t = ember.from_numpy(ref.copy())
    values, indices = t.sort()
    same(values, np.sort(ref))
    same(indices, np.argsort(ref, kind="stable").astype(np.int64))
    values, indices = t.sort(stable=True, descending=True)
    same(values, np.sort(ref)[::-1].copy())
    same(t.argsort(), np.argsort(ref, kind="stable").astype(np.int64))
    uniq, counts = ember.unique(t, return_counts=True)
    nu, nc = np.unique(ref, return_counts=True)
    same(uniq, nu)
    same(counts, nc.astype(np.int64))
    same(ember.unique_consecutive(ember.from_numpy(np.sort(ref))), nu)
    z = ember.tensor([0, top(dtype)], dtype=dtype)
    assert z.any().item() is True and z.all().item() is False
    assert bool(z[1]) and not bool(z[0])
    same(ember.tensor([[0, 1], [2, 3]], dtype=dtype).all(1), np.array([False, True]))


@pytest.mark.parametrize("dtype", DTYPES)
def test_equal_isclose_allclose_where_predicates(dtype: Any) -> None:
    t, ref = pair(dtype)
    assert ember.equal(t, t.clone())
    u = t.clone()
    u[0] = 9
    assert not ember.equal(t, u)
    np.testing.assert_array_equal(ember.isclose(t, u).numpy(), ref == u.numpy())
    assert ember.allclose(t, t.clone()) and not ember.allclose(t, u)
    same(ember.where(t == 1, t, u), np.where(ref == 1, ref, u.numpy()))
    np.testing.assert_array_equal(t.isnan().numpy(), np.zeros(8, bool))
    np.testing.assert_array_equal(t.isfinite().numpy(), np.ones(8, bool))
    np.testing.assert_array_equal(ember.isinf(t).numpy(), np.zeros(8, bool))


@pytest.mark.parametrize("dtype", DTYPES)
def test_rounding_positive_and_products_of_vectors(dtype: Any) -> None:
    t, ref = pair(dtype)
    for fn in (ember.floor, ember.ceil, ember.round, ember.trunc, ember.fix, ember.positive):
        same(fn(t), ref)
    same(ember.nan_to_num(t), ref)
    v = ember.tensor([1, 2, 3], dtype=dtype)
    nv = np.array([1, 2, 3], dtype=UNSIGNED[dtype])
    same(ember.outer(v, v), np.outer(nv, nv))
    same(ember.kron(v, v), np.kron(nv, nv))
    same(ember.diag(v), np.diag(nv))


# ------------------------------------------- beyond torch: the arithmetic the Array API needs
# torch 2.13 refuses these on uint16/32/64 (NotImplementedError); ember runs them, because the
# Array API standard needs them and ember.Tensor is its namespace's array. Results wrap modulo
# 2**bits exactly as numpy's do, so numpy is the oracle at both ends of each type.


def _np_floor_divide(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return a // b


BINARY_BEYOND_TORCH: dict[str, tuple[Callable[[Any, Any], Any], Callable[..., Any]]] = {
    "add": (lambda x, y: x + y, np.add),
    "sub": (lambda x, y: x - y, np.subtract),
    "floor_divide": (lambda x, y: x // y, _np_floor_divide),
    "div_floor": (lambda x, y: x.div(y, rounding_mode="floor"), _np_floor_divide),
    "div_trunc": (lambda x, y: x.div(y, rounding_mode="trunc"), _np_floor_divide),
    "remainder": (lambda x, y: x % y, np.remainder),
    "fmod": (lambda x, y: ember.fmod(x, y), np.fmod),
    "pow": (lambda x, y: x ** (y % 5), lambda a, b: a ** (b % 5)),
    "maximum": (ember.maximum, np.maximum),
    "minimum": (ember.minimum, np.minimum),
    "fmax": (ember.fmax, np.fmax),
    "gcd": (ember.gcd, np.gcd),
    "lt": (lambda x, y: x < y, np.less),
    "le": (lambda x, y: x <= y, np.less_equal),
    "gt": (lambda x, y: x > y, np.greater),
    "ge": (lambda x, y: x >= y, np.greater_equal),
}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", sorted(BINARY_BEYOND_TORCH))
def test_binary_ops_beyond_torch_match_numpy(dtype: Any, name: str) -> None:
    t, ref = pair(dtype)
    oref = ref[::-1].copy()  # the top-bit values meet small ones
    oref[oref == 0] = 3  # no zero divisor
    other = ember.from_numpy(oref.copy())
    fn, np_fn = BINARY_BEYOND_TORCH[name]
    with np.errstate(over="ignore"):
        expected = np_fn(ref, oref)
    got = fn(t, other)
    assert got.dtype == (ember.bool if expected.dtype == np.bool_ else dtype)
    np.testing.assert_array_equal(got.numpy(), expected)


@pytest.mark.parametrize("dtype", DTYPES)
def test_shifts_scalars_and_in_place_forms(dtype: Any) -> None:
    t, ref = pair(dtype)
    u = UNSIGNED[dtype]
    bits = BITS[dtype]
    for k in (0, 1, bits - 1):
        same(t << k, ref << u(k))
        same(t >> k, ref >> u(k))
    # Shifts by the width or more give 0, as torch's do for its other integer types.
    same(t << bits, np.zeros(8, u))
    same(t >> bits, np.zeros(8, u))
    with np.errstate(over="ignore"):
        same(t + 1, ref + u(1))
        same(t - 1, ref - u(1))
        same(1 - t, u(1) - ref)
        v = t.clone()
        v.add_(t)
        same(v, ref + ref)
        v.sub_(1)
        same(v, ref + ref - u(1))
    same(t // 7, ref // u(7))
    same(t % 7, ref % u(7))
    with pytest.raises(RuntimeError, match=r"\[floor_divide\] ZeroDivisionError"):
        t // 0


@pytest.mark.parametrize("dtype", DTYPES)
def test_unary_ops_beyond_torch_match_numpy(dtype: Any) -> None:
    t, ref = pair(dtype)
    u = UNSIGNED[dtype]
    with np.errstate(over="ignore"):
        same(-t, -ref)
        same(t.square(), ref * ref)
    same(t.abs(), ref)
    same(t.sign(), np.sign(ref))
    same(~t, ~ref)
    same(t.clamp(2, top(dtype) // 3), np.clip(ref, u(2), u(top(dtype) // 3)))
    same(ember.relu(t), ref)
    np.testing.assert_array_equal(t.logical_not().numpy(), np.logical_not(ref))


@pytest.mark.parametrize("dtype", DTYPES)
def test_orderings_beyond_torch_match_numpy(dtype: Any) -> None:
    t, ref = pair(dtype)
    m = t.reshape(2, 4)
    mref = ref.reshape(2, 4)
    assert t.max().item() == top(dtype) and t.min().item() == 0
    same(m.amax(1), mref.max(1))
    same(m.amin(0), mref.min(0))
    values, indices = m.max(1)
    same(values, mref.max(1))
    same(indices, mref.argmax(1).astype(np.int64))
    assert t.argmax().item() == int(ref.argmax()) and t.argmin().item() == int(ref.argmin())
    same(t.topk(3).values, np.sort(ref)[::-1][:3].copy())
    assert t.kthvalue(2).values.item() == int(np.sort(ref)[1])
    assert t.median().item() == int(np.sort(ref)[(len(ref) - 1) // 2])
    same(ember.searchsorted(t, t), np.searchsorted(ref, ref).astype(np.int64))
    same(t.flip(0), ref[::-1].copy())
    same(t.nonzero().reshape(-1), np.nonzero(ref)[0].astype(np.int64))
    assert ember.count_nonzero(t).item() == int(np.count_nonzero(ref))
    same(t.index_select(0, ember.tensor([7, 0])), ref[[7, 0]])
    same(t.gather(0, ember.tensor([6, 1])), ref[[6, 1]])
    same(t.masked_fill(t == 1, 9), np.where(ref == 1, 9, ref).astype(ref.dtype))
    same(ember.arange(2, 20, 3, dtype=dtype), np.arange(2, 20, 3, dtype=UNSIGNED[dtype]))
    same(t.cummax(0).values, np.maximum.accumulate(ref))


@pytest.mark.parametrize("dtype", DTYPES)
def test_products_and_sums_in_the_unsigned_type(dtype: Any) -> None:
    t, ref = pair(dtype)
    u = UNSIGNED[dtype]
    a = ember.tensor([[1, 2], [3, 4]], dtype=dtype)
    na = np.array([[1, 2], [3, 4]], dtype=u)
    same(a @ a, na @ na)
    same(ember.matmul(t.reshape(2, 4), t.reshape(4, 2)), ref.reshape(2, 4) @ ref.reshape(4, 2))
    # dtype=uint64 accumulates modulo 2**64, as numpy's uint64 sums do.
    with np.errstate(over="ignore"):
        expected_sum = ref.sum(dtype=np.uint64)
        same(t.sum(dtype=ember.uint64), np.asarray(expected_sum))
        same(t.cumsum(0, dtype=ember.uint64), np.cumsum(ref, dtype=np.uint64))


@pytest.mark.parametrize("dtype", DTYPES)
def test_mean_raises_runtime_error(dtype: Any) -> None:
    with pytest.raises(RuntimeError, match=r"\[mean\].*uint"):
        ember.tensor([1, 2], dtype=dtype).mean()


def test_promotion_follows_the_array_api_lattice() -> None:
    # torch refuses every one of these; the standard defines them (and torch's own table gives
    # uint8 + int8 -> int16 by the same rule: the narrowest signed type holding both).
    P = ember.promote_types
    assert P(ember.uint16, ember.uint32) == ember.uint32
    assert P(ember.uint8, ember.uint64) == ember.uint64
    assert P(ember.uint16, ember.int8) == ember.int32
    assert P(ember.uint16, ember.int32) == ember.int32
    assert P(ember.uint32, ember.int16) == ember.int64
    assert P(ember.uint32, ember.int64) == ember.int64
    assert P(ember.int8, ember.uint32) == ember.int64
    assert P(ember.bool, ember.uint32) == ember.uint32
    assert P(ember.uint64, ember.complex64) == ember.complex64
    x = ember.tensor([1, 2], dtype=ember.uint32)
    r = x + ember.tensor([-1, 1], dtype=ember.int32)
    assert r.dtype == ember.int64 and r.tolist() == [0, 3]
    assert (x * ember.tensor([2, 3], dtype=ember.uint16)).dtype == ember.uint32


@pytest.mark.parametrize("other", (ember.int8, ember.int32, ember.int64))
def test_uint64_with_a_signed_type_is_refused(other: Any) -> None:
    # No signed type holds both (numpy goes to float64; the standard leaves it undefined).
    with pytest.raises(RuntimeError, match=r"UInt64 and (Char|Int|Long)"):
        ember.promote_types(ember.uint64, other)
    with pytest.raises(RuntimeError, match="Promotion for uint16, uint32, uint64"):
        ember.tensor([1], dtype=ember.uint64) & ember.tensor([1], dtype=other)


# ---------------------------------------------------------------- printing and serialization


def test_printing() -> None:
    t = ember.tensor([1, 2**64 - 1], dtype=ember.uint64)
    assert repr(t) == "tensor([                   1, 18446744073709551615], dtype=ember.uint64)"
    assert str(ember.tensor([1, 2], dtype=ember.uint16)) == "tensor([1, 2], dtype=ember.uint16)"


@pytest.mark.parametrize("dtype", DTYPES)
def test_save_load_round_trip(dtype: Any, tmp_path: Any) -> None:
    t, ref = pair(dtype)
    state = {"w": t, "view": t.reshape(2, 4)[:, 1:]}
    path = tmp_path / "u.ember"
    ember.save(state, path)
    loaded = ember.load(path)
    same(loaded["w"], ref)
    same(loaded["view"], ref.reshape(2, 4)[:, 1:])
    buffer = io.BytesIO()
    ember.save(t, buffer)
    buffer.seek(0)
    assert ember.load(buffer).tolist() == near_max(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_save_load_numpy_array(dtype: Any, tmp_path: Any) -> None:
    arr = np.array(near_max(dtype), dtype=UNSIGNED[dtype])
    path = tmp_path / "a.ember"
    ember.save({"a": arr}, path)
    back = ember.load(path)["a"]
    assert isinstance(back, np.ndarray) and back.dtype == arr.dtype
    np.testing.assert_array_equal(back, arr)


@pytest.mark.parametrize("dtype", DTYPES)
def test_pickle_and_deepcopy(dtype: Any) -> None:
    import copy

    t, ref = pair(dtype)
    same(pickle.loads(pickle.dumps(t)), ref)
    same(copy.deepcopy(t), ref)


def test_torch_checkpoint_with_unsigned_tensors(tmp_path: Any) -> None:
    torch = pytest.importorskip("torch")
    path = tmp_path / "torch.pt"
    values = {
        "a": [1, 2**16 - 1],
        "b": [3, 2**32 - 1],
        "c": [2**64 - 1, 5],
    }
    dtypes = {"a": torch.uint16, "b": torch.uint32, "c": torch.uint64}
    torch.save({k: torch.tensor(v, dtype=dtypes[k]) for k, v in values.items()}, str(path))
    loaded = ember.load(path)
    assert loaded["a"].dtype == ember.uint16 and loaded["a"].tolist() == values["a"]
    assert loaded["b"].dtype == ember.uint32 and loaded["b"].tolist() == values["b"]
    assert loaded["c"].dtype == ember.uint64 and loaded["c"].tolist() == values["c"]


def _v3_archive(dtype_name: str, raw: bytes, numel: int, size: tuple[int, ...]) -> bytes:
    """A torch.save zip as torch 2.13 writes uint tensors: _rebuild_tensor_v3 over an untyped
    storage, with the dtype as a global (built by hand: no torch needed)."""
    from torch_pickles import PickleWriter, archive

    w = PickleWriter().glob("torch._utils", "_rebuild_tensor_v3").op(b"(")
    w.storage("0", len(raw), kind="UntypedStorage")
    w.value(0).value(size).value((1,) * len(size)).value(False)
    w.glob("collections", "OrderedDict").op(b")").op(b"R")
    w.glob("torch", dtype_name).op(b"t").op(b"R")
    return archive(w.done(), {"0": raw})


@pytest.mark.parametrize("dtype", DTYPES)
def test_torch_rebuild_tensor_v3_archive(dtype: Any) -> None:
    values = near_max(dtype)
    raw = np.array(values, dtype=UNSIGNED[dtype]).tobytes()
    loaded = ember.load(io.BytesIO(_v3_archive(f"uint{BITS[dtype]}", raw, 8, (8,))))
    assert loaded.dtype == dtype and loaded.tolist() == values
    # a storage whose bytes do not hold whole elements, or one too small, is refused
    with pytest.raises(pickle.UnpicklingError, match=r"\[load\].*(whole|outside)"):
        ember.load(io.BytesIO(_v3_archive(f"uint{BITS[dtype]}", raw[:-1], 8, (8,))))
    with pytest.raises(pickle.UnpicklingError, match=r"\[load\].*outside"):
        ember.load(io.BytesIO(_v3_archive(f"uint{BITS[dtype]}", raw, 8, (9,))))


# ---------------------------------------------------------------- hypothesis over shapes


@settings(max_examples=30, deadline=None)
@given(
    dtype=st.sampled_from(DTYPES),
    shape=shapes(max_dims=3),
    seed=st.integers(0, 2**32 - 1),
)
def test_random_shapes_round_trip_sort_and_sum(
    dtype: Any, shape: tuple[int, ...], seed: int
) -> None:
    rng = np.random.default_rng(seed)
    ref = rng.integers(0, 2 ** BITS[dtype], size=shape, dtype=UNSIGNED[dtype], endpoint=False)
    t = ember.tensor(ref.tolist(), dtype=dtype).reshape(shape)
    same(t, ref)
    assert t.tolist() == ref.tolist()
    same(ember.from_numpy(ref.copy()).clone(), ref)
    assert t.sum().item() == wrapped_sum(ref)
    if ref.ndim:
        same(t.sort(-1).values, np.sort(ref, -1))
        np.testing.assert_array_equal((t == t.clone()).numpy(), np.ones(shape, bool))
        with np.errstate(over="ignore"):
            same(t * t, ref * ref)
