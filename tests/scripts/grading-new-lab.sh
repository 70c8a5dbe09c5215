#!/usr/bin/env bash
# Adding a lab is adding files (README.md, "Adding a lab"): in a copy of the course, lab 0 is
# copied as lab 8 (labs/lab8, solutions/lab8, its planted bugs, its handout as
# handouts/lab8-first-steps.md), its own names changed inside those new files only (its
# manifest's paths, its figures' names) and its handout's rubric block written by make
# handouts-rubric. With one planted bug the lab tests refuse it for lacking three; with lab 0's
# four they pass; and no file of the course outside the new ones was edited. The lab tests run
# here are those that go over every lab without compiling it: the planted bugs, the committed
# figures, the rubric blocks, the handouts' references and the manifest through make. Cheap
# (20 s): no build beyond the grader, no GPU. The instructor's: the tarball has no planted bugs.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/scripts/lib/checks.sh
BUILD=${BUILD:-build}
[[ $BUILD == /* ]] || BUILD=$PWD/$BUILD
[[ -x $BUILD/bin/grader ]] || make -s BUILD="$BUILD" "$BUILD/bin/grader" >/dev/null || { echo "cannot build the grader"; exit 1; }
work=$(mktemp -d /tmp/new-lab-test.XXXXXX)
trap '[[ ${KEEP:-0} == 1 ]] || rm -rf -- "$work"' EXIT

# The course as it is here (its folders, not its build or results), twice: one to add lab 8 to,
# one to compare with. Times kept: make finds the grader up to date.
mkdir -p "$work/course" "$work/original"
cp -a Makefile README.md mk common labs solutions grading handouts tests "$work/course/" ||
    { check "the course is copied" false; finish; }
cp -a "$work/course/." "$work/original/"
course=$work/course
(
    cd "$course" || exit 1
    cp -r labs/lab0 labs/lab8
    cp -r solutions/lab0 solutions/lab8
    mkdir -p grading/variants/lab8
    cp -r grading/variants/lab0/{solution,starter,no-bounds-check} grading/variants/lab8/
    cp handouts/lab0-first-steps.md handouts/lab8-first-steps.md
    sed -i 's/lab0/lab8/g' labs/lab8/manifest labs/lab8/plots.gp
    make -s BUILD="$BUILD" handouts-rubric >/dev/null
) || { check "lab 8 is made" false; finish; }

# lab_test NAME: tests/scripts/NAME.sh in the course with lab 8; its output in $work/NAME.log.
lab_test() { (cd "$course" && BUILD=$BUILD bash "tests/scripts/$1.sh") >"$work/$1.log" 2>&1; }
fails() { ! "$@"; }

check "with one planted bug, the planted-bug test refuses lab 8" fails lab_test grading-variants
check "... saying why" grep -q "FAIL  lab8 has at least four planted bugs (1)" "$work/grading-variants.log"
for t in sample-figures handout-rubric handout-references manifest-make; do
    check "$t passes with lab 8" lab_test "$t"
done
cp -r grading/variants/lab0/{grid-rounded-down,grid-stride-one-pass,index-without-block} "$course/grading/variants/lab8/"
check "with four planted bugs, the planted-bug test passes" lab_test grading-variants
check "lab 8 is among the labs it checked" grep -q "lab8" "$work/grading-variants.log"
new="^Only in $course/(labs|solutions|grading/variants): lab8\$|^Only in $course/handouts: lab8-first-steps.md\$"
check "no file outside lab 8's new ones was edited" \
    bash -c 'diff -rq "$1" "$2" | grep -vE "$3" | { ! grep .; }' _ "$work/original" "$course" "$new"
finish
