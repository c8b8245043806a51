"""Matrix products (matmul, mm, bmm, mv, dot, vdot, outer, addmm, addmv, baddbmm, tensordot,
einsum) against numpy, over shapes, dtypes and memory layouts, plus their error contracts."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import mutually_broadcastable_shapes

import ember
from conftest import NUMPY_DTYPES, assert_close, np_dtype, to_numpy, with_layout

FLOAT_TOL = {
    ember.float16: (2e-2, 2e-2),
    ember.bfloat16: (5e-2, 5e-2),
    ember.float32: (1e-5, 1e-5),
    ember.float64: (1e-12, 1e-12),
}
DTYPES = [
    ember.float32,
    ember.float64,
    ember.float16,
    ember.bfloat16,
    ember.int64,
    ember.int32,
    ember.int8,
    ember.uint8,
]
LAYOUTS = ["contiguous", "transposed", "strided", "broadcast"]


def values(rng: np.random.Generator, shape: tuple[int, ...], dtype: Any) -> np.ndarray:
    """Small integers (exact in every dtype) or normals, as float64 or int64."""
    if dtype.is_floating_point and rng.random() < 0.5:
        return rng.standard_normal(shape)
    return rng.integers(-4, 5, shape).astype(np.float64 if dtype.is_floating_point else np.int64)


def layout(x: np.ndarray, kind: str) -> np.ndarray:
    """The same values as x, stored as `kind` (numpy views become strided ember tensors)."""
    if x.ndim >= 2 and kind == "transposed":
        # Only the matrix dims swap, so batched operands reach BLAS's transpose flags.
        return np.ascontiguousarray(np.swapaxes(x, -1, -2)).swapaxes(-1, -2)
    if x.ndim >= 1 and kind == "broadcast" and x.shape[0] > 1:
        # Every row is the first one, read through a zero stride.
        return np.broadcast_to(x[:1], x.shape)
    return with_layout(x, kind)


def to_ember(x: np.ndarray, dtype: Any) -> ember.Tensor:
    if dtype == ember.bfloat16:
        return ember.from_numpy(np.ascontiguousarray(x, np.float32)).bfloat16()
    return ember.from_numpy(x)


def make(rng: np.random.Generator, shape: tuple[int, ...], dtype: Any, kind: str):
    """(ember tensor, the numpy values it holds)."""
    x = layout(values(rng, shape, dtype).astype(np_dtype(dtype)), kind)
    t = to_ember(x, dtype)
    return t, to_numpy(t).astype(np.float64 if dtype.is_floating_point else np.int64)


def check(result: ember.Tensor, expected: np.ndarray, dtype: Any) -> None:
    if dtype.is_floating_point:
        rtol, atol = FLOAT_TOL[dtype]
        # float16/bfloat16 round the float32 result; numpy computes in float64 here.
        assert_close(
            result, expected, dtype=dtype, rtol=rtol, atol=atol * max(1.0, _scale(expected))
        )
    else:
        wrapped = expected.astype(NUMPY_DTYPES[dtype])  # integer products wrap like torch
        assert_close(result, wrapped, dtype=dtype)


def _scale(x: np.ndarray) -> float:
    return float(np.abs(x).max()) if x.size else 1.0


@st.composite
def matmul_case(draw: st.DrawFn) -> tuple[tuple[int, ...], tuple[int, ...]]:
    shapes = draw(mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=3)).input_shapes
    m, k, n = (draw(st.integers(0, 5)) for _ in range(3))
    a_shape = (k,) if draw(st.booleans()) and draw(st.booleans()) else (*shapes[0], m, k)
    b_shape = (k,) if draw(st.booleans()) and draw(st.booleans()) else (*shapes[1], k, n)
    return a_shape, b_shape


@given(
    case=matmul_case(),
    dtype=st.sampled_from(DTYPES),
    kinds=st.tuples(st.sampled_from(LAYOUTS), st.sampled_from(LAYOUTS)),
    seed=st.integers(0, 2**32 - 1),
)
def test_matmul_matches_numpy(case, dtype, kinds, seed) -> None:
    rng = np.random.default_rng(seed)
    a, a_np = make(rng, case[0], dtype, kinds[0])
    b, b_np = make(rng, case[1], dtype, kinds[1])
    expected = np.matmul(a_np, b_np)
    check(ember.matmul(a, b), expected, dtype)
    check(a @ b, expected, dtype)
    check(a.matmul(b), expected, dtype)


@pytest.mark.parametrize("dtype", [ember.float32, ember.float64, ember.int64, ember.float16])
@pytest.mark.parametrize("trans", [(False, False), (True, False), (False, True), (True, True)])
def test_mm_blas_sizes_and_transposes(dtype, trans) -> None:
    # Sizes past OpenBLAS's small-matrix paths; transposed views go through BLAS's trans flags.
    rng = np.random.default_rng(0)
    m, k, n = 67, 129, 33
    a, a_np = make(rng, (m, k), dtype, "transposed" if trans[0] else "contiguous")
    b, b_np = make(rng, (k, n), dtype, "transposed" if trans[1] else "contiguous")
    check(ember.mm(a, b), a_np @ b_np, dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize(
    "mnk", [(1, 7, 5), (7, 1, 5), (1, 1, 5), (1, 300, 64), (300, 1, 64), (7, 5, 1), (300, 64, 1)]
)
@pytest.mark.parametrize("trans", [(False, False), (True, False), (False, True), (True, True)])
@pytest.mark.parametrize(("beta", "alpha"), [(0.0, 1.0), (1.0, 1.0), (0.5, 2.0)])
def test_vector_shaped_products_match_numpy(dtype, mnk, trans, beta, alpha) -> None:
    # Products with m == 1 or n == 1 take BLAS's gemv (k == 1 rows check the gemm path beside
    # it): every transpose, a leading dimension larger than the row (sliced operands), beta and
    # alpha.
    m, n, k = mnk
    rng = np.random.default_rng(m * 100 + n)
    a_np = rng.standard_normal((k, m) if trans[0] else (m, k)).astype(dtype)
    b_np = rng.standard_normal((n, k) if trans[1] else (k, n)).astype(dtype)
    c_np = rng.standard_normal((m, n)).astype(dtype)

    def padded(x: np.ndarray) -> Any:
        wide = np.zeros((x.shape[0], x.shape[1] + 3), dtype)
        wide[:, : x.shape[1]] = x
        return ember.from_numpy(wide)[:, : x.shape[1]]

    a = padded(a_np).t() if trans[0] else padded(a_np)
    b = padded(b_np).t() if trans[1] else padded(b_np)
    a_ref = a_np.T if trans[0] else a_np
    b_ref = b_np.T if trans[1] else b_np
    got = ember.addmm(ember.from_numpy(c_np.copy()), a, b, beta=beta, alpha=alpha)
    assert_close(got, beta * c_np + alpha * (a_ref @ b_ref), rtol=1e-4, atol=1e-4)
    assert_close(ember.mm(a, b), a_ref @ b_ref, rtol=1e-4, atol=1e-4)


def test_vector_shaped_products_with_beta_zero_ignore_nan_in_out() -> None:
    out = ember.full((5, 1), float("nan"))
    ember.mm(ember.ones(5, 3), ember.ones(3, 1), out=out)
    assert out.flatten().tolist() == [3.0] * 5
    row = ember.full((1, 4), float("nan"))
    ember.mm(ember.ones(1, 3), ember.ones(3, 4), out=row)
    assert row.flatten().tolist() == [3.0] * 4
    outer = ember.full((3, 4), float("nan"))
    ember.mm(ember.ones(3, 1), ember.ones(1, 4), out=outer)
    assert outer.flatten().tolist() == [1.0] * 12


@pytest.mark.parametrize("kind", ["contiguous", "transposed", "strided"])
def test_batched_times_matrix_folds_or_loops(kind) -> None:
    # (batch, m, k) @ (k, n): contiguous batches fold into one GEMM, others loop per batch.
    rng = np.random.default_rng(1)
    a, a_np = make(rng, (4, 3, 9, 11), ember.float64, kind)  # > 512 multiply-adds: BLAS
    b, b_np = make(rng, (11, 10), ember.float64, "contiguous")
    check(ember.matmul(a, b), a_np @ b_np, ember.float64)
    sliced = ember.from_numpy(np.ascontiguousarray(a_np)[:, ::2])  # batch stride gap
    check(ember.matmul(sliced, b), a_np[:, ::2] @ b_np, ember.float64)
    row = ember.from_numpy(np.ascontiguousarray(a_np[:, :, :1, :]))  # m == 1
    check(ember.matmul(row, b), a_np[:, :, :1, :] @ b_np, ember.float64)


@pytest.mark.parametrize("dtype", [ember.int32, ember.int64, ember.int16])
def test_integer_loop_in_parallel_chunks(dtype) -> None:
    # Big enough to split rows across threads, with row blocks crossing batch boundaries.
    rng = np.random.default_rng(10)
    a, a_np = make(rng, (3, 37, 50), dtype, "strided")
    b, b_np = make(rng, (50, 301), dtype, "transposed")
    check(ember.matmul(a, b), a_np @ b_np, dtype)
    c, c_np = make(rng, (3, 301, 7), dtype, "contiguous")
    check(ember.matmul(b, c), b_np @ c_np, dtype)


@pytest.mark.parametrize("dtype", [ember.float32, ember.float64])
@pytest.mark.parametrize("kinds", [("contiguous", "transposed"), ("transposed", "broadcast")])
@pytest.mark.parametrize("size", [3, 12])  # tiny products use a loop, larger ones BLAS
def test_batched_products_per_batch(dtype, kinds, size) -> None:
    rng = np.random.default_rng(11)
    a, a_np = make(rng, (2, 3, size, size + 1), dtype, kinds[0])
    b, b_np = make(rng, (3, size + 1, size - 1), dtype, kinds[1])
    check(ember.matmul(a, b), np.matmul(a_np, b_np), dtype)
    c, c_np = make(rng, (3, size - 1, size), dtype, kinds[0])
    inp, inp_np = make(rng, (size + 1, size), dtype, kinds[1])
    check(ember.baddbmm(inp, b, c, beta=0.5, alpha=2), 0.5 * inp_np + 2 * (b_np @ c_np), dtype)


def test_matmul_empty_and_k_zero() -> None:
    z = ember.matmul(ember.from_numpy(np.ones((3, 0))), ember.from_numpy(np.ones((0, 4))))
    assert_close(z, np.zeros((3, 4)), dtype=ember.float64)
    zi = ember.matmul(
        ember.from_numpy(np.ones((2, 3, 0), np.int32)), ember.from_numpy(np.ones((0, 4), np.int32))
    )
    assert_close(zi, np.zeros((2, 3, 4), np.int32), dtype=ember.int32)
    e = ember.matmul(
        ember.from_numpy(np.ones((0, 3), np.float32)), ember.from_numpy(np.ones((3, 2), np.float32))
    )
    assert tuple(e.shape) == (0, 2)
    d = ember.dot(ember.from_numpy(np.ones(0)), ember.from_numpy(np.ones(0)))
    assert tuple(d.shape) == () and d.item() == 0


def test_integer_products_wrap_like_torch() -> None:
    a = np.full((2, 2), 100, np.int8)
    r = ember.matmul(ember.from_numpy(a), ember.from_numpy(a))
    assert_close(r, np.full((2, 2), 32, np.int8), dtype=ember.int8)
    big = np.full((1, 3), 2**62, np.int64)
    r = ember.matmul(ember.from_numpy(big), ember.from_numpy(np.ones((3, 1), np.int64)))
    assert r.item() == -(2**62)  # 3 * 2**62 wrapped to int64


def test_matmul_out() -> None:
    rng = np.random.default_rng(2)
    a = rng.standard_normal((3, 4)).astype(np.float32)
    b = rng.standard_normal((4, 5)).astype(np.float32)
    out = ember.from_numpy(np.zeros((3, 5), np.float32))
    assert ember.matmul(ember.from_numpy(a), ember.from_numpy(b), out=out) is out
    assert_close(out, a @ b, dtype=ember.float32)
    resized = ember.from_numpy(np.zeros(7, np.float32))
    ember.mm(ember.from_numpy(a), ember.from_numpy(b), out=resized)
    assert_close(resized, a @ b, dtype=ember.float32)
    strided = np.zeros((5, 3), np.float32).T  # non-contiguous out
    ember.matmul(ember.from_numpy(a), ember.from_numpy(b), out=ember.from_numpy(strided))
    np.testing.assert_allclose(strided, a @ b, rtol=1e-5, atol=1e-5)
    half = ember.from_numpy(np.zeros((3, 5), np.float16))
    ember.matmul(
        ember.from_numpy(a.astype(np.float16)), ember.from_numpy(b.astype(np.float16)), out=half
    )
    assert_close(
        half,
        a.astype(np.float16).astype(np.float32) @ b.astype(np.float16).astype(np.float32),
        rtol=2e-2,
        atol=2e-2,
    )
    # out aliasing an input: the product must read the inputs before writing.
    sq = rng.standard_normal((4, 4))
    t = ember.from_numpy(sq.copy())
    ember.mm(t, t, out=t)
    assert_close(t, sq @ sq)
    with pytest.raises(RuntimeError, match=r"\[matmul\].*dtype float32.*float64"):
        ember.matmul(
            ember.from_numpy(a), ember.from_numpy(b), out=ember.from_numpy(np.zeros((3, 5)))
        )


@given(
    dtype=st.sampled_from(DTYPES),
    n=st.integers(0, 6),
    m=st.integers(0, 6),
    p=st.integers(0, 4),
    b=st.integers(0, 3),
    kind=st.sampled_from(LAYOUTS),
    seed=st.integers(0, 2**32 - 1),
)
def test_mm_bmm_mv_dot_outer(dtype, n, m, p, b, kind, seed) -> None:
    rng = np.random.default_rng(seed)
    x, x_np = make(rng, (n, m), dtype, kind)
    y, y_np = make(rng, (m, p), dtype, "transposed")
    v, v_np = make(rng, (m,), dtype, kind)
    w, w_np = make(rng, (m,), dtype, "contiguous")
    check(ember.mm(x, y), x_np @ y_np, dtype)
    check(x.mm(y), x_np @ y_np, dtype)
    check(ember.mv(x, v), x_np @ v_np, dtype)
    check(x.mv(v), x_np @ v_np, dtype)
    check(ember.dot(v, w), np.dot(v_np, w_np), dtype)
    check(v.dot(w), np.dot(v_np, w_np), dtype)
    check(ember.vdot(v, w), np.vdot(v_np, w_np), dtype)
    check(ember.outer(v, w), np.outer(v_np, w_np), dtype)
    check(ember.ger(v, w), np.outer(v_np, w_np), dtype)
    bx, bx_np = make(rng, (b, n, m), dtype, kind)
    by, by_np = make(rng, (b, m, p), dtype, "contiguous")
    check(ember.bmm(bx, by), np.matmul(bx_np, by_np), dtype)
    check(bx.bmm(by), np.matmul(bx_np, by_np), dtype)


def test_outer_promotes_like_mul() -> None:
    out = ember.from_numpy(np.zeros((3, 2)))
    a = ember.from_numpy(np.arange(3.0))
    assert ember.outer(a, ember.from_numpy(np.ones(2)), out=out) is out
    assert_close(out, np.outer(np.arange(3.0), np.ones(2)))
    r = ember.outer(ember.from_numpy(np.arange(3, dtype=np.int32)), ember.from_numpy(np.ones(2)))
    assert_close(r, np.outer(np.arange(3), np.ones(2)), dtype=ember.float64)
    bools = ember.from_numpy(np.array([True, False]))
    assert_close(
        ember.outer(bools, bools), np.outer([True, False], [True, False]), dtype=ember.bool
    )


@pytest.mark.parametrize("dtype", [ember.float32, ember.float64, ember.int64, ember.float16])
@pytest.mark.parametrize("input_shape", [(3, 5), (5,), (1, 5), (3, 1), ()])
def test_addmm(dtype, input_shape) -> None:
    rng = np.random.default_rng(3)
    inp, inp_np = make(rng, input_shape, dtype, "contiguous")
    m1, m1_np = make(rng, (3, 4), dtype, "transposed")
    m2, m2_np = make(rng, (4, 5), dtype, "contiguous")
    beta, alpha = (2, 3) if dtype == ember.int64 else (0.5, -1.5)
    expected = beta * inp_np + alpha * (m1_np @ m2_np)
    check(ember.addmm(inp, m1, m2, beta=beta, alpha=alpha), expected, dtype)
    check(inp.addmm(m1, m2, beta=beta, alpha=alpha), expected, dtype)
    check(ember.addmm(inp, m1, m2), inp_np + m1_np @ m2_np, dtype)


def test_addmm_beta_zero_ignores_input_and_int_scalars_truncate() -> None:
    nan = ember.from_numpy(np.full((2, 2), np.nan))
    ones = ember.from_numpy(np.ones((2, 2)))
    assert_close(ember.addmm(nan, ones, ones, beta=0), np.full((2, 2), 2.0))
    i = ember.from_numpy(np.ones((2, 2), np.int64))
    # torch truncates float alpha/beta for integer tensors: 1 * 1 + 2 * 2 = 5.
    assert_close(ember.addmm(i, i, i, beta=1.5, alpha=2.7), np.full((2, 2), 5), dtype=ember.int64)


def test_in_place_forms() -> None:
    rng = np.random.default_rng(4)
    c = rng.standard_normal((3, 5))
    a = rng.standard_normal((3, 4))
    b = rng.standard_normal((4, 5))
    t = ember.from_numpy(c.copy())
    version = t._version
    assert t.addmm_(ember.from_numpy(a), ember.from_numpy(b), beta=2, alpha=0.5) is t
    assert_close(t, 2 * c + 0.5 * (a @ b))
    assert t._version > version
    v = rng.standard_normal(4)
    y = ember.from_numpy(c[:, 0].copy())
    y.addmv_(ember.from_numpy(a), ember.from_numpy(v))
    assert_close(y, c[:, 0] + a @ v)
    bb = rng.standard_normal((2, 3, 5))
    t3 = ember.from_numpy(bb.copy())
    t3.baddbmm_(ember.from_numpy(np.stack([a, a])), ember.from_numpy(np.stack([b, -b])), alpha=2)
    assert_close(t3, bb + 2 * np.matmul(np.stack([a, a]), np.stack([b, -b])))
    # self used as an operand too: computed into a temporary first.
    sq = rng.standard_normal((4, 4))
    s = ember.from_numpy(sq.copy())
    s.addmm_(s, s)
    assert_close(s, sq + sq @ sq)
    with pytest.raises(RuntimeError, match=r"\[addmm_\].*\(5,\).*\(3, 5\)"):
        ember.from_numpy(np.zeros(5)).addmm_(ember.from_numpy(a), ember.from_numpy(b))


def test_addmv_baddbmm() -> None:
    rng = np.random.default_rng(5)
    inp = rng.standard_normal(3)
    mat = rng.standard_normal((3, 4))
    vec = rng.standard_normal(4)
    r = ember.addmv(
        ember.from_numpy(inp), ember.from_numpy(mat), ember.from_numpy(vec), beta=2, alpha=3
    )
    assert_close(r, 2 * inp + 3 * mat @ vec)
    r = ember.addmv(ember.from_numpy(np.ones(1)), ember.from_numpy(mat), ember.from_numpy(vec))
    assert_close(r, 1 + mat @ vec)
    b1 = rng.standard_normal((2, 3, 4))
    b2 = rng.standard_normal((2, 4, 5))
    inp3 = rng.standard_normal((3, 5))
    r = ember.baddbmm(ember.from_numpy(inp3), ember.from_numpy(b1), ember.from_numpy(b2), alpha=0.5)
    assert_close(r, inp3 + 0.5 * np.matmul(b1, b2))
    with pytest.raises(RuntimeError, match=r"\[addmv\].*\(2,\).*\(3,\)"):
        ember.addmv(ember.from_numpy(np.ones(2)), ember.from_numpy(mat), ember.from_numpy(vec))
    with pytest.raises(RuntimeError, match=r"\[baddbmm\].*\(2, 3, 4\).*\(3, 4, 5\)"):
        ember.baddbmm(
            ember.from_numpy(inp3), ember.from_numpy(b1), ember.from_numpy(np.ones((3, 4, 5)))
        )


def _t(shape: tuple[int, ...], np_dtype: Any = np.float32) -> ember.Tensor:
    return ember.from_numpy(np.ones(shape, np_dtype))


@pytest.mark.parametrize(
    ("call", "error", "pattern"),
    [
        (
            lambda: ember.matmul(_t((3, 4)), _t((5, 6))),
            RuntimeError,
            r"^\[matmul\] Last dimension of first input with shape \(3, 4\) must match "
            r"second-to-last dimension of second input with shape \(5, 6\)",
        ),
        (
            lambda: ember.matmul(_t((3, 4)), _t((5,))),
            RuntimeError,
            r"^\[matmul\].*\(3, 4\).*\(5,\)",
        ),
        (lambda: ember.matmul(_t((3,)), _t((4,))), RuntimeError, r"^\[matmul\].*\(3,\).*\(4,\)"),
        (
            lambda: ember.matmul(_t((2, 3, 4)), _t((3, 4, 6))),
            RuntimeError,
            r"^\[matmul\].*\(2, 3, 4\).*\(3, 4, 6\)",
        ),
        (lambda: ember.matmul(_t(()), _t((3,))), RuntimeError, r"^\[matmul\].*1-D.*\(\).*\(3,\)"),
        (
            lambda: ember.matmul(_t((3, 4)), _t((4, 5), np.float64)),
            RuntimeError,
            r"^\[matmul\] expected m1 and m2 to have the same dtype"
            r".*float32.*float64.*\(3, 4\).*\(4, 5\)",
        ),
        (
            lambda: ember.matmul(_t((3, 4), np.bool_), _t((4, 5), np.bool_)),
            TypeError,
            r"^\[matmul\].*bool.*\(3, 4\)",
        ),
        (lambda: ember.matmul(_t((3, 4)), 2), TypeError, r"^\[matmul\].*Tensor"),
        (lambda: _t((3, 4)) @ 2, TypeError, r"@"),
        (lambda: ember.mm(_t((3, 4)), _t((4,))), RuntimeError, r"^\[mm\].*\(3, 4\).*\(4,\)"),
        (lambda: ember.mm(_t((3, 4)), _t((5, 6))), RuntimeError, r"^\[mm\].*\(3, 4\).*\(5, 6\)"),
        (
            lambda: ember.bmm(_t((2, 3, 4)), _t((3, 4, 5))),
            RuntimeError,
            r"^\[bmm\].*\(2, 3, 4\).*\(3, 4, 5\)",
        ),
        (lambda: ember.bmm(_t((3, 4)), _t((4, 5))), RuntimeError, r"^\[bmm\].*\(3, 4\).*\(4, 5\)"),
        (
            lambda: ember.bmm(_t((2, 3, 4)), _t((2, 5, 5))),
            RuntimeError,
            r"^\[bmm\].*\(2, 3, 4\).*\(2, 5, 5\)",
        ),
        (lambda: ember.mv(_t((3, 4)), _t((5,))), RuntimeError, r"^\[mv\].*\(3, 4\).*\(5,\)"),
        (lambda: ember.mv(_t((3, 4)), _t((4, 1))), RuntimeError, r"^\[mv\].*\(3, 4\).*\(4, 1\)"),
        (lambda: ember.dot(_t((3,)), _t((4,))), RuntimeError, r"^\[dot\].*\(3,\).*\(4,\)"),
        (lambda: ember.dot(_t((3, 1)), _t((3,))), RuntimeError, r"^\[dot\].*\(3, 1\).*\(3,\)"),
        (
            lambda: ember.dot(_t((3,)), _t((3,), np.float64)),
            RuntimeError,
            r"^\[dot\].*float32.*float64",
        ),
        (lambda: ember.dot(_t((3,), np.bool_), _t((3,), np.bool_)), TypeError, r"^\[dot\].*bool"),
        (lambda: ember.vdot(_t((3,)), _t((4,))), RuntimeError, r"^\[vdot\].*\(3,\).*\(4,\)"),
        (lambda: ember.outer(_t((3, 1)), _t((4,))), RuntimeError, r"^\[outer\].*\(3, 1\).*\(4,\)"),
        (
            lambda: ember.addmm(_t((2, 5)), _t((3, 4)), _t((4, 5))),
            RuntimeError,
            r"^\[addmm\].*\(2, 5\).*\(3, 5\)",
        ),
        (
            lambda: ember.addmm(_t((3, 5), np.float64), _t((3, 4)), _t((4, 5))),
            RuntimeError,
            r"^\[addmm\].*float64.*float32",
        ),
        (
            lambda: ember.addmm(_t((3, 5)), _t((3, 4)), _t((5, 5))),
            RuntimeError,
            r"^\[addmm\].*\(3, 4\).*\(5, 5\)",
        ),
        (
            lambda: ember.addmm(_t((3, 5)), _t((3, 4)), _t((4,))),
            RuntimeError,
            r"^\[addmm\].*\(3, 4\).*\(4,\)",
        ),
        (
            lambda: ember.tensordot(_t((2, 3, 4)), _t((3, 5, 5))),
            RuntimeError,
            r"^\[tensordot\].*\(2, 3, 4\).*\(3, 5, 5\)",
        ),
        (
            lambda: ember.tensordot(_t((2, 3)), _t((3, 2)), dims=([1, 0], [0])),
            RuntimeError,
            r"^\[tensordot\].*same length",
        ),
        (
            lambda: ember.tensordot(_t((2, 3)), _t((3, 2)), dims=-1),
            RuntimeError,
            r"^\[tensordot\].*-1",
        ),
        (
            lambda: ember.tensordot(_t((2, 3)), _t((3, 2)), dims=3),
            RuntimeError,
            r"^\[tensordot\].*dims=3",
        ),
        (
            lambda: ember.tensordot(_t((2, 3)), _t((3, 2)), dims=([5], [0])),
            IndexError,
            r"^\[tensordot\]",
        ),
        (
            lambda: ember.tensordot(_t((2, 3)), _t((3, 2)), dims=([1, 1], [0, 0])),
            RuntimeError,
            r"^\[tensordot\].*multiple",
        ),
        (
            lambda: ember.tensordot(_t((2, 3)), _t((3, 2), np.float64), dims=1),
            RuntimeError,
            r"^\[tensordot\].*float32.*float64",
        ),
        (lambda: ember.tensordot(_t((2, 3)), _t((3, 2)), dims="x"), TypeError, r"^\[tensordot\]"),
    ],
)
def test_errors(call, error, pattern) -> None:
    with pytest.raises(error, match=pattern):
        call()


BAD_ARGUMENTS = [None, 2, 2.5, "x", [1.0, 2.0], np.ones((2, 2))]


@given(bad=st.sampled_from(BAD_ARGUMENTS), position=st.integers(0, 2))
def test_non_tensor_arguments_raise_type_errors_naming_the_op(bad, position) -> None:
    m = ember.from_numpy(np.ones((2, 2)))
    v = ember.from_numpy(np.ones(2))
    calls = {
        "matmul": (ember.matmul, [m, m]),
        "mm": (ember.mm, [m, m]),
        "bmm": (ember.bmm, [m, m]),
        "mv": (ember.mv, [m, v]),
        "dot": (ember.dot, [v, v]),
        "vdot": (ember.vdot, [v, v]),
        "outer": (ember.outer, [v, v]),
        "addmm": (ember.addmm, [m, m, m]),
        "addmv": (ember.addmv, [v, m, v]),
        "baddbmm": (ember.baddbmm, [m, m, m]),
        "tensordot": (ember.tensordot, [m, m]),
    }
    for name, (fn, args) in calls.items():
        args = list(args)
        args[position % len(args)] = bad
        with pytest.raises(TypeError, match=rf"^\[{name}\]"):
            fn(*args)
    with pytest.raises(TypeError, match=r"^\[addmm\] argument 'beta'"):
        ember.addmm(m, m, m, beta="x" if isinstance(bad, (int, float)) else bad)
    if not isinstance(bad, np.ndarray):  # numpy arrays take over `@` through __rmatmul__
        with pytest.raises(TypeError):
            m @ bad  # Python's own "unsupported operand" error, like torch


@pytest.mark.parametrize(
    ("shapes", "dims"),
    [
        (((2, 3, 4), (3, 4, 5)), 2),
        (((2, 3, 4), (4, 3, 5)), ([1, 2], [1, 0])),
        (((2, 3, 4), (4, 3, 5)), 0),
        (((2, 3), (3, 2)), 1),
        (((2, 3), (2, 3)), ([0, 1], [0, 1])),
        (((3, 4), (3, 5)), ([0], [0])),
        (((2, 3, 4), (4, 3, 5)), ([-1], [0])),
        (((2, 0), (0, 3)), 1),
    ],
)
def test_tensordot(shapes, dims) -> None:
    rng = np.random.default_rng(6)
    a = rng.standard_normal(shapes[0])
    b = rng.standard_normal(shapes[1])
    r = ember.tensordot(ember.from_numpy(a), ember.from_numpy(b), dims=dims)
    assert_close(r, np.tensordot(a, b, axes=dims), dtype=ember.float64)
    out = ember.from_numpy(np.zeros(0))
    ember.tensordot(ember.from_numpy(a), ember.from_numpy(b), dims=dims, out=out)
    assert_close(out, np.tensordot(a, b, axes=dims))


def test_tensordot_broadcasts_size_one_contracted_dims() -> None:
    a = np.arange(3.0).reshape(1, 3)
    b = np.arange(12.0).reshape(4, 3)
    r = ember.tensordot(ember.from_numpy(a), ember.from_numpy(b), dims=([0], [0]))
    assert_close(r, np.tensordot(np.broadcast_to(a, (4, 3)), b, axes=([0], [0])))


EINSUM_CASES = [
    ("ij,jk->ik", [(2, 3), (3, 4)]),
    ("ij,jk", [(2, 3), (3, 4)]),
    ("ij,kj->ik", [(2, 3), (4, 3)]),
    ("ii->i", [(3, 3)]),
    ("ii", [(3, 3)]),
    ("iij->j", [(2, 2, 4)]),
    ("ij->ji", [(2, 3)]),
    ("ji", [(2, 3)]),
    ("ij->", [(2, 3)]),
    ("ij->j", [(2, 3)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("bij,jk->bik", [(2, 3, 4), (4, 5)]),
    ("...ij,...jk", [(5, 2, 3), (4, 1, 3, 4)]),
    ("...ij,...jk->...ik", [(2, 3), (6, 3, 4)]),
    ("i...->...", [(3, 2, 4)]),
    ("...ij->ij", [(5, 2, 3)]),  # torch sums ellipsis dims the output leaves out; numpy refuses
    ("i,j->ij", [(3,), (4,)]),
    ("i,j", [(3,), (4,)]),
    ("i,i->", [(3,), (3,)]),
    ("i,i", [(3,), (3,)]),
    ("i,j->", [(3,), (4,)]),
    ("ij,ij->ij", [(2, 3), (2, 3)]),
    ("ijk,ikl,ilm->ijm", [(2, 3, 4), (2, 4, 5), (2, 5, 2)]),
    ("ab,bc,cd->ad", [(2, 3), (3, 4), (4, 5)]),
    ("ba,Ab", [(3, 4), (5, 3)]),
    ("i j , j k -> i k", [(2, 3), (3, 4)]),
    ("ij,jk->ik", [(2, 0), (0, 4)]),
    ("i,i", [(0,), (0,)]),
    ("", [()]),
    ("->", [()]),
    (",->", [(), ()]),
    ("i,->i", [(3,), ()]),
    ("ij->ij", [(2, 3)]),
    ("abcd,dcba->", [(2, 3, 2, 2), (2, 2, 3, 2)]),
]

NUMPY_EQUATION = {"...ij->ij": "aij->ij"}


@pytest.mark.parametrize(("equation", "shapes"), EINSUM_CASES)
@pytest.mark.parametrize("dtype", [ember.float64, ember.float32, ember.int64])
def test_einsum_matches_numpy(equation, shapes, dtype) -> None:
    rng = np.random.default_rng(7)
    pairs = [make(rng, s, dtype, "transposed" if len(s) >= 2 else "contiguous") for s in shapes]
    ops = [t for t, _ in pairs]
    np_equation = NUMPY_EQUATION.get(equation, equation) or "->"
    expected = np.einsum(np_equation, *[x for _, x in pairs])
    check(ember.einsum(equation, *ops), np.asarray(expected), dtype)
    check(ember.einsum(equation, ops), np.asarray(expected), dtype)


@st.composite
def einsum_case(draw: st.DrawFn) -> tuple[str, list[tuple[int, ...]]]:
    sizes = {c: draw(st.integers(0, 3)) for c in "abcde"}
    terms = [
        draw(st.lists(st.sampled_from("abcde"), max_size=3)) for _ in range(draw(st.integers(1, 3)))
    ]
    used = sorted({c for t in terms for c in t})
    lhs = ",".join("".join(t) for t in terms)
    shapes = [tuple(sizes[c] for c in t) for t in terms]
    if draw(st.booleans()):
        return lhs, shapes
    out = draw(st.permutations(used))[: draw(st.integers(0, len(used)))]
    return lhs + "->" + "".join(out), shapes


@given(case=einsum_case(), kind=st.sampled_from(LAYOUTS), seed=st.integers(0, 2**32 - 1))
def test_einsum_random_equations(case, kind, seed) -> None:
    equation, shapes = case
    rng = np.random.default_rng(seed)
    pairs = [make(rng, s, ember.float64, kind) for s in shapes]
    expected = np.einsum(equation, *[x for _, x in pairs])
    check(ember.einsum(equation, *[t for t, _ in pairs]), np.asarray(expected), ember.float64)


def test_einsum_broadcasts_size_one_subscripts() -> None:
    a = np.arange(3.0).reshape(1, 3)
    b = np.arange(6.0).reshape(2, 3)
    r = ember.einsum("ij,ij->ij", ember.from_numpy(a), ember.from_numpy(b))
    assert_close(r, a * b)
    r = ember.einsum("...,...", ember.from_numpy(np.ones((2, 1))), ember.from_numpy(np.ones(3)))
    assert tuple(r.shape) == (2, 3)


@pytest.mark.parametrize(
    ("equation", "shapes", "error", "pattern"),
    [
        (
            "ij,jk->ik",
            [(2, 3), (4, 4)],
            RuntimeError,
            r"^\[einsum\] subscript j has size 4.*\(4, 4\).*size 3",
        ),
        ("ij,jk->ik", [(2, 3)], RuntimeError, r"^\[einsum\] fewer operands"),
        ("i,j", [(2,), (3,), (4,)], RuntimeError, r"^\[einsum\] more operands"),
        ("ijk,jk->ik", [(2, 3), (3, 4)], RuntimeError, r"^\[einsum\].*\(3\).*\(2, 3\)"),
        ("ij...->i", [(3,)], RuntimeError, r"^\[einsum\].*\(3,\)"),
        ("ii->i", [(2, 3)], RuntimeError, r"^\[einsum\] subscript i is repeated.*\(2, 3\)"),
        ("ij->ik", [(2, 3)], RuntimeError, r"^\[einsum\] output subscript k"),
        (
            "ij->ii",
            [(2, 3)],
            RuntimeError,
            r"^\[einsum\] output subscript i appears more than once",
        ),
        ("i$->i", [(2, 3)], RuntimeError, r"^\[einsum\] invalid subscript given at index 1"),
        ("ij->i->j", [(2, 3)], RuntimeError, r"^\[einsum\] invalid subscript"),
        ("i.j", [(2, 3)], RuntimeError, r"^\[einsum\] found '\.'"),
        ("...ij...", [(2, 3)], RuntimeError, r"^\[einsum\] found '\.'.*already"),
        (
            "...ij,...jk",
            [(5, 2, 3), (4, 2, 3, 4)],
            RuntimeError,
            r"^\[einsum\].*ellipsis.*\(4, 2, 3, 4\)",
        ),
    ],
)
def test_einsum_errors(equation, shapes, error, pattern) -> None:
    with pytest.raises(error, match=pattern):
        ember.einsum(equation, *[_t(s) for s in shapes])


def test_einsum_dtype_and_argument_errors() -> None:
    with pytest.raises(RuntimeError, match=r"^\[einsum\].*float32.*float64"):
        ember.einsum("ij,jk", _t((2, 3)), _t((3, 4), np.float64))
    with pytest.raises(TypeError, match=r"^\[einsum\].*bool"):
        ember.einsum("i,i", _t((3,), np.bool_), _t((3,), np.bool_))
    with pytest.raises(TypeError, match=r"^\[einsum\]"):
        ember.einsum("i,i", _t((3,)), 2.0)
    with pytest.raises(ValueError, match=r"^\[einsum\]"):
        ember.einsum("ij")


def test_einsum_reduced_precision() -> None:
    rng = np.random.default_rng(8)
    a = rng.standard_normal((3, 4)).astype(np.float32)
    b = rng.standard_normal((4, 5)).astype(np.float32)
    for dtype in (ember.float16, ember.bfloat16):
        ta = ember.from_numpy(a).to(dtype) if hasattr(ember.Tensor, "to") else _cast(a, dtype)
        tb = ember.from_numpy(b).to(dtype) if hasattr(ember.Tensor, "to") else _cast(b, dtype)
        r = ember.einsum("ij,jk->ik", ta, tb)
        check(r, to_numpy(ta).astype(np.float64) @ to_numpy(tb).astype(np.float64), dtype)


def _cast(x: np.ndarray, dtype: Any) -> ember.Tensor:
    t = ember.from_numpy(x)
    return t.half() if dtype == ember.float16 else t.bfloat16()


def test_blas_thread_count_does_not_change_results() -> None:
    rng = np.random.default_rng(9)
    a = rng.standard_normal((96, 80))
    b = rng.standard_normal((80, 72))
    threads = ember.get_num_threads()
    try:
        ember.set_num_threads(1)
        one = to_numpy(ember.mm(ember.from_numpy(a), ember.from_numpy(b)))
    finally:
        ember.set_num_threads(threads)
    np.testing.assert_allclose(one, a @ b, rtol=1e-12, atol=1e-12)


SUBLIST_CASES = [
    ([(2, 3), [0, 1], (3, 4), [1, 2], [0, 2]], "ij,jk->ik"),
    ([(2, 3), [0, 1], (3, 4), [1, 2]], "ij,jk"),
    ([(2, 3), [Ellipsis, 1], (3, 4), [1, 2]], "...j,jk"),
    ([(3, 3), [5, 5]], "ii"),
    ([(2, 3), [30, 1], (3,), [1], [30]], "ij,j->i"),
    ([(2, 2, 3), [Ellipsis, 0], (3,), [0], [Ellipsis]], "...i,i->..."),
]


@pytest.mark.parametrize(("spec", "np_equation"), SUBLIST_CASES)
def test_einsum_sublist_form_matches_numpy(spec: list[Any], np_equation: str) -> None:
    rng = np.random.default_rng(0)
    args: list[Any] = []
    arrays = []
    for item in spec:
        if isinstance(item, tuple):
            a = rng.standard_normal(item)
            arrays.append(a)
            args.append(ember.tensor(a))
        else:
            args.append(item)
    expected = np.einsum(np_equation, *arrays)
    np.testing.assert_allclose(ember.einsum(*args).numpy(), expected, rtol=1e-5, atol=1e-6)


def test_einsum_sublist_form_rejects_bad_subscripts() -> None:
    a = ember.ones(2, 3)
    with pytest.raises(ValueError, match=r"^\[einsum\] subscript in subscript list"):
        ember.einsum(a, [0, 60])
    with pytest.raises(TypeError, match=r"^\[einsum\] expected a list of subscripts"):
        ember.einsum(a, "ij")
