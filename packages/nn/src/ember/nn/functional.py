"""``ember.nn.functional``: the functions behind the modules (torch.nn.functional)."""

from __future__ import annotations

# Convolution, pooling, padding, resampling and unfold/fold (branch nn-conv).
from ember.nn._functional.conv import (
    conv1d as conv1d,
)
from ember.nn._functional.conv import (
    conv2d as conv2d,
)
from ember.nn._functional.conv import (
    conv3d as conv3d,
)
from ember.nn._functional.conv import (
    conv_transpose1d as conv_transpose1d,
)
from ember.nn._functional.conv import (
    conv_transpose2d as conv_transpose2d,
)
from ember.nn._functional.conv import (
    conv_transpose3d as conv_transpose3d,
)
from ember.nn._functional.fold import fold as fold
from ember.nn._functional.fold import unfold as unfold
from ember.nn._functional.padding import pad as pad
from ember.nn._functional.pooling import (
    adaptive_avg_pool1d as adaptive_avg_pool1d,
)
from ember.nn._functional.pooling import (
    adaptive_avg_pool2d as adaptive_avg_pool2d,
)
from ember.nn._functional.pooling import (
    adaptive_avg_pool3d as adaptive_avg_pool3d,
)
from ember.nn._functional.pooling import (
    adaptive_max_pool1d as adaptive_max_pool1d,
)
from ember.nn._functional.pooling import (
    adaptive_max_pool2d as adaptive_max_pool2d,
)
from ember.nn._functional.pooling import (
    adaptive_max_pool3d as adaptive_max_pool3d,
)
from ember.nn._functional.pooling import (
    avg_pool1d as avg_pool1d,
)
from ember.nn._functional.pooling import (
    avg_pool2d as avg_pool2d,
)
from ember.nn._functional.pooling import (
    avg_pool3d as avg_pool3d,
)
from ember.nn._functional.pooling import (
    fractional_max_pool2d as fractional_max_pool2d,
)
from ember.nn._functional.pooling import (
    fractional_max_pool3d as fractional_max_pool3d,
)
from ember.nn._functional.pooling import (
    lp_pool1d as lp_pool1d,
)
from ember.nn._functional.pooling import (
    lp_pool2d as lp_pool2d,
)
from ember.nn._functional.pooling import (
    lp_pool3d as lp_pool3d,
)
from ember.nn._functional.pooling import (
    max_pool1d as max_pool1d,
)
from ember.nn._functional.pooling import (
    max_pool1d_with_indices as max_pool1d_with_indices,
)
from ember.nn._functional.pooling import (
    max_pool2d as max_pool2d,
)
from ember.nn._functional.pooling import (
    max_pool2d_with_indices as max_pool2d_with_indices,
)
from ember.nn._functional.pooling import (
    max_pool3d as max_pool3d,
)
from ember.nn._functional.pooling import (
    max_pool3d_with_indices as max_pool3d_with_indices,
)
from ember.nn._functional.pooling import (
    max_unpool1d as max_unpool1d,
)
from ember.nn._functional.pooling import (
    max_unpool2d as max_unpool2d,
)
from ember.nn._functional.pooling import (
    max_unpool3d as max_unpool3d,
)
from ember.nn._functional.vision import (
    affine_grid as affine_grid,
)
from ember.nn._functional.vision import (
    channel_shuffle as channel_shuffle,
)
from ember.nn._functional.vision import (
    grid_sample as grid_sample,
)
from ember.nn._functional.vision import (
    interpolate as interpolate,
)
from ember.nn._functional.vision import (
    native_channel_shuffle as native_channel_shuffle,
)
from ember.nn._functional.vision import (
    pixel_shuffle as pixel_shuffle,
)
from ember.nn._functional.vision import (
    pixel_unshuffle as pixel_unshuffle,
)
from ember.nn._functional.vision import (
    upsample as upsample,
)
from ember.nn._functional.vision import (
    upsample_bilinear as upsample_bilinear,
)
from ember.nn._functional.vision import (
    upsample_nearest as upsample_nearest,
)
