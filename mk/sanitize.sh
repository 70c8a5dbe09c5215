#!/usr/bin/env bash
# mk/sanitize.sh [--as-graded] TOOL BINARY ARGS...: run a lab driver under compute-sanitizer
# (memcheck, racecheck, initcheck, synccheck) on a small case, once, without the yardstick.
# --as-graded (the grader's): ARGS are exactly those of a graded run (a cases file, --out), so
# nothing in the program's command line tells it that it is being watched.
set -uo pipefail
as_graded=no
[[ ${1-} == --as-graded ]] && { as_graded=yes; shift; }
tool=$1 binary=$2
shift 2
sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null)
if [[ -z $sanitizer ]]; then
    echo "compute-sanitizer was not found: it ships with the CUDA toolkit (cuda/bin); add that folder to PATH." >&2
    exit 1
fi
extra=(--reps 1 --warmup 0 --no-yardstick)
[[ $as_graded == yes ]] && extra=()
echo "compute-sanitizer --tool $tool: $binary $* ${extra[*]}"
# application-only: the tool's default (all) waits for every process the program started, even
# one that left its session, so a program that leaves a sleeper behind holds the run (and a
# graded student's budget) until the sleeper ends: on an H200, 6.2 s for a 6 s sleeper, 0.1 s
# with application-only. The labs' drivers are one process.
exec "$sanitizer" --tool "$tool" --target-processes application-only --error-exitcode 99 --print-limit 10 \
    "$binary" "$@" "${extra[@]}"
