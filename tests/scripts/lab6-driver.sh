#!/usr/bin/env bash
# The lab6 driver as a student meets it. Bad arguments get one clear line and exit 2: a length
# that is not a power of two, a length above 2^26, batch x length above 2^28, --batch with
# --total, a --total that is not a multiple of the length, a direction other than up or down.
# With no GPU it says so and exits 3 (tests/scripts/drivers.sh, for every lab). On a GPU
# (instructor's copy): the starter shows all 4 parts "not implemented" and nothing PASS but the
# yardsticks; the solution passes every part on awkward cases, both directions, with CUB (and
# Thrust for one array) beside it; above 1024 pairs the one-block parts sit out with the reason;
# --out records every part. (Data larger than the GPU's free memory is refused by setup() with
# the MiB needed and free; 2^28 pairs, the most, fit in an H100's or H200's memory.)
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/scripts/lib/checks.sh
BUILD=${BUILD:-build}
student=$BUILD/bin/lab6-student solution=$BUILD/bin/lab6-solution
parts='bitonic_shared|bitonic|oddeven_shared|oddeven'

for length in 0 3 1000 1025; do
    check_run 2 "--length must be a power of two (1, 2, 4, ..., 1024, ...), got $length" -- "$student" --length $length
done
check_run 2 "--length must be at most 67108864 (2^26), got 134217728" -- "$student" --length 134217728
check_run 2 "batch x length must be at most 268435456 pairs (2^28: 32-bit indices, 2 GiB of pairs), got 1048576 x 1024" -- "$student" --length 1024 --batch 1048576
check_run 2 "give --batch or --total (the pairs of the whole batch), not both" -- "$student" --batch 4 --total 1048576
check_run 2 "--total 1000 is not a multiple of --length 64" -- "$student" --length 64 --total 1000
check_run 2 "--dir must be up or down, got 'ascending'" -- "$student" --dir ascending
check_run 2 "--batch must be between 1 and 268435456, got 0" -- "$student" --batch 0
check_run 0 "parts: bitonic_shared, bitonic, oddeven_shared, oddeven" -- "$student" --help

if [[ ${GPU:-no} != yes ]]; then
    check_run 3 "no CUDA device" -- "$student" --length 1024 --batch 4 --part bitonic
elif [[ ! -d solutions ]]; then
    # A student's copy (make dist): labs/lab6/sort.cu is theirs, no longer the starter.
    echo "a student's copy: only the checks that need no GPU apply"
else
    output=$("$student" --length 512 --batch 9 --reps 2 --warmup 0 2>&1)
    status=$?
    if [[ $status != 0 || $(grep -c "not implemented" <<<"$output") != 4 ]] || grep -vE '^(cub|thrust|thrust_float) ' <<<"$output" | grep -q PASS; then
        fail "the starter should show 4 parts 'not implemented' and no PASS (exit $status):"
        echo "$output"
    else
        echo "ok    the starter shows 4 parts 'not implemented'"
    fi
    for args in "--length 1 --batch 3" "--length 2 --batch 5 --dir down" "--length 64 --batch 3" \
                "--length 1024 --batch 7 --dir down" "--length 1024 --batch 1"; do
        output=$("$solution" $args --reps 3 --warmup 1 2>&1)
        if [[ $? != 0 || $(grep -cE "^($parts) .* PASS " <<<"$output") != 4 || $(grep -cE '^cub .* PASS ' <<<"$output") != 1 ]]; then
            fail "the solution should pass all 4 parts and CUB ($args):"
            echo "$output"
        else
            echo "ok    the solution passes all 4 parts and CUB ($args)"
        fi
    done
    for args in "--length 2048 --batch 3" "--length 65536 --batch 2 --dir down" "--length 1048576 --batch 1"; do
        output=$("$solution" $args --reps 3 --warmup 1 2>&1)
        if [[ $? != 0 || $(grep -cE "^(bitonic|oddeven) .* PASS " <<<"$output") != 2 || $(grep -cE "^(bitonic|oddeven)_shared .*skipped.*one block sorts at most 1024 pairs" <<<"$output") != 2 ]]; then
            fail "the solution should pass bitonic and oddeven, and sit the one-block parts out ($args):"
            echo "$output"
        else
            echo "ok    bitonic and oddeven pass, the one-block parts sit out ($args)"
        fi
    done
    output=$("$solution" --length 1048576 --batch 1 --reps 3 2>&1)
    if ! grep -qE '^thrust .* PASS ' <<<"$output" || ! grep -qE '^thrust_float ' <<<"$output"; then
        fail "one array: Thrust's row should pass and the float row be timed:"
        echo "$output"
    fi
    output=$("$solution" --length 1024 --batch 8 --reps 2 2>&1)
    if ! grep -qE '^thrust .*skipped.*one array' <<<"$output"; then
        fail "a batch: Thrust's rows should be skipped, saying why:"
        echo "$output"
    fi
    out=$(mktemp -d)
    check_run 0 "PASS" -- "$solution" --length 4096 --batch 3 --out "$out" --write-bounds --no-yardstick
    if [[ $(grep -c $'record=part' "$out/results.tsv") != 4 || ! -s $out/bitonic.out ]]; then
        fail "--out should write results.tsv with 4 parts and bitonic.out"
        cat "$out/results.tsv"
    fi
    rm -rf "$out"
fi
finish
