#!/usr/bin/env bash
# grade.sh's trusted objects of a lab come from this repository's own build where that build
# compiled them with the very command the template's make would run (the Makefile keeps it
# beside each object; grading/lib/workfolders.sh, seed_objects), and are compiled afresh where
# it did not (CUDA objects for another architecture here). Lab 0, built only, one student, in
# the environment the build had (make test's: CI sets CUDA_ARCH and CXXFLAGS for both).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/scripts/lib/checks.sh
source tests/scripts/grading-lib/sandbox.sh
BUILD=${BUILD:-build}
[[ $BUILD == /* ]] || BUILD=$PWD/$BUILD
unset GRADE_TEMPLATE_CACHE  # a template made afresh
if [[ ! -f $BUILD/obj/labs/lab0/lab0.cu.o.cmd || ! -f $BUILD/obj/common/args.cpp.o.cmd ]]; then
    echo "skipped: $BUILD was built before the Makefile kept each object's command (make clean, then make)"
    exit 77
fi
work=$(mktemp -d /tmp/grading-template-objects.XXXXXX)
trap 'rm -rf -- "$work"' EXIT
mkdir -p "$work/subs/alice" && cp solutions/lab0/axpy.cu "$work/subs/alice/"

# grade OUT [VAR=VALUE...]: the build-only grading of lab 0.
grade() {
    local out=$1
    shift
    env "$@" BUILD="$BUILD" GRADE_ASSUME_GPU=1 grading/grade.sh --build-only --sandbox "$(best_sandbox)" --labs lab0 \
        --out "$out" "$work/subs" >"$out.log" 2>&1
}
# taken OUT OBJECT: the template's OBJECT is the build's, copied with its time; compiled OUT
# OBJECT: it is there, made anew (newer).
template_object() {
    local template
    template=$(find "$1/.grader/templates" -mindepth 1 -maxdepth 1 -type d -name 'lab0-*' | head -1)
    [[ -n $template ]] && echo "$template/build/obj/$2"
}
taken() {
    local object
    object=$(template_object "$@") && [[ -f $object && $(stat -c %y "$object") == "$(stat -c %y "$BUILD/obj/$2")" ]]
}
compiled() {
    local object
    object=$(template_object "$@") && [[ -f $object && $(stat -c %y "$object") != "$(stat -c %y "$BUILD/obj/$2")" ]]
}

grade "$work/same"
check "the build's own flags: the CUDA objects are taken from the build" taken "$work/same" labs/lab0/lab0.cu.o
check "... and the host objects" taken "$work/same" common/args.cpp.o
check "... and the student's build works" grep -qx ok "$work/same/students/alice/lab0/build/status"

arch=$(make -s --no-print-directory grading-print-arch)
other=90
[[ $arch == 90 ]] && other=80
grade "$work/other" CUDA_ARCH=$other
check "another architecture ($other, the build's $arch): the CUDA objects compiled afresh" \
    compiled "$work/other" labs/lab0/lab0.cu.o
check "... the host objects, whose command is the same, taken from the build" taken "$work/other" common/args.cpp.o
check "... and the student's build works" grep -qx ok "$work/other/students/alice/lab0/build/status"
finish
