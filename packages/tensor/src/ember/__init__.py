"""ember: PyTorch-compatible tensors with fast native kernels.

``import ember`` gives the tensor library; other distributions (``ember.autograd``, ``ember.nn``,
...) join this package's namespace when installed.
"""

# ruff: noqa: E402, F401 - the imports below follow the namespace setup on purpose
from __future__ import annotations

import importlib
import pkgutil
import sys

# Other ember distributions install portions of this package (ember/nn, ember/utils/data, ...).
__path__ = pkgutil.extend_path(__path__, __name__)

import ember_core._C as _C

sys.modules[__name__ + "._C"] = _C

from ember._C import *  # noqa: F403
from ember._device import device
from ember._dtype import (
    cdouble,
    cfloat,
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
from ember._grad_mode import (
    enable_grad,
    inference_mode,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from ember._tensor import Size, Tensor
from ember._tensor_str import get_printoptions, printoptions, set_printoptions
from ember.serialization import load, save

from ember import cuda, testing, version  # isort: skip
from ember import accelerator, onnx  # isort: skip
from ember import linalg  # isort: skip
from ember import fft  # isort: skip
from ember import special  # isort: skip
from ember._linalg_legacy import (  # isort: skip
    cholesky,
    det,
    inverse,
    logdet,
    lu_unpack,
    matrix_power,
    pinverse,
    qr,
    slogdet,
    svd,
)
from ember._vector_ops import dist, inner, isreal, polar  # isort: skip
from ember._einsum import einsum  # isort: skip
from ember import _missing  # isort: skip

# torch's namespace around the ops (issue 12): constants, legacy types, memory formats, flags.
from ember._compat_namespace import *  # noqa: F403  # isort: skip
from ember import backends  # isort: skip

_missing.install()  # `import ember.nn` without ember-nn names the distribution to install

__version__ = "0.1.0"


def _load_autograd() -> None:
    """Imports ember.autograd when the ember-autograd distribution is installed (DESIGN §3).

    Importing it registers the gradient recorder with the native op dispatch.
    """
    try:
        importlib.import_module("ember.autograd")
    except ModuleNotFoundError as error:
        if error.name != "ember.autograd":
            raise


_load_autograd()


def __getattr__(name: str) -> object:
    # ember.optim / ember.amp / ember.autocast (ember-nn) are imported on first use, as in torch.
    if name in ("autocast", "is_autocast_enabled", "get_autocast_dtype", "optim", "amp"):
        mod = importlib.import_module(
            "ember.amp" if name not in ("optim", "amp") else "ember." + name
        )
        return mod if name in ("optim", "amp") else getattr(mod, name)
    raise AttributeError(f"module 'ember' has no attribute {name!r}")
