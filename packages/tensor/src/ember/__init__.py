"""ember: PyTorch-compatible tensors with fast native kernels.

``import ember`` gives the tensor library; other distributions (``ember.autograd``, ``ember.nn``,
...) join this package's namespace when installed.
"""

# ruff: noqa: E402 - the imports below follow the namespace setup on purpose
from __future__ import annotations

import importlib
import pkgutil
import sys
from typing import TYPE_CHECKING

# Other ember distributions install portions of this package (ember/nn, ember/utils/data, ...).
__path__ = pkgutil.extend_path(__path__, __name__)

import ember_core._C as _C

sys.modules[__name__ + "._C"] = _C

# `name as name`: an explicit re-export, so that `mypy --strict` user code sees `ember.Tensor`.
# isort: off
from ember._C import *  # noqa: F403
from ember._device import device as device
from ember._dtype import (
    cdouble as cdouble,
    cfloat as cfloat,
    double as double,
    finfo as finfo,
    float as float,
    half as half,
    iinfo as iinfo,
    int as int,
    is_floating_point as is_floating_point,
    is_nonzero as is_nonzero,
    is_tensor as is_tensor,
    long as long,
    numel as numel,
    short as short,
)
from ember._grad_mode import (
    enable_grad as enable_grad,
    inference_mode as inference_mode,
    is_inference_mode_enabled as is_inference_mode_enabled,
    no_grad as no_grad,
    set_grad_enabled as set_grad_enabled,
)
from ember._tensor import Size as Size, Tensor as Tensor
from ember._tensor_str import (
    get_printoptions as get_printoptions,
    printoptions as printoptions,
    set_printoptions as set_printoptions,
)
from ember.serialization import load as load, save as save

from ember import cuda as cuda, testing as testing, version as version  # isort: skip
from ember import accelerator as accelerator, onnx as onnx  # isort: skip
from ember import linalg as linalg  # isort: skip
from ember import fft as fft  # isort: skip
from ember import special as special  # isort: skip
from ember._linalg_legacy import (  # isort: skip
    cholesky as cholesky,
    det as det,
    inverse as inverse,
    logdet as logdet,
    lu_unpack as lu_unpack,
    matrix_power as matrix_power,
    pinverse as pinverse,
    qr as qr,
    slogdet as slogdet,
    svd as svd,
)
from ember._vector_ops import dist as dist, inner as inner, isreal as isreal, polar as polar  # isort: skip
from ember._einsum import einsum as einsum  # type: ignore[assignment]  # isort: skip

# Everyday torch functions composed from native ops (docs/architecture.md, "How to add an op").
from ember._shape_composites import (  # isort: skip
    chain_matmul as chain_matmul,
    is_neg as is_neg,
    ravel as ravel,
    resolve_neg as resolve_neg,
    row_stack as row_stack,
    unravel_index as unravel_index,
    vander as vander,
)
from ember._float_parts import frexp as frexp, ldexp as ldexp, logit as logit  # isort: skip
from ember._blas_composites import addbmm as addbmm, addr as addr  # isort: skip
from ember._view_scatter import (  # isort: skip
    diagonal_scatter as diagonal_scatter,
    select_scatter as select_scatter,
    slice_scatter as slice_scatter,
)
from ember._integrate import (  # isort: skip
    cumulative_trapezoid as cumulative_trapezoid,
    trapezoid as trapezoid,
    trapz as trapz,
)
from ember._renorm import renorm as renorm  # isort: skip
from ember._gradient import gradient as gradient  # isort: skip
from ember import _missing  # isort: skip

# torch's namespace around the ops (issue 12): constants, legacy types, memory formats, flags.
from ember._compat_namespace import *  # noqa: F403  # isort: skip
from ember import backends as backends  # isort: skip
# isort: on

_missing.install()  # `import ember.nn` without ember-nn names the distribution to install

__version__ = "0.1.0"

if TYPE_CHECKING:
    # Loaded at run time by _load_autograd and __getattr__ below (other distributions); named
    # here so that type checkers see `ember.autograd.grad`, `ember.optim.Adam`, `ember.autocast`.
    from ember import amp as amp
    from ember import autograd as autograd
    from ember import optim as optim
    from ember.amp import autocast as autocast
    from ember.amp import get_autocast_dtype as get_autocast_dtype
    from ember.amp import is_autocast_enabled as is_autocast_enabled
    from ember.nn.functional import cosine_similarity as cosine_similarity
    from ember.nn.functional import pairwise_distance as pairwise_distance
    from ember.nn.functional import pdist as pdist


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


# Components other distributions add, imported on first use (torch imports them eagerly; `import
# ember` stays fast). A missing distribution fails with the _missing finder's message.
_LAZY_MODULES = ("nn", "optim", "amp", "multiprocessing", "distributions", "utils")
_AUTOCAST_NAMES = ("autocast", "is_autocast_enabled", "get_autocast_dtype")
# torch's top-level names for nn.functional's distances (the same functions, as in torch).
_NN_FUNCTIONAL_NAMES = ("cosine_similarity", "pairwise_distance", "pdist")


def __getattr__(name: str) -> object:
    if name in _LAZY_MODULES:
        return importlib.import_module("ember." + name)
    if name in _AUTOCAST_NAMES:
        return getattr(importlib.import_module("ember.amp"), name)
    if name in _NN_FUNCTIONAL_NAMES:
        return getattr(importlib.import_module("ember.nn.functional"), name)
    raise AttributeError(f"module 'ember' has no attribute {name!r}")
