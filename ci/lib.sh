# Shared helpers for the CI scripts (sourced, not executed).

# step NAME CMD...: run CMD, print its wall time in seconds; exit with its status on failure.
step() {
  local name="$1"
  shift
  echo "::: [${name}] $*"
  local start end rc=0
  start=$(date +%s%N)
  "$@" || rc=$?
  end=$(date +%s%N)
  local ms=$(((end - start) / 1000000))
  printf '::: [%s] %s after %d.%03d s\n' "${name}" "$([[ ${rc} -eq 0 ]] && echo ok || echo "FAILED (exit ${rc})")" \
    $((ms / 1000)) $((ms % 1000))
  return "${rc}"
}
