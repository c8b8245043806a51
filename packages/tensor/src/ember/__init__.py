"""ember: PyTorch-compatible tensors with fast native kernels.

``import ember`` gives the tensor library; other distributions (``ember.autograd``, ``ember.nn``,
...) join this package's namespace when installed.
"""

# ruff: noqa: E402, F401 - the imports below follow the namespace setup on purpose
from __future__ import annotations

import pkgutil
import sys

# Other ember distributions install portions of this package (ember/nn, ember/utils/data, ...).
__path__ = pkgutil.extend_path(__path__, __name__)

import ember_core._C as _C

sys.modules[__name__ + "._C"] = _C

from ember._C import *  # noqa: F403
from ember._device import device
from ember._dtype import (
    double,
    finfo,
    float,
    half,
    iinfo,
    int,
    is_floating_point,
    is_nonzero,
    is_tensor,
    long,
    numel,
    short,
)
from ember._tensor import Size, Tensor
from ember._tensor_str import get_printoptions, printoptions, set_printoptions

from ember import cuda, version  # isort: skip
from ember import _missing  # isort: skip

_missing.install()  # `import ember.nn` without ember-nn names the distribution to install

__version__ = "0.1.0"
