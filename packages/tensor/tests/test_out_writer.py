"""The shared out= writer: dtype casting, resizing (with torch's warning), overlap, identity.

Each case is an op that takes out=, called with numpy as the value oracle; the expected rules
(castable vs exact dtype, which ops refuse partial overlap) are torch 2.13's.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest

import ember

A = np.array([[0.5, -1.5, 2.0], [3.0, -0.25, 1.0]], dtype=np.float32)
IDX = np.array([1, 0], dtype=np.int64)


@dataclass(frozen=True)
class Case:
    name: str
    call: Callable[[ember.Tensor, ember.Tensor], ember.Tensor]  # (input, out) -> result
    oracle: Callable[[np.ndarray], np.ndarray]
    exact: bool  # out's dtype must equal the result's (else: castable by torch.can_cast)
    refuses_overlap: bool  # partial overlap of out with the input raises (torch's rule)


def _idx() -> ember.Tensor:
    return ember.tensor(IDX)


CASES = [
    Case("add", lambda x, o: ember.add(x, 1.0, out=o), lambda a: a + 1, False, True),
    Case("mul", lambda x, o: ember.mul(x, x, out=o), lambda a: a * a, False, True),
    Case("exp", lambda x, o: ember.exp(x, out=o), np.exp, False, True),
    Case(
        "clamp",
        lambda x, o: ember.clamp(x, ember.zeros(3), ember.ones(3), out=o),
        lambda a: np.clip(a, 0, 1),
        False,
        True,
    ),
    Case("sum", lambda x, o: ember.sum(x, 0, out=o), lambda a: a.sum(0), False, False),
    Case("var", lambda x, o: ember.var(x, 0, out=o), lambda a: a.var(0, ddof=1), False, False),
    Case(
        "logsumexp",
        lambda x, o: ember.logsumexp(x, 1, out=o),
        lambda a: np.log(np.exp(a).sum(1)),
        False,
        False,
    ),
    Case("cumsum", lambda x, o: ember.cumsum(x, 1, out=o), lambda a: a.cumsum(1), False, True),
    Case("angle", lambda x, o: ember.angle(x, out=o), np.angle, False, True),
    Case(
        "index_select",
        lambda x, o: ember.index_select(x, 1, _idx(), out=o),
        lambda a: a[:, IDX],
        True,
        True,
    ),
    Case(
        "gather",
        lambda x, o: ember.gather(x, 1, ember.tensor([[2, 0], [1, 1]]), out=o),
        lambda a: np.take_along_axis(a, np.array([[2, 0], [1, 1]]), 1),
        True,
        True,
    ),
    Case("take", lambda x, o: ember.take(x, _idx(), out=o), lambda a: a.ravel()[IDX], True, True),
    Case(
        "cross",
        lambda x, o: ember.cross(x[:, :3], ember.ones(2, 3), dim=1, out=o),
        lambda a: np.cross(a, np.ones((2, 3), np.float32)),
        True,
        True,
    ),
    Case("amax", lambda x, o: ember.amax(x, 0, out=o), lambda a: a.max(0), True, False),
]


def _warnings_of(fn: Callable[[], object]) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn()
    return [str(w.message) for w in caught if issubclass(w.category, UserWarning)]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_out_is_returned_and_filled(case: Case) -> None:
    expected = case.oracle(A)
    out = ember.empty(*expected.shape)
    result = case.call(ember.tensor(A), out)
    assert result is out
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_dtype_cast_allowed_or_refused(case: Case) -> None:
    expected = case.oracle(A)
    wider = ember.empty(*expected.shape, dtype=ember.float64)
    if case.exact:
        with pytest.raises(RuntimeError, match=r"Expected (out tensor to have dtype|the dtype)"):
            case.call(ember.tensor(A), wider)
    else:
        assert case.call(ember.tensor(A), wider) is wider
        np.testing.assert_allclose(wider.numpy(), expected, rtol=1e-6, atol=1e-6)
    # float32 -> int64 is a move to a lower category: refused by every op but sum and cumsum
    # (which then run in out's dtype, as torch does).
    narrow = ember.empty(*expected.shape, dtype=ember.int64)
    runs_in_out_dtype = {"sum": lambda a: a.sum(0), "cumsum": lambda a: a.cumsum(1)}
    if case.name in runs_in_out_dtype:
        case.call(ember.tensor(A), narrow)
        as_int = runs_in_out_dtype[case.name](A.astype(np.int64))
        np.testing.assert_array_equal(narrow.numpy(), as_int)
        return
    pattern = (
        r"Expected (out tensor to have dtype|the dtype)"
        if case.exact
        else r"result type Float can't be cast to the desired output type Long"
    )
    with pytest.raises(RuntimeError, match=pattern):
        case.call(ember.tensor(A), narrow)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_resize_warns_only_when_out_had_elements(case: Case) -> None:
    expected = case.oracle(A)
    shape = list(expected.shape)
    wrong = ember.empty(7)
    messages = _warnings_of(lambda: case.call(ember.tensor(A), wrong))
    assert tuple(wrong.shape) == expected.shape
    np.testing.assert_allclose(wrong.numpy(), expected, rtol=1e-6, atol=1e-6)
    assert len(messages) == 1
    assert "An output with one or more elements was resized since it had shape [7]" in messages[0]
    assert f"the required output shape {shape}" in messages[0]
    empty = ember.empty(0)
    assert _warnings_of(lambda: case.call(ember.tensor(A), empty)) == []
    assert tuple(empty.shape) == expected.shape


def test_resize_warning_can_be_an_error() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(UserWarning, match="was resized"):
            ember.add(ember.ones(2), 1, out=ember.empty(5))


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_partial_overlap_with_the_input(case: Case) -> None:
    expected = case.oracle(A)
    n = int(np.prod(expected.shape))
    buffer = ember.zeros(A.size + n)
    x = buffer[: A.size].view(2, 3)
    x.copy_(ember.tensor(A))
    out = buffer[1 : 1 + n].view(*expected.shape)  # shares some, not all, elements with x
    if case.refuses_overlap:
        with pytest.raises(RuntimeError, match="some elements of the input tensor and the written"):
            case.call(x, out)
    else:
        case.call(x, out)
        np.testing.assert_allclose(out.numpy(), expected, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_out_writing_one_element_twice_is_refused(case: Case) -> None:
    expected = case.oracle(A)
    if case.name in {"sum", "var", "logsumexp", "amax"}:
        pytest.skip("torch's reductions accept an expanded out; ember refuses it (see report)")
    expanded = ember.empty(*([1] * len(expected.shape))).expand(*expected.shape)
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        case.call(ember.tensor(A), expanded)


def test_read_only_out_is_refused() -> None:
    arr = np.zeros(3, dtype=np.float32)
    arr.flags.writeable = False
    with pytest.raises((RuntimeError, ValueError)):
        ember.index_select(ember.ones(3), 0, ember.tensor([0, 1, 2]), out=ember.from_numpy(arr))


def test_index_results_need_int64_out() -> None:
    x = ember.tensor(A)
    with pytest.raises(
        RuntimeError, match="Expected out tensor to have dtype int64, but got int32"
    ):
        ember.argmax(x, 0, out=ember.empty(3, dtype=ember.int32))
    values, indices = ember.empty(3), ember.empty(3, dtype=ember.int64)
    r = ember.max(x, 0, out=(values, indices))
    assert r[0] is values and r[1] is indices
    np.testing.assert_array_equal(indices.numpy(), A.argmax(0))
    with pytest.raises(RuntimeError, match="Expected out tensor to have dtype int64"):
        ember.sort(x, 1, out=(ember.empty(2, 3), ember.empty(2, 3, dtype=ember.int32)))


def test_sum_dtype_must_match_out() -> None:
    with pytest.raises(
        RuntimeError, match="Expected out tensor to have dtype float64, but got float32"
    ):
        ember.sum(ember.tensor(A), 0, dtype=ember.float64, out=ember.empty(3))


@pytest.mark.parametrize(
    ("call", "op", "kind"),
    [
        (lambda: ember.randn(0, 1, out=(1.5 + 2j)), "randn", "complex"),
        (lambda: ember.arange(3, out=1.0), "arange", "float"),
        (lambda: ember.sum(ember.ones(2), 0, out=3), "sum", "int"),
        (lambda: ember.zeros(2, out=[0.0, 0.0]), "zeros", "list"),
    ],
)
def test_out_must_be_a_tensor(call: Callable[[], object], op: str, kind: str) -> None:
    # A Python number given as out= used to be converted to a temporary and returned as is
    # (ember.randn(0, 1, out=1.5+2j) gave back the complex): torch raises TypeError.
    with pytest.raises(TypeError, match=rf"\[{op}\] argument 'out' must be Tensor, not {kind}"):
        call()
