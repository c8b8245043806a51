#!/usr/bin/env bash
# Build, lint, then run the README's test command (`uv run pytest`), timing every step.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
source ci/lib.sh

export UV_PYTHON_DOWNLOADS=never
# ccache keys paths relative to this: a fresh clone at another path still hits the cache.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$(cd .. && pwd)}"
# Hypothesis draws the same examples on every CI run (see packages/tensor/tests/conftest.py).
export EMBER_HYPOTHESIS_DERANDOMIZE=1
total_start=$(date +%s)

# Builds ember-core and installs every workspace distribution plus the dev group. `uv run` would do
# this implicitly; doing it first keeps the native build time separate from lint and test times.
step "build (uv sync --locked)" uv sync --locked
step "dependency check (uv pip check)" uv pip check

step "lint" bash ci/lint.sh

# The README's test command, exactly. Exit code 5 means pytest collected no tests: a failure here.
rc=0
step "test (uv run pytest)" uv run pytest || rc=$?
if [[ ${rc} -eq 5 ]]; then
  echo "::: ERROR: pytest collected no tests (exit code 5). The test suite must not be empty;" \
    "check testpaths in pyproject.toml and the packages/*/tests folders." >&2
  exit 1
elif [[ ${rc} -ne 0 ]]; then
  exit "${rc}"
fi

echo "::: all CI steps passed in $(($(date +%s) - total_start)) s"
