"""ember: PyTorch-compatible tensors with fast native kernels.

``import ember`` gives the tensor library; other distributions (``ember.autograd``, ``ember.nn``,
...) join this package's namespace when installed.
"""

from __future__ import annotations

import pkgutil
import sys

# Other ember distributions install portions of this package (ember/nn, ember/utils/data, ...).
__path__ = pkgutil.extend_path(__path__, __name__)

import ember_core._C as _C

sys.modules[__name__ + "._C"] = _C

from ember._C import *  # noqa: E402,F403
from ember._tensor import Size, Tensor  # noqa: E402

__version__ = "0.1.0"
