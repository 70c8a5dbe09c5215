#!/usr/bin/env bash
# grade.sh's trusted objects of a lab come from this repository's own build where that build
# compiled them with the very command the template's make would run (the Makefile keeps it
# beside each object; grading/lib/workfolders.sh, seed_objects), and are compiled afresh where
# it did not (CUDA objects for other architectures here). Lab 0, built only, one student.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/scripts/lib/checks.sh
source tests/scripts/grading-lib/sandbox.sh
BUILD=${BUILD:-build}
[[ $BUILD == /* ]] || BUILD=$PWD/$BUILD
unset CUDA_ARCH GRADE_TEMPLATE_CACHE  # the build's own architectures; a template made afresh
if [[ ! -f $BUILD/obj/labs/lab0/lab0.cu.o.cmd ]]; then
    echo "skipped: $BUILD was built before the Makefile kept each object's command (make clean, then make)"
    exit 77
fi
work=$(mktemp -d /tmp/grading-template-objects.XXXXXX)
trap 'rm -rf -- "$work"' EXIT
mkdir -p "$work/subs/alice" && cp solutions/lab0/axpy.cu "$work/subs/alice/"

# grade OUT [ENV...]: the build-only grading of lab 0; prints the sources its template compiled.
grade() {
    local out=$1
    shift
    env "$@" BUILD="$BUILD" GRADE_ASSUME_GPU=1 grading/grade.sh --build-only --sandbox "$(best_sandbox)" --labs lab0 \
        --out "$out" "$work/subs" >"$out.log" 2>&1
    grep -ho -- ' -c [^ ]*' "$out"/.grader/templates/lab0-*.partial.log | cut -c5-
}

compiled=$(grade "$work/same")
check "the build's own architectures: the trusted objects are taken from the build" \
    bash -c "! grep -qx 'labs/lab0/lab0.cu' <<<'$compiled' && ! grep -qx 'common/args.cpp' <<<'$compiled'"
check "... the starter alone compiled" grep -qx 'labs/lab0/axpy.cu' <<<"$compiled"
check "... and the student's build works" grep -qx ok "$work/same/students/alice/lab0/build/status"

arch=$(make -s --no-print-directory grading-print-arch)
other=90
[[ $arch == 90 ]] && other=80
compiled=$(grade "$work/other" CUDA_ARCH=$other)
check "another architecture ($other, the build's $arch): the CUDA objects compiled afresh" \
    grep -qx 'labs/lab0/lab0.cu' <<<"$compiled"
check "... the host objects, whose command is the same, taken from the build" \
    bash -c "! grep -qx 'common/args.cpp' <<<'$compiled'"
check "... and the student's build works" grep -qx ok "$work/other/students/alice/lab0/build/status"
finish
