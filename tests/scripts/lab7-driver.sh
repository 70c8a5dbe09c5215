#!/usr/bin/env bash
# The lab7 driver as a student meets it. Bad arguments get one clear line and exit 2. With no
# GPU, the CPU parts still run on their own (the starter shows them "not implemented", the
# solution passes them) and asking for a GPU part says which parts run without one and exits
# 3. On a GPU (instructor's copy): the starter shows all 8 parts "not implemented" and nothing
# PASS but the yardstick, the solution passes all 8, and a tile the kernels lack is refused.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/scripts/lib/checks.sh
BUILD=${BUILD:-build}
student=$BUILD/bin/lab7-student solution=$BUILD/bin/lab7-solution

check_run 2 "--n must be between 1 and 16384, got 0" -- "$student" --n 0
check_run 2 "--threads must be a whole number, got 'many'" -- "$student" --threads many
check_run 2 "--threads must be between 1 and 1024, got 0" -- "$student" --threads 0
check_run 2 "--stream must be between 1 and" -- "$student" --stream 0

# The CPU parts, on whatever machine this is (quick sizes: this runs in CI).
# In a student's copy (make dist: no solutions/) labs/lab7/zerocopy.cu is theirs, no longer the starter.
cpu=(--n 37 --threads 3 --reps 2 --warmup 0 --part cpu_ijk,cpu_ikj)
if [[ -d solutions ]]; then
    output=$("$student" "${cpu[@]}" 2>&1)
    if [[ $? != 0 || $(grep -cE '^cpu_i(jk|kj) .*not implemented' <<<"$output") != 2 ]] || grep -E '^cpu_' <<<"$output" | grep -q PASS; then
        fail "the starter's CPU parts should show 'not implemented' and no PASS:"
        echo "$output"
    else
        echo "ok    the starter's CPU parts show 'not implemented', also without a GPU"
    fi
fi
if [[ -d solutions && -x $solution ]]; then
    output=$("$solution" "${cpu[@]}" 2>&1)
    if [[ $? != 0 || $(grep -cE '^(openmp|cpu_ijk|cpu_ikj) .* PASS ' <<<"$output") != 3 ]]; then
        fail "the solution should pass both CPU parts and the OpenMP yardstick:"
        echo "$output"
    else
        echo "ok    the solution's CPU parts and the OpenMP yardstick pass (n 37, 3 threads)"
    fi
fi

if [[ ${GPU:-no} != yes ]]; then
    check_run 3 "Without a GPU only the CPU parts run: --part cpu_ijk,cpu_ikj" -- "$student" --part cpu_ikj,zc_naive
elif [[ ! -d solutions ]]; then
    echo "a student's copy: only the checks that need no GPU apply"
else
    output=$("$student" --n 45 --stream 1001 --reps 2 --warmup 0 2>&1)
    status=$?
    if [[ $status != 0 || $(grep -c "not implemented" <<<"$output") != 8 ]] || grep -vE '^(openmp|pinned_h2d) ' <<<"$output" | grep -q PASS; then
        fail "the starter should show 8 parts 'not implemented' and no PASS (exit $status):"
        echo "$output"
    fi
    for tile in 8 16 32; do
        output=$("$solution" --n 45 --tile $tile --stream 1001 --reps 2 --warmup 0 2>&1)
        if [[ $? != 0 || $(grep -cE '^(cpu_ijk|cpu_ikj|zc_naive|zc_tiled|copy_naive|copy_tiled|managed_tiled|stream) .* PASS ' <<<"$output") != 8 ]]; then
            fail "the solution should pass all 8 parts with tile $tile:"
            echo "$output"
        else
            echo "ok    the solution passes all 8 parts (n 45, tile $tile)"
        fi
    done
    check_run 2 "compiled for tiles 8, 16 and 32 only" -- "$solution" --tile 12 --n 20 --part zc_tiled
fi
finish
