#!/usr/bin/env bash
# The lab1 driver as a student meets it: bad arguments get one clear line and exit 2; with
# no GPU it says so and exits 3; on a GPU (instructor's copy) the starter shows every part
# "not implemented" (never PASS), the solution passes every part, a block over the limit is
# refused, and the dynamic part must ask for dynamic shared memory.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/scripts/lib/checks.sh
BUILD=${BUILD:-build}
student=$BUILD/bin/lab1-student solution=$BUILD/bin/lab1-solution

check_run 2 "--m must be between 1 and 65536, got 0" -- "$student" --m 0
check_run 2 "--k must be a whole number, got '12x'" -- "$student" --k 12x
check_run 2 "at most 2^31 - 1" -- "$student" --m 65536 --k 65536
check_run 2 "--depth must be between 1 and 1024, got 0" -- "$student" --depth 0

if [[ ${GPU:-no} != yes ]]; then
    :  # the no-GPU message: tests/scripts/drivers.sh, for every lab
elif [[ ! -d solutions ]]; then
    # A student's copy (make dist): labs/lab1/matmul.cu is theirs, no longer the starter, and
    # there is no solution to run.
    echo "a student's copy: only the checks that need no GPU apply"
else
    output=$("$student" --m 67 --n 45 --k 33 2>&1)
    status=$?
    if [[ $status != 0 || $(grep -c "not implemented" <<<"$output") != 5 ]] || grep -vE '^cublas' <<<"$output" | grep -q PASS; then
        fail "the starter should show 5 parts 'not implemented' and no PASS (exit $status):"
        echo "$output"
    fi
    output=$("$solution" --m 67 --n 45 --k 33 2>&1)
    if [[ $? != 0 || $(grep -cE '^(naive|tiled|dynamic|coarse2|regblock) .* PASS ' <<<"$output") != 5 ]]; then
        fail "the solution should pass all 5 parts:"
        echo "$output"
    fi
    check_run 2 "threads exceeds this GPU's limit of 1024 threads per block (maxThreadsPerBlock)" -- "$solution" --tile 64 --part naive --m 64 --n 64 --k 8
    out=$(mktemp -d)
    check_run 0 "PASS" -- "$solution" --m 20 --n 30 --k 40 --out "$out" --write-bounds --part naive,tiled
    if [[ $(grep -c $'record=part' "$out/results.tsv") != 2 || ! -s $out/naive.out || ! -s $out/tiled.out ]]; then
        fail "--out should write results.tsv with 2 parts and naive.out, tiled.out"
        ls -l "$out"; cat "$out/results.tsv"
    fi
    rm -rf "$out"
    # Several cases in one process, each into its own folder.
    out=$(mktemp -d)
    printf 'small --m 5 --n 7 --k 3\nlarger --m 70 --n 30 --k 90 --tile 16\n' >"$out/cases.txt"
    check_run 0 "case   larger: C(70x30)" -- "$solution" --cases "$out/cases.txt" --out "$out" --part naive,dynamic
    for c in small larger; do
        if [[ $(grep -c $'record=part' "$out/$c/results.tsv") != 2 || ! -s $out/$c/dynamic.out ]]; then
            fail "--cases should write $c/results.tsv with 2 parts and $c/dynamic.out"
        fi
    done
    rm -rf "$out"
fi
finish
