#!/usr/bin/env bash
# Build every workspace distribution (sdist + wheel) into dist/ and print each wheel's size.
#   tools/build_wheels.sh            (from anywhere; paths are relative to the repository root)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
export UV_PYTHON_DOWNLOADS="${UV_PYTHON_DOWNLOADS:-never}"

# Only wheels written by this run are listed (dist/ may hold older ones).
marker=$(mktemp)
trap 'rm -f "${marker}"' EXIT

uv build --all-packages --out-dir dist/

echo
echo "wheels built into dist/:"
mapfile -t wheels < <(find dist -maxdepth 1 -name '*.whl' -newer "${marker}" | sort)
if [[ ${#wheels[@]} -eq 0 ]]; then
  echo "  none found" >&2
  exit 1
fi
for whl in "${wheels[@]}"; do
  bytes=$(stat -c %s "${whl}")
  awk -v b="${bytes}" -v n="$(basename "${whl}")" 'BEGIN { printf "  %8.2f MB  %s\n", b / 1e6, n }'
done
