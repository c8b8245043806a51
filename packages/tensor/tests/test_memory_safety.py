"""Malformed but legal inputs that once corrupted memory, overflowed the stack or hung.

Each case runs in a fresh interpreter, so a crash (a signal) fails its own test instead of the
whole session; every case must end in the typed exception named, never a signal or a hang.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import pytest

CASES = {
    # `largest + 1` wrapped negative, then the counts were written outside their buffer.
    "bincount_int64_max": ("RuntimeError", "ember.bincount(ember.tensor([2**63 - 1]))"),
    "bincount_weighted_int64_max": (
        "RuntimeError",
        "ember.bincount(ember.tensor([2**63 - 1]), weights=ember.ones(1))",
    ),
    # chunks * bins overflowed; huge bins escaped as std::bad_alloc / length_error text.
    "histc_bins_overflow": (
        "RuntimeError",
        "ember.histc(ember.zeros(98304), bins=(2**64 + 2) // 3)",
    ),
    "histc_bins_2_40": ("RuntimeError", "ember.histc(ember.zeros(10), bins=2**40)"),
    "histc_bins_2_61": ("RuntimeError", "ember.histc(ember.zeros(10), bins=2**61)"),
    # Unbounded recursion over nested lists: a stack overflow.
    "tensor_deep_list": (
        "ValueError",
        "l = [1.0]\nfor _ in range(200000): l = [l]\nember.tensor(l)",
    ),
    "tensor_self_containing_list": ("ValueError", "l = [1.0]; l.append(l); ember.tensor(l)"),
    "index_deep_list": (
        "IndexError",
        "l = [0]\nfor _ in range(200000): l = [l]\nember.zeros(3)[l]",
    ),
    # An element's __float__ grew the list being converted: the copy ran past the buffer.
    "tensor_list_grows_during_conversion": (
        "ValueError",
        "l = []\nclass F:\n    def __float__(self):\n        l.extend([1.0] * 1000)\n"
        "        return 1.0\nl.extend([F(), 2.0])\nember.tensor(l)",
    ),
    "tensor_list_shrinks_during_conversion": (
        "ValueError",
        "l = []\nclass F:\n    def __float__(self):\n        l.clear()\n        return 1.0\n"
        "l.extend([F(), 2.0, 3.0])\nember.tensor(l)",
    ),
    # Conjugate-view resolution recursed into a list that contains itself.
    "cat_self_containing_list_of_conj_views": (
        "TypeError",
        "t = ember.ones(2, dtype=ember.complex64).conj()\na = [t]\na.append(a)\nember.cat(a)",
    ),
    # numel() wrapped to 4, so tolist() looped forever.
    "as_strided_numel_overflow": (
        "RuntimeError",
        "ember.ones(1).as_strided((2**62 + 1, 4), (0, 0)).tolist()",
    ),
    # Signed overflow (undefined behaviour) before the numel check.
    "repeat_overflow": ("ValueError", "ember.ones(2).repeat(2**62, 4)"),
    "kron_overflow": (
        "RuntimeError",
        "ember.kron(ember.ones(1).expand(2**40), ember.ones(1).expand(2**40))",
    ),
    "diag_embed_offset_int64_min": (
        "RuntimeError",
        "ember.diag_embed(ember.ones(2), offset=-2**63)",
    ),
    # One loop iteration per section: a hang.
    "tensor_split_huge_sections": ("RuntimeError", "ember.tensor_split(ember.ones(4), 2**62)"),
    # Allocation failures are torch's RuntimeError, never std::bad_alloc text.
    "empty_out_of_memory": ("RuntimeError", "ember.empty(2**45)"),
    # Found by test_fuzz_registry.py. The divisor was checked before its cast to int16, where
    # 2**31 wraps to 0: an integer division by zero, SIGFPE.
    "floor_divide_divisor_wraps_to_zero": (
        "RuntimeError",
        "ember.ones(3, dtype=ember.int16) // 2**31",
    ),
    "remainder_divisor_wraps_to_zero": (
        "RuntimeError",
        "ember.remainder(ember.ones(3, dtype=ember.int8), 256)",
    ),
    # A non-tensor `result` was read as a tensor: a segfault.
    "linalg_copy_out_result_not_a_tensor": (
        "TypeError",
        "ember._C._linalg_copy_out(ember.ones(2), 3, 'linalg.inv')",
    ),
}

RUNNER = """
import ember, sys
try:
    exec(sys.argv[1])
except Exception as e:
    print(type(e).__name__ + ": " + str(e))
else:
    print("no error")
"""


@pytest.mark.parametrize("name", sorted(CASES))
def test_malformed_input_raises_a_typed_error(name: str) -> None:
    expected, code = CASES[name]
    run = subprocess.run(
        [sys.executable, "-c", RUNNER, code], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, f"{name} crashed (rc={run.returncode}): {run.stderr[-500:]}"
    line = run.stdout.strip().splitlines()[-1]
    assert line.startswith(expected + ": "), f"{name}: {line}"
    assert "std::" not in line and "bad_alloc" not in line, line


def test_a_list_read_once_still_converts() -> None:
    # The re-checks cost nothing on ordinary input.
    import ember

    assert ember.tensor([[1, 2], [3, 4]]).tolist() == [[1, 2], [3, 4]]
    assert ember.tensor(((1.5,), (2.5,))).shape == (2, 1)


# Sizes that must fail fast as the typed error under a memory cap: the registry fuzzer's cap
# (RLIMIT_AS, 2 GiB) or, under ASan, whose shadow needs terabytes of address space, the sanitizer
# build's per-tensor ceiling that ci/sanitize.sh sets (EMBER_SANITIZE_MAX_ALLOCATION_MB). Both
# once filled 2-4 GiB under ASan until the fuzzer's 20 s alarm.
CAPPED_CASES = {
    "arange_2_31_requires_grad": "ember.arange(2**31, requires_grad=True)",
    "full_2_31_by_2_bool": "ember.full((2**31, 2), True)",
}

CAPPED_RUNNER = """
import os, resource, sys
if "asan" not in os.environ.get("LD_PRELOAD", ""):
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
import ember
try:
    exec(sys.argv[1])
except Exception as e:
    print(type(e).__name__ + ": " + str(e))
else:
    print("no error")
"""


def _has_autograd() -> bool:
    # ember's finder raises (naming the distribution) for a missing ember.autograd.
    try:
        return importlib.util.find_spec("ember.autograd") is not None
    except ModuleNotFoundError:
        return False


@pytest.mark.parametrize("name", sorted(CAPPED_CASES))
def test_huge_allocation_under_the_memory_cap_is_a_typed_error(name: str) -> None:
    if "requires_grad" in name and not _has_autograd():
        pytest.skip("requires_grad=True needs ember-autograd (ember-tensor alone refuses it)")
    if "asan" in os.environ.get("LD_PRELOAD", ""):
        assert os.environ.get("EMBER_SANITIZE_MAX_ALLOCATION_MB"), "ci/sanitize.sh sets the ceiling"
    run = subprocess.run(
        [sys.executable, "-c", CAPPED_RUNNER, CAPPED_CASES[name]],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, f"{name} crashed (rc={run.returncode}): {run.stderr[-500:]}"
    line = run.stdout.strip().splitlines()[-1]
    assert line.startswith("RuntimeError: "), f"{name}: {line}"
    assert "not enough memory" in line or "floating point" in line, line
