#!/usr/bin/env bash
# test: long (it grades classes or runs the handouts: started first)
# grading/grade.sh end to end without a GPU, on a test lab whose parts are CPU functions
# (tests/grading/fixtures/labcpu): reference outputs made and cached, every case run in the
# sandbox, parts left without a record run again on their own, the checker, the performance
# curve, the reports. Students: the solution (full marks), the starter (nothing), a wrong
# part, a part that crashes the process, a part that never ends on one case, a slow one, one
# that floods stdout, one that forges the result files, one that leaves a process behind,
# one that keeps state in its work folder, one that sleeps in every process until its run-time
# budget is spent. The progress line counts them as they finish. The class report draws its
# figures and counts what they got; the leaderboard ranks the correct parts under pseudonyms,
# without the two students who opted out, and a regrade keeps them. (grading-rounds.sh grades a
# few of them on two assumed GPUs, and retires a part that never ends.)
# Each must lose exactly the points of what it broke, under the best isolation this machine
# offers (every one with GRADE_TEST_ISOLATIONS=all). (On the GPU, grading-gpu.sh does the same
# with every lab's planted bugs.)
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/scripts/lib/checks.sh
source tests/scripts/grading-lib/labcpu.sh
source tests/scripts/grading-lib/sandbox.sh
labcpu_test_setup grading-pipeline

subs=$work/submissions out=$work/out
mkdir -p "$subs/good" "$subs/starter"
cp "$fixtures/labcpu-solution/work.cpp" "$subs/good/"
cp "$fixtures/labcpu/work.cpp" "$subs/starter/"
for student in "$fixtures"/labcpu-students/*/; do
    mkdir -p "$subs/$(basename "$student")"
    cp "$student/work.cpp" "$subs/$(basename "$student")/"
done
# Two students keep off the leaderboard: one with NO-LEADERBOARD at the top of the submission,
# one with the name as Notepad saves it, in the lab's folder.
touch "$subs/stateful/NO-LEADERBOARD"
mkdir -p "$subs/escape/labcpu" && touch "$subs/escape/labcpu/no-leaderboard.txt"

sleeper_seconds() {  # the seconds of every sandboxed run of the sleeper
    cat "$out"/students/sleeper/labcpu/runs/*/*/sandbox.tsv 2>/dev/null |
        awk -F'\t' '{ for (i = 1; i <= NF; i++) if (index($i, "seconds=") == 1) s += substr($i, 9) } END { printf "%.1f", s }'
}
# shellcheck source=../../grading/lib/tasks.sh
source grading/lib/tasks.sh
sandbox_uids_idle() {  # the runner's uid (slot 100 of the block grade.sh reserved) has no live task
    ((EUID == 0)) || return 0
    local base
    base=$(sed -n 's/.*as unprivileged uids from \([0-9]*\).*/\1/p' "$work/screen.txt" | head -1)
    [[ -n $base ]] && (($(live_tasks_of_uid $((base + 100))) == 0))
}

