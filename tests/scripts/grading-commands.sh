#!/usr/bin/env bash
# The grader commands grade.sh's bash calls to write, keep and file what runs (cases-file,
# keep-checked-runs, checked-runs, run-group, check-submission, check-reference), to check a
# build (check-build) and to write the class's pages (class-summary, class-pages): a bad argument
# or manifest is refused with a message naming it and exit 2 (bad usage), a missing folder or
# file with exit 6, never a silent success; every command starts and stops the one way
# grading/grader_main.cpp says. What they decide is tested in tests/grading; grade.sh's use of them by the
# grading-*.sh scripts.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/scripts/lib/checks.sh
GRADER=${BUILD:-build}/bin/grader
[[ -x $GRADER ]] || { echo "$GRADER is missing: make grader"; exit 1; }
work=$(mktemp -d /tmp/grading-commands-test.XXXXXX)
trap 'rm -rf -- "$work"' EXIT

# refused STATUS TEXT COMMAND...: the grader command exits STATUS and says TEXT.
refused() {
    local status=$1 text=$2 said
    shift 2
    said=$("$GRADER" "$@" 2>&1)
    local got=$?
    [[ $got == "$status" && $said == *"$text"* ]] || { echo "      exit $got: $said"; return 1; }
}

check "cases-file: an unknown use" refused 2 "--for bogus: not a use of a cases file" \
    cases-file --lab lab1 --for bogus --out "$work/cases.txt" --items one/naive
check "cases-file: an unknown case" refused 2 "no case 'nope' in lab1" \
    cases-file --lab lab1 --out "$work/cases.txt" --items nope/naive
check "cases-file: an unknown part" refused 2 "no part 'nope' in lab1" \
    cases-file --lab lab1 --out "$work/cases.txt" --items one/nope
check "cases-file: a graded item without its parts" refused 2 "a graded item is CASE/PARTS" \
    cases-file --lab lab1 --out "$work/cases.txt" --items one
check "cases-file: nothing to run" refused 2 "--items names nothing to run" \
    cases-file --lab lab1 --out "$work/cases.txt" --items ""
check "cases-file: no --out" refused 2 "--out is required" cases-file --lab lab1 --items one/naive
check "... and no cases file was written by any of them" test ! -e "$work/cases.txt"
check "cases-file: a checked run that is not CASE/SEED/PART" refused 2 "a checked timed run is CASE/SEED/PART, not 'perf/x/naive'" \
    cases-file --lab lab1 --for checked-runs --out "$work/cases.txt" --items perf/x/naive
check "cases-file: a checked run without its part" refused 2 "a checked timed run is CASE/SEED/PART, not 'perf/3/'" \
    cases-file --lab lab1 --for checked-runs --out "$work/cases.txt" --items perf/3/
check "cases-file: a seed longer than any a driver draws" refused 2 "not 'perf/12345678901234567890/naive'" \
    cases-file --lab lab1 --for checked-runs --out "$work/cases.txt" --items perf/12345678901234567890/naive
check "keep-checked-runs: the same" refused 2 "a checked timed run is CASE/SEED/PART, not 'perf'" \
    keep-checked-runs --lab lab1 --runs perf --work "$work" --reference "$work"
check "keep-checked-runs: a checked run without its case" refused 2 "not '/3/naive'" \
    keep-checked-runs --lab lab1 --runs /3/naive --work "$work" --reference "$work"
check "checked-runs: neither a student's folder nor --probe" refused 2 "give a student's --dir or --probe S, one of the two" \
    checked-runs --lab lab1 --reference "$work"
check "checked-runs: both" refused 2 "give a student's --dir or --probe S, one of the two" \
    checked-runs --lab lab1 --reference "$work" --dir "$work" --probe 5
check "run-group: no sandbox command" refused 2 "the sandbox command is required after --" \
    run-group --lab lab1 --dir "$work/s/lab1" --built "$work" --ledger "$work/ledger" --cases one
check "run-group: no student folder" refused 2 "--dir, --built and --ledger are required" \
    run-group --lab lab1 --built "$work" --ledger "$work/ledger" --cases one -- /bin/true
check "run-group: an unknown case" refused 2 "no case 'nope' in lab1" \
    run-group --lab lab1 --dir "$work/s/lab1" --built "$work" --ledger "$work/ledger" --cases nope -- /bin/true
