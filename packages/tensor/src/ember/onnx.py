"""``ember.onnx``: ONNX export is not built yet.

Importing the module works (programs import ``torch.onnx`` at the top and export only when asked);
``export`` raises NotImplementedError. It will come with ember-jit, whose graph IR it needs.
"""

from __future__ import annotations

from typing import Any

__all__ = ["OnnxExporterError", "export", "is_in_onnx_export"]


class OnnxExporterError(RuntimeError):
    """Raised when an export fails (torch.onnx's error class)."""


def is_in_onnx_export() -> bool:
    """Whether an ONNX export is running (never: export is not built yet).

    Example:
        >>> ember.onnx.is_in_onnx_export()
        False
    """
    return False


def export(model: Any, args: Any = (), f: Any = None, *rest: Any, **kwargs: Any) -> Any:
    """Not built yet: raises NotImplementedError (ONNX export needs ember-jit's graph IR)."""
    del model, args, f, rest, kwargs
    raise NotImplementedError(
        "ember.onnx.export is not built yet: ONNX export will come with ember-jit "
        "(it needs a traced graph of the model)"
    )
