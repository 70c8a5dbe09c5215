#!/usr/bin/env bash
# mk/sanitize.sh TOOL BINARY ARGS...: run a lab driver under compute-sanitizer (memcheck,
# racecheck, initcheck, synccheck) on a small case, once, without the yardstick.
set -uo pipefail
tool=$1 binary=$2
shift 2
sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null)
if [[ -z $sanitizer ]]; then
    echo "compute-sanitizer was not found: it ships with the CUDA toolkit (cuda/bin); add that folder to PATH." >&2
    exit 1
fi
echo "compute-sanitizer --tool $tool: $binary $*"
exec "$sanitizer" --tool "$tool" --error-exitcode 99 --print-limit 10 \
    "$binary" "$@" --reps 1 --warmup 0 --no-yardstick
