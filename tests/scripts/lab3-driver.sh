#!/usr/bin/env bash
# The lab3 driver as a student meets it. Bad arguments get one clear line and exit 2; a graph
# file with a mistake gets the file, the line and the reason, exit 2, and a missing one exit 6,
# all before a GPU is looked for; a good file on a machine without a GPU gets the no-GPU message
# and exit 3. On a GPU (instructor's copy): the starter shows its 4 parts "not implemented" and
# nothing PASS but the yardsticks, the solution passes every part and yardstick on awkward sizes
# and the sample files, a block over the limit is refused, the CPU yardstick above --cpu-max-n
# says why it was skipped, and --out and --cases write what the grader reads.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/scripts/lib/checks.sh
BUILD=${BUILD:-build}
student=$BUILD/bin/lab3-student solution=$BUILD/bin/lab3-solution
work=$(mktemp -d /tmp/lab3-driver-test.XXXXXX)
trap 'rm -rf -- "$work"' EXIT

# --- options -----------------------------------------------------------------------------
check_run 2 "--n must be between 1 and 46340, got 0" -- "$student" --n 0
check_run 2 "--n must be between 1 and 46340, got 46341" -- "$student" --n 46341
check_run 2 "--block must be a power of two from 1 to 64" -- "$student" --block 12
check_run 2 "--density must be a number between" -- "$student" --density 1.5
check_run 2 "--max-weight (5) is below --min-weight (9)" -- "$student" --min-weight 9 --max-weight 5
check_run 2 "which reaches FW_INF" -- "$student" --n 1000 --max-weight 2000000
check_run 2 "--components must be between 1 and the number of vertices (10)" -- "$student" --n 10 --components 11
check_run 2 "--graph reads the graph from a file, and --n describes a generated one" -- \
    "$student" --graph labs/lab3/graphs/tiny.txt --n 5
check_run 2 "--cpu-max-n must be between 0 and 46340" -- "$student" --cpu-max-n -1

# --- graph files ---------------------------------------------------------------------------
check_run 6 "$work/none.gr: cannot open the graph file" -- "$student" --graph "$work/none.gr"
# bad FILE CONTENT STATUS TEXT: the driver refuses FILE (written with CONTENT) with TEXT.
bad() {
    printf '%b' "$2" >"$work/$1"
    check_run "$3" "$work/$1:$4" -- "$student" --graph "$work/$1"
}
bad empty.txt '' 2 "1: end of file, and no header"
bad arc-first.txt '# c\n0 1 5\n' 2 "2: an arc before the header"
bad range.txt '3 1\n0 3 2\n' 2 "2: vertex 3 is out of range: the graph has 3 vertices, numbered 0 to 2"
bad negative.txt '3 1\n0 1 -4\n' 2 "2: negative weight -4"
bad fraction.txt '3 1\n\n0 1 2.5\n' 2 "3: weight '2.5' is not a whole number"
bad count.txt '3 2\n0 1 1\n' 2 "2: end of file after 1 arcs, but the header (line 1) announces 2"
bad dimacs.txt 'p sp 3 1\na 1 2 3\n' 2 "1: this looks like a DIMACS line"
bad no-header.gr 'c x\na 1 2 3\n' 2 "2: an arc before the 'p sp N M' header"
bad twice.gr 'p sp 3 1\nc\np sp 3 1\n' 2 "3: a second 'p' header (the first is on line 1)"
bad zero.gr 'p sp 3 1\na 0 1 4\n' 2 "2: vertex 0 is out of range: the graph has 3 vertices, numbered 1 to 3"
bad extra.gr 'p sp 3 1\na 1 2 3\na 2 3 1\n' 2 "3: arc 2, but the header (line 1) announces 1 arcs"
bad kind.gr 'p sp 3 1\ne 1 2 3\n' 2 "2: a DIMACS .gr line starts with 'c' (comment), 'p' (header) or 'a' (arc), not 'e'"
bad huge.gr 'c New York\np sp 264346 733846\n' 2 "2: 264346 vertices: the distance matrix would hold"
bad heavy.gr 'p sp 4 2\na 1 2 5\na 2 3 500000000\n' 2 "3: with 4 vertices and a largest weight of 500000000"

# --- no GPU: the case is read and checked first, then the message -----------------------------
if [[ ${GPU:-no} != yes ]]; then
    check_run 3 "This lab needs an NVIDIA GPU" -- "$student" --graph labs/lab3/graphs/grid-20x20.gr
    # (A student's copy, made by make dist, has no solution.)
    [[ -x $solution ]] && check_run 3 "This lab needs an NVIDIA GPU" -- "$solution" --n 37 --part fw_blocked
elif [[ ! -d solutions ]]; then
    # A student's copy (make dist): labs/lab3/floyd.cu is theirs, no longer the starter.
    echo "a student's copy: only the checks that need no GPU apply"
else
    output=$("$student" --n 67 --reps 2 --warmup 0 2>&1)
    status=$?
    if [[ $status != 0 || $(grep -c "not implemented" <<<"$output") != 4 ]] ||
        grep -vE '^(cpu|trusted_2d|cpu_diameter) ' <<<"$output" | grep -q PASS; then
        fail "the starter should show 4 parts 'not implemented' and no PASS (exit $status):"
        echo "$output"
    else
        echo "ok    the starter shows its 4 parts 'not implemented'"
    fi
    for args in "--n 67 --block 8" "--n 131 --block 32 --components 3 --density 0.05" "--n 1" \
        "--graph labs/lab3/graphs/tiny.txt" "--graph labs/lab3/graphs/islands.gr --block 16" \
        "--graph labs/lab3/graphs/selfloops.gr --block 32"; do
        # shellcheck disable=SC2086
        output=$("$solution" $args --reps 2 --warmup 0 2>&1)
        if [[ $? != 0 || $(grep -cE '^(cpu|trusted_2d|cpu_diameter|fw_1d|fw_2d|fw_blocked|diameter) .* PASS' <<<"$output") != 7 ]]; then
            fail "the solution should pass its 4 parts and 3 yardsticks with $args:"
            echo "$output"
        else
            echo "ok    the solution passes every part and yardstick ($args)"
        fi
    done
    check_run 2 "exceeds this GPU's maximum block dimension x = 1024" -- "$solution" --block 64 --n 20 --part fw_1d
    check_run 0 "N = 100 is above --cpu-max-n 50" -- "$solution" --n 100 --cpu-max-n 50 --reps 1 --warmup 0
    check_run 0 "the plain triple loop on one core" -- "$solution" --n 50 --reps 1 --warmup 0 --part fw_1d
    out=$work/out
    mkdir -p "$out"
    check_run 0 "PASS" -- "$solution" --n 40 --out "$out" --write-bounds --reps 1 --warmup 0
    if [[ $(grep -c $'record=part' "$out/results.tsv") != 4 || ! -s $out/fw_blocked.out || ! -s $out/diameter.out ]]; then
        fail "--out should write results.tsv with 4 parts, fw_blocked.out and diameter.out"
        ls -l "$out"; cat "$out/results.tsv"
    fi
    printf 'small --n 5\nfile --graph labs/lab3/graphs/tiny.txt --block 8\n' >"$work/cases.txt"
    check_run 0 "case   file: all-pairs shortest paths, N = 6" -- "$solution" --cases "$work/cases.txt" --out "$out" --part fw_2d,diameter
    for c in small file; do
        if [[ $(grep -c $'record=part' "$out/$c/results.tsv") != 2 || ! -s $out/$c/diameter.out ]]; then
            fail "--cases should write $c/results.tsv with 2 parts and $c/diameter.out"
        fi
    done
fi
finish
