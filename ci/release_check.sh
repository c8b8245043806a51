#!/usr/bin/env bash
# Release check, run by .ci/run after the normal tests: the workspace's release rules, every wheel
# (pure + each ember-core variant) and per-variant index built from this tree, then installs from
# those indexes the ways the README documents (tools/tests, marker `release`). Needs PyPI for
# third-party packages (numpy, scipy-openblas32, nvidia-cuda-runtime, build backends).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
source ci/lib.sh

export UV_PYTHON_DOWNLOADS=never
# The distributions' own tests run again here from the wheels: with the same fixed hypothesis
# draws as ci/test.sh, so a landing never depends on which examples were drawn (local runs explore).
export EMBER_HYPOTHESIS_DERANDOMIZE=1
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$(cd .. && pwd)}"
total_start=$(date +%s)

# uv's lock does not enforce sibling version ranges inside a workspace: uv pip check does.
step "lock (uv sync --all-packages --locked)" uv sync --all-packages --locked
step "installed ranges (uv pip check)" uv pip check
step "release rules (tools/release.py check)" uv run python tools/release.py check
step "mypy tools" uv run mypy --strict --python-version 3.11 tools
step "wheels (tools/build_wheels.py)" uv run python tools/build_wheels.py
step "indexes (tools/make_index.py)" uv run python tools/make_index.py
step "install tests (pytest -m release)" uv run pytest -m release tools/tests

echo "::: release check passed in $(($(date +%s) - total_start)) s"
