#!/usr/bin/env bash
# Sanitizer step: builds ember-core with AddressSanitizer + UndefinedBehaviorSanitizer into its own
# environment (.venv-sanitize, build dir packages/core/build/sanitize) and runs the memory-safety,
# fuzz and op-table tests against it. Any sanitizer report aborts the test process: the step fails.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
source ci/lib.sh

export UV_PYTHON_DOWNLOADS=never
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$(cd .. && pwd)}"
export UV_PROJECT_ENVIRONMENT=.venv-sanitize
export SKBUILD_CMAKE_DEFINE="EMBER_SANITIZE=ON"
export SKBUILD_BUILD_DIR="build/sanitize"
total_start=$(date +%s)

step "sanitizer build (uv sync --locked)" uv sync --locked

# -s: a sanitizer report ends the process, and pytest's captured output would die with it.
# Python itself is not instrumented: the ASan runtime must be loaded first, with libstdc++ (its
# exception interceptors need the real __cxa_throw at start-up), and CPython's intentional leaks
# at exit are not reports.
preload="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libstdc++.so)"
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:allocator_may_return_null=1"
# The fuzz drivers see they run under ASan (LD_PRELOAD) and set no RLIMIT_AS (ASan reserves
# terabytes of shadow); instead the sanitizer build's allocator refuses one tensor over 2 GiB as
# the typed "not enough memory" error (src/allocator.cpp), as the cap does in the normal run.
export EMBER_SANITIZE_MAX_ALLOCATION_MB=2048
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:abort_on_error=1"
export EMBER_HYPOTHESIS_DERANDOMIZE=1
tests=(
  packages/tensor/tests/test_memory_safety.py
  packages/tensor/tests/test_fuzz_registry.py
  packages/tensor/tests/test_fuzz_api.py
  packages/tensor/tests/test_fuzz_values.py
  packages/tensor/tests/test_serialization_fuzz.py
  packages/autograd/tests/test_gradcheck_ops.py
  packages/nn/tests/test_conv.py
  packages/nn/tests/test_pooling.py
  packages/nn/tests/test_optim_fused.py
  packages/nn/tests/test_pool_native.py
  packages/nn/tests/test_norm_native.py
  packages/nn/tests/test_loss_native.py
  packages/nn/tests/test_rnn_cells.py
  packages/nn/tests/test_attention_kernel.py
  packages/nn/tests/test_bce_with_logits_native.py
  packages/nn/tests/test_linear.py
  packages/tensor/tests/test_integer_wrapping.py
  packages/multiprocessing/tests/test_sharing.py
)
# NOTE: ASan reserves terabytes of shadow address space, so a test that caps it (ulimit -v) cannot
# run under it.
step "tests under ASan + UBSan" env LD_PRELOAD="${preload}" \
  .venv-sanitize/bin/python -m pytest -s -q -p no:cacheprovider "${tests[@]}" \
  --deselect packages/tensor/tests/test_fuzz_api.py::test_more_threads_than_the_os_grants_does_not_hang

echo "::: sanitizer step passed in $(($(date +%s) - total_start)) s"
