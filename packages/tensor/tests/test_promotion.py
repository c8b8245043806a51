"""Type promotion: ember.promote_types/result_type and op result dtypes follow torch's rules.

The tables below were taken once from torch 2.13 (torch.promote_types / torch.result_type).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ember

NAMES = [
    "bool",
    "uint8",
    "int8",
    "int16",
    "int32",
    "int64",
    "float16",
    "bfloat16",
    "float32",
    "float64",
]
DTYPES = [getattr(ember, n) for n in NAMES]

# PROMOTE[i][j] == torch.promote_types(NAMES[i], NAMES[j]).
PROMOTE = [
    row.split()
    for row in """
    bool     uint8    int8     int16    int32    int64    float16  bfloat16 float32  float64
    uint8    uint8    int16    int16    int32    int64    float16  bfloat16 float32  float64
    int8     int16    int8     int16    int32    int64    float16  bfloat16 float32  float64
    int16    int16    int16    int16    int32    int64    float16  bfloat16 float32  float64
    int32    int32    int32    int32    int32    int64    float16  bfloat16 float32  float64
    int64    int64    int64    int64    int64    int64    float16  bfloat16 float32  float64
    float16  float16  float16  float16  float16  float16  float16  float32  float32  float64
    bfloat16 bfloat16 bfloat16 bfloat16 bfloat16 bfloat16 float32  bfloat16 float32  float64
    float32  float32  float32  float32  float32  float32  float32  float32  float32  float64
    float64  float64  float64  float64  float64  float64  float64  float64  float64  float64
