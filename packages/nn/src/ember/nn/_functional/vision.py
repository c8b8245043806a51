"""Resampling and rearranging images: interpolate/upsample, grid_sample, affine_grid,
pixel_shuffle/unshuffle and channel_shuffle.

``interpolate`` is separable: along each spatial dim every output position reads 1 (nearest),
2 (linear) or 4 (cubic) input positions with weights that depend only on the geometry, so one dim
is a few ``index_select`` passes weighted by small [out] vectors computed in numpy ('area' is
adaptive average pooling). ``grid_sample`` gathers the corners of each sample point with
``gather``; its weights are ember ops on the grid, so the grid gets gradients too.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

import ember
from ember._tensor import Tensor
from ember.nn._functional._checks import check_tensor, check_tensors
from ember.nn._functional._window import is_tensor
from ember.nn._functional.pooling import (
    adaptive_avg_pool1d,
    adaptive_avg_pool2d,
    adaptive_avg_pool3d,
)

SizeOrSizes = int | Sequence[int] | None
ScaleOrScales = float | Sequence[float] | None

_MODES = ("nearest", "linear", "bilinear", "bicubic", "trilinear", "area", "nearest-exact")
_NEEDS = {"linear": 3, "bilinear": 4, "bicubic": 4, "trilinear": 5}


def _taps(
    size: int, out: int, scale: float | None, mode: str, align_corners: bool
) -> tuple[np.ndarray, np.ndarray]:
    """[T, out] input indices and weights of one spatial dim (T = 1, 2 or 4 taps)."""
    dst = np.arange(out, dtype=np.float64)
    if mode in ("nearest", "nearest-exact"):
        ratio = (1.0 / scale) if scale is not None and scale > 0 else size / out
        offset = 0.5 if mode == "nearest-exact" else 0.0
        src = np.minimum(np.floor((dst + offset) * ratio).astype(np.int64), size - 1)
        return src[None, :], np.ones((1, out))
    if align_corners:
        ratio = (size - 1) / (out - 1) if out > 1 else 0.0
        src = dst * ratio
    else:
        ratio = (1.0 / scale) if scale is not None and scale > 0 else size / out
        src = (dst + 0.5) * ratio - 0.5
        if mode != "bicubic":
            src = np.maximum(src, 0.0)
    base = np.floor(src)
    t = src - base
    base = base.astype(np.int64)
    if mode != "bicubic":
        i0 = np.minimum(base, size - 1)
        i1 = np.minimum(base + 1, size - 1)
        return np.stack([i0, i1]), np.stack([1.0 - t, t])
    a = -0.75  # torch's cubic convolution coefficient

    def near(x: np.ndarray) -> Any:
        return ((a + 2) * x - (a + 3)) * x * x + 1

    def far(x: np.ndarray) -> Any:
        return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a

    weights = np.stack([far(t + 1), near(t), near(1 - t), far(2 - t)])
    index = np.stack([np.clip(base + j, 0, size - 1) for j in (-1, 0, 1, 2)])
    return index, weights


def _resample_dim(x: Any, d: int, index: np.ndarray, weights: np.ndarray) -> Any:
    shape = [1] * x.dim()
    shape[d] = index.shape[1]
    out: Tensor | None = None
    for j in range(index.shape[0]):
        part = x.index_select(d, ember.from_numpy(index[j].copy()))
        if not np.all(weights[j] == 1.0):
            part = part * ember.from_numpy(weights[j].reshape(shape)).to(x.dtype)
        out = part if out is None else out + part
    assert out is not None
    return out


def _output_sizes(
    input: Any,
    size: SizeOrSizes,
    scale_factor: ScaleOrScales,
    recompute_scale_factor: bool | None,
) -> tuple[tuple[int, ...], list[float | None]]:
    d = input.dim() - 2
    spatial = list(input.shape[2:])
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        if recompute_scale_factor:
            raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
        sizes = [size] * d if isinstance(size, int) else list(size)
        if len(sizes) != d:
            raise ValueError(
                "Input and output must have the same number of spatial dimensions, but got "
                f"input with spatial dimensions of {spatial} and output size of {sizes}. Please "
                "provide input tensor in (N, C, d1, d2, ...,dK) format and output size in "
                "(o1, o2, ...,oK) format."
            )
        return tuple(int(v) for v in sizes), [None] * d
    if scale_factor is None:
        raise ValueError("either size or scale_factor should be defined")
    scales = (
        [float(scale_factor)] * d
        if isinstance(scale_factor, (int, float))
        else [float(v) for v in scale_factor]
    )
    if len(scales) != d:
        raise ValueError(
            "Input and scale_factor must have the same number of spatial dimensions, but got "
            f"input with spatial dimensions of {spatial} and scale_factor of shape {scales}. "
            "Please provide input tensor in (N, C, d1, d2, ...,dK) format and scale_factor in "
            "(s1, s2, ...,sK) format."
        )
    out = tuple(math.floor(float(spatial[i]) * scales[i]) for i in range(d))
    kept: list[float | None] = [None] * d if recompute_scale_factor else list(scales)
    return out, kept


def interpolate(
    input: Tensor,
    size: SizeOrSizes = None,
    scale_factor: ScaleOrScales = None,
    mode: str = "nearest",
    align_corners: bool | None = None,
    recompute_scale_factor: bool | None = None,
    antialias: bool = False,
) -> Tensor:
    """Resizes [N, C, *spatial] (1 to 3 spatial dims) to ``size`` or by ``scale_factor``.

    Args:
        input: 3-D, 4-D or 5-D tensor.
        size: output spatial size (int or one per dim).
        scale_factor: multiplier of the spatial size (float or one per dim).
        mode: 'nearest', 'nearest-exact', 'linear' (3-D), 'bilinear'/'bicubic' (4-D),
            'trilinear' (5-D) or 'area'.
        align_corners: for the interpolating modes: whether corner pixels' centres align.
        recompute_scale_factor: compute the sampling scale from the output size.
        antialias: not supported yet (raises NotImplementedError when True).

    Example:
        >>> interpolate(ember.tensor([[[1.0, 2.0]]]), scale_factor=2, mode="linear")
        tensor([[[1.0000, 1.2500, 1.7500, 2.0000]]])
    """
    result: Tensor = _interpolate_impl(
        input, size, scale_factor, mode, align_corners, recompute_scale_factor, antialias
    )
    return result


def _interpolate_impl(
    input: Any,
    size: SizeOrSizes = None,
    scale_factor: ScaleOrScales = None,
    mode: str = "nearest",
    align_corners: bool | None = None,
    recompute_scale_factor: bool | None = None,
    antialias: bool = False,
) -> Any:
    check_tensor(input, "input", "interpolate")
    if mode not in _MODES:
        raise NotImplementedError(
            f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.dim()}D) for "
            f"the modes: {' | '.join(_MODES)} (got {mode})"
        )
    if mode in ("nearest", "area", "nearest-exact") and align_corners is not None:
        raise ValueError(
            "align_corners option can only be set with the interpolating modes: "
            "linear | bilinear | bicubic | trilinear"
        )
    if input.dim() not in (3, 4, 5):
        raise NotImplementedError(
            f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.dim()}D) for "
            f"the modes: {' | '.join(_MODES)} (got {mode})"
        )
    if mode in _NEEDS and input.dim() != _NEEDS[mode]:
        raise NotImplementedError(
            f"Got {input.dim()}D input, but {mode} mode needs {_NEEDS[mode]}D input"
        )
    if antialias:
        raise NotImplementedError("interpolate: antialias=True is not implemented in ember yet")
    if not input.dtype.is_floating_point and mode not in ("nearest", "nearest-exact"):
        raise NotImplementedError(
            f"interpolate ({mode}): not implemented for "
            f"'{str(input.dtype).removeprefix('ember.')}' tensors"
        )
    out, scales = _output_sizes(input, size, scale_factor, recompute_scale_factor)
    if any(v <= 0 for v in out):
        raise RuntimeError(
            f"interpolate: input and output sizes should be greater than 0, but got input "
            f"{list(input.shape[2:])} and output {list(out)}"
        )
    if mode == "area":
        pools = {3: adaptive_avg_pool1d, 4: adaptive_avg_pool2d, 5: adaptive_avg_pool3d}
        return pools[input.dim()](input, out)
    corners = bool(align_corners)
    x = input
    for i, o in enumerate(out):
        index, weights = _taps(input.shape[2 + i], o, scales[i], mode, corners)
        x = _resample_dim(x, 2 + i, index, weights)
    return x


def upsample(
    input: Tensor,
    size: SizeOrSizes = None,
    scale_factor: ScaleOrScales = None,
    mode: str = "nearest",
    align_corners: bool | None = None,
) -> Tensor:
    """Deprecated alias of ``interpolate`` (kept as in torch).

    Example:
        >>> upsample(ember.ones(1, 1, 2), scale_factor=2).shape
        ember.Size([1, 1, 4])
    """
    result: Tensor = _upsample_impl(input, size, scale_factor, mode, align_corners)
    return result


def _upsample_impl(
    input: Any,
    size: SizeOrSizes = None,
    scale_factor: ScaleOrScales = None,
    mode: str = "nearest",
    align_corners: bool | None = None,
) -> Any:
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(
    input: Tensor, size: SizeOrSizes = None, scale_factor: ScaleOrScales = None
) -> Tensor:
    """``interpolate(..., mode='nearest')`` (deprecated in torch).

    Example:
        >>> upsample_nearest(ember.ones(1, 1, 2, 2), scale_factor=2).shape
        ember.Size([1, 1, 4, 4])
    """
    result: Tensor = _upsample_nearest_impl(input, size, scale_factor)
    return result


def _upsample_nearest_impl(
    input: Any, size: SizeOrSizes = None, scale_factor: ScaleOrScales = None
) -> Any:
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(
    input: Tensor, size: SizeOrSizes = None, scale_factor: ScaleOrScales = None
) -> Tensor:
    """``interpolate(..., mode='bilinear', align_corners=True)`` (deprecated in torch).

    Example:
        >>> upsample_bilinear(ember.ones(1, 1, 2, 2), scale_factor=2).shape
        ember.Size([1, 1, 4, 4])
    """
    result: Tensor = _upsample_bilinear_impl(input, size, scale_factor)
    return result


def _upsample_bilinear_impl(
    input: Any, size: SizeOrSizes = None, scale_factor: ScaleOrScales = None
) -> Any:
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


def pixel_shuffle(input: Tensor, upscale_factor: int) -> Tensor:
    """[*, C * r^2, H, W] -> [*, C, H * r, W * r].

    Example:
        >>> pixel_shuffle(ember.randn(1, 8, 3, 3), 2).shape
        ember.Size([1, 2, 6, 6])
    """
    check_tensors("pixel_shuffle", input=input)
    result: Tensor = _pixel_shuffle_impl(input, upscale_factor)
    return result


def _pixel_shuffle_impl(input: Any, upscale_factor: int) -> Any:
    r = int(upscale_factor)
    if input.dim() < 3:
        raise RuntimeError(
            f"pixel_shuffle expects input to have at least 3 dimensions, but got input with "
            f"{input.dim()} dimension(s)"
        )
    if r <= 0:
        raise RuntimeError(f"pixel_shuffle expects a positive upscale_factor, but got {r}")
    *batch, c, h, w = input.shape
    if c % (r * r) != 0:
        raise RuntimeError(
            "pixel_shuffle expects its input's 'channel' dimension to be divisible by the square "
            f"of upscale_factor, but input.size(-3)={c} is not divisible by {r * r}"
        )
    b = len(batch)
    x = input.reshape(*batch, c // (r * r), r, r, h, w)
    x = x.permute(*range(b), b, b + 3, b + 1, b + 4, b + 2)
    return x.reshape(*batch, c // (r * r), h * r, w * r)


def pixel_unshuffle(input: Tensor, downscale_factor: int) -> Tensor:
    """[*, C, H * r, W * r] -> [*, C * r^2, H, W] (the inverse of ``pixel_shuffle``).

    Example:
        >>> pixel_unshuffle(ember.randn(1, 2, 6, 6), 2).shape
        ember.Size([1, 8, 3, 3])
    """
    check_tensors("pixel_unshuffle", input=input)
    result: Tensor = _pixel_unshuffle_impl(input, downscale_factor)
    return result


def _pixel_unshuffle_impl(input: Any, downscale_factor: int) -> Any:
    r = int(downscale_factor)
    if input.dim() < 3:
        raise RuntimeError(
            f"pixel_unshuffle expects input to have at least 3 dimensions, but got input with "
            f"{input.dim()} dimension(s)"
        )
    if r <= 0:
        raise RuntimeError(f"pixel_unshuffle expects a positive downscale_factor, but got {r}")
    *batch, c, h, w = input.shape
    if h % r != 0 or w % r != 0:
        raise RuntimeError(
            "pixel_unshuffle expects height and width to be divisible by downscale_factor, but "
            f"got input.size(-2)={h} and input.size(-1)={w} for downscale_factor={r}"
        )
    b = len(batch)
    x = input.reshape(*batch, c, h // r, r, w // r, r)
    x = x.permute(*range(b), b, b + 2, b + 4, b + 1, b + 3)
    return x.reshape(*batch, c * r * r, h // r, w // r)


def channel_shuffle(input: Tensor, groups: int) -> Tensor:
    """Interleaves the channels of [N, C, *] in ``groups`` groups (ShuffleNet).

    Example:
        >>> channel_shuffle(ember.arange(4.0).reshape(1, 4, 1), 2).flatten()
        tensor([0., 2., 1., 3.])
    """
    check_tensors("channel_shuffle", input=input)
    result: Tensor = _channel_shuffle_impl(input, groups)
    return result


def _channel_shuffle_impl(input: Any, groups: int) -> Any:
    g = int(groups)
    if input.dim() < 3:
        raise RuntimeError(
            "channel_shuffle expects input to have at least 3 dimensions, but got input with "
            f"{input.dim()} dimension(s)"
        )
    if g <= 0:
        raise RuntimeError(
            f"Number of groups to divide channels in must be positive. Value of groups:{g}"
        )
    n, c, *rest = input.shape
    if c % g != 0:
        raise RuntimeError(
            f"Number of channels must be divisible by groups. Got {c} channels and {g} groups."
        )
    x = input.reshape(n, g, c // g, *rest).transpose(1, 2)
    return x.reshape(n, c, *rest)


def native_channel_shuffle(input: Tensor, groups: int) -> Tensor:
    """Same as ``channel_shuffle`` (torch's native variant)."""
    check_tensors("native_channel_shuffle", input=input)
    result: Tensor = _native_channel_shuffle_impl(input, groups)
    return result


def _native_channel_shuffle_impl(input: Any, groups: int) -> Any:
    return channel_shuffle(input, groups)


def _unnormalize(coord: Any, size: int, align_corners: bool) -> Any:
    if align_corners:
        return (coord + 1) / 2 * (size - 1)
    return ((coord + 1) * size - 1) / 2


def _reflect(coord: Any, twice_low: int, twice_high: int) -> Any:
    if twice_low == twice_high:
        return coord * 0
    low = twice_low / 2
    span = (twice_high - twice_low) / 2
    c = (coord - low).abs()
    extra = ember.fmod(c, span)
    flips = ember.floor(c / span).detach()
    even = ember.fmod(flips, 2) == 0
    return ember.where(even, extra + low, span - extra + low)


def _source_coord(coord: Any, size: int, padding_mode: str, align_corners: bool) -> Any:
    c = _unnormalize(coord, size, align_corners)
    if padding_mode == "border":
        c = c.clamp(0, size - 1)
    elif padding_mode == "reflection":
        c = _reflect(c, 0, 2 * (size - 1)) if align_corners else _reflect(c, -1, 2 * size - 1)
        c = c.clamp(0, size - 1)
    return c


def grid_sample(
    input: Tensor,
    grid: Tensor,
    mode: str = "bilinear",
    padding_mode: str = "zeros",
    align_corners: bool | None = None,
) -> Tensor:
    """Samples ``input`` [N, C, H, W] (or [N, C, D, H, W]) at the normalized points of ``grid``
    [N, Ho, Wo, 2] (or [N, Do, Ho, Wo, 3]); coordinates in [-1, 1], x first.

    Args:
        mode: 'bilinear' or 'nearest' ('bicubic' is not supported yet).
        padding_mode: 'zeros', 'border' or 'reflection'.
        align_corners: whether -1 and 1 are the centres (True) or the edges of the corner pixels.

    Example:
        >>> grid_sample(ember.ones(1, 1, 2, 2), ember.zeros(1, 1, 1, 2), align_corners=False)
        tensor([[[[1.]]]])
    """
    check_tensors("grid_sample", input=input, grid=grid)
    result: Tensor = _grid_sample_impl(input, grid, mode, padding_mode, align_corners)
    return result


def _grid_sample_impl(
    input: Any,
    grid: Any,
    mode: str = "bilinear",
    padding_mode: str = "zeros",
    align_corners: bool | None = None,
) -> Any:
    if mode not in ("bilinear", "nearest", "bicubic"):
        raise ValueError(
            "nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or "
            f"'bicubic', but got: '{mode}'"
        )
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError(
            "nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or "
            f"'reflection', but got: '{padding_mode}'"
        )
    if input.dim() not in (4, 5) or grid.dim() != input.dim():
        raise RuntimeError(
            f"grid_sampler(): expected 4D or 5D input and grid with same number of dimensions, "
            f"but got input with sizes {list(input.shape)} and grid with sizes {list(grid.shape)}"
        )
    d = input.dim() - 2
    if grid.shape[0] != input.shape[0] or grid.shape[-1] != d:
        raise RuntimeError(
            f"grid_sampler(): expected grid to have size {d} in last dimension and the batch "
            f"size of input ({input.shape[0]}), but got grid with sizes {list(grid.shape)}"
        )
    if mode == "bicubic":
        raise NotImplementedError("grid_sample: mode='bicubic' is not implemented in ember yet")
    if input.dtype != grid.dtype:
        raise RuntimeError(
            f"grid_sampler(): expected input and grid to have the same dtype, but input has "
            f"{input.dtype} and grid has {grid.dtype}"
        )
    corners = bool(align_corners)
    n, c = input.shape[0], input.shape[1]
    spatial = tuple(input.shape[2:])  # (H, W) or (D, H, W)
    out_shape = tuple(grid.shape[1:-1])
    points = math.prod(out_shape)
    flat_in = input.reshape(n, c, -1)
    # grid's last dim is x (W), y (H), z (D): reversed against the spatial dims.
    coords = [
        _source_coord(grid[..., d - 1 - i].reshape(n, points), spatial[i], padding_mode, corners)
        for i in range(d)
    ]
    strides = [math.prod(spatial[i + 1 :]) for i in range(d)]

    def corner(index: list[Tensor]) -> tuple[Tensor, Tensor]:
        """Gathered values at integer positions, and whether each lies inside the input."""
        inside = None
        flat = None
        for i in range(d):
            ok = (index[i] >= 0) & (index[i] < spatial[i])
            inside = ok if inside is None else inside & ok
            term = index[i].clamp(0, spatial[i] - 1) * strides[i]
            flat = term if flat is None else flat + term
        assert flat is not None and inside is not None
        values = flat_in.gather(2, flat.unsqueeze(1).expand(n, c, points))
        return values, inside

    if mode == "nearest":
        index = [ember.round(cd.detach()).long() for cd in coords]
        values, inside = corner(index)
        out = values * inside.unsqueeze(1).to(input.dtype)
    else:
        lows = [ember.floor(cd.detach()) for cd in coords]
        fracs = [coords[i] - lows[i] for i in range(d)]
        low_idx = [lw.long() for lw in lows]
        out = None
        for bits in range(2**d):
            index, weight = [], None
            for i in range(d):
                up = (bits >> i) & 1
                index.append(low_idx[i] + up)
                w = fracs[i] if up else 1 - fracs[i]
                weight = w if weight is None else weight * w
            assert weight is not None
            values, inside = corner(index)
            term = values * (weight * inside.to(input.dtype)).unsqueeze(1)
            out = term if out is None else out + term
    assert out is not None  # 2**d >= 1 corners, so the loop ran
    return out.reshape(n, c, *out_shape)


def affine_grid(theta: Tensor, size: Sequence[int], align_corners: bool | None = None) -> Tensor:
    """Sampling grid for ``grid_sample`` from affine matrices: theta [N, 2, 3] and size
    [N, C, H, W] give [N, H, W, 2]; theta [N, 3, 4] and [N, C, D, H, W] give [N, D, H, W, 3].

    Example:
        >>> theta = ember.tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]])
        >>> affine_grid(theta, (1, 1, 2, 2), align_corners=True)[0, 0]
        tensor([[-1., -1.],
                [ 1., -1.]])
    """
    check_tensors("affine_grid", theta=theta)
    result: Tensor = _affine_grid_impl(theta, size, align_corners)
    return result


def _affine_grid_impl(theta: Any, size: Sequence[int], align_corners: bool | None = None) -> Any:
    if not is_tensor(theta) or not theta.dtype.is_floating_point:
        raise ValueError(f"Expected theta to have floating point type, but got {theta}")
    sizes = [int(v) for v in size]
    if len(sizes) == 4:
        if theta.dim() != 3 or tuple(theta.shape[1:]) != (2, 3):
            raise ValueError(
                "Expected a batch of 2D affine matrices of shape Nx2x3 for size "
                f"{sizes}. Got {list(theta.shape)}."
            )
        spatial = sizes[2:]
    elif len(sizes) == 5:
        if theta.dim() != 3 or tuple(theta.shape[1:]) != (3, 4):
            raise ValueError(
                "Expected a batch of 3D affine matrices of shape Nx3x4 for size "
                f"{sizes}. Got {list(theta.shape)}."
            )
        spatial = sizes[2:]
    else:
        raise NotImplementedError(
            f"affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, "
            f"respectively. Got size {sizes}."
        )
    if min(sizes) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {sizes}")
    if theta.shape[0] != sizes[0]:
        raise ValueError(
            f"affine_grid: expected theta's batch size {theta.shape[0]} to match size[0] {sizes[0]}"
        )
    corners = bool(align_corners)

    def axis(steps: int) -> np.ndarray:
        line = np.linspace(-1.0, 1.0, steps) if steps > 1 else np.zeros(1)
        return line if corners else line * (steps - 1) / steps

    # Base coordinates (x, y[, z], 1) with x varying along the last spatial dim.
    lines = [axis(s) for s in reversed(spatial)]
    mesh = np.meshgrid(*lines[::-1], indexing="ij")[::-1]
    base = np.stack([*mesh, np.ones_like(mesh[0])], axis=-1).reshape(-1, len(spatial) + 1)
    base_t = ember.from_numpy(base.copy()).to(theta.dtype)
    grid = base_t @ theta.transpose(1, 2)
    return grid.reshape(sizes[0], *spatial, len(spatial))
