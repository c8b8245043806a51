"""interpolate / Upsample, grid_sample, affine_grid, pixel (un)shuffle and channel_shuffle
against numpy references written from torch's documented formulas, plus gradcheck and errors."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import ember
import ember.nn as nn
import ember.nn.functional as F
from ember.autograd import gradcheck

_rng = np.random.default_rng(9)


def T(a, grad=False):
    return ember.from_numpy(np.ascontiguousarray(a)).requires_grad_(grad)


def cubic(t, a=-0.75):
    t = abs(t)
    if t <= 1:
        return ((a + 2) * t - (a + 3)) * t * t + 1
    if t < 2:
        return ((a * t - 5 * a) * t + 8 * a) * t - 4 * a
    return 0.0


def weights_1d(size, out, mode, align, scale):
    """Dense [out, size] resampling matrix of one dim, one output position at a time."""
    m = np.zeros((out, size))
    ratio = (1.0 / scale) if scale else size / out
    for o in range(out):
        if mode in ("nearest", "nearest-exact"):
            off = 0.5 if mode == "nearest-exact" else 0.0
            m[o, min(math.floor((o + off) * ratio), size - 1)] = 1
            continue
        if align:
            src = o * (size - 1) / (out - 1) if out > 1 else 0.0
        else:
            src = (o + 0.5) * ratio - 0.5
            if mode != "bicubic":
                src = max(src, 0.0)
        base = math.floor(src)
        t = src - base
        if mode == "bicubic":
            for j in (-1, 0, 1, 2):
                m[o, min(max(base + j, 0), size - 1)] += cubic(t - j)
        else:
            m[o, min(base, size - 1)] += 1 - t
            m[o, min(base + 1, size - 1)] += t
    return m


def interp_ref(x, out, mode, align, scales):
    y = x
    for i, o in enumerate(out):
        m = weights_1d(x.shape[2 + i], o, mode, align, scales[i])
        y = np.moveaxis(np.tensordot(m, np.moveaxis(y, 2 + i, 0), axes=(1, 0)), 0, 2 + i)
    return y


MODES = {
    3: ["nearest", "nearest-exact", "linear"],
    4: ["nearest", "bilinear", "bicubic"],
    5: ["nearest-exact", "trilinear"],
}


@pytest.mark.parametrize("ndim", [3, 4, 5])
@pytest.mark.parametrize("how", ["size", "scale", "recompute"])
def test_interpolate_matches_numpy(ndim, how):
    spatial = (5, 4, 3)[: ndim - 2]
    x = _rng.standard_normal((2, 2, *spatial))
    for mode in MODES[ndim]:
        for align in [None] if mode.startswith("nearest") else [False, True]:
            if how == "size":
                out = tuple(s + 2 for s in spatial)
                kwargs = dict(size=out)
                scales = [None] * len(spatial)
            else:
                sf = (1.7, 0.6, 2.5)[: len(spatial)]
                out = tuple(math.floor(s * f) for s, f in zip(spatial, sf, strict=True))
                kwargs = dict(scale_factor=sf, recompute_scale_factor=how == "recompute")
                scales = [None] * len(spatial) if how == "recompute" else list(sf)
            got = F.interpolate(T(x), mode=mode, align_corners=align, **kwargs).numpy()
            want = interp_ref(x, out, mode, bool(align), scales)
            np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12, err_msg=f"{mode} {align}")


def test_area_is_adaptive_average():
    x = _rng.standard_normal((1, 2, 6, 9))
    got = F.interpolate(T(x), size=(3, 3), mode="area").numpy()
    np.testing.assert_allclose(got, x.reshape(1, 2, 3, 2, 3, 3).mean((3, 5)), rtol=1e-12)


@pytest.mark.parametrize("mode", ["linear", "nearest"])
def test_interpolate_gradcheck(mode):
    x = T(_rng.standard_normal((1, 2, 4)), True)
    assert gradcheck(lambda x: F.interpolate(x, scale_factor=1.5, mode=mode), (x,))
    x2 = T(_rng.standard_normal((1, 1, 3, 3)), True)
    assert gradcheck(lambda x: F.interpolate(x, size=(5, 4), mode="bicubic"), (x2,))
    assert gradcheck(
        lambda x: F.interpolate(x, size=(2, 5), mode="bilinear", align_corners=True), (x2,)
    )


def reflect(c, lo2, hi2):
    if lo2 == hi2:
        return 0.0
    low, span = lo2 / 2, (hi2 - lo2) / 2
    c = abs(c - low)
    extra, flips = math.fmod(c, span), math.floor(c / span)
    return extra + low if flips % 2 == 0 else span - extra + low


def grid_sample_ref(x, grid, mode, padding, align):
    n, c, h, w = x.shape
    out = np.zeros((n, c, *grid.shape[1:3]))
    for b, i, j in itertools.product(range(n), range(grid.shape[1]), range(grid.shape[2])):
        coords = []
        for v, size in ((grid[b, i, j, 0], w), (grid[b, i, j, 1], h)):
            u = (v + 1) / 2 * (size - 1) if align else ((v + 1) * size - 1) / 2
            if padding == "border":
                u = min(max(u, 0), size - 1)
            elif padding == "reflection":
                u = reflect(u, 0, 2 * (size - 1)) if align else reflect(u, -1, 2 * size - 1)
                u = min(max(u, 0), size - 1)
            coords.append(u)
        ux, uy = coords

        def at(yy, xx, b=b):
            return x[b, :, yy, xx] if 0 <= yy < h and 0 <= xx < w else np.zeros(c)

        if mode == "nearest":
            out[b, :, i, j] = at(int(np.rint(uy)), int(np.rint(ux)))
        else:
            x0, y0 = math.floor(ux), math.floor(uy)
            tx, ty = ux - x0, uy - y0
            out[b, :, i, j] = (
                at(y0, x0) * (1 - tx) * (1 - ty)
                + at(y0, x0 + 1) * tx * (1 - ty)
                + at(y0 + 1, x0) * (1 - tx) * ty
                + at(y0 + 1, x0 + 1) * tx * ty
            )
    return out


@pytest.mark.parametrize("mode", ["bilinear", "nearest"])
@pytest.mark.parametrize("padding", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align", [False, True])
def test_grid_sample_matches_numpy(mode, padding, align):
    x = _rng.standard_normal((2, 3, 4, 5))
    grid = _rng.uniform(-1.4, 1.4, (2, 3, 4, 2))
    got = F.grid_sample(T(x), T(grid), mode, padding, align).numpy()
    np.testing.assert_allclose(got, grid_sample_ref(x, grid, mode, padding, align), atol=1e-12)


def test_grid_sample_3d_identity_and_gradcheck():
    x = _rng.standard_normal((1, 2, 3, 4, 5))
    theta = np.array([[[1.0, 0, 0, 0], [0, 1.0, 0, 0], [0, 0, 1.0, 0]]])
    grid = F.affine_grid(T(theta), (1, 2, 3, 4, 5), align_corners=True)
    got = F.grid_sample(T(x), grid, align_corners=True).numpy()
    np.testing.assert_allclose(got, x, atol=1e-12)
    xs = T(_rng.standard_normal((1, 2, 3, 3)), True)
    g = T(_rng.uniform(-0.9, 0.9, (1, 2, 2, 2)), True)
    for padding in ("zeros", "border", "reflection"):
        fn = lambda x, g, pm=padding: F.grid_sample(x, g, "bilinear", pm, False)  # noqa: E731
        assert gradcheck(fn, (xs, g))


def test_affine_grid_matches_numpy():
    theta = _rng.standard_normal((2, 2, 3))
    for align in (False, True):
        got = F.affine_grid(T(theta), (2, 3, 4, 5), align_corners=align).numpy()
        xs = np.linspace(-1, 1, 5) * (1 if align else 4 / 5)
        ys = np.linspace(-1, 1, 4) * (1 if align else 3 / 4)
        base = np.stack([*np.meshgrid(xs, ys, indexing="xy"), np.ones((4, 5))], -1)
        want = np.einsum("hwk,njk->nhwj", base, theta)
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    t = T(theta, True)
    assert gradcheck(lambda t: F.affine_grid(t, (2, 1, 3, 2), align_corners=False), (t,))


def test_pixel_and_channel_shuffle():
    x = _rng.standard_normal((2, 8, 3, 4))
    got = F.pixel_shuffle(T(x), 2).numpy()
    want = x.reshape(2, 2, 2, 2, 3, 4).transpose(0, 1, 4, 2, 5, 3).reshape(2, 2, 6, 8)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(F.pixel_unshuffle(T(want), 2).numpy(), x)
    c = _rng.standard_normal((2, 6, 3))
    want_c = c.reshape(2, 3, 2, 3).transpose(0, 2, 1, 3).reshape(2, 6, 3)
    np.testing.assert_array_equal(F.channel_shuffle(T(c), 3).numpy(), want_c)
    xg = T(x, True)
    assert gradcheck(lambda x: F.pixel_shuffle(x, 2), (xg,))


@pytest.mark.parametrize(
    ("call", "exc", "match"),
    [
        (
            lambda: F.interpolate(ember.zeros(2, 3, 5, 5), scale_factor=2, mode="linear"),
            NotImplementedError,
            "Got 4D input, but linear mode needs 3D input",
        ),
        (
            lambda: F.interpolate(ember.zeros(2, 3, 5), size=3, scale_factor=2),
            ValueError,
            "only one of size or scale_factor",
        ),
        (
            lambda: F.interpolate(ember.zeros(2, 3, 5), size=3, align_corners=True),
            ValueError,
            "align_corners option can only be set",
        ),
        (lambda: F.interpolate(ember.zeros(2, 3, 5)), ValueError, "either size or scale_factor"),
        (
            lambda: F.interpolate(ember.zeros(2, 5), size=3),
            NotImplementedError,
            "Only 3D, 4D and 5D input",
        ),
        (
            lambda: F.interpolate(ember.zeros(2, 3, 5), size=3, antialias=True),
            NotImplementedError,
            "antialias",
        ),
        (
            lambda: F.interpolate(ember.zeros(2, 3, 5, 5), size=(3, 3, 3)),
            ValueError,
            "same number of spatial dimensions",
        ),
        (
            lambda: F.pixel_shuffle(ember.zeros(2, 3, 5, 5), 2),
            RuntimeError,
            "divisible by the square of upscale_factor",
        ),
        (lambda: F.channel_shuffle(ember.zeros(2, 3, 5), 2), RuntimeError, "divisible by groups"),
        (
            lambda: F.grid_sample(ember.zeros(1, 1, 3, 3), ember.zeros(1, 2, 2, 3)),
            RuntimeError,
            "expected grid to have size 2",
        ),
        (
            lambda: F.grid_sample(ember.zeros(1, 1, 3, 3), ember.zeros(1, 2, 2, 2), "area"),
            ValueError,
            "expected mode to be",
        ),
        (lambda: F.affine_grid(ember.zeros(1, 3, 3), (1, 1, 2, 2)), ValueError, "Nx2x3"),
    ],
)
def test_vision_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_upsample_modules():
    x = T(_rng.standard_normal((1, 2, 3, 4)))
    cases = [
        (
            nn.Upsample(scale_factor=2),
            "Upsample(scale_factor=2.0, mode='nearest')",
            F.interpolate(x, scale_factor=2),
        ),
        (
            nn.Upsample(size=(5, 5), mode="bilinear"),
            "Upsample(size=(5, 5), mode='bilinear')",
            F.interpolate(x, size=(5, 5), mode="bilinear"),
        ),
        (
            nn.UpsamplingBilinear2d(scale_factor=2),
            "UpsamplingBilinear2d(scale_factor=2.0, mode='bilinear')",
            F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=True),
        ),
        (
            nn.UpsamplingNearest2d(size=4),
            "UpsamplingNearest2d(size=4, mode='nearest')",
            F.interpolate(x, size=4),
        ),
        (nn.PixelShuffle(1), "PixelShuffle(upscale_factor=1)", x),
        (nn.PixelUnshuffle(1), "PixelUnshuffle(downscale_factor=1)", x),
        (nn.ChannelShuffle(2), "ChannelShuffle(groups=2)", F.channel_shuffle(x, 2)),
    ]
    for module, text, want in cases:
        assert repr(module) == text
        np.testing.assert_array_equal(module(x).numpy(), want.numpy())


def test_against_torch():
    torch = pytest.importorskip("torch")
    x = _rng.standard_normal((1, 2, 5, 7))
    got = F.interpolate(T(x), scale_factor=1.7, mode="bicubic").numpy()
    want = torch.nn.functional.interpolate(torch.from_numpy(x), scale_factor=1.7, mode="bicubic")
    np.testing.assert_allclose(got, want.numpy(), rtol=1e-10)
