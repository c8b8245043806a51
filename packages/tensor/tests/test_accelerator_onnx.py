"""ember.accelerator and ember.onnx answer as torch does on a machine without an accelerator."""

from __future__ import annotations

import pytest

import ember


def test_accelerator_reports_none() -> None:
    assert ember.accelerator.is_available() is False
    assert ember.accelerator.current_accelerator() is None
    assert ember.accelerator.device_count() == 0


@pytest.mark.parametrize(
    "call",
    [
        lambda: ember.accelerator.current_device_index(),
        lambda: ember.accelerator.set_device_index(0),
        lambda: ember.accelerator.synchronize(),
    ],
)
def test_accelerator_device_calls_raise(call: object) -> None:
    with pytest.raises(RuntimeError, match="none is available"):
        call()  # type: ignore[operator]


def test_onnx_imports_and_export_says_missing() -> None:
    import ember.onnx as onnx

    assert onnx.is_in_onnx_export() is False
    with pytest.raises(NotImplementedError, match=r"ember\.onnx\.export is not built yet"):
        onnx.export(object(), (), "model.onnx")
    assert issubclass(onnx.OnnxExporterError, RuntimeError)