# The class report and the leaderboard of $out (grading/README.md, Output).
is_png() { [[ $(head -c 8 "$1" 2>/dev/null | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]]; }
linked_figures() { grep -o '](class-report/[^)]*)' "$out/class-report.md" | sed 's/^](//; s/)$//'; }
ranked() {  # ranked PART: the students the leaderboard ranks on part PART, by their names
    awk -F, -v p="$1" 'NR > 1 && $2 == p && $5 != "reference" { print $5 }' "$out/leaderboard.csv" |
        while read -r name; do awk -F'\t' -v n="$name" '$2 == n { print $1 }' "$out/.grader/leaderboard-pseudonyms.tsv"; done |
        sort | paste -sd' '
}
pseudonym_of() { awk -F'\t' -v s="$1" '$1 == s { print $2 }' "$out/.grader/leaderboard-pseudonyms.tsv"; }
check_class_pages() {
    local report=$out/class-report.md figure part student named=""
    check "class report: its two figures linked beside it" \
        test "$(linked_figures | paste -sd' ')" == "class-report/labcpu-totals.png class-report/labcpu-ratios.png"
    for figure in $(linked_figures); do check "class report: $figure is a PNG" is_png "$out/$figure"; done
    # Passed by all but starter and sleeper, and: a not by flood-a and forger; b not by wrong-b
    # and crash-b, nor by hang-big on big; c not by forger.
    check "class report: the pass rates of part x case" bash -c "grep -qxF '| small | public | 7/11 | 7/11 | 8/11 |' '$report' &&
        grep -qxF '| big | hidden | 7/11 | 6/11 | 8/11 |' '$report'"
    check "class report: starter's parts not implemented, the most frequent failure" \
        grep -qxF '1. **6 items, 1 student**: not implemented (the part launched no kernel)' "$report"
    check "class report: wrong-b's wrong values are one failure, their numbers as N" grep -qF \
        '**2 items, 1 student**: wrong result: N of N values wrong; the first: \[N\] = N, expected N' "$report"
    check "class report: ... and who got it, where" grep -qxF '   - wrong-b (b on small, b on big)' "$report"
    check "class report: slow's ratio of 3 is the slowest of each part" \
        test "$(grep -c '^| [abc] | big | [0-9]* | .* | 3\.00x | 1\.2x | 10x |$' "$report")" == 3
    check "class report: the time line, with its total" grep -q '^| total | [0-9.]* |$' "$report"
    check "class report: no absolute path in it" bash -c "! grep -q '$work' '$report'"
    for student in good starter wrong-b crash-b hang-big slow flood-a forger escape stateful sleeper; do
        grep -qw -- "$student" "$out/leaderboard.md" "$out/leaderboard.csv" && named+=" $student"
    done
    check "leaderboard: no student's name in it${named:+ ($named)}" test -z "$named"
    check "leaderboard: part a ranks the students correct on it, but escape and stateful (opted out)" \
        test "$(ranked a)" == "crash-b good hang-big slow wrong-b"
    check "leaderboard: part b" test "$(ranked b)" == "flood-a forger good slow"
    check "leaderboard: part c" test "$(ranked c)" == "crash-b flood-a good hang-big slow wrong-b"
    for part in a b c; do
        check "leaderboard: slow last on part $part, after the reference line" bash -c \
            "grep '^labcpu,$part,big,' '$out/leaderboard.csv' | tail -1 | grep -q ',$(pseudonym_of slow),3,3\$' &&
             grep -q '^labcpu,$part,big,,reference,1,1\$' '$out/leaderboard.csv'"
    done
    check "leaderboard: good's feedback names its pseudonym" \
        grep -qF "under the pseudonym **$(pseudonym_of good)**" "$out/students/good/feedback.md"
    check "leaderboard: stateful's feedback says it is left off" grep -qF "left off the class leaderboard" "$out/students/stateful/feedback.md"
    check "leaderboard: says two students are left off" grep -qF "2 students asked to be left off" "$out/leaderboard.md"
}

# grade_class SANDBOX RUNNERS: the whole class under one isolation, RUNNERS students at a time
# on the (assumed) GPU, into $out, and every expectation.
grade_class() {
    local sandbox=$1 runners=$2 started=$EPOCHREALTIME status
    out=$work/out-$sandbox
    echo "== grading the class with --sandbox $sandbox --runners $runners"
    grade_labcpu "$repo" "$subs" "$out" --jobs 2 --runners "$runners" --sandbox "$sandbox" --leaderboard >"$work/screen.txt" 2>&1
    status=$?
    sed -n '/^student /,/^$/p' "$work/screen.txt"
    check "grade.sh grades the class (status $status, $(awk -v a="$started" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }') s)" test "$status" == 0
    ((status == 0)) || { tail -30 "$work/screen.txt"; return; }
    check "the sandbox used is the one asked for" grep -q "^Sandbox: $([[ $sandbox == bwrap ]] && echo bubblewrap || echo "WEAKER ISOLATION, chosen with --sandbox rlimits")" "$work/screen.txt"
    check "the reference outputs were made" grep -q "reference outputs: labcpu small big" "$work/screen.txt"
    # Maximum: (1 + 2) points x 3 parts, and 1 performance point x 3 parts on case big.
    check "good: full marks" points_of good 12
    check "starter: nothing (every part not implemented)" points_of starter 0
    check "starter: says so" says starter a "not implemented"
    check "wrong-b: loses part b only (12 - 1 - 2 - 1)" points_of wrong-b 8
    check "wrong-b: gives the first wrong value on the public case" says wrong-b b "wrong result: 10 of 10 values wrong; the first: [0]"
    check "crash-b: loses part b only" points_of crash-b 8
    check "crash-b: part b was killed by SIGSEGV" says crash-b b "the program was killed by SIGSEGV"
    check "crash-b: the crashed part b was run again on its own" test -f "$out/students/crash-b/labcpu/runs/small/b/sandbox.tsv"
    check "crash-b: part c went on in a second batch" grep -q "part=c" "$out/students/crash-b/labcpu/runs/small/batch-2/out/results.tsv"
    check "grading.log names each score's student (score good labcpu 12/12, score starter labcpu 0/12)" \
        bash -c "grep -q ' score good labcpu 12/12' '$out/grading.log' && grep -q ' score starter labcpu 0/12' '$out/grading.log'"
    check "good: the public case ran in one process, the hidden case in another" \
        bash -c "grep -q 'batch 1 of good labcpu (small)' '$out/grading.log' && grep -q 'batch 1 of good labcpu (big)' '$out/grading.log'"
    check "hang-big: loses part b on the big case only (12 - 2 - 1)" points_of hang-big 9
    check "hang-big: stopped by the wall clock" says hang-big b "by the wall-clock limit" big
    check "slow: all correct, performance on the curve at 3x (9 + 3 x 0.56785)" points_of slow 10.7035
    # (None where a process could keep state for the next: rlimits without sandbox uids.)
    grep -q '^No second timings' "$work/screen.txt" ||
        check "slow: timed a second time, as slow (grading/scoring.hpp, parts_to_time_again)" \
            grep -q 'second timing of slow labcpu (big/a big/b big/c): exited 0' "$out/grading.log"
    check "flood-a: loses part a only" points_of flood-a 8
    check "flood-a: stopped by the output limit" says flood-a a "output limit"
    check "forger: the linked output and the forged record count nothing (12 - 4 - 4)" points_of forger 4
    check "forger: the linked output was never read" says forger a "no output was written"
    check "forger: the forged record was rejected" says forger c "rejected"
    check "escape: full marks" points_of escape 12
    check "stateful: full marks: no process finds what an earlier one left in its folder" points_of stateful 12
    check "escape: no process of a sandbox uid is left" sandbox_uids_idle
    check "the hidden case's details stay out of the feedback" bash -c "! grep -q 'by the wall-clock limit' '$out/students/hang-big/feedback.md'"
    check "the public case's failure is explained in the feedback" grep -q "the program was killed by SIGSEGV" "$out/students/crash-b/feedback.md"
    check "results.json marks the hidden case hidden" grep -q '"name": "labcpu b: case big", "score": 0, "max_score": 2, "status": "failed", "output": "failed", "visibility": "hidden"' "$out/students/hang-big/results.json"
    # The budget: --time-limit 1 makes every process wall 2 x 1 + 3 s, and the budget three of
    # them. Unbounded, the sleeper would hold its sandbox for 2 walls x 3 parts x 2 cases, 60 s.
    check "sleeper: nothing scores" points_of sleeper 0
    check "sleeper: part b of the public case was not run, for the budget" \
        says sleeper b "not run: this submission used up its run-time budget for labcpu (15 s of runs in all)"
    check "sleeper: the hidden case was not run at all" says sleeper a "not run: this submission used up its run-time budget" big
    check "sleeper: its runs took the budget and no more ($(sleeper_seconds) s)" \
        awk -v s="$(sleeper_seconds)" 'BEGIN { exit !(s >= 13.5 && s <= 17) }'
    check "the gradebook has every student" test "$(($(wc -l <"$out/gradebook.csv") - 1))" == 11
    check "the gradebook row of slow" grep -qx "slow,10.7035,10.7035" "$out/gradebook.csv"
    check "the grader's private folder is closed to others" test "$(stat -c %a "$out/.grader")" == 700
    # Not a terminal: one progress line per student in each of the three rounds; seven of the
    # eleven fail a case.
    check "a progress line for each student in each round" \
        test "$(grep -c '^runs: round [1-3]/3 ([a-z ,]*) [0-9]*/11, [0-9]* with failures, time left: ' "$work/screen.txt")" == 33
    check "the last progress line counts every student and their failures" \
        grep -qx 'runs: round 3/3 (sanitizers, hidden cases, scores) 11/11, 7 with failures, time left: none ([a-z-]* labcpu)' "$work/screen.txt"
    check "the progress lines count up one by one, round after round" bash -c \
        "grep -o '^runs: round [1-3]/3 ([a-z ,]*) [0-9]*/' '$work/screen.txt' | sed 's/.* //' | tr -dc '0-9\n' | paste -sd' ' |
         grep -qx '$(echo {1..11} {1..11} {1..11})'"
    check "the time left is estimated from the first step on" bash -c \
        "! grep '^runs: ' '$work/screen.txt' | grep -q 'time left: not known'"
    check_class_pages
}

# The whole class under the best isolation this machine offers (grading/README.md,
# "Isolation"); GRADE_TEST_ISOLATIONS=all grades it under each one it offers (minutes each),
# GRADE_TEST_ISOLATIONS=rlimits under rlimits only, as on a machine without bubblewrap.
# grading-rounds.sh grades four of them again under rlimits, one at a time on each GPU, and
# grading-attacks.sh grades its include attacks under rlimits: the weaker isolation is covered
# either way. Three students at a time here: the scores must not depend on it (the timed case,
# the hidden one here, still runs alone).
sandboxes=("$(best_sandbox)")
[[ ${GRADE_TEST_ISOLATIONS-} == all && $sandboxes == bwrap ]] && sandboxes=(bwrap rlimits)
for sandbox in "${sandboxes[@]}"; do grade_class "$sandbox" 3; done

# A second run reuses the cached reference outputs; on a terminal (script(1) gives it one) the
# progress line is rewritten in place instead of added to. It keeps the leaderboard's
# pseudonyms; its gnuplot fails, and the class report says so instead of showing figures.
# script(1) runs its command with $SHELL, or sh where SHELL is unset, as it is on CI: there sh
# found no grade_labcpu, the regrade never ran (status 127), and the report checked was the
# first run's. So SHELL names this bash, which knows the exported function.
export -f grade_labcpu labcpu_template_cache best_sandbox
broken=$stand_ins/broken-gnuplot
mkdir -p "$broken" && printf '#!/bin/sh\necho "a gnuplot that fails" >&2\nexit 1\n' >"$broken/gnuplot" && chmod 755 "$broken/gnuplot"
export BUILD repo subs out
cp "$out/.grader/leaderboard-pseudonyms.tsv" "$work/pseudonyms-before.tsv"
ranked_before="$(ranked a); $(ranked b); $(ranked c)"
(export PATH=$broken:$PATH SHELL=$BASH && script -qec 'grade_labcpu "$repo" "$subs" "$out" --regrade --student good --leaderboard' /dev/null) >"$work/again.txt" 2>&1
status=$?
check "--regrade of one student in a terminal ends well (status $status)" test "$status" == 0
check "--regrade of one student keeps the cached reference outputs" \
    bash -c "! grep -q 'reference outputs: labcpu' '$work/again.txt' && grep -qx 'good,12,12' '$out/gradebook.csv'"
check "--regrade keeps every pseudonym" cmp -s "$work/pseudonyms-before.tsv" "$out/.grader/leaderboard-pseudonyms.tsv"
check "--regrade ranks the same students" test "$(ranked a); $(ranked b); $(ranked c)" == "$ranked_before"
gnuplot_failure_reported() {
    grep -qF '**The figures could not be drawn: gnuplot failed (its messages: class-report/gnuplot.log).**' "$out/class-report.md" &&
        ! grep -qF '](class-report/' "$out/class-report.md" && ! ls "$out"/class-report/*.png >/dev/null 2>&1
}
check "gnuplot failed: the class report says so, and links no figure" gnuplot_failure_reported
gnuplot_failure_reported || {
    echo "      the gnuplot that PATH finds: $(PATH=$broken:$PATH command -v gnuplot); the report's figures, its folder, grade.sh's last lines:"
    grep -F -e 'figures' -e '](class-report/' "$out/class-report.md" | head -5 | sed 's/^/      /'
    ls "$out/class-report" 2>&1 | sed 's/^/      /'
    tr '\r' '\n' <"$work/again.txt" | grep -v '^.\[Kruns: ' | tail -8 | sed 's/^/      /'
}
check "on a terminal the progress line is rewritten in place" \
    grep -qF $'\r\033[Kruns: round 3/3 (sanitizers, hidden cases, scores) 1/1, 0 with failures, time left: none\r\n' "$work/again.txt"
check "on a terminal no plain progress line is added" bash -c "! grep -q '^runs: ' '$work/again.txt'"

# The run's plan of the lab (grading/plan_file.hpp), written once and read by every later grader
# command: the seeds, the time-limit cap (grade_labcpu's --time-limit 1) and the wall margin
# (GRADE_WALL_MARGIN=3); a --resume that gives neither grades with the run's own, not with the
# full time limits and 10 s.
plan=$out/.grader/plan/labcpu.tsv
plan_field() { tr '\t' '\n' <"$plan" | sed -n "s/^$1=//p"; }
planned() { echo "$(plan_field time_limit) $(plan_field margin) $(plan_field grading_seed)"; }
check "the plan holds the run's cap, margin and seed ($(planned))" \
    test "$(planned)" == "1 3 $(cat "$out/.grader/grading-seed")"
(unset GRADE_WALL_MARGIN; GRADE_TEMPLATE_CACHE=$(labcpu_template_cache) GRADE_ASSUME_GPU=1 BUILD=$BUILD CUDA_ARCH=${CUDA_ARCH:-90} \
    "$repo/grading/grade.sh" --labs labcpu --out "$out" --resume --sandbox "$(best_sandbox)" "$subs") >"$work/resume.txt" 2>&1
status=$?
check "a --resume without --time-limit and GRADE_WALL_MARGIN keeps them (status $status; plan: $(planned))" \
    test "$status.$(planned)" == "0.1 3 $(cat "$out/.grader/grading-seed")"

finish
