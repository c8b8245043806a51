"""ember-core on its own (no ember-tensor): kernel selection, threads, the caching allocator,
BLAS loading. Tensors here are the native base class, used through ``ember_core._C``."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from ember_core import _C


def test_capability_is_one_of_the_built_isas() -> None:
    assert _C._cpu_capability() in {"baseline", "avx2", "avx512"}


def test_set_num_threads_round_trips_and_rejects_zero() -> None:
    before = _C.get_num_threads()
    try:
        _C.set_num_threads(1)
        assert _C.get_num_threads() == 1
        _C.set_num_threads(2)
        assert _C.get_num_threads() == 2
    finally:
        _C.set_num_threads(before)
    with pytest.raises(ValueError, match=r"\[set_num_threads\]"):
        _C.set_num_threads(0)


def test_large_blocks_are_reused_by_the_cache() -> None:
    t = _C.from_numpy(np.ones(1 << 20, dtype=np.float32))
    (t + 1).sum()  # warm: one 4 MiB block now sits in the cache
    before = _C._cpu_cache_stats()
    for _ in range(5):
        y = t + 1
        del y
    after = _C._cpu_cache_stats()
    assert after["hits"] >= before["hits"] + 5
    assert after["misses"] == before["misses"]
    _C._cpu_empty_cache()
    assert _C._cpu_cache_stats()["cached_bytes"] == 0


def test_blas_library_loads() -> None:
    assert _C._blas_available()


def test_parallel_and_serial_results_agree() -> None:
    rng = np.random.default_rng(0)
    a = _C.from_numpy(rng.standard_normal((300, 700)).astype(np.float32))
    b = _C.from_numpy(rng.standard_normal((700,)).astype(np.float32))
    before = _C.get_num_threads()
    results = []
    try:
        for threads in (1, 2):
            _C.set_num_threads(threads)
            results.append(((a * b + 1).exp().numpy(), a.amax(1).numpy(), (a > b).numpy()))
    finally:
        _C.set_num_threads(before)
    for one, two in zip(results[0], results[1], strict=True):
        np.testing.assert_array_equal(one, two)


_PROBE = """
import numpy as np
from ember_core import _C
rng = np.random.default_rng(1)
x = _C.from_numpy(rng.standard_normal((64, 513)).astype(np.float32))
i = _C.from_numpy(rng.integers(-50, 50, (64, 513)).astype(np.int32))
out = [_C.exp(x), _C.tanh(x), x * 3 - 1, x.sum(1), x.amax(0), i // 7, i % 5, (i > 3).sum(),
       _C.sqrt(x.abs()), x.half().float(), _C.maximum(x, 0.5), _C.sigmoid(x), _C.log1p(x.abs())]
np.save(__import__("sys").argv[1], np.concatenate([o.double().numpy().ravel() for o in out]))
"""


def test_baseline_kernels_match_the_selected_isa(tmp_path: object) -> None:
    """The wheel's baseline x86-64 kernels must agree with the AVX2/AVX-512 ones."""
    outputs = {}
    for isa in ("baseline", "native"):
        env = dict(os.environ)
        if isa == "baseline":
            env["EMBER_CPU_CAPABILITY"] = "baseline"
        path = os.path.join(str(tmp_path), f"{isa}.npy")
        subprocess.run([sys.executable, "-c", _PROBE, path], check=True, env=env)
        outputs[isa] = np.load(path)
    np.testing.assert_allclose(outputs["baseline"], outputs["native"], rtol=2e-6, atol=1e-6)
