#!/usr/bin/env bash
# On a GPU: grades the reference solution, the starter and every planted-bug variant of lab1
# (grading/variants/lab1/*/, each with an `expect` file) in one grading/grade.sh run, and
# checks every expectation from the score files it writes: the solution gets full marks, the
# starter no correctness point, each bug loses the points it should and no others, and a
# kernel that never ends is stopped and costs only its own cases. Prints each one's score.
#
#   GRADE_TEST_TIME_LIMIT (default 10): the per-case time limit of this run, so the endless
#   kernel costs seconds, not minutes.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
BUILD=${BUILD:-build}
# CHECK_ONLY=DIR checks the output folder of an earlier run (kept with KEEP=1) without grading.
if [[ -z ${CHECK_ONLY-} ]] && ! reason=$("$BUILD/bin/gpu-limits" 2>&1 >/dev/null); then
    echo "needs a usable GPU: ${reason:-$BUILD/bin/gpu-limits failed}"
    exit 77
fi
work=$(mktemp -d /tmp/grading-gpu-test.XXXXXX)
trap '[[ ${KEEP:-0} == 1 ]] || rm -rf -- "$work"' EXIT
subs=$work/submissions out=$work/out
mkdir -p "$subs"

failures=0
check() {  # check DESCRIPTION COMMAND...
    local what=$1
    shift
    if "$@"; then echo "ok    $what"; else echo "FAIL  $what"; failures=$((failures + 1)); fi
}
# The value of KEY in an expect file (the manifest format: key = value, # comments).
expect_value() { sed -n "s/^[[:space:]]*${2//./\\.}[[:space:]]*=[[:space:]]*//p" "$1" | sed 's/[[:space:]]*$//'; }

