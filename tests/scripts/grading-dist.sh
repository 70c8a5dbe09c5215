#!/usr/bin/env bash
# `make dist`: the student tarball holds no solutions, no grader, no hidden case and no
# reference output, and lab1 builds from it as a student would build it.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
work=$(mktemp -d /tmp/grading-dist-test.XXXXXX)
trap 'rm -rf -- "$work"' EXIT
failures=0
expect() {
    local what=$1
    shift
    if "$@"; then echo "ok    $what"; else echo "FAIL  $what"; failures=$((failures + 1)); fi
}

make -s dist DIST="$work/course-student.tar.gz" || { echo "make dist failed"; exit 1; }
tar -tzf "$work/course-student.tar.gz" >"$work/list.txt"
expect "the tarball has one top folder, course-student/" bash -c "! grep -qv '^course-student/' '$work/list.txt'"
expect "no solutions/" bash -c "! grep -q '^course-student/solutions/' '$work/list.txt'"
expect "no grader (nor its planted-bug copies of the solution)" bash -c "! grep -qE '^course-student/(grading|tests/grading)/' '$work/list.txt'"
expect "the student file and the driver are there" grep -qx 'course-student/labs/lab1/matmul.cu' "$work/list.txt"

tar -xzf "$work/course-student.tar.gz" -C "$work"
root=$work/course-student
manifest=$root/labs/lab1/manifest
for hidden in $(sed -n 's/^[[:space:]]*case\.\([A-Za-z0-9_-]*\)\.visibility[[:space:]]*=[[:space:]]*hidden.*/\1/p' labs/lab1/manifest); do
    expect "hidden case '$hidden' is gone from the manifest" bash -c "! grep -qE '(^|[[:space:].])$hidden([[:space:].]|\$)' '$manifest'"
done
expect "the public cases remain" grep -qE '^cases[[:space:]]*=[[:space:]]*one primes column odd square perf$' "$manifest"
expect "no reference output anywhere" bash -c "! grep -rlq --binary-files=text '^labout 1 ' '$root'"
expect "the starter in the tarball is the starter" cmp -s "$root/labs/lab1/matmul.cu" labs/lab1/matmul.cu

# Build lab1 from the tarball alone, as a student does (one architecture, to stay fast).
if make -s -C "$root" lab1-build CUDA_ARCH="${CUDA_ARCH:-90}" -j "$(nproc)" >"$work/build.log" 2>&1; then
    pass=yes
else
    pass=no
    tail -20 "$work/build.log"
fi
expect "lab1 builds from the tarball" test "$pass" == yes -a -x "$root/build/bin/lab1-student"
# `make test` in the tarball builds only what exists there: nothing from solutions/.
expect "make test in the tarball plans no solution build" \
    bash -c "make -s -C '$root' -n test-build CUDA_ARCH=90 >'$work/plan.log' 2>&1 && ! grep -q solutions/ '$work/plan.log'"
echo "$failures failure(s)"
((failures == 0))
