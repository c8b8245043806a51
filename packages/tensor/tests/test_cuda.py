"""ember.cuda and ember.version in any variant: CPU builds report no device; CUDA builds ask the
runtime (0 devices on GPU-less machines); no variant creates CUDA tensors yet."""

from __future__ import annotations

import re

import pytest

import ember
import ember_core
from ember_core import _C


def test_version_names_the_variant() -> None:
    assert ember.version.variant in {"cpu", "cuda"}
    assert ember.version.core == ember_core.__version__
    public, _, label = ember_core.__version__.partition("+")
    assert re.fullmatch(r"[0-9]+(\.[0-9]+)*", public)
    if ember.version.variant == "cpu":
        assert label in {"", "cpu"} and ember.version.cuda is None
    else:
        assert label.startswith("cu") and ember.version.cuda is not None
        assert label == "cu" + ember.version.cuda.replace(".", "")


def test_device_count_matches_is_available() -> None:
    count = ember.cuda.device_count()
    assert isinstance(count, int) and count >= 0
    assert ember.cuda.is_available() == (count > 0)
    if ember.version.variant == "cpu":
        assert count == 0
        assert _C._cuda_unavailable_reason() == "this ember-core is a CPU build"
        assert _C._cuda_runtime_version() == ""


def test_get_device_name_without_devices_raises() -> None:
    if ember.cuda.is_available():
        assert ember.cuda.get_device_name(0) == ember.cuda.get_device_name("cuda:0")
        with pytest.raises(IndexError, match=r"^\[get_device_name\] device index 99"):
            ember.cuda.get_device_name(99)
    else:
        for device in [None, 0, "cuda", "cuda:1", ember.device("cuda", 0)]:
            with pytest.raises(RuntimeError, match=r"^\[get_device_name\] no CUDA device"):
                ember.cuda.get_device_name(device)


@pytest.mark.parametrize(
    ("device", "error", "message"),
    [
        ("cpu", ValueError, "expected a CUDA device, got 'cpu'"),
        (1.5, TypeError, "expected a device"),
        (True, TypeError, "expected a device"),
        ("gpu", RuntimeError, "[device] Expected one of cpu, cuda"),
    ],
)
def test_get_device_name_rejects_bad_devices(
    device: object, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=re.escape(message)):
        ember.cuda.get_device_name(device)  # type: ignore[arg-type]


@pytest.mark.parametrize("device", ["cuda", "cuda:0", ember.device("cuda", 1)])
def test_cuda_tensors_are_not_yet_supported(device: object) -> None:
    message = r"CUDA tensors are not yet supported in this release"
    with pytest.raises(RuntimeError, match=r"^\[zeros\] device 'cuda.*" + message):
        ember.zeros(2, device=device)
    with pytest.raises(RuntimeError, match=r"^\[to\] device 'cuda.*" + message):
        ember.ones(2).to(device)
