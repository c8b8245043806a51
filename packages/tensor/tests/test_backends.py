"""ember.backends flags, ember.cuda on a build without CUDA tensors, and global switches."""

from __future__ import annotations

import math

import pytest

import ember
import ember.backends.cudnn


def test_constants() -> None:
    assert ember.pi == math.pi and ember.e == math.e
    assert ember.inf == math.inf and math.isnan(ember.nan) and ember.newaxis is None
    assert ember.zeros(2)[ember.newaxis].shape == (1, 2)


def test_cudnn_flags_are_settable() -> None:
    cudnn = ember.backends.cudnn
    assert (cudnn.enabled, cudnn.benchmark, cudnn.deterministic, cudnn.allow_tf32) == (
        True, False, False, True,
    )  # fmt: skip
    assert cudnn.is_available() is False and cudnn.version() is None
    cudnn.deterministic = True
    try:
        assert ember.backends.cudnn.deterministic is True
        with cudnn.flags(enabled=False, benchmark=True):
            assert cudnn.benchmark is True and cudnn.enabled is False
        assert cudnn.benchmark is False and cudnn.enabled is True
    finally:
        cudnn.deterministic = False


def test_other_backends() -> None:
    assert ember.backends.mps.is_available() is False and ember.backends.mps.is_built() is False
    assert ember.backends.cuda.matmul.allow_tf32 is False
    ember.backends.cuda.matmul.allow_tf32 = True
    assert ember.backends.cuda.matmul.allow_tf32 is True
    ember.backends.cuda.matmul.allow_tf32 = False
    assert ember.backends.cuda.is_built() == ember.version.variant.startswith("cu")
    assert isinstance(ember.backends.mkldnn.is_available(), bool)
    assert isinstance(ember.backends.openmp.is_available(), bool)
    assert ember.backends.cpu.get_cpu_capability() in ("DEFAULT", "AVX2", "AVX512")


def test_cpu_capability_follows_the_kernel_choice() -> None:
    name = ember._C._cpu_capability()
    expected = {"baseline": "DEFAULT", "avx2": "AVX2", "avx512": "AVX512"}[name]
    assert ember.backends.cpu.get_cpu_capability() == expected


def test_cuda_on_cpu_builds_as_torch() -> None:
    if ember.cuda.is_available():
        pytest.skip("a CUDA device is present")
    assert ember.cuda.manual_seed(1) is None and ember.cuda.manual_seed_all(1) is None
    assert ember.cuda.empty_cache() is None and ember.cuda.is_initialized() is False
    assert ember.cuda.memory_allocated() == 0 and ember.cuda.seed() is None
    with pytest.raises(AssertionError, match="not compiled with CUDA"):
        ember.cuda.synchronize()
    with pytest.raises(AssertionError, match="not compiled with CUDA"):
        ember.cuda.current_device()
    with pytest.raises(AssertionError, match="not compiled with CUDA"):
        ember.zeros(2).cuda()
    with pytest.raises(TypeError):
        ember.cuda.manual_seed("1")  # type: ignore[arg-type]


def test_default_device() -> None:
    assert ember.get_default_device() == ember.device("cpu")
    ember.set_default_device("cpu")
    ember.set_default_device(None)
    with pytest.raises(RuntimeError):
        ember.set_default_device("cuda")


def test_deterministic_flags() -> None:
    assert ember.are_deterministic_algorithms_enabled() is False
    ember.use_deterministic_algorithms(True, warn_only=True)
    try:
        assert ember.are_deterministic_algorithms_enabled() is True
        assert ember.is_deterministic_algorithms_warn_only_enabled() is True
    finally:
        ember.use_deterministic_algorithms(False)
    assert ember.is_deterministic_algorithms_warn_only_enabled() is False
    with pytest.raises(TypeError):
        ember.use_deterministic_algorithms(1)  # type: ignore[arg-type]


def test_interop_threads() -> None:
    before = ember.get_num_interop_threads()
    assert before >= 1
    ember.set_num_interop_threads(3)
    assert ember.get_num_interop_threads() == 3
    ember.set_num_interop_threads(before)
    with pytest.raises(RuntimeError, match="positive"):
        ember.set_num_interop_threads(0)


def test_against_torch() -> None:
    torch = pytest.importorskip("torch")
    assert ember.backends.cudnn.benchmark == torch.backends.cudnn.benchmark
    assert ember.backends.mps.is_available() == torch.backends.mps.is_available()
