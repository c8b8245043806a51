"""Python ints in [2**63, 2**64) as scalar arguments, and ints past that, as torch 2.13 has them.

torch's Scalar holds such an int as a uint64: full/fill_ store it exactly into uint64, as a float
into floating dtypes and refuse it (RuntimeError, overflow) into narrower integer dtypes; as an
operand of a binary op it is a wrapped number of dtype uint64, so type promotion decides the
result and int64 arithmetic wraps. Ints outside [-2**63, 2**64) raise OverflowError (ember's class
is also a RuntimeError, which ember raised before). The expected values were measured on torch.
"""

from __future__ import annotations

from typing import Any

import pytest

import ember

B = 2**63
M = 2**64 - 1
OVERFLOW_MSG = r"does not fit in int64 or uint64"


def cannot_convert(op: str, value: object, dtype: str) -> str:
    """torch's overflow rule for a number stored into a dtype, as ember words it."""
    return rf"\[{op}\] value {value} cannot be converted to type {dtype} without overflow"


def u64(*values: int) -> ember.Tensor:
    return ember.tensor(list(values), dtype=ember.uint64)


# full, full_like, new_full, fill_


@pytest.mark.parametrize("value", [B, M, B + 12345])
def test_full_uint64_holds_the_exact_value(value: int) -> None:
    assert ember.full((2,), value, dtype=ember.uint64).tolist() == [value, value]
    assert ember.full_like(u64(1, 2), value).tolist() == [value, value]
    assert u64(1).new_full((2,), value).tolist() == [value, value]
    assert ember.zeros(2, dtype=ember.uint64).fill_(value).tolist() == [value, value]


def test_full_from_a_uint64_tensor_keeps_the_value() -> None:
    assert ember.full((2,), u64(M)[0], dtype=ember.uint64).tolist() == [M, M]


def test_fill_of_a_strided_uint64_tensor() -> None:
    x = ember.zeros(2, 3, dtype=ember.uint64).t()
    assert x.fill_(M).tolist() == [[M, M], [M, M], [M, M]]


@pytest.mark.parametrize(
    ("dtype", "name"),
    [(None, "int64"), (ember.int64, "int64"), (ember.uint8, "uint8"), (ember.uint32, "uint32"),
     (ember.int32, "int32")],
)  # fmt: skip
def test_full_into_a_narrower_int_dtype_overflows(dtype: Any, name: str) -> None:
    kwargs = {} if dtype is None else {"dtype": dtype}
    with pytest.raises(RuntimeError, match=rf"\[full\] value {B} cannot be converted to type "
                       rf"{name} without overflow"):  # fmt: skip
        ember.full((2,), B, **kwargs)
    with pytest.raises(RuntimeError, match=rf"value {M} cannot be converted to type {name}"):
        ember.full((2,), M, **kwargs)


def test_fill_and_full_like_into_int64_overflow() -> None:
    with pytest.raises(RuntimeError, match=cannot_convert("fill_", B, "int64")):
        ember.zeros(2, dtype=ember.int64).fill_(B)
    with pytest.raises(RuntimeError, match=r"\[full_like\] value .* without overflow"):
        ember.full_like(ember.tensor([1]), B)
    with pytest.raises(RuntimeError, match=r"without overflow"):
        ember.tensor([1]).new_full((2,), B)


def test_fill_checks_python_ints_like_full() -> None:
    # torch refuses a Python int a dtype cannot hold (negatives wrap into unsigned dtypes).
    with pytest.raises(RuntimeError, match=cannot_convert("fill_", 300, "uint8")):
        ember.zeros(2, dtype=ember.uint8).fill_(300)
    assert ember.zeros(2, dtype=ember.uint8).fill_(-1).tolist() == [255, 255]
    assert ember.zeros(1, dtype=ember.uint64).fill_(-1).tolist() == [M]


def test_fill_checks_python_floats_like_full() -> None:
    with pytest.raises(RuntimeError, match=cannot_convert("fill_", ".*", "float32")):
        ember.zeros(2).fill_(1e300)
    with pytest.raises(RuntimeError, match=cannot_convert("fill_", "nan", "int64")):
        ember.zeros(2, dtype=ember.int64).fill_(float("nan"))
    assert ember.zeros(2, dtype=ember.int64).fill_(2.5).tolist() == [2, 2]
    assert ember.zeros(1, dtype=ember.float16).fill_(float("inf")).tolist() == [float("inf")]


def test_full_and_fill_into_floats_bool_and_complex() -> None:
    assert ember.full((2,), B, dtype=ember.float32).tolist() == [float(B)] * 2
    assert ember.full((2,), M, dtype=ember.float64).tolist() == [float(M)] * 2
    assert ember.full((2,), M, dtype=ember.bool).tolist() == [True, True]
    assert ember.full((2,), M, dtype=ember.complex64).tolist() == [complex(M)] * 2
    assert ember.zeros(2).fill_(B).tolist() == [float(B)] * 2
    assert ember.zeros(2, dtype=ember.bool).fill_(M).tolist() == [True, True]
    assert ember.zeros(2, dtype=ember.complex64).fill_(M).tolist() == [complex(M)] * 2
    assert ember.full_like(ember.tensor([1.0]), M).tolist() == [float(M)]
    with pytest.raises(RuntimeError, match=r"value .* cannot be converted to type float16"):
        ember.full((2,), M, dtype=ember.float16)


