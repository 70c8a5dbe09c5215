#!/usr/bin/env bash
# The lab5 driver as a student meets it. Bad arguments get one clear line and exit 2: n = 0 or
# above 2^30, a block that is not a power of two from 64 to 1024. With no GPU it says so and
# exits 3 (tests/scripts/drivers.sh, for every lab). On a GPU (instructor's copy): the starter
# shows all 11 rungs "not implemented" and nothing PASS but CUB and the CPU row; the solution
# passes all 11 on sizes that are not multiples of blockDim x 8, with every block size; --no-cpu
# skips the CPU row (it says so, and is neither run nor timed); --out records every rung.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/scripts/lib/checks.sh
BUILD=${BUILD:-build}
student=$BUILD/bin/lab5-student solution=$BUILD/bin/lab5-solution
rungs='neighbored|neighbored_less|interleaved|unrolling2|unrolling4|unrolling8|unroll_warps8|complete_unroll_warps8|complete_unroll|shuffle|grid_stride'

check_run 2 "--n must be between 1 and 1073741824, got 0" -- "$student" --n 0
check_run 2 "--n must be between 1 and 1073741824, got 1073741825" -- "$student" --n 1073741825
check_run 2 "--n must be a whole number, got '2^24'" -- "$student" --n 2^24
for block in 32 96 100 2048; do
    check_run 2 "--block must be a power of two from 64 to 1024 (64, 128, 256, 512 or 1024), got $block" -- "$student" --block $block
done

if [[ ${GPU:-no} != yes ]]; then
    check_run 3 "no CUDA device" -- "$student" --n 1000 --part neighbored
elif [[ ! -d solutions ]]; then
    # A student's copy (make dist): labs/lab5/reduce.cu is theirs, no longer the starter.
    echo "a student's copy: only the checks that need no GPU apply"
else
    output=$("$student" --n 5003 --reps 2 --warmup 0 2>&1)
    status=$?
    if [[ $status != 0 || $(grep -c "not implemented" <<<"$output") != 11 ]] || grep -vE '^(cub|cpu) ' <<<"$output" | grep -q PASS; then
        fail "the starter should show 11 rungs 'not implemented' and no PASS (exit $status):"
        echo "$output"
    else
        echo "ok    the starter shows 11 rungs 'not implemented'"
    fi
    for block in 64 128 256 512 1024; do
        n=$((block * 8 * 3 + 1))
        output=$("$solution" --n $n --block $block --reps 3 --warmup 1 2>&1)
        if [[ $? != 0 || $(grep -cE "^($rungs) .* PASS " <<<"$output") != 11 || $(grep -cE '^(cub|cpu) .* PASS ' <<<"$output") != 2 ]]; then
            fail "the solution should pass all 11 rungs, CUB and the CPU row (n $n, block $block):"
            echo "$output"
        else
            echo "ok    the solution passes all 11 rungs, CUB and the CPU row (n $n, block $block)"
        fi
    done
    output=$("$solution" --n 1000 --no-cpu --part grid_stride --reps 2 2>&1)
    if grep -E '^cpu ' <<<"$output" | grep -qv skipped || ! grep -qE '^cub .* PASS ' <<<"$output"; then
        fail "--no-cpu should skip the CPU row (not run, not timed) and keep CUB's:"
        echo "$output"
    fi
    check_run 0 "<<<" -- "$solution" --n 77777 --part neighbored,unrolling8 --reps 2
    out=$(mktemp -d)
    check_run 0 "PASS" -- "$solution" --n 4097 --block 64 --out "$out" --write-bounds --no-yardstick
    if [[ $(grep -c $'record=part' "$out/results.tsv") != 11 || ! -s $out/grid_stride.out ]]; then
        fail "--out should write results.tsv with 11 rungs and grid_stride.out"
        cat "$out/results.tsv"
    fi
    rm -rf "$out"
fi
finish