variants=()
for folder in grading/variants/lab1/*/; do
    name=$(basename "$folder")
    source=$(expect_value "$folder/expect" source)
    mkdir -p "$subs/$name"
    cp "${source:-$folder/matmul.cu}" "$subs/$name/matmul.cu" || { echo "no source for $name"; exit 1; }
    variants+=("$name")
done

started=$EPOCHREALTIME
if [[ -n ${CHECK_ONLY-} ]]; then
    out=$CHECK_ONLY status=0
    cp "$out/summary.txt" "$work/screen.txt"
else
    grading/grade.sh --labs lab1 --out "$out" --time-limit "${GRADE_TEST_TIME_LIMIT:-10}" "$subs" >"$work/screen.txt" 2>&1
    status=$?
fi
sed -n '/^student /,$p' "$work/screen.txt"
check "grade.sh graded every variant (status $status, $(awk -v a="$started" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }') s)" test "$status" == 0
((status == 0)) || { tail -30 "$work/screen.txt"; exit 1; }

# Items of a score file, one a line: kind|part|case|tool|points|max|message
items() {
    awk -F'\t' '{
        delete f
        for (i = 1; i <= NF; i++) { eq = index($i, "="); f[substr($i, 1, eq - 1)] = substr($i, eq + 1) }
        if (f["record"] == "item") print f["kind"] "|" f["part"] "|" f["case"] "|" f["tool"] "|" f["points"] "|" f["max"] "|" f["message"]
    }' "$1"
}
lab_field() { awk -F'\t' -v key="$2" '$0 ~ /record=lab/ { for (i = 1; i <= NF; i++) if (index($i, key "=") == 1) print substr($i, length(key) + 2) }' "$1"; }
# Sum of points and of maxima of the items matching kind/part/case ("" matches any).
sum_of() {  # sum_of FILE KIND PART CASE FIELD(points|max)
    items "$1" | awk -F'|' -v k="$2" -v p="$3" -v c="$4" -v col="$5" \
        '($1 == k) && (p == "" || $2 == p) && (c == "" || $3 == c) { s += (col == "points" ? $5 : $6) } END { printf "%g", s + 0 }'
}
full() { [[ $(sum_of "$1" "$2" "$3" "$4" points) == "$(sum_of "$1" "$2" "$3" "$4" max)" ]]; }
lost() { [[ $(sum_of "$1" "$2" "$3" "$4" points) != "$(sum_of "$1" "$2" "$3" "$4" max)" ]]; }
message_of() { items "$1" | awk -F'|' -v p="$2" -v c="$3" '$1 == "correctness" && $2 == p && $3 == c { print $7 }'; }
tool_points() { items "$1" | awk -F'|' -v t="$2" '$1 == "sanitizer" && $4 == t { print $5 }'; }

parts=(naive tiled dynamic coarse2 regblock)
cases=(one primes column odd wide beyond-tile tile16 square perf)
printf '\n%-22s %8s %12s %12s %10s  %s\n' variant score correctness performance sanitizer notes >"$work/table.txt"
for name in "${variants[@]}"; do
    expect=grading/variants/lab1/$name/expect score=$out/students/$name/lab1/score.tsv
    echo "== $name: $(expect_value "$expect" bug)"
    check "$name was graded" test "$(lab_field "$score" state)" == graded
    [[ -f $score ]] || continue
    points=$(lab_field "$score" points) max=$(lab_field "$score" max)
    correctness="$(sum_of "$score" correctness "" "" points)/$(sum_of "$score" correctness "" "" max)"
    performance="$(sum_of "$score" performance "" "" points)/$(sum_of "$score" performance "" "" max)"
    sanitizer=$(sum_of "$score" sanitizer "" "" points)
    printf '%-22s %8s %12s %12s %10s  %s\n' "$name" "$points/$max" "$correctness" "$performance" "$sanitizer" \
        "$(lab_field "$score" note)" >>"$work/table.txt"

    if [[ $(expect_value "$expect" full_marks) == yes ]]; then
        check "$name: full marks ($points of $max)" test "$points" == "$max"
        continue
    fi
    if [[ $(expect_value "$expect" no_correctness) == yes ]]; then
        check "$name: no correctness point" test "$(sum_of "$score" correctness "" "" points)" == 0
        check "$name: no performance point" test "$(sum_of "$score" performance "" "" points)" == 0
        continue
    fi
    must_fail=" $(expect_value "$expect" must_fail) "
    for part in "${parts[@]}"; do
        if [[ $must_fail == *" $part "* ]]; then
            check "$name: $part loses correctness points" lost "$score" correctness "$part" ""
            for c in $(expect_value "$expect" "fails_on.$part"); do
                check "$name: $part fails case $c" lost "$score" correctness "$part" "$c"
            done
            for c in $(expect_value "$expect" "passes_on.$part"); do
                check "$name: $part still passes case $c" full "$score" correctness "$part" "$c"
            done
            for c in $(expect_value "$expect" "stopped.$part"); do
                check "$name: $part is stopped by the time limit on case $c ($(message_of "$score" "$part" "$c" | cut -c1-80))" \
                    grep -q "time limit" <<<"$(message_of "$score" "$part" "$c")"
            done
        else
            check "$name: $part keeps every correctness point" full "$score" correctness "$part" ""
            check "$name: $part keeps every performance point" full "$score" performance "$part" ""
        fi
    done
    errors=" $(expect_value "$expect" sanitizer_errors) "
    for tool in memcheck racecheck; do
        if [[ $errors == *" $tool "* ]]; then
            check "$name: $tool reports errors and takes its points ($(tool_points "$score" "$tool"))" test "$(tool_points "$score" "$tool")" != 0
        else
            check "$name: $tool reports nothing ($(tool_points "$score" "$tool"))" test "$(tool_points "$score" "$tool")" == 0
        fi
    done
done

check "the gradebook lists every variant" test "$(($(wc -l <"$out/gradebook.csv") - 1))" == "${#variants[@]}"
check "every student has feedback.md and results.json" \
    bash -c "for v in ${variants[*]}; do [[ -s '$out'/students/\$v/feedback.md && -s '$out'/students/\$v/results.json ]] || exit 1; done"
cat "$work/table.txt"
echo
grep -A20 '^Where the time went' "$work/screen.txt"
echo "$failures failure(s)"
((failures == 0))
