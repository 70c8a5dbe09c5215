#!/usr/bin/env bash
# grading/bench.sh: how long grading a class takes on this machine, and where the time goes.
#
#   grading/bench.sh [N] [FILE]      (make grading-bench N=50)
#
# Grades N copies (default 50) of one lab1 submission (FILE, default the reference solution,
# so every case runs to the end) with grading/grade.sh, builds in parallel on every CPU, into
# a temporary folder, and prints the wall time and grade.sh's phase times: unpacking and the
# trusted objects, student builds, reference outputs, each round of runs on the GPU (public
# cases, timed cases, sanitizers with hidden cases and scores) and the reports. Extra options
# for grade.sh: GRADE_OPTIONS (--gpus 0 against --gpus 0,1: one GPU against two).
#   BUGS=P    P% of the class (rounded down) are lab 1's planted-bug variants instead
#             (grading/variants/lab1/*, patches against the solution), each in turn: a class
#             with its usual mistakes, the endless loop among them
#   SCORES=F  also write every student's total to F ("student,points", sorted), so two runs
#             (one GPU, two) can be compared with diff
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
source mk/manifest.sh
source tests/scripts/grading-lib/variants.sh
count=${1:-50}
file=${2:-solutions/lab1/matmul.cu}
bugs=${BUGS:-0}
[[ $count =~ ^[1-9][0-9]*$ && $bugs =~ ^[0-9]+$ ]] && ((bugs <= 100)) ||
    { echo "usage: [BUGS=P] [SCORES=FILE] grading/bench.sh [N] [FILE]" >&2; exit 2; }
[[ -f $file ]] || { echo "grading/bench.sh: no file '$file'" >&2; exit 2; }
work=$(mktemp -d /tmp/grading-bench.XXXXXX)
trap '[[ ${KEEP:-0} == 1 ]] || rm -rf -- "$work"' EXIT

mapfile -t variants < <(variant_names lab1 | grep -vx -e solution -e starter)
planted=$((count * bugs / 100))
for ((i = 1; i <= count; i++)); do
    # The planted bugs spread through the class (every k-th student), not bunched at its end.
    if ((planted > 0 && (i - 1) % (count / planted) == 0 && (i - 1) / (count / planted) < planted)); then
        variant=${variants[$(((i - 1) / (count / planted) % ${#variants[@]}))]}
        make_variant lab1 "$variant" "$work/submissions/student$i-$variant" || exit 1
    else
        mkdir -p "$work/submissions/student$i"
        cp "$file" "$work/submissions/student$i/matmul.cu"
    fi
done
echo "Grading $count submissions ($((count - planted)) copies of $file, $planted planted bugs) on $(nproc) CPUs ..."
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
echo "Scores (copies of one file should all score alike):"
cut -d, -f2- "$work/out/gradebook.csv" | tail -n +2 | sort | uniq -c
[[ -z ${SCORES:-} ]] || tail -n +2 "$work/out/gradebook.csv" | cut -d, -f1,2 | sort >"$SCORES"
exit "$status"
