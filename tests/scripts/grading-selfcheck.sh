#!/usr/bin/env bash
# test: long (it grades classes or runs the handouts: started first)
# make labN-check (grading/self-check.sh, grade.sh --self-check) without a GPU, on the CPU test
# lab (tests/grading/fixtures/labcpu): for a few students (the solution, the starter, a wrong
# part, a part that crashes the process) its public points equal those grade.sh gives the same
# files for the public cases, though the check has no reference solution (the CPU reference's
# answers stand for its outputs, --reference-outputs); it prints each failing case with the
# grader's message, the sanitizer verdict and the hidden cases by count; it runs no hidden
# case. make labcpu-check runs it on labs/labcpu. Without a GPU (none assumed) it builds and makes
# the static checks, prints what they found, and exits 3, saying the cases need a GPU.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/scripts/lib/checks.sh
source tests/scripts/grading-lib/labcpu.sh
source tests/scripts/grading-lib/sandbox.sh
labcpu_test_setup grading-selfcheck
# self-check.sh, run directly below, with the trusted objects grade_labcpu's runs share.
GRADE_TEMPLATE_CACHE=$(labcpu_template_cache)
export GRADE_TEMPLATE_CACHE

students=(good starter wrong-b crash-b)
subs=$work/submissions
mkdir -p "$subs"/{good,starter}
cp "$fixtures/labcpu-solution/work.cpp" "$subs/good/"
cp "$fixtures/labcpu/work.cpp" "$subs/starter/"
for student in wrong-b crash-b; do
    mkdir -p "$subs/$student" && cp "$fixtures/labcpu-students/$student/work.cpp" "$subs/$student/"
done

# The grade: grade.sh with the reference solution, hidden cases included.
grade_labcpu "$repo" "$subs" "$work/graded" >"$work/grade.log" 2>&1
check "grade.sh grades the four students" test -f "$work/graded/gradebook.csv"
# public_points SCORE: the points of a score.tsv's public items (hidden=0).
public_points() {
    awk -F'\t' '/record=item/ { p = 0; h = 0; for (i = 1; i <= NF; i++) { if (index($i, "points=") == 1) p = substr($i, 8); if ($i == "hidden=1") h = 1 }
        if (!h) s += p } END { printf "%g\n", s }' "$1"
}

# The self-check of each, one after another in one build folder (each regrades the last one's
# folder, reusing its compiled driver and reference answers), with the grade's time limit.
for student in "${students[@]}"; do
    (cd "$repo" && GRADE_ASSUME_GPU=1 GRADE_WALL_MARGIN=3 BUILD=$BUILD CUDA_ARCH=${CUDA_ARCH:-90} \
        grading/self-check.sh labcpu "$subs/$student") >"$work/check-$student.txt" 2>&1
    status=$?
    checked=$BUILD/self-check/labcpu/out/students/you/labcpu/score.tsv
    graded=$(public_points "$work/graded/students/$student/labcpu/score.tsv")
    mine=$(awk '/^Public cases:/ { print $3 }' "$work/check-$student.txt")
    check "$student: the check runs (exit $status)" test "$status" == 0
    check "$student: its public points ($mine) are grade.sh's for the public cases ($graded)" test "$mine" == "$graded"
    check "$student: ... as its own score file says" test "$(public_points "$checked")" == "$graded"
    check "$student: no hidden case ran" bash -c "! grep -q 'case=big' '$checked'"
    check "$student: the hidden cases are counted (1)" grep -q '^Hidden cases: 1,' "$work/check-$student.txt"
    check "$student: the sanitizer verdict is printed" grep -qE '^  memcheck(: | could not finish: )' "$work/check-$student.txt"
    cp "$checked" "$work/score-$student.tsv"
done
check "good: full public points (2 sanitizer tools, 3 parts x 1 point)" grep -q '^Public cases: 3 of 3 points' "$work/check-good.txt"
check "starter: nothing, each part 'not implemented'" grep -q 'case small: not implemented' "$work/check-starter.txt"
check "wrong-b: part b's case fails with the checker's message" \
    grep -qE '^    case small: wrong result: ' "$work/check-wrong-b.txt"
check "wrong-b: ... under part b" bash -c "grep -A1 '^  part b ' '$work/check-wrong-b.txt' | grep -q 'wrong result'"
check "crash-b: part b crashed, the others pass" grep -qE '^  part a +1 of 1 points' "$work/check-crash-b.txt"
check "the check's reference answers came from the driver's CPU reference, not a solution" \
    bash -c "! ls '$BUILD/self-check/labcpu/out/.grader/reference-build' | grep -q . || ! grep -rq 'solutions/' '$BUILD/self-check/labcpu/out/.grader/reference-build'/*.log"

# make labcpu-check: the same on labs/labcpu (the starter).
(cd "$repo" && GRADE_ASSUME_GPU=1 make -s labcpu-check BUILD="$BUILD" CUDA_ARCH=${CUDA_ARCH:-90}) >"$work/make-check.txt" 2>&1
check "make labcpu-check checks labs/labcpu (the starter: 0 points)" grep -q '^Public cases: 0 of 3 points' "$work/make-check.txt"
check "make help lists labN-check" bash -c "make -s -C '$repo' help | grep 'make labN-check' >/dev/null"

# No GPU (none assumed, none visible): the build and the static checks as the grader makes them,
# then exit 3, saying that the cases need a GPU. A laptop without an NVIDIA GPU still learns
# that a file breaks a rule before handing it in.
(cd "$repo" && CUDA_VISIBLE_DEVICES= BUILD=$BUILD grading/self-check.sh labcpu) >"$work/no-gpu.txt" 2>&1
status=$?
check "without a GPU the check exits 3 ($status)" test "$status" == 3
check "... having built the file as the grader does" grep -q 'built as the grader builds it' "$work/no-gpu.txt"
check "... and made the static checks, which pass on the starter" grep -q 'the static checks pass' "$work/no-gpu.txt"
check "... saying the cases need an NVIDIA GPU" grep -q '^Cases: not run. They need an NVIDIA GPU' "$work/no-gpu.txt"
check "... and printing no points" bash -c "! grep -q '^Public cases:' '$work/no-gpu.txt'"
mkdir -p "$subs/calls-out"
sed 's|^#include|int call_out() { return system("true"); }\n#include|' "$fixtures/labcpu/work.cpp" >"$subs/calls-out/work.cpp"
awk 'NR == 1 { print "#include <cstdlib>" } { print }' "$subs/calls-out/work.cpp" >"$subs/calls-out/work.tmp" &&
    mv "$subs/calls-out/work.tmp" "$subs/calls-out/work.cpp"
(cd "$repo" && CUDA_VISIBLE_DEVICES= BUILD=$BUILD grading/self-check.sh labcpu "$subs/calls-out") >"$work/no-gpu-forbidden.txt" 2>&1
status=$?
check "without a GPU a forbidden call is found (exit $status)" grep -q 'forbidden API at work.cpp' "$work/no-gpu-forbidden.txt"
check "... with the manifest's reason" grep -q 'the parts must compute, not call out' "$work/no-gpu-forbidden.txt"
check "a lab that does not exist is refused (exit 2)" bash -c "cd '$repo' && grading/self-check.sh nolab >/dev/null 2>&1; test \$? == 2"
rm -rf -- "$BUILD/self-check/labcpu"
finish
