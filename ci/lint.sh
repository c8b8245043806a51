#!/usr/bin/env bash
# Lint: ruff (rules and formatting), mypy (strict; configured in the root pyproject.toml) and
# clang-format (.clang-format: Google style, 100 columns) over every C++ file of ember-core.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
source ci/lib.sh

step "ruff check" uv run ruff check .
step "ruff format" uv run ruff format --check .
step "mypy" uv run mypy -p ember -p ember.autograd -p ember.nn -p ember.optim -p ember.amp -p ember.utils.data -p ember.multiprocessing -p ember.distributions -p ember.utils.checkpoint
step "mypy (user example)" uv run mypy --strict examples/typed_training.py
step "op registry outputs current" uv run python tools/gen_ops.py --check
step "stubs current" uv run python tools/gen_stubs.py --check

# Every tracked C++ source, header and CUDA file: -Werror turns each formatting difference into
# an error naming the file and line (fix with `uv run clang-format -i <file>`).
mapfile -t cxx_files < <(git ls-files '*.cpp' '*.h' '*.hpp' '*.cu' '*.cuh')
step "clang-format" uv run clang-format --dry-run -Werror "${cxx_files[@]}"
