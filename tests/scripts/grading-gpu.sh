#!/usr/bin/env bash
# test: alone (it times GPU work: the copies of the reference must score what a fair timing gives;
# grade.sh waits for tests/run.sh's quiet lock before its first timed run)
# On a GPU: for every lab with planted-bug variants (grading/variants/<lab>/*/, each the
# reference solution with a small patch, or the solution or the starter, and an `expect`
# file), grades them all as one class in one grading/grade.sh run (each variant a student
# named <lab>-<variant>, who hands in that lab only) and checks every expectation from the
# score files it writes: the solution gets full marks, the starter no correctness point, each
# bug loses the points it should and no others, and a kernel that never ends is stopped and
# costs only its own cases. Prints each one's score. A patch that no longer applies to the
# solution fails the test.
#
#   CLASS=quick (make test's) grades the variants whose expect file says `make_test = yes`:
#   every lab's solution and starter, every variant whose expectation is about speed, and one
#   variant of each of the grader's mechanisms (a time limit that stops a part and retires it,
#   a kept result, each sanitizer tool, a refused symbol, the affinity guard, the launch trace):
#   39 of the 98. CLASS=full (make
#   grading-gpu-test, before a term) grades all of them. On one GPU the timed runs go one
#   student at a time, so the class's size sets the time: the full class took 1,111 s of an
#   H200, the timed round alone 498 s.
#   GRADE_TEST_TIME_LIMIT (default 10): the per-case time limit of this run, so an endless
#   kernel costs seconds, not minutes. LABS="lab1 lab3": only those labs. VARIANTS="lab3/diameter-redux
#   lab5/warp-steps-relaxed-atomics": only those variants of the class (and each lab's solution).
#   COPIES (default 0 in the quick class, 2 in the full): copies of the reference solution in the
#   class (each hands in every lab), each of which must get at least 99% of each lab's maximum
#   (the timing is fair enough to weigh speed), as the lab's solution variant, itself a copy,
#   must get all of it. (A copy in the quick class would be 8 more student x labs of 42.)
#   COPIES=8 is the fuller check of the timing's fairness, before a term (with 8, the copies
#   were 64 of 155 students).
#   GRADE_RUNNERS: grade.sh's --runners (default: a quarter of the CPUs, at most 4).
#   TWICE=1: grade the class a second time, and every student's total must agree within 1% of
#   the maximum.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/scripts/lib/checks.sh
BUILD=${BUILD:-build}
# The class, checked first: a wrong CLASS says so on any machine, not "needs a GPU".
CLASS=${CLASS:-quick}
[[ $CLASS == quick || $CLASS == full ]] || { echo "CLASS must be quick or full, not '$CLASS'"; exit 2; }
if [[ $CLASS == quick ]]; then COPIES=${COPIES:-0}; else COPIES=${COPIES:-2}; fi
# CHECK_ONLY=DIR checks the output folder of an earlier run (kept with KEEP=1) without grading.
if [[ -z ${CHECK_ONLY-} ]] && ! reason=$("$BUILD/bin/gpu-limits" 2>&1 >/dev/null); then
    echo "needs a usable GPU: ${reason:-$BUILD/bin/gpu-limits failed}"
    exit 77
fi
source mk/manifest.sh
source tests/scripts/grading-lib/variants.sh
source tests/scripts/grading-lib/sandbox.sh
work=$(mktemp -d /tmp/grading-gpu-test.XXXXXX)
trap '[[ ${KEEP:-0} == 1 ]] || rm -rf -- "$work"' EXIT

expect_value() { manifest_value "$1" "$2"; }