@pytest.mark.parametrize("value", [2**64, 2**70, -(2**63) - 1])
def test_ints_outside_int64_and_uint64_raise_overflow_error(value: int) -> None:
    with pytest.raises(OverflowError, match=rf"\[full\] the integer {value} given for "
                       rf"'fill_value' {OVERFLOW_MSG}"):  # fmt: skip
        ember.full((2,), value, dtype=ember.uint64)
    with pytest.raises(OverflowError, match=rf"\[fill_\] the integer {value} .*{OVERFLOW_MSG}"):
        ember.zeros(2, dtype=ember.uint64).fill_(value)
    x = ember.tensor([1])
    with pytest.raises(OverflowError, match=rf"\[__eq__\] the integer {value} given for 'other'"):
        _ = u64(1) == value
    with pytest.raises(OverflowError, match=rf"\[__add__\] the integer {value}"):
        _ = x + value


def test_the_overflow_error_gives_torch_s_reason() -> None:
    with pytest.raises(OverflowError, match=r"\(int too big to convert\)$"):
        ember.full((1,), 2**64, dtype=ember.uint64)
    with pytest.raises(OverflowError, match=r"\(can't convert negative int to unsigned\)$"):
        ember.full((1,), -(2**63) - 1)


def test_the_overflow_error_is_also_ember_s_former_runtime_error() -> None:
    with pytest.raises(RuntimeError, match=rf"\[add\] the integer {2**64} .*{OVERFLOW_MSG}"):
        ember.add(ember.tensor([1]), 2**64)
    with pytest.raises(RuntimeError, match=rf"\[fill_\] the integer {-(2**63) - 1}"):
        ember.zeros(1).fill_(-(2**63) - 1)


# binary ops: a wrapped uint64 number


def test_uint64_tensor_with_a_big_int_operand() -> None:
    u = u64(1, M)
    assert (u == M).tolist() == [False, True]
    assert (u != M).tolist() == [True, False]
    assert (u * M).tolist() == [M, 1]
    assert (M * u).tolist() == [M, 1]
    assert (u & M).tolist() == [1, M]
    assert (u | B).tolist() == [B + 1, M]
    assert (u ^ M).tolist() == [M - 1, 0]
    assert (B ^ u64(1)).tolist() == [B + 1]
    assert ember.bitwise_xor(u, M).tolist() == [M - 1, 0]
    assert (u64(B) == B).tolist() == [True]
    assert ember.where(ember.tensor([True, False]), u, M).tolist() == [1, M]
    assert (u * M).dtype == ember.uint64


def test_where_checks_a_python_int_against_an_integral_result() -> None:
    # Unlike arithmetic, torch.where refuses an int its integral result dtype cannot hold.
    c = ember.tensor([True, False])
    with pytest.raises(RuntimeError, match=cannot_convert("where", B, "int64")):
        ember.where(c, ember.tensor([1, 2]), B)
    with pytest.raises(RuntimeError, match=rf"value {B} cannot be converted to type int64"):
        ember.where(c, B, ember.tensor([1, 2]))
    with pytest.raises(RuntimeError, match=rf"value {B} cannot be converted to type int32"):
        ember.where(c, ember.tensor([1, 2], dtype=ember.int32), B)
    with pytest.raises(RuntimeError, match=r"value 300 cannot be converted to type uint8"):
        ember.tensor([1, 2], dtype=ember.uint8).where(c, 300)
    assert ember.where(c, ember.tensor([1, 2], dtype=ember.uint8), -1).tolist() == [1, 255]
    assert ember.where(c, B, B).tolist() == [B, B]
    assert ember.where(c, ember.tensor([1.0, 2.0]), B).tolist() == [1.0, float(B)]
    half = ember.tensor([1.0, 2.0], dtype=ember.float16)
    assert ember.where(c, half, 100000).tolist() == [1.0, float("inf")]


def test_in_place_ops_with_a_big_int_operand() -> None:
    u = u64(1, M)
    assert u.clone().eq_(M).tolist() == [0, 1]
    assert u.clone().mul_(M).tolist() == [M, 1]


