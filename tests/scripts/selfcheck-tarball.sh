#!/usr/bin/env bash
# test: long (it grades classes or runs the handouts: started first)
# test: alone (it times GPU work: make labN-check compares times with the committed reference's)
# make labN-check as a student runs it: in the unpacked student tarball (make dist), with the
# reference solution's files in labs/labN/, every lab gets full public points on a GPU. The
# check's reference side is built on the starter (the tarball has no solution), so a driver
# that reached the student file's memory there (lab 2's matrices, lab 7's mapped buffers) failed
# the check for every student; this runs what a student runs, lab by lab, and prints the table
# the closing notes quote. About a minute a lab on an H200: make test (tests/run.sh) checks the
# two labs whose check once reached the starter's memory, lab2 and lab7; `make selfcheck-test`
# (SELFCHECK_LABS=all) checks every lab, and SELFCHECK_LABS="lab1 lab6" those.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/scripts/lib/checks.sh
source mk/manifest.sh
if [[ ${GPU:-no} != yes ]]; then
    echo "skipped: make labN-check runs the cases on a GPU, and none is usable here"
    exit 77
fi
[[ -d solutions ]] || { echo "skipped: no solutions/ in this copy (a student's tarball)"; exit 77; }
work=$(mktemp -d /tmp/selfcheck-tarball-test.XXXXXX)
[[ ${KEEP:-0} == 1 ]] || trap 'rm -rf -- "$work"' EXIT

make -s dist DIST="$work/course-student.tar.gz" || { echo "make dist failed"; exit 1; }
tar -xzf "$work/course-student.tar.gz" -C "$work"
root=$work/course-student

labs=${SELFCHECK_LABS:-lab2 lab7}
# "test: alone": grade.sh waits for tests/run.sh's quiet lock before its first timed run, as the
# class of grading-gpu.sh does, so the times compared with the committed reference's are quiet.
[[ -n ${TEST_QUIET_LOCK-} ]] && export GRADE_QUIET_LOCK=$TEST_QUIET_LOCK
printf '%-6s %-28s %8s\n' lab "make labN-check, public" seconds >"$work/table.txt"
for manifest in labs/*/manifest; do
    lab=$(basename "$(dirname "$manifest")")
    [[ $labs == all || " $labs " == *" $lab "* ]] || continue
    for file in $(manifest_get "$lab" student_files); do cp -- "solutions/$lab/$file" "$root/labs/$lab/$file"; done
    start=$SECONDS
    (cd "$root" && make -s "$lab-check") >"$work/$lab.txt" 2>&1
    status=$?
    points=$(sed -n 's/^Public cases: \([0-9.]*\) of \([0-9.]*\) points.*/\1 of \2/p' "$work/$lab.txt")
    printf '%-6s %-28s %8d\n' "$lab" "${points:-none (exit $status)}" $((SECONDS - start)) >>"$work/table.txt"
    check "$lab: make $lab-check runs in the tarball (exit $status)" test "$status" == 0
    check "$lab: ... and gives the reference solution full public points ($points)" \
        test -n "$points" -a "${points% of *}" == "${points#* of }"
    check "$lab: ... with no failing case" bash -c "! grep -qE '^    case ' '$work/$lab.txt'"
    ((status == 0)) && [[ -n $points && ${points% of *} == "${points#* of }" ]] || tail -25 "$work/$lab.txt" | sed 's/^/      /'
done
cat "$work/table.txt"
finish
