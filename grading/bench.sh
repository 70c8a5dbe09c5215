#!/usr/bin/env bash
# grading/bench.sh: how long grading a class takes on this machine, and where the time goes.
#
#   grading/bench.sh [N] [FILE]      (make grading-bench N=50)
#
# Grades N copies (default 50) of one lab1 submission (FILE, default the reference solution,
# so every case runs to the end) with grading/grade.sh, builds in parallel on every CPU, into
# a temporary folder, and prints the wall time and grade.sh's phase times: unpacking and the
# trusted objects, student builds, reference outputs, the runs on the GPU (cases, sanitizer,
# reference timing) and scoring with reports. Extra options for grade.sh: GRADE_OPTIONS.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
count=${1:-50}
file=${2:-solutions/lab1/matmul.cu}
[[ $count =~ ^[1-9][0-9]*$ ]] || { echo "usage: grading/bench.sh [N] [FILE]" >&2; exit 2; }
[[ -f $file ]] || { echo "grading/bench.sh: no file '$file'" >&2; exit 2; }
work=$(mktemp -d /tmp/grading-bench.XXXXXX)
trap '[[ ${KEEP:-0} == 1 ]] || rm -rf -- "$work"' EXIT

for ((i = 1; i <= count; i++)); do
    mkdir -p "$work/submissions/student$i"
    cp "$file" "$work/submissions/student$i/matmul.cu"
done
echo "Grading $count copies of $file on $(nproc) CPUs ..."
started=$EPOCHREALTIME
# shellcheck disable=SC2086
grading/grade.sh --labs lab1 --out "$work/out" --jobs "$(nproc)" ${GRADE_OPTIONS:-} "$work/submissions" >"$work/screen.txt" 2>&1
status=$?
seconds=$(awk -v a="$started" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }')
grep -E '^(GPU|Sandbox|NO GPU)' "$work/screen.txt"
echo
echo "grade.sh finished with status $status after $seconds s for $count submissions ($(awk -v s="$seconds" -v n="$count" 'BEGIN { printf "%.1f", s / n }') s each)."
sed -n '/^Where the time went/,$p' "$work/screen.txt"
echo
echo "Scores (they should all be equal for copies of one file):"
cut -d, -f2- "$work/out/gradebook.csv" | tail -n +2 | sort | uniq -c
exit "$status"
