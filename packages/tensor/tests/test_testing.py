"""ember.testing.assert_close against torch.testing's messages (recorded from torch 2.13) and
make_tensor's ranges; torch itself is compared when importable."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

import ember
from ember.testing import assert_close, make_tensor


def failure(actual: Any, expected: Any, exc: type[Exception] = AssertionError, **kw: Any) -> str:
    with pytest.raises(exc) as info:
        assert_close(actual, expected, **kw)
    return str(info.value)


A = [1.0, 2.0, 3.0]
E = [1.0, 4.0, 5.0]

# (actual, expected) as lists and dtype names, and torch.testing.assert_close's message.
TORCH_MESSAGES = [
    (A, E, "float32",
     "Tensor-likes are not close!\n\nMismatched elements: 2 / 3 (66.7%)\n"
     "Greatest absolute difference: 2.0 at index (1,) (up to 1e-05 allowed)\n"
     "Greatest relative difference: 0.5 at index (1,) (up to 1.3e-06 allowed)"),
    ([1, 2], [1, 3], "int64",
     "Tensor-likes are not equal!\n\nMismatched elements: 1 / 2 (50.0%)\n"
     "Greatest absolute difference: 1 at index (1,)\n"
     "Greatest relative difference: 0.3333333432674408 at index (1,)"),
    ([1.0, 1.0], [0.0, 0.0], "float64",
     "Tensor-likes are not close!\n\nMismatched elements: 2 / 2 (100.0%)\n"
     "Greatest absolute difference: 1.0 at index (0,) (up to 1e-07 allowed)\n"
     "Greatest relative difference: inf at index (0,) (up to 1e-07 allowed)"),
    ([[1.0, math.inf]], [[1.0, 3.0]], "float32",
     "Tensor-likes are not close!\n\nMismatched elements: 1 / 2 (50.0%)\n"
     "Greatest absolute difference: inf at index (0, 1) (up to 1e-05 allowed)\n"
     "Greatest relative difference: inf at index (0, 1) (up to 1.3e-06 allowed)"),
]  # fmt: skip


@pytest.mark.parametrize("actual, expected, dtype, message", TORCH_MESSAGES)
def test_messages_match_torch(actual: Any, expected: Any, dtype: str, message: str) -> None:
    dt = getattr(ember, dtype)
    assert failure(ember.tensor(actual, dtype=dt), ember.tensor(expected, dtype=dt)) == message


def test_structure_and_attribute_messages() -> None:
    a, e = ember.tensor(A), ember.tensor(E)
    nested = failure({"a": [a]}, {"a": [e]})
    assert nested.endswith("\n\nThe failure occurred for item ['a'][0]")
    assert failure([a], [a, a]) == "The length of the sequences mismatch: 1 != 2"
    assert failure({"a": 1}, {"b": 1}) == (
        "The keys of the mappings do not match:\nMissing keys in the actual mapping: ['b']\n"
        "Additional keys in the actual mapping: ['a']"
    )
    assert failure(a, ember.ones(2)) == (
        "The values for attribute 'shape' do not match: ember.Size([3]) != ember.Size([2])."
    )
    assert failure(a, a.double()) == (
        "The values for attribute 'dtype' do not match: ember.float32 != ember.float64."
    )
    assert failure(1, 1.0) == "The (d)types do not match: <class 'int'> != <class 'float'>."
    assert failure(None, 0) == "None mismatch: None is not 0"
    assert failure(True, False) == "Booleans mismatch: True is not False"
    assert failure(1.0, 1.5) == (
        "Scalars are not close!\n\nExpected 1.5 but got 1.0.\n"
        "Absolute difference: 0.5 (up to 1e-07 allowed)\n"
        "Relative difference: 0.3333333333333333 (up to 1e-07 allowed)"
    )
    nan = ember.tensor(math.nan)
    assert failure(nan, nan).startswith("Scalars are not close!\n\nExpected nan but got nan.")


def test_tolerances_and_options() -> None:
    x = ember.tensor([1.0, 2.0])
    assert_close(x, x + 1e-6)  # within float32's defaults
    failure(x.double(), x.double() + 1e-6)  # outside float64's
    assert_close(x.half(), x.half() * (1 + 5e-4))
    assert_close(x, x + 0.5, rtol=0.0, atol=0.5)
    assert_close(x, x.double(), check_dtype=False)
    assert_close(1.0, 1, check_dtype=False)
    assert_close(ember.tensor([math.nan]), ember.tensor([math.nan]), equal_nan=True)
    assert_close(x.T, x.T.contiguous())
    assert_close([x, {"k": (1, None, True)}], [x, {"k": (1, None, True)}])
    assert_close(np.arange(3.0), np.arange(3.0))
    assert "stride()" in failure(ember.ones(2, 3).T, ember.ones(3, 2), check_stride=True)
    assert failure(x, x + 1, msg="custom") == "custom"
    assert failure(x, x + 1, msg=lambda m: "head\n" + m).startswith("head\nTensor-likes")
    text = failure(x, x, exc=ValueError, rtol=1e-3)
    assert text == "Both 'rtol' and 'atol' must be either specified or omitted, but got no atol."
    text = failure(x, np.ones(2), exc=TypeError)
    assert text.startswith("No comparison pair was able to handle inputs of type")


def test_against_torch_when_importable() -> None:
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    for _ in range(20):
        a = rng.standard_normal((3, 4)).astype(np.float32)
        e = a.copy()
        e[rng.integers(0, 3), rng.integers(0, 4)] += rng.choice([1e-7, 1e-3, 1.0])
        with pytest.raises(AssertionError) as theirs:
            torch.testing.assert_close(torch.from_numpy(a), torch.from_numpy(e), rtol=0, atol=0)
        with pytest.raises(AssertionError) as ours:
            assert_close(ember.from_numpy(a), ember.from_numpy(e), rtol=0, atol=0)
        assert str(ours.value) == str(theirs.value)


@pytest.mark.parametrize(
    "dtype",
    [
        ember.bool,
        ember.uint8,
        ember.int8,
        ember.int64,
        ember.float16,
        ember.bfloat16,
        ember.float32,
    ],
)
def test_make_tensor(dtype: Any) -> None:
    t = make_tensor(50, 4, dtype=dtype)
    assert tuple(t.shape) == (50, 4) and t.dtype == dtype
    values = t.float().numpy() if dtype != ember.bool else t.numpy()
    if dtype not in (ember.bool, ember.uint8):
        assert values.min() >= -9 and values.max() <= 9.5
    bounded = make_tensor(100, dtype=dtype, low=0, high=2).float().numpy()
    assert bounded.min() >= 0 and bounded.max() <= 2
    assert not make_tensor(3, 4, dtype=dtype, noncontiguous=True).is_contiguous()
    if dtype != ember.bool:
        assert (make_tensor(200, dtype=dtype, low=-1, high=1, exclude_zero=True) != 0).all()
    with pytest.raises(ValueError, match=r"^\[make_tensor\]"):
        make_tensor(2, dtype=dtype, low=3, high=1)