check "check-submission: a folder that is not there" refused 6 "no folder $work/nothing" check-submission --dir "$work/nothing"
check "check-reference: --root without its cases" refused 2 "--root needs --cases" \
    check-reference --lab lab1 --root "$work"
check "check-reference: a run that is not there is incomplete (exit 1), named by its case" refused 1 "perf: " \
    check-reference --lab lab1 --root "$work" --cases perf
check "an unknown command: exit 2, naming the commands" refused 2 "unknown command 'scan-build'; commands: cases-file check" \
    scan-build --lab lab1
check "check-build: no --lab" refused 2 "--lab is required" check-build --box "$work"
check "check-build: a lab without a manifest" refused 2 "cannot read manifest labs/nolab/manifest" check-build --lab nolab --box "$work"
check "check-build: what a build that left no record read is a problem (exit 1)" refused 1 "the build left no record of what it read" \
    check-build --lab lab1 --box "$work"
check "check-build: symbols to check without their lists" refused 6 "missing $work/trusted.nm" \
    check-build --lab lab1 --trusted "$work/trusted.nm" --starter "$work/starter.nm" --symbols "$work"
check "class-summary: a lab without a manifest" refused 2 "cannot read manifest labs/nolab/manifest" \
    class-summary --out "$work" --labs nolab
check "class-summary: a similarity threshold above 1" refused 2 "--threshold" class-summary --out "$work" --labs lab1 --threshold 2
check "... and no gradebook was written by either" test ! -e "$work/gradebook.csv"
check "class-pages: leaderboard entrants that are not there" refused 2 "--entrants: no file $work/nobody.tsv" \
    class-pages --out "$work" --labs lab1 --entrants "$work/nobody.tsv"
check "... and no class report was written" test ! -e "$work/class-report.md"
# The run's plan of a lab (grader plan --write, grading/plan_file.hpp), which later commands read.
check "plan --write: from --lab only" refused 2 "--write: the plan is written from --lab" \
    plan --plan "$work/nothing.tsv" --write "$work/plan.tsv"
"$GRADER" plan --lab lab1 --grading-seed 7 --sample-seed 9 --time-limit 2 --margin 3 --write "$work/plan.tsv" >/dev/null
check "plan --write: the plan holds the lab, the seeds, the cap and the margin" \
    test "$(tr '\t' '\n' <"$work/plan.tsv" | sort | paste -sd' ')" == \
    "grading_seed=7 lab=lab1 manifests=labs margin=3 sample_seed=9 time_limit=2"
"$GRADER" cases-file --plan "$work/plan.tsv" --out "$work/planned.txt" --wall-out "$work/planned.wall" --items "one/naive perf/naive" >/dev/null
check "cases-file --wall-out: one process's wall, each case's capped limit twice and the margin once (2 x 2 + 2 x 2 + 3)" \
    test "$(cat "$work/planned.wall")" == 11
"$GRADER" cases-file --lab lab1 --grading-seed 7 --time-limit 2 --margin 3 --out "$work/forwarded.txt" --items "one/naive perf/naive" >/dev/null
check "--plan: the cases file is the one its options forwarded by hand made" cmp "$work/planned.txt" "$work/forwarded.txt"
check "--plan: a plan that is not there" refused 6 "no plan $work/none.tsv" cases-file --plan "$work/none.tsv" --out "$work/c" --items one/naive
check "--plan: a --lab other than the plan's" refused 2 "--lab lab2: the plan $work/plan.tsv is of lab1" \
    cases-file --plan "$work/plan.tsv" --lab lab2 --out "$work/c" --items one/naive
printf 'lab=lab1\tmanifests=labs\n' >"$work/short.tsv"
check "--plan: a plan without its seeds" refused 6 "$work/short.tsv: no grading_seed" \
    cases-file --plan "$work/short.tsv" --out "$work/c" --items one/naive
# make handouts-rubric's command: a lab is required, and one without a manifest is refused.
check "rubric: no --lab" refused 2 "--lab is required" rubric
check "rubric: a lab without a manifest" refused 2 "cannot read manifest labs/nolab/manifest" rubric --lab nolab
finish
