"""ember.autograd: tape-based reverse-mode automatic differentiation.

Importing this package (``import ember`` does it when ember-autograd is installed) registers the
recorder with the native op dispatch: from then on, ops on tensors that require grad record
their backward functions.
"""

from __future__ import annotations

from ember._grad_mode import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from ember.autograd import _registry, function, functional, graph
from ember.autograd._anomaly import detect_anomaly, set_detect_anomaly
from ember.autograd._api import backward, grad, install_tensor_api
from ember.autograd.function import Function
from ember.autograd.gradcheck import GradcheckError, gradcheck, gradgradcheck
from ember.autograd.variable import Variable

__all__ = [
    "Variable",
    "Function",
    "function",
    "functional",
    "GradcheckError",
    "backward",
    "detect_anomaly",
    "enable_grad",
    "grad",
    "gradcheck",
    "gradgradcheck",
    "graph",
    "inference_mode",
    "is_grad_enabled",
    "is_inference_mode_enabled",
    "no_grad",
    "set_detect_anomaly",
    "set_grad_enabled",
]


def _install() -> None:
    from ember._tensor import Tensor

    install_tensor_api(Tensor)
    _registry.install()


_install()