def test_int_tensors_wrap_like_torch() -> None:
    assert (ember.tensor([1]) + B).tolist() == [-(2**63) + 1]
    assert (ember.tensor([1]) - B).tolist() == [-(2**63) + 1]
    assert (ember.tensor([1]) + B).dtype == ember.int64
    assert (ember.tensor([1]) == B).tolist() == [False]
    assert (ember.tensor([1]) * M).tolist() == [-1]
    assert (ember.tensor([5]) // B).tolist() == [-1]
    x = ember.tensor([1])
    x += B
    assert x.tolist() == [-(2**63) + 1]
    assert (ember.tensor([1], dtype=ember.uint8) + M).tolist() == [0]
    assert (ember.tensor([255], dtype=ember.uint8) == M).tolist() == [True]
    assert (ember.tensor([1], dtype=ember.int32) + B).tolist() == [1]
    assert (ember.tensor([1], dtype=ember.int32) + B).dtype == ember.int32


def test_float_tensors_take_the_float_value() -> None:
    assert (ember.tensor([1.0]) + B).tolist() == [float(B)]
    assert (ember.tensor([1.0]) + M).dtype == ember.float32
    assert (ember.tensor([1.0], dtype=ember.float64) * M).tolist() == [float(M)]
    assert (ember.tensor([1.0], dtype=ember.float64) / B).tolist() == [2.0**-63]
    assert ember.tensor([1.0]).clamp(max=B).tolist() == [1.0]
    assert ember.tensor([1.0]).pow(B).tolist() == [1.0]
    assert ember.add(ember.tensor([1.0]), 1, alpha=B).tolist() == [float(B)]


def test_result_type_of_a_big_int() -> None:
    assert ember.result_type(ember.tensor([1]), B) == ember.int64
    assert ember.result_type(ember.tensor([1], dtype=ember.uint8), M) == ember.uint8
    assert ember.result_type(u64(1), M) == ember.uint64


def test_bool_with_a_big_int_promotes_to_uint64() -> None:
    # torch refuses bool + uint64 ("Promotion for uint16, uint32, uint64 types is not
    # supported"); ember follows the Array API lattice there (bool + uintN -> uintN).
    r = ember.tensor([True, False]) + M
    assert r.dtype == ember.uint64 and r.tolist() == [0, M]
    assert (ember.tensor([True]) == M).tolist() == [False]


def test_uint64_arithmetic_with_a_big_int_wraps() -> None:
    # torch 2.13 has no uint64 add/lt kernels (NotImplementedError); ember has them (the Array
    # API needs them), and they wrap modulo 2**64 as numpy's uint64 does.
    u = u64(1, M)
    assert (u + M).tolist() == [0, M - 1]
    assert (u < M).tolist() == [True, False]
    assert (u >= B).tolist() == [False, True]
    v = u.clone()
    v.add_(B)
    assert v.tolist() == [B + 1, B - 1]
    assert (u - M).tolist() == [2, 0]


# ember.tensor and indexing: ints are unpacked as int64 unless the dtype says otherwise


@pytest.mark.parametrize("value", [B, M])
def test_tensor_of_a_big_int_without_dtype_raises_value_error(value: int) -> None:
    with pytest.raises(ValueError, match=r"\[tensor\] Overflow when unpacking long"):
        ember.tensor(value)
    with pytest.raises(ValueError, match=r"Overflow when unpacking long"):
        ember.tensor([value], dtype=ember.int64)


def test_tensor_overflow_is_also_ember_s_former_runtime_error() -> None:
    with pytest.raises(RuntimeError, match=r"Overflow when unpacking long"):
        ember.tensor(B)


def test_tensor_of_a_big_int_with_a_dtype() -> None:
    assert ember.tensor([M, B], dtype=ember.uint64).tolist() == [M, B]
    assert ember.tensor(M, dtype=ember.float32).item() == float(M)
    assert ember.tensor([B], dtype=ember.float64).tolist() == [float(B)]
    assert ember.tensor(2**70, dtype=ember.float64).item() == 2.0**70
    assert ember.scalar_tensor(M).item() == float(M)
    with pytest.raises(OverflowError):
        ember.tensor([2**64], dtype=ember.uint64)


@pytest.mark.parametrize("dtype", [ember.uint64, ember.int64, ember.float32])
@pytest.mark.parametrize("value", [B, M, 2**64])
def test_setitem_of_a_big_int_raises_value_error(dtype: Any, value: int) -> None:
    x = ember.zeros(2, dtype=dtype)
    with pytest.raises(ValueError, match=rf"\[index\] Overflow when unpacking long long: {value}"):
        x[0] = value
    assert x.tolist() == [0, 0]


# creation ops whose ints are int64


def test_int64_only_arguments_refuse_a_big_int() -> None:
    with pytest.raises(ValueError, match=rf"\[randint\] the integer {B} given for 'high'"):
        ember.randint(0, B, (2,))
    with pytest.raises(RuntimeError, match=rf"\[arange\] value {B} cannot be converted to type "):
        ember.arange(B, B + 2)
    # uint64 arange works (torch 2.13 has none), but its bounds are computed in int64.
    assert ember.arange(3, 7, 2, dtype=ember.uint64).tolist() == [3, 5]
    with pytest.raises(RuntimeError, match=rf"\[arange\] value {B} cannot be converted"):
        ember.arange(B, B + 2, dtype=ember.uint64)
    expected = [float(B), float(B) + 2048]  # 2048 is float64's spacing at 2**63
    assert ember.arange(B, B + 4096.0, 2048.0, dtype=ember.float64).tolist() == expected