""".strip().splitlines()
]

# RESULT_WITH[dtype] = result_type(1-d tensor of dtype, x) for x in: True, 1000, 2.5, then a 0-d
# tensor of each dtype in NAMES order.
RESULT_WITH = {
    "bool": ["bool", "int64", "float32", *NAMES],
    "uint8": [
        "uint8",
        "uint8",
        "float32",
        *["uint8"] * 6,
        "float16",
        "bfloat16",
        "float32",
        "float64",
    ],
    "int8": ["int8", "int8", "float32", *["int8"] * 6, "float16", "bfloat16", "float32", "float64"],
    "int16": [
        "int16",
        "int16",
        "float32",
        *["int16"] * 6,
        "float16",
        "bfloat16",
        "float32",
        "float64",
    ],
    "int32": [
        "int32",
        "int32",
        "float32",
        *["int32"] * 6,
        "float16",
        "bfloat16",
        "float32",
        "float64",
    ],
    "int64": [
        "int64",
        "int64",
        "float32",
        *["int64"] * 6,
        "float16",
        "bfloat16",
        "float32",
        "float64",
    ],
    "float16": ["float16"] * 13,
    "bfloat16": ["bfloat16"] * 13,
    "float32": ["float32"] * 13,
    "float64": ["float64"] * 13,
}


def test_promote_types_table() -> None:
    for i, a in enumerate(DTYPES):
        for j, b in enumerate(DTYPES):
            assert ember.promote_types(a, b) is getattr(ember, PROMOTE[i][j]), (a, b)


def test_promote_types_accepts_python_types_and_rejects_junk() -> None:
    assert ember.promote_types(float, ember.int8) is ember.float64
    assert ember.promote_types(int, bool) is ember.int64
    with pytest.raises(TypeError, match=r"\[promote_types\] expected an ember dtype"):
        ember.promote_types("float32", ember.int8)


def one_d(dtype: ember.dtype) -> ember.Tensor:
    return ember.tensor([1, 1], dtype=dtype)


@pytest.mark.parametrize("name", NAMES)
def test_result_type_with_scalars_and_zero_dim_tensors(name: str) -> None:
    t = one_d(getattr(ember, name))
    others: list[object] = [True, 1000, 2.5, *(ember.tensor(1, dtype=d) for d in DTYPES)]
    for other, expected in zip(others, RESULT_WITH[name], strict=True):
        assert ember.result_type(t, other) is getattr(ember, expected), (name, other)


def test_result_type_examples_from_the_torch_docs() -> None:
    int8 = one_d(ember.int8)
    assert ember.result_type(int8, 1000) is ember.int8
    assert ember.result_type(one_d(ember.int32), 2.5) is ember.float32
    assert ember.result_type(one_d(ember.float16), ember.tensor(1.0, dtype=ember.float64)) is (
        ember.float16
    )
    # Two 0-d tensors, or two dimensioned tensors, promote normally.
    assert ember.result_type(ember.tensor(1, dtype=ember.int8), ember.tensor(1.0)) is ember.float32
    assert ember.result_type(
        ember.tensor(1, dtype=ember.uint8), ember.tensor(1, dtype=ember.int8)
    ) is (ember.int16)
    assert ember.result_type(int8, one_d(ember.uint8)) is ember.int16
    # A 0-d tensor beats a Python scalar of the same category.
    assert ember.result_type(ember.tensor(1, dtype=ember.int8), 1000) is ember.int8
    assert ember.result_type(ember.tensor(1, dtype=ember.float16), 2.5) is ember.float16
    # Python scalars alone: int -> int64, float -> the default dtype.
    assert ember.result_type(1, 2) is ember.int64
    assert ember.result_type(1, 2.5) is ember.float32
    assert ember.result_type(True, False) is ember.bool


def test_default_dtype_steers_float_scalars() -> None:
    old = ember.get_default_dtype()
    try:
        ember.set_default_dtype(ember.float64)
        assert ember.result_type(one_d(ember.int32), 2.5) is ember.float64
        assert (one_d(ember.int32) + 2.5).dtype is ember.float64
        assert ember.tensor([1.0]).dtype is ember.float64
    finally:
        ember.set_default_dtype(old)
    assert ember.get_default_dtype() is ember.float32


@given(
    a=st.sampled_from(DTYPES), b=st.sampled_from(DTYPES), a_dim=st.booleans(), b_dim=st.booleans()
)
def test_binary_op_results_follow_result_type(
    a: ember.dtype, b: ember.dtype, a_dim: bool, b_dim: bool
) -> None:
    x = one_d(a) if a_dim else ember.tensor(1, dtype=a)
    y = one_d(b) if b_dim else ember.tensor(1, dtype=b)
    expected = ember.result_type(x, y)
    assert (x * y).dtype is expected
    assert ember.maximum(x, y).dtype is expected
    assert (x == y).dtype is ember.bool
    assert ember.where(ember.tensor(True), x, y).dtype is expected
    div_expected = expected if expected.is_floating_point else ember.float32
    assert (x / y).dtype is div_expected
    if expected != ember.bool:
        assert (x + y).dtype is expected


@pytest.mark.parametrize(
    ("dtype", "scalar", "expected"),
    [
        (ember.int8, 1000, ember.int8),
        (ember.uint8, -1, ember.uint8),
        (ember.int32, 2.5, ember.float32),
        (ember.bool, 1, ember.int64),
        (ember.bool, 1.5, ember.float32),
        (ember.float16, 1e10, ember.float16),
        (ember.bfloat16, 3, ember.bfloat16),
        (ember.float64, 2, ember.float64),
    ],
)
def test_python_scalars_do_not_widen_tensors(
    dtype: ember.dtype, scalar: object, expected: ember.dtype
) -> None:
    t = one_d(dtype)
    assert (t * scalar).dtype is expected
    assert (scalar * t).dtype is expected
    assert ember.mul(t, scalar).dtype is expected


def test_int8_wraps_around_like_torch() -> None:
    # The scalar 1000 is cast to int8 (1000 % 256 = -24) before the sum, as in torch.
    t = ember.tensor([1, 2], dtype=ember.int8)
    assert (t + 1000).tolist() == np.array([1, 2], dtype=np.int8).__add__(np.int8(-24)).tolist()


def test_float_only_ops_promote_integers_to_the_default_dtype() -> None:
    for dtype in (ember.bool, ember.uint8, ember.int16, ember.int64):
        assert ember.exp(one_d(dtype)).dtype is ember.float32
        assert ember.sqrt(one_d(dtype)).dtype is ember.float32
        assert ember.atan2(one_d(dtype), one_d(dtype)).dtype is ember.float32
    assert ember.exp(one_d(ember.float16)).dtype is ember.float16


@pytest.mark.parametrize(
    ("self_dtype", "other"),
    [
        (ember.int32, 2.5),
        (ember.int64, ember.tensor(2.5)),
        (ember.bool, 1),
        (ember.uint8, ember.tensor([1.0, 2.0])),
        (ember.int16, ember.tensor([1.0, 2.0], dtype=ember.float16)),
    ],
)
def test_in_place_ops_cannot_demote_the_result_category(
    self_dtype: ember.dtype, other: object
) -> None:
    t = one_d(self_dtype)
    for op in (t.add_, t.mul_, t.sub_ if self_dtype != ember.bool else t.mul_):
        with pytest.raises(
            RuntimeError, match=r"^\[\w+\] result type \w+ can't be cast to the desired output type"
        ):
            op(other)
    assert t.tolist() == ([1, 1] if self_dtype != ember.bool else [True, True])


def test_in_place_ops_within_a_category_cast_back() -> None:
    t = ember.tensor([1, 2], dtype=ember.uint8)
    t.add_(ember.tensor([1, 1], dtype=ember.int8))
    assert t.dtype is ember.uint8 and t.tolist() == [2, 3]
    f = ember.tensor([1.0], dtype=ember.float16)
    f.mul_(ember.tensor([2.0], dtype=ember.float64))
    assert f.dtype is ember.float16 and f.tolist() == [2.0]


def test_out_must_hold_the_result_category() -> None:
    out = ember.tensor([0, 0])
    with pytest.raises(
        RuntimeError,
        match=r"\[add\] result type Float can't be cast to the desired output type Long",
    ):
        ember.add(ember.tensor([1.0, 2.0]), 1, out=out)
    wide = ember.tensor([0.0, 0.0], dtype=ember.float64)
    assert ember.add(ember.tensor([1, 2]), 1, out=wide) is wide
    assert wide.tolist() == [2.0, 3.0]
    # Comparisons may write into any dtype, as in torch.
    as_float = ember.tensor([0.0, 0.0])
    ember.lt(ember.tensor([1, 2]), 2, out=as_float)
    assert as_float.tolist() == [1.0, 0.0]
