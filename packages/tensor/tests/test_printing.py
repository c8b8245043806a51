"""Tensor printing: repr/str match torch's format exactly (expected strings from torch 2.13)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import ember

# (name, data, dtype name, print options); EXPECTED holds torch's repr with "torch." -> "ember.".
CASES: list[tuple[str, Any, str, dict[str, Any]]] = [
    ("float_vec", np.array([1.0, 2.0]), "float32", {}),
    ("int_vec", np.array([1, 2]), "int64", {}),
    ("bool_scalar", np.array(True), "bool", {}),
    ("float_scalar", np.array(3.14159), "float32", {}),
    ("int_scalar", np.array(-7), "int64", {}),
    ("float64", np.array([1.0, 2.5]), "float64", {}),
    ("int8", np.array([1, -2]), "int8", {}),
    ("uint8", np.array([1, 255]), "uint8", {}),
    ("int32_mat", np.array([[1, 22], [333, -4]]), "int32", {}),
    ("float16", np.array([0.1, 2.0, 3.0]), "float16", {}),
    ("bfloat16", np.array([0.1, 2.0, 3.0]), "bfloat16", {}),
    ("matrix", np.array([[1.5, 2.0], [3.0, 4.0]]), "float32", {}),
    ("cube", np.arange(24.0).reshape(2, 3, 4) / 7, "float32", {}),
    ("sci_small", np.array([1e-5, 1.0]), "float32", {}),
    ("sci_large", np.array([1e10, 1.0]), "float32", {}),
    ("sci_ratio", np.array([0.5, 1234.5]), "float64", {}),
    ("int_mode_big", np.array([1.0, 1e9]), "float64", {}),
    ("nonfinite", np.array([np.nan, 1.0, np.inf, -np.inf]), "float32", {}),
    ("nonfinite_frac", np.array([np.nan, 1.5, -np.inf]), "float32", {}),
    ("all_zero", np.array([0.0, -0.0]), "float32", {}),
    ("all_nan", np.array([np.nan, np.nan]), "float32", {}),
    ("negative", np.array([-1.25, 3.5, -100.0]), "float32", {}),
    ("bools", np.array([True, False, True]), "bool", {}),
    ("empty", np.zeros(0), "float32", {}),
    ("empty_int", np.zeros(0), "int64", {}),
    ("empty_2d", np.zeros((0, 3)), "float32", {}),
    ("empty_2d_int", np.zeros((2, 0)), "int32", {}),
    ("summarized_1d", np.arange(2000), "int64", {}),
    ("summarized_2d", np.arange(2000.0).reshape(40, 50), "float32", {}),
    ("summarized_3d", np.arange(3000).reshape(10, 10, 30), "int16", {}),
    ("wrap", np.arange(30.0) / 3, "float32", {}),
    ("wrap_int", np.arange(100) * 1001, "int64", {}),
    ("precision2", np.array([1.12345, 2.5]), "float32", {"precision": 2}),
    ("sci_forced", np.array([1.0, 2.0]), "float32", {"sci_mode": True}),
    ("sci_off", np.array([1e-5, 1.0]), "float32", {"sci_mode": False}),
    ("threshold", np.arange(10), "int64", {"threshold": 5}),
    ("edgeitems1", np.arange(10), "int64", {"threshold": 5, "edgeitems": 1}),
    ("edgeitems0", np.arange(10.0), "float32", {"threshold": 5, "edgeitems": 0}),
    ("linewidth", np.arange(12.0), "float64", {"linewidth": 30}),
    ("short_profile", np.array([1.12345, 2.5]), "float32", {"profile": "short"}),
    ("neg_scalar_float", np.array(-0.5), "float64", {}),
    ("large_float", np.array([123456.789]), "float32", {}),
]

EXPECTED = {
    "float_vec": "tensor([1., 2.])",
    "int_vec": "tensor([1, 2])",
    "bool_scalar": "tensor(True)",
    "float_scalar": "tensor(3.1416)",
    "int_scalar": "tensor(-7)",
    "float64": "tensor([1.0000, 2.5000], dtype=ember.float64)",
    "int8": "tensor([ 1, -2], dtype=ember.int8)",
    "uint8": "tensor([  1, 255], dtype=ember.uint8)",
    "int32_mat": "\n".join(
        [
            "tensor([[  1,  22],",
            "        [333,  -4]], dtype=ember.int32)",
        ]
    ),
    "float16": "tensor([0.1000, 2.0000, 3.0000], dtype=ember.float16)",
    "bfloat16": "tensor([0.1001, 2.0000, 3.0000], dtype=ember.bfloat16)",
    "matrix": "\n".join(
        [
            "tensor([[1.5000, 2.0000],",
            "        [3.0000, 4.0000]])",
        ]
    ),
    "cube": "\n".join(
        [
            "tensor([[[0.0000, 0.1429, 0.2857, 0.4286],",
            "         [0.5714, 0.7143, 0.8571, 1.0000],",
            "         [1.1429, 1.2857, 1.4286, 1.5714]],",
            "",
            "        [[1.7143, 1.8571, 2.0000, 2.1429],",
            "         [2.2857, 2.4286, 2.5714, 2.7143],",
            "         [2.8571, 3.0000, 3.1429, 3.2857]]])",
        ]
    ),
    "sci_small": "tensor([1.0000e-05, 1.0000e+00])",
    "sci_large": "tensor([1.0000e+10, 1.0000e+00])",
    "sci_ratio": "tensor([5.0000e-01, 1.2345e+03], dtype=ember.float64)",
    "int_mode_big": "tensor([1.0000e+00, 1.0000e+09], dtype=ember.float64)",
    "nonfinite": "tensor([nan, 1., inf, -inf])",
    "nonfinite_frac": "tensor([   nan, 1.5000,   -inf])",
    "all_zero": "tensor([0., -0.])",
    "all_nan": "tensor([nan, nan])",
    "negative": "tensor([  -1.2500,    3.5000, -100.0000])",
    "bools": "tensor([ True, False,  True])",
    "empty": "tensor([])",
    "empty_int": "tensor([], dtype=ember.int64)",
    "empty_2d": "tensor([], size=(0, 3))",
    "empty_2d_int": "tensor([], size=(2, 0), dtype=ember.int32)",
    "summarized_1d": "tensor([   0,    1,    2,  ..., 1997, 1998, 1999])",
    "summarized_2d": "\n".join(
        [
            "tensor([[0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 4.7000e+01, 4.8000e+01,",
            "         4.9000e+01],",
            "        [5.0000e+01, 5.1000e+01, 5.2000e+01,  ..., 9.7000e+01, 9.8000e+01,",
            "         9.9000e+01],",
            "        [1.0000e+02, 1.0100e+02, 1.0200e+02,  ..., 1.4700e+02, 1.4800e+02,",
            "         1.4900e+02],",
            "        ...,",
            "        [1.8500e+03, 1.8510e+03, 1.8520e+03,  ..., 1.8970e+03, 1.8980e+03,",
            "         1.8990e+03],",
            "        [1.9000e+03, 1.9010e+03, 1.9020e+03,  ..., 1.9470e+03, 1.9480e+03,",
            "         1.9490e+03],",
            "        [1.9500e+03, 1.9510e+03, 1.9520e+03,  ..., 1.9970e+03, 1.9980e+03,",
            "         1.9990e+03]])",
        ]
    ),
    "summarized_3d": "\n".join(
        [
            "tensor([[[   0,    1,    2,  ...,   27,   28,   29],",
            "         [  30,   31,   32,  ...,   57,   58,   59],",
            "         [  60,   61,   62,  ...,   87,   88,   89],",
            "         ...,",
            "         [ 210,  211,  212,  ...,  237,  238,  239],",
            "         [ 240,  241,  242,  ...,  267,  268,  269],",
            "         [ 270,  271,  272,  ...,  297,  298,  299]],",
            "",
            "        [[ 300,  301,  302,  ...,  327,  328,  329],",
            "         [ 330,  331,  332,  ...,  357,  358,  359],",
            "         [ 360,  361,  362,  ...,  387,  388,  389],",
            "         ...,",
            "         [ 510,  511,  512,  ...,  537,  538,  539],",
            "         [ 540,  541,  542,  ...,  567,  568,  569],",
            "         [ 570,  571,  572,  ...,  597,  598,  599]],",
            "",
            "        [[ 600,  601,  602,  ...,  627,  628,  629],",
            "         [ 630,  631,  632,  ...,  657,  658,  659],",
            "         [ 660,  661,  662,  ...,  687,  688,  689],",
            "         ...,",
            "         [ 810,  811,  812,  ...,  837,  838,  839],",
            "         [ 840,  841,  842,  ...,  867,  868,  869],",
            "         [ 870,  871,  872,  ...,  897,  898,  899]],",
            "",
            "        ...,",
            "",
            "        [[2100, 2101, 2102,  ..., 2127, 2128, 2129],",
            "         [2130, 2131, 2132,  ..., 2157, 2158, 2159],",
            "         [2160, 2161, 2162,  ..., 2187, 2188, 2189],",
            "         ...,",
            "         [2310, 2311, 2312,  ..., 2337, 2338, 2339],",
            "         [2340, 2341, 2342,  ..., 2367, 2368, 2369],",
            "         [2370, 2371, 2372,  ..., 2397, 2398, 2399]],",
            "",
            "        [[2400, 2401, 2402,  ..., 2427, 2428, 2429],",
            "         [2430, 2431, 2432,  ..., 2457, 2458, 2459],",
            "         [2460, 2461, 2462,  ..., 2487, 2488, 2489],",
            "         ...,",
            "         [2610, 2611, 2612,  ..., 2637, 2638, 2639],",
            "         [2640, 2641, 2642,  ..., 2667, 2668, 2669],",
            "         [2670, 2671, 2672,  ..., 2697, 2698, 2699]],",
            "",
            "        [[2700, 2701, 2702,  ..., 2727, 2728, 2729],",
            "         [2730, 2731, 2732,  ..., 2757, 2758, 2759],",
            "         [2760, 2761, 2762,  ..., 2787, 2788, 2789],",
            "         ...,",
            "         [2910, 2911, 2912,  ..., 2937, 2938, 2939],",
            "         [2940, 2941, 2942,  ..., 2967, 2968, 2969],",
            "         [2970, 2971, 2972,  ..., 2997, 2998, 2999]]], dtype=ember.int16)",
        ]
    ),
    "wrap": "\n".join(
        [
            "tensor([0.0000, 0.3333, 0.6667, 1.0000, 1.3333, 1.6667, 2.0000, 2.3333, 2.6667,",
            "        3.0000, 3.3333, 3.6667, 4.0000, 4.3333, 4.6667, 5.0000, 5.3333, 5.6667,",
            "        6.0000, 6.3333, 6.6667, 7.0000, 7.3333, 7.6667, 8.0000, 8.3333, 8.6667,",
            "        9.0000, 9.3333, 9.6667])",
        ]
    ),
    "wrap_int": "\n".join(
        [
            "tensor([    0,  1001,  2002,  3003,  4004,  5005,  6006,  7007,  8008,  9009,",
            "        10010, 11011, 12012, 13013, 14014, 15015, 16016, 17017, 18018, 19019,",
            "        20020, 21021, 22022, 23023, 24024, 25025, 26026, 27027, 28028, 29029,",
            "        30030, 31031, 32032, 33033, 34034, 35035, 36036, 37037, 38038, 39039,",
            "        40040, 41041, 42042, 43043, 44044, 45045, 46046, 47047, 48048, 49049,",
            "        50050, 51051, 52052, 53053, 54054, 55055, 56056, 57057, 58058, 59059,",
            "        60060, 61061, 62062, 63063, 64064, 65065, 66066, 67067, 68068, 69069,",
            "        70070, 71071, 72072, 73073, 74074, 75075, 76076, 77077, 78078, 79079,",
            "        80080, 81081, 82082, 83083, 84084, 85085, 86086, 87087, 88088, 89089,",
            "        90090, 91091, 92092, 93093, 94094, 95095, 96096, 97097, 98098, 99099])",
        ]
    ),
    "precision2": "tensor([1.12, 2.50])",
    "sci_forced": "tensor([1.0000e+00, 2.0000e+00])",
    "sci_off": "tensor([0.0000, 1.0000])",
    "threshold": "tensor([0, 1, 2,  ..., 7, 8, 9])",
    "edgeitems1": "tensor([0,  ..., 9])",
    "edgeitems0": "tensor([...], size=(10,))",
    "linewidth": "\n".join(
        [
            "tensor([ 0.,  1.,  2.,  3.,",
            "         4.,  5.,  6.,  7.,",
            "         8.,  9., 10., 11.],",
            "       dtype=ember.float64)",
        ]
    ),
    "short_profile": "tensor([1.12, 2.50])",
    "neg_scalar_float": "tensor(-0.5000, dtype=ember.float64)",
    "large_float": "tensor([123456.7891])",
}


@pytest.fixture(autouse=True)
def _default_printoptions() -> Iterator[None]:
    ember.set_printoptions(profile="default")
    yield
    ember.set_printoptions(profile="default")


def make(data: Any, dtype_name: str) -> ember.Tensor:
    array = np.asarray(data)
    if dtype_name == "bfloat16":
        return ember.tensor(array.tolist(), dtype=ember.bfloat16)
    numpy_dtype = np.bool_ if dtype_name == "bool" else getattr(np, dtype_name)
    return ember.from_numpy(np.array(array, dtype=numpy_dtype, copy=True))


@pytest.mark.parametrize(
    ("name", "data", "dtype_name", "options"), CASES, ids=[c[0] for c in CASES]
)
def test_repr_matches_torch(name: str, data: Any, dtype_name: str, options: dict[str, Any]) -> None:
    ember.set_printoptions(**options)
    t = make(data, dtype_name)
    assert repr(t) == EXPECTED[name]
    assert str(t) == EXPECTED[name]


def test_non_contiguous_views_print_their_values() -> None:
    base = np.arange(12.0, dtype=np.float32).reshape(3, 4)
    assert repr(ember.from_numpy(base.T)) == repr(ember.from_numpy(np.ascontiguousarray(base.T)))
    assert repr(ember.from_numpy(base[::-1, ::2])) == (
        "tensor([[ 8., 10.],\n        [ 4.,  6.],\n        [ 0.,  2.]])"
    )


def test_default_dtype_changes_the_suffix() -> None:
    old = ember.get_default_dtype()
    try:
        ember.set_default_dtype(ember.float64)
        assert repr(ember.tensor([1.0], dtype=ember.float64)) == "tensor([1.])"
        assert repr(ember.tensor([1.0], dtype=ember.float32)) == (
            "tensor([1.], dtype=ember.float32)"
        )
    finally:
        ember.set_default_dtype(old)


def test_format_of_zero_dim_tensor_uses_the_python_value() -> None:
    assert f"{ember.tensor(2.5):.2f}" == "2.50"
    assert f"{ember.tensor(7):>4}" == "   7"
    assert format(ember.tensor([2.5]), "") == "tensor([2.5000])"
    with pytest.raises(TypeError):
        format(ember.tensor([2.5]), ".2f")


def test_printoptions_round_trip_and_context_manager() -> None:
    ember.set_printoptions(precision=2, threshold=10, edgeitems=1, linewidth=40)
    assert ember.get_printoptions() == {
        "precision": 2,
        "threshold": 10,
        "edgeitems": 1,
        "linewidth": 40,
        "sci_mode": None,
    }
    ember.set_printoptions(profile="default")
    with ember.printoptions(precision=1):
        assert repr(ember.tensor([1.25])) == "tensor([1.2])"
    assert repr(ember.tensor([1.25])) == "tensor([1.2500])"
    with pytest.raises(ValueError, match=r"\[set_printoptions\] unknown profile"):
        ember.set_printoptions(profile="long")


def test_summarized_print_does_not_touch_every_element() -> None:
    # A million elements print through their edges only: the output stays short.
    t = ember.from_numpy(np.arange(1_000_000, dtype=np.int64).reshape(1000, 1000))
    text = repr(t)
    assert text.count("\n") == 6
    assert "999999" in text
    assert "..." in text
