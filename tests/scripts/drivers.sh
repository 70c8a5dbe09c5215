#!/usr/bin/env bash
# What every lab's driver gets from the shared driver core, checked on each lab's student
# binary without a GPU: --help names the manifest's parts in the manifest's order; a bad part,
# a bad option or a bad cases file gets one clear line and exit 2 (6 for a missing file)
# before the GPU is even looked for; with no GPU the driver says so and exits 3, and `make labN
# ARGS=--help` still prints the options.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/scripts/lib/checks.sh
source mk/manifest.sh
BUILD=${BUILD:-build}
work=$(mktemp -d /tmp/drivers-test.XXXXXX)
trap 'rm -rf -- "$work"' EXIT

for manifest in labs/*/manifest; do
    lab=$(basename "$(dirname "$manifest")")
    binary=$BUILD/bin/$lab-student
    [[ -x $binary ]] || { fail "$binary is not built (make test builds it)"; continue; }
    parts=$(manifest_get "$lab" parts)
    check_run 0 "parts: ${parts// /, }" -- "$binary" --help
    check_run 0 "usage: $lab [options]" -- "$binary" --help
    # What the handouts tell a student to type: the options, with no GPU too (lab 0 shows the
    # toolchain and the GPU's limits first, which stop where there is no GPU, but not for --help).
    CUDA_VISIBLE_DEVICES= MAKEFLAGS= check_run 0 "usage: $lab [options]" -- make -s --no-print-directory BUILD="$BUILD" "$lab" ARGS=--help
    check_run 2 "--part: no part named 'nosuch'" -- "$binary" --part "${parts%% *},nosuch"
    check_run 2 "unknown option --nosuch" -- "$binary" --nosuch 1
    check_run 2 "--reps must be between 0 and" -- "$binary" --reps -1
    check_run 2 "--check must be auto, full, sample or none" -- "$binary" --check maybe
    check_run 2 "--write-bounds needs --out DIR" -- "$binary" --write-bounds
    check_run 2 "--data-seed must be a whole number, got '12x'" -- "$binary" --data-seed 12x
    check_run 2 "--launch-trace must be auto, required or off, got 'sometimes'" -- "$binary" --launch-trace sometimes
    check_run 6 "--cases: cannot read $work/none.txt" -- "$binary" --cases "$work/none.txt"
    printf '# comment\n\none --seed 1\none --seed 2\n' >"$work/twice.txt"
    check_run 2 "twice.txt:4: case 'one' is named twice" -- "$binary" --cases "$work/twice.txt"
    printf 'a/b --seed 1\n' >"$work/slash.txt"
    check_run 2 "slash.txt:1: a case name is letters, digits" -- "$binary" --cases "$work/slash.txt"
    printf 'x --cases other.txt\n' >"$work/nested.txt"
    check_run 2 "a case cannot name --cases" -- "$binary" --cases "$work/nested.txt"
    printf 'x --reps -1\n' >"$work/badcase.txt"
    check_run 2 "--reps must be between 0 and" -- "$binary" --cases "$work/badcase.txt"
    printf '# nothing\n' >"$work/empty.txt"
    check_run 2 "holds no case" -- "$binary" --cases "$work/empty.txt"
    if [[ ${GPU:-no} != yes ]]; then
        check_run 3 "This lab needs an NVIDIA GPU" -- "$binary"
        if "$binary" 2>&1 | grep -qiE 'cudaError|terminate|core dumped|Aborted'; then
            fail "$lab: the no-GPU message is not plain"
        fi
    fi
done
finish