# grade_class: every variant of every lab in $labs, and the copies, graded in one grade.sh run
# into $work/out. Sets variants_of[LAB] (its variants' names) and copies.
declare -A variants_of
grade_class() {
    local subs=$work/submissions started=$EPOCHREALTIME status lab name i file
    out=$work/out
    for lab in $labs; do
        variants_of[$lab]=""
        for name in $(variant_names "$lab"); do
            [[ $CLASS == full || $(expect_value "grading/variants/$lab/$name/expect" make_test) == yes ]] || continue
            [[ -z ${VARIANTS-} || " $VARIANTS " == *" $lab/$name "* || $name == solution ]] || continue
            make_variant "$lab" "$name" "$subs/$lab-$name/$lab" || { check "$lab $name: the variant can be made" false; continue; }
            variants_of[$lab]+=" $name"
        done
    done
    copies=()
    for ((i = 1; i <= COPIES; i++)); do
        for lab in $labs; do
            mkdir -p "$subs/copy-$i/$lab"
            for file in $(manifest_get "$lab" student_files); do cp -- "solutions/$lab/$file" "$subs/copy-$i/$lab/"; done
        done
        copies+=("copy-$i")
    done
    if [[ -n ${CHECK_ONLY-} ]]; then
        out=$CHECK_ONLY/out status=0
        cp "$out/summary.txt" "$work/screen.txt"
    else
        grade_into "$out" >"$work/screen.txt" 2>&1
        status=$?
    fi
    sed -n '/^student /,$p' "$work/screen.txt"
    check "grade.sh graded every variant of $labs (status $status, $(awk -v a="$started" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }') s)" test "$status" == 0
    # Where the time went, or, when grade.sh stopped, the round it had reached.
    grep -A20 '^Where the time went' "$work/screen.txt" || grep '^runs: round' "$work/screen.txt" | tail -1
    # The parts that lost performance points and were timed a second time (runs.sh, time_again).
    echo "Timed a second time: $(grep -c 'second timing of' "$out/grading.log") student x lab(s)"
    sed -n 's/.* second timing of \([^ ]* [^ ]*\) (\(.*\)): .*/  \1: \2/p' "$out/grading.log"
    ((status == 0)) || { tail -30 "$work/screen.txt"; return 1; }
    local students
    students=$(ls -d "$subs"/*/ | wc -l)
    check "the gradebook lists every variant and copy ($students)" test "$(($(wc -l <"$out/gradebook.csv") - 1))" == "$students"
}
# The labs' trusted objects are kept in the build folder, as the other grading tests keep theirs
# (their key is the sources and the compilers): a second make test does not compile them again
# (85 s of an H200's 1,111 s the first time).
grade_into() {  # grade_into OUT: the class, graded into OUT
    GRADE_QUIET_LOCK=${TEST_QUIET_LOCK-} GRADE_TEMPLATE_CACHE=${GRADE_TEMPLATE_CACHE-$(cd "$BUILD" && pwd)/grading-templates} grading/grade.sh --sandbox "$(best_sandbox)" --labs "${labs// /,}" --out "$1" --time-limit "${GRADE_TEST_TIME_LIMIT:-10}" \
        ${GRADE_RUNNERS:+--runners "$GRADE_RUNNERS"} "$work/submissions"
}

# Items of a score file, one a line: kind|part|case|tool|points|max|message
items() {
    awk -F'\t' '{
        delete f
        for (i = 1; i <= NF; i++) { eq = index($i, "="); f[substr($i, 1, eq - 1)] = substr($i, eq + 1) }
        if (f["record"] == "item") print f["kind"] "|" f["part"] "|" f["case"] "|" f["tool"] "|" f["points"] "|" f["max"] "|" f["message"]
    }' "$1"
}
# "floor F ms; times T1 T2 ...", with "below" after any time under the floor.
bound_and_times() {
    awk -F'\t' '{
        for (i = 1; i <= NF; i++) {
            if ($i ~ /^floor_ms=/) floor = substr($i, 10)
            if ($i ~ /^time_ms=/) times = times " " substr($i, 9) (floor != "" && substr($i, 9) + 0 < floor + 0 ? " below" : "")
        }
    } END { printf "floor %s ms; times%s", (floor == "" ? "none" : floor), times }' "$1"
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
# The smallest ratio of the part's time to the reference's over its performance items, "none"
# when no item has both times (perf_no_gain).
least_ratio() {
    awk -F'\t' -v p="$2" '{
        delete f
        for (i = 1; i <= NF; i++) { eq = index($i, "="); f[substr($i, 1, eq - 1)] = substr($i, eq + 1) }
        if (f["record"] == "item" && f["kind"] == "performance" && f["part"] == p && f["student_ms"] + 0 > 0 && f["reference_ms"] + 0 > 0) {
            r = f["student_ms"] / f["reference_ms"]
            if (least == "" || r < least) least = r
        }
    } END { print (least == "" ? "none" : least) }' "$1"
}
# perf_no_gain: a part given more threads than --threads' CPUs gains nothing, so it took at least
# this share of the reference's time. Lab 7's all-cores variant, pinned, took 0.70-1.45x on
# cpu_ikj and 0.95-1.09x on cpu_ijk over three make test runs (two H200s, an H100: 0.70 failed
# the 0.75 this was); unpinned, its extra threads bought 0.21-0.36x. The bound lies between.
NO_GAIN_RATIO=0.5
# A message saying the time limit stopped the part on this case, not that it was not run
# because the time limit stopped it on earlier ones (grading/run_ledger.hpp, kRetireAfter).
stopped_there() { [[ $1 == *"time limit"* && $1 != "not run: "* ]]; }
# shortfalls SCORE [PART]: under a failed check, the items (of PART) that fell short, with the
# times behind a performance item: a timing outlier shows its numbers where it failed.
shortfalls() {
    awk -F'\t' -v p="${2-}" '$0 ~ /record=item/ {
        delete f
        for (i = 1; i <= NF; ++i) { split($i, kv, "="); f[kv[1]] = substr($i, length(kv[1]) + 2) }
        if (f["points"] != f["max"] && (p == "" || f["part"] == p))
            printf "      short: %s %s %s: %s of %s (student %s ms, reference %s ms) %s\n",
                f["kind"], f["part"], f["case"], f["points"], f["max"], f["student_ms"], f["reference_ms"], f["message"] }' "$1"
}
tool_points() { items "$1" | awk -F'|' -v t="$2" '$1 == "sanitizer" && $4 == t { print $5 }'; }

check_lab() {
    local lab=$1 name variants=(${variants_of[$1]})
    local parts=($(manifest_get "$lab" parts)) tools=($(manifest_get "$lab" sanitize.tools)) table=$work/table-$1.txt
    printf '\n%-24s %8s %12s %12s %10s  %s\n' "$lab variant" score correctness performance sanitizer notes >"$table"
    for name in "${variants[@]}"; do
        local expect=grading/variants/$lab/$name/expect score=$out/students/$lab-$name/$lab/score.tsv
        echo "== $lab $name: $(expect_value "$expect" bug)"
        # A refused submission (its build, or its symbols) is scored without being graded.
        local state
        state=$(lab_field "$score" state)
        if [[ $(expect_value "$expect" no_correctness) == yes ]]; then
            check "$name was scored ($state)" bash -c "[[ '$state' =~ ^(graded|malformed|build-failed)$ ]]"
        else
            check "$name was graded" test "$state" == graded
        fi
        [[ -f $score ]] || continue
        local points max correctness performance sanitizer
        points=$(lab_field "$score" points) max=$(lab_field "$score" max)
        correctness="$(sum_of "$score" correctness "" "" points)/$(sum_of "$score" correctness "" "" max)"
        performance="$(sum_of "$score" performance "" "" points)/$(sum_of "$score" performance "" "" max)"
        sanitizer=$(sum_of "$score" sanitizer "" "" points)
        printf '%-24s %8s %12s %12s %10s  %s\n' "$name" "$points/$max" "$correctness" "$performance" "$sanitizer" \
            "$(lab_field "$score" note)" >>"$table"

        if [[ $(expect_value "$expect" full_marks) == yes ]]; then
            check "$name: full marks ($points of $max)" test "$points" == "$max"
            [[ $points == "$max" ]] || shortfalls "$score"
            continue
        fi
        local note_has
        note_has=$(expect_value "$expect" note_has)
        [[ -z $note_has ]] || check "$name: the gradebook note says '$note_has'" grep -qF -- "$note_has" <<<"$(lab_field "$score" note)"
        if [[ $(expect_value "$expect" no_correctness) == yes ]]; then
            check "$name: no correctness point" test "$(sum_of "$score" correctness "" "" points)" == 0
            check "$name: no performance point" test "$(sum_of "$score" performance "" "" points)" == 0
            continue
        fi
        local must_fail=" $(expect_value "$expect" must_fail) " may_fail=" $(expect_value "$expect" may_fail) "
        local perf_zero=" $(expect_value "$expect" perf_zero) " perf_loses=" $(expect_value "$expect" perf_loses) " part c tool
        local perf_no_gain=" $(expect_value "$expect" perf_no_gain) "
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
                        stopped_there "$(message_of "$score" "$part" "$c")"
                done
                for c in $(expect_value "$expect" "retired.$part"); do
                    check "$name: $part is not run on case $c ($(message_of "$score" "$part" "$c" | cut -c1-80))" \
                        grep -q "^not run: $part was stopped by its time limit on cases " <<<"$(message_of "$score" "$part" "$c")"
                done
            elif [[ $perf_zero == *" $part "* ]]; then
                check "$name: $part keeps every correctness point" full "$score" correctness "$part" ""
                check "$name: $part earns no performance point ($(sum_of "$score" performance "$part" "" points))" \
                    test "$(sum_of "$score" performance "$part" "" points)" == 0
            elif [[ $perf_loses == *" $part "* ]]; then
                check "$name: $part keeps every correctness point" full "$score" correctness "$part" ""
                check "$name: $part loses performance points ($(sum_of "$score" performance "$part" "" points) of $(sum_of "$score" performance "$part" "" max))" \
                    lost "$score" performance "$part" ""
            elif [[ $perf_no_gain == *" $part "* ]]; then
                local least
                least=$(least_ratio "$score" "$part")
                check "$name: $part keeps every correctness point" full "$score" correctness "$part" ""
                check "$name: $part gains nothing: its time is at least $NO_GAIN_RATIO of the reference's on every performance case (least $least)" \
                    awk -v r="$least" -v min="$NO_GAIN_RATIO" 'BEGIN { exit !(r != "none" && r + 0 >= min + 0) }'
            elif [[ $may_fail != *" $part "* ]]; then
                check "$name: $part keeps every correctness point" full "$score" correctness "$part" ""
                check "$name: $part keeps every performance point" full "$score" performance "$part" ""
                full "$score" performance "$part" "" || shortfalls "$score" "$part"
            fi
        done
        local errors=" $(expect_value "$expect" sanitizer_errors) "
        for tool in "${tools[@]}"; do
            if [[ $errors == *" $tool "* ]]; then
                check "$name: $tool reports errors and takes its points ($(tool_points "$score" "$tool"))" test "$(tool_points "$score" "$tool")" != 0
            else
                check "$name: $tool reports nothing ($(tool_points "$score" "$tool"))" test "$(tool_points "$score" "$tool")" == 0
            fi
        done
    done
    check "$lab: every variant has feedback.md and results.json" \
        bash -c "for v in ${variants[*]}; do [[ -s '$out'/students/$lab-\$v/feedback.md && -s '$out'/students/$lab-\$v/results.json ]] || exit 1; done"
    # The physical bound (floor_ms) the reference's timing run records, where the lab's metric
    # names one, lies below every part's time; no variant is flagged for beating it.
    local timing
    for timing in "$out"/.grader/timing/*/"$lab"/gpu*/t*/*/out/results.tsv; do
        [[ -f $timing ]] || continue
        check "$lab: the physical bound of ${timing%/out/results.tsv} lies below every reference time ($(bound_and_times "$timing"))" \
            bash -c "[[ '$(bound_and_times "$timing")' != *below* ]]"
    done
    cat "$table"
    echo
}

total_of() { lab_field "$1/students/$2/$3/score.tsv" points; }

# The copies of the reference: each at least 99% of each lab's maximum.
check_fairness() {
    local lab=$1 max lowest="" highest="" student total
    max=$(lab_field "$out/students/$lab-solution/$lab/score.tsv" max)
    for student in "${copies[@]}"; do
        total=$(total_of "$out" "$student" "$lab")
        check "$lab $student: at least 99% of $max ($total)" awk -v t="$total" -v m="$max" 'BEGIN { exit !(t >= 0.99 * m) }'
        lowest=$(awk -v a="${lowest:-$total}" -v b="$total" 'BEGIN { print (b < a ? b : a) }')
        highest=$(awk -v a="${highest:-$total}" -v b="$total" 'BEGIN { print (b > a ? b : a) }')
    done
    echo "$lab: reference $(total_of "$out" "$lab-solution" "$lab") of $max${copies[0]+; ${#copies[@]} copies from $lowest to $highest}"
}

# TWICE=1: the class graded again into another folder: every student's total of every lab
# within 1% of that lab's maximum of the first.
check_twice() {
    local again=$work/again lab student max first second change largest who
    grade_into "$again" >"$work/screen-again.txt" 2>&1
    check "grade.sh graded the class again (status $?)" test -f "$again/gradebook.csv"
    for lab in $labs; do
        max=$(lab_field "$out/students/$lab-solution/$lab/score.tsv" max) largest=0 who=""
        for student in $(printf "$lab-%s\n" ${variants_of[$lab]}) "${copies[@]}"; do
            first=$(total_of "$out" "$student" "$lab") second=$(total_of "$again" "$student" "$lab")
            change=$(awk -v a="$first" -v b="$second" 'BEGIN { d = a - b; print (d < 0 ? -d : d) }')
            check "$lab $student: the same total when graded again, within 1% of $max ($first, then $second)" \
                awk -v d="$change" -v m="$max" 'BEGIN { exit !(d <= 0.01 * m) }'
            awk -v d="$change" -v l="$largest" 'BEGIN { exit !(d > l) }' && largest=$change who=$student
        done
        echo "$lab: graded twice, the largest change $largest${who:+ ($who)} of $max"
    done
}

labs=${LABS:-$(variant_labs)}
labs=$(echo $labs)
[[ -n $labs ]] || { echo "no lab has planted-bug variants"; exit 1; }
if grade_class; then
    for lab in $labs; do check_lab "$lab" && check_fairness "$lab"; done
    check "no variant's time is below the physical bound" bash -c "! grep -q 'Times below the physical bound' '$out/summary.txt'"
    [[ ${TWICE:-0} == 1 ]] && check_twice
fi
finish
