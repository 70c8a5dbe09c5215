#!/usr/bin/env bash
# The lab4 driver as a student meets it. Bad arguments get one clear line and exit 2 before a
# GPU is looked for (a radius over 8, sizes of 0, an image too large to index with int). On a
# GPU (instructor's copy): the starter shows all 5 parts "not implemented" and nothing PASS but
# the yardsticks, the solution passes all 5 on awkward sizes, a block over the hardware's limit
# is refused with the limit named, and --out writes every part's output. Without a GPU those
# checks are skipped, saying so (tests/scripts/drivers.sh checks the no-GPU message itself).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/scripts/lib/checks.sh
BUILD=${BUILD:-build}
student=$BUILD/bin/lab4-student solution=$BUILD/bin/lab4-solution

check_run 2 "--radius must be between 0 and 8, got 9" -- "$student" --radius 9
check_run 2 "--radius must be between 0 and 8, got -1" -- "$student" --radius -1
check_run 2 "--n must be between 1 and 536870912, got 0" -- "$student" --n 0
check_run 2 "--n must be a whole number, got '2e6'" -- "$student" --n 2e6
check_run 2 "--block must be between 1 and 65536, got 0" -- "$student" --block 0
check_run 2 "--width must be between 1 and 65536, got 0" -- "$student" --width 0
check_run 2 "--height must be between 1 and 65536, got 70000" -- "$student" --height 70000
check_run 2 "the image would have 4294967296 pixels; the kernels index with int, so at most 2^31 - 1" -- \
    "$student" --width 65536 --height 65536
# In a list of cases, a bad one is refused before anything runs.
cases=$(mktemp)
printf 'fine --n 10\nwide --radius 12\n' >"$cases"
check_run 2 "--radius must be between 0 and 8, got 12" -- "$student" --cases "$cases"
rm -f "$cases"

if [[ ${GPU:-no} != yes ]]; then
    echo "skip  the starter's and the solution's parts, the block limit and --out need a GPU (none here)"
elif [[ ! -d solutions ]]; then
    echo "a student's copy: only the checks that need no GPU apply"
else
    output=$("$student" --n 1009 --block 127 --width 37 --height 41 --radius 3 --reps 2 --warmup 0 2>&1)
    status=$?
    if [[ $status != 0 || $(grep -c "not implemented" <<<"$output") != 5 ]] ||
        grep -vE '^(cpu|launch|copy|memcpy|copy_half|copy_image) ' <<<"$output" | grep -q PASS; then
        fail "the starter should show 5 parts 'not implemented' and no PASS (exit $status):"
        echo "$output"
    else
        echo "ok    the starter shows its 5 parts 'not implemented'"
    fi
    for shape in "--n 1 --block 256 --width 1 --height 1 --radius 0" "--n 5003 --block 256 --width 70 --height 150 --radius 2" \
        "--n 4097 --block 1024 --width 1 --height 300 --radius 8" "--n 65537 --block 33 --width 4099 --height 1 --radius 5"; do
        output=$("$solution" $shape --reps 2 --warmup 0 2>&1)
        if [[ $? != 0 || $(grep -cE '^(stencil_global|stencil_shared|max|conv_global|conv_shared) .* PASS ' <<<"$output") != 5 ]]; then
            fail "the solution should pass all 5 parts with $shape:"
            echo "$output"
        else
            echo "ok    the solution passes all 5 parts ($shape)"
        fi
    done
    check_run 2 "block.x = 2048 exceeds this GPU's maximum block dimension x = 1024 (maxThreadsDim[0])" -- \
        "$solution" --block 2048 --n 5000 --part stencil_shared
    out=$(mktemp -d)
    check_run 0 "PASS" -- "$solution" --n 333 --width 20 --height 30 --radius 1 --out "$out" --write-bounds
    if [[ $(grep -c $'record=part' "$out/results.tsv") != 5 ]]; then
        fail "--out should write results.tsv with 5 parts"
        cat "$out/results.tsv"
    fi
    for part in stencil_global stencil_shared max conv_global conv_shared; do
        [[ -s $out/$part.out ]] || fail "--out should write $part.out"
    done
    rm -rf "$out"
fi
finish
