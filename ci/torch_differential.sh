#!/usr/bin/env bash
# The differential tests against PyTorch 2.13 (CPU): every test that does
# pytest.importorskip("torch"), run with torch importable. torch goes into its own virtual
# environment, never into ember's (it is no dependency of any ember distribution, and stays out
# of uv.lock), and only when the machine has its wheel locally (pip's find-links): the step never
# downloads torch, and says plainly when it cannot run.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
source ci/lib.sh

export UV_PYTHON_DOWNLOADS=never
venv="${EMBER_TORCH_VENV:-${TMPDIR:-/tmp}/ember-torch-reference}"
version="2.13.0"
base_python="$(.venv/bin/python -c 'import sys; print(sys._base_executable)')"

if ! "${venv}/bin/python" -c "import torch" >/dev/null 2>&1; then
  probe="$(mktemp -d)"
  if ! "${base_python}" -m pip download --quiet --no-deps --no-index "torch==${version}" \
    -d "${probe}" >/dev/null 2>&1; then
    echo "::: torch ${version} is not available on this machine without a download (no local" \
      "wheel in pip's find-links): the torch differential tests did NOT run"
    rm -rf "${probe}"
    exit 0
  fi
  rm -rf "${probe}"
  step "torch reference environment" bash -c "'${base_python}' -m venv '${venv}' &&
    '${venv}/bin/python' -m pip install --quiet 'torch==${version}'"
fi

site="$("${venv}/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
mapfile -t files < <(git grep -l 'importorskip("torch")' -- 'packages/*/tests/*.py')
step "torch differential tests (${#files[@]} files)" env EMBER_HYPOTHESIS_DERANDOMIZE=1 \
  EMBER_TEST_TORCH_SITE="${site}" uv run --no-sync pytest -q -p no:cacheprovider "${files[@]}"
