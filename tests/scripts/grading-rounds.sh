#!/usr/bin/env bash
# test: long (it grades classes or runs the handouts: started first)
# grading/grade.sh's runners, rounds and retirement, without a GPU, on the CPU test lab
# (tests/grading/fixtures/labcpu; grading-pipeline.sh grades a whole class of it): the students
# spread over two (assumed) GPUs score as on one, and on a copy of the lab with more cases a part
# that never ends is retired once the time limit stopped it on three, while the other runner
# takes the rest of the class through the public cases, whose kept timed runs are reduced to
# their samples before anything is timed; a part whose first timing was slow is
# timed a second time and the better time counts, and a program that keeps its first timing's
# answers to hand them in again in the second earns nothing by it. And a reference solution
# with a fault: wrong on a case, or on the inputs of the timed runs, it stops grading before any
# run is timed; dying in the runs that time it, it leaves the students' labs to grade again.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/scripts/lib/checks.sh
source tests/scripts/grading-lib/labcpu.sh
source tests/scripts/grading-lib/sandbox.sh
labcpu_test_setup grading-rounds

# Two GPUs (assumed: GRADE_ASSUME_GPU=2), a runner on each: the students spread over both, the
# reference is timed once on each, and every student scores what one GPU gives them
# (grading-pipeline.sh grades them on one).
declare -A on_one_gpu=([good]=12 [wrong-b]=8 [crash-b]=8 [stateful]=12)
out=$work/out-two
mkdir -p "$work/subs-two/good" && cp "$fixtures/labcpu-solution/work.cpp" "$work/subs-two/good/"
for student in wrong-b crash-b stateful; do
    mkdir -p "$work/subs-two/$student" && cp "$fixtures/labcpu-students/$student/work.cpp" "$work/subs-two/$student/"
done
GRADE_ASSUME_GPU=2 grade_labcpu "$repo" "$work/subs-two" "$out" --sandbox rlimits --runners 1 >"$work/screen-two.txt" 2>&1
status=$?
check "two GPUs: grade.sh grades the class (status $status)" test "$status" == 0
check "two GPUs: one runner on each" grep -q "^Running 4 submission(s) on 2 GPU(s) (.*), 1 at a time per GPU" "$work/screen-two.txt"
check "two GPUs: the students' timed cases ran on both ($(cat "$out"/students/*/labcpu/gpu.txt 2>/dev/null | sort | uniq -c |
    awk '{ printf "%sGPU %s: %s", s, $2, $1; s = ", " }'))" \
    test "$(cat "$out"/students/*/labcpu/gpu.txt 2>/dev/null | sort -u | paste -sd' ')" == "0 1"
# Timed on each GPU before its first timed student (runs.sh); the test lab's performance case is
# hidden, timed and scored in round 3, so no timing follows the round (as after round 2's).
check "two GPUs: the reference was timed on each before its first timed student" \
    test "$(ls -d "$out"/.grader/timing/*/labcpu/gpu0/t1/.done "$out"/.grader/timing/*/labcpu/gpu1/t1/.done 2>/dev/null | wc -l)" == 2
for student in "${!on_one_gpu[@]}"; do
    check "two GPUs: $student scores as on one ($(labcpu_points "$out" "$student"))" points_of "$student" "${on_one_gpu[$student]}"
done
for spec in "2:no GPU 2" "0,1,0:names a GPU twice"; do
    rm -rf -- "$work/out-gpus"
    GRADE_ASSUME_GPU=2 grade_labcpu "$repo" "$work/subs-two" "$work/out-gpus" --gpus "${spec%%:*}" >"$work/gpus.txt" 2>&1
    status=$?
    check "two GPUs: --gpus ${spec%%:*} is refused (status $status: $(tail -1 "$work/gpus.txt"))" \
        bash -c "[[ $status == 2 ]] && grep -q '${spec#*:}' '$work/gpus.txt'"
done

# A retired part (grading/run_ledger.hpp, kRetireAfter): the time limit stopped it on three cases,
# so it is not run on the later ones nor under the sanitizers. The lab's copy has six cases of
# every kind, each in its round (grading/lib/runs.sh): public untimed (small tiny) in round 1,
# public timed (medium wide) in round 2, then the sanitizers, hidden untimed (hid) and hidden
# timed (big) in round 3; two copies of the solution share the two runners with endless-b,
# whose part b never ends: stopped on small, tiny and medium, it is not run on wide (in the
# same group), hid and big. A CPU part has no watchdog, so each stop costs its batch's wall and
# then its own run's (2 x 1 s + GRADE_WALL_MARGIN=1 s each, about 24 s in all), more than the
# default budget of three walls (9 s): --budget 60, of which it must use well under half.
course=$work/course-retire out=$work/out-retire
make_labcpu_course "$course"
sed -i 's/^cases .*/cases = small tiny medium wide hid big/; s/^perf.cases .*/perf.cases = medium wide big/' \
    "$course/labs/labcpu/manifest"
# small's outputs are half a million floats: its kept runs are reduced to their sample (below).
sed -i 's/^case.small.args .*/case.small.args = --n 524288 --seed 1/' "$course/labs/labcpu/manifest"
for spec in "tiny public 3" "medium public 100" "wide public 200" "hid hidden 20"; do
    read -r name visibility n <<<"$spec"
    printf 'case.%s.args = --n %s --seed %s\ncase.%s.visibility = %s\ncase.%s.points = 1\n' \
        "$name" "$n" "$n" "$name" "$visibility" "$name" >>"$course/labs/labcpu/manifest"
done
for student in good good-2; do
    mkdir -p "$work/subs-retire/$student" && cp "$fixtures/labcpu-solution/work.cpp" "$work/subs-retire/$student/"
done
for student in endless-b unlucky replayer; do
    mkdir -p "$work/subs-retire/$student" && cp "$fixtures/labcpu-$student/work.cpp" "$work/subs-retire/$student/"
done
# GRADE_QUIET_LOCK (grade.sh, wait_for_quiet_machine; make test's other tests hold it): held here
# until grade.sh says it waits for it, then 2 s more; its timed round starts only after.
exec {quiet}>"$work/quiet.lock" && flock -x "$quiet"
{
    until grep -q '^Waiting for the machine to be quiet' "$work/screen-retire.txt" 2>/dev/null; do sleep 0.2; done
    # Round 1 has ended, nothing is timed yet: its kept runs as they lie (checked below).
    for kept in "$out"/students/*/labcpu/runs/small/*/out/*.run*.out; do
        [[ -f $kept ]] && printf '%s\t%s\t%s\n' "${kept#"$out"/students/}" "$(head -1 "$kept")" "$(stat -c %s "$kept")"
    done >"$work/kept-before-timing.tsv"
    sleep 2
    date +%s >"$work/quiet-released"
    flock -u "$quiet"
} &
holder=$!
started=$EPOCHREALTIME
GRADE_QUIET_LOCK=$work/quiet.lock GRADE_WALL_MARGIN=1 grade_labcpu "$course" "$work/subs-retire" "$out" --sandbox rlimits \
    --runners 2 --budget 60 >"$work/screen-retire.txt" 2>&1
status=$?
kill "$holder" 2>/dev/null
exec {quiet}>&-
check "grade.sh grades the lab with six cases (status $status, $(awk -v a="$started" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }') s)" \
    test "$status" == 0
((status == 0)) || tail -30 "$work/screen-retire.txt"
# The log says when grade.sh got the lock, before its first timed batch (of a public timed case).
quiet_at=$(sed -n 's/^\([0-9:]*\) the machine is quiet: the timed runs begin$/\1/p' "$out/grading.log")
check "the timed round waited for the quiet lock (let go at $(date -d "@$(cat "$work/quiet-released" 2>/dev/null || echo 0)" +%T), got at ${quiet_at:-never})" \
    bash -c '[[ -s $1 && -n $2 ]] && (($(date -d "$2" +%s) >= $(cat "$1")))' _ "$work/quiet-released" "$quiet_at"
check "and no timed batch ran before" test "$(grep -nE ' the machine is quiet| batch [0-9]+ of [^ ]+ labcpu \((medium|wide)' "$out/grading.log" | head -1 | grep -c 'quiet')" == 1
part_points() {  # part_points STUDENT PART: "points/max" of the part's correctness and performance items
    awk -F'\t' -v p="$2" '/record=item/ {
        delete f; for (i = 1; i <= NF; i++) { e = index($i, "="); f[substr($i, 1, e - 1)] = substr($i, e + 1) }
        if (f["part"] == p) { s += f["points"]; m += f["max"] } } END { printf "%g/%g", s, m }' "$out/students/$1/labcpu/score.tsv"
}
endless_seconds() {  # each sandboxed run of endless-b once, as the log lists them (a batch's record is in each of its cases)
    local run
    for run in $(sed -n -e 's|.* batch \([0-9]*\) of endless-b labcpu (\([^ )]*\).*|runs/\2/batch-\1|p' \
        -e 's|.* run endless-b labcpu \([^ ]*\) \([^ ]*\): .*|runs/\1/\2|p' "$out/grading.log") sanitize/memcheck sanitize/racecheck; do
        cat "$out/students/endless-b/labcpu/$run/sandbox.tsv"
    done | awk -F'\t' '{ for (i = 1; i <= NF; i++) if (index($i, "seconds=") == 1) s += substr($i, 9) } END { printf "%.1f", s }'
}
sanitized_parts() { sed -n 's/.* --part \([a-c,]*\).*/\1/p' "$out/students/$1/labcpu/sanitize/$2/log.txt" 2>/dev/null; }
check "good: full marks (21 correctness + 9 performance)" points_of good 30
check "endless-b: parts a and c keep every point" test "$(part_points endless-b a) $(part_points endless-b c)" == "10/10 10/10"
check "endless-b: part b scores nothing" test "$(part_points endless-b b)" == 0/10
for case_name in small tiny medium; do
    check "endless-b: b is stopped by the wall clock on $case_name" says endless-b b "by the wall-clock limit" "$case_name"
done
check "endless-b: b ran on its own on those three cases only" test \
    "$(cd "$out/students/endless-b/labcpu/runs" && echo */b/sandbox.tsv)" == "medium/b/sandbox.tsv small/b/sandbox.tsv tiny/b/sandbox.tsv"
for case_name in wide hid big; do
    check "endless-b: b is not run on $case_name" says endless-b b \
        "not run: b was stopped by its time limit on cases small, tiny and medium, so it is not run on later cases" "$case_name"
done
check "endless-b: the sanitizers run parts a and c only" \
    test "$(sanitized_parts endless-b memcheck) $(sanitized_parts endless-b racecheck)" == "a,c a,c"
# Each public case's outputs are checked as its runs end, and their arrays go (grader
# check-outputs): a class's outputs never wait on disk for the scores, except the timed runs' the
# drivers kept, whose references are made once no run is timed; those are reduced to the
# positions their references will be sampled at (grading/checked_positions.hpp), at most 65536
# of small's 524288 floats, as their process ends, or, if that was before the reference's check
# on fresh inputs drew the positions, once it has: before the timed round either way.
sparse_kept_runs() {  # every kept run of small, its process ended, holds its sample alone (sparse)
    local name header size
    while IFS=$'\t' read -r name header size; do
        [[ $header == "labout 1 f32 524288 2" ]] && ((size <= ${#header} + 1 + 8 + 65536 * 20)) ||
            { echo "      $name: '$header', $size bytes"; return 1; }
    done <"$work/kept-before-timing.tsv"
    (($(wc -l <"$work/kept-before-timing.tsv") >= 10))
}
check "round 1's kept runs were reduced to their samples before anything was timed ($(wc -l <"$work/kept-before-timing.tsv" 2>/dev/null) of them)" \
    sparse_kept_runs
check "good: each public case's outputs were checked as its runs ended ($(cd "$out/students/good/labcpu/runs" && echo */*/verdicts.tsv))" \
    bash -c 'for c in small tiny medium wide; do compgen -G "$1/runs/$c/*/verdicts.tsv" >/dev/null || exit 1; done' _ "$out/students/good/labcpu"
check "good: the sanitizers run every part" test "$(sanitized_parts good memcheck)" == a,b,c
# The sanitizer's process has exactly a graded process's arguments (--cases, --out): a program
# cannot tell it is watched from its command line (grading/run_group.cpp, Group::sanitize).
check "good: the sanitizer runs the program with a graded run's arguments" \
    grep -qx 'program: ./build/bin/labcpu-graded --launch-trace required --cases cases.txt --out run-out' "$out/students/good/labcpu/sanitize/memcheck/log.txt"
check "endless-b: the sanitizers finish and find nothing" \
    test "$(grep -c 'message=[a-z]*: no errors on case small' "$out/students/endless-b/labcpu/score.tsv")" == 2
check "endless-b: nothing is left unrun for the budget" bash -c "! grep -q 'run-time budget' '$out/students/endless-b/labcpu/score.tsv'"
check "endless-b: its runs took well under the budget of 60 s ($(endless_seconds) s)" \
    awk -v s="$(endless_seconds)" 'BEGIN { exit !(s < 30) }'
# The rounds (grading/lib/runs.sh): while endless-b's part b holds one runner on the public
# cases, the other runner takes every other student through them; no timed run waits for it.
check "endless-b holds one runner only: the others finish the public cases first" \
    grep -q '^runs: round 1/3 (public cases) 5/5, .* (endless-b labcpu)$' "$work/screen-retire.txt"
check "the good copies score alike" test "$(grep -c '^good[-0-9]*,30,30$' "$out/gradebook.csv")" == 2
# A second timing (grading/scoring.hpp, parts_to_time_again): unlucky's parts a and b took 3x
# the reference's time in their first timing, in round 2 (medium, wide) and in round 3 (big);
# timed again, they take 1x, and the better time counts: full marks. replayer's did too, and it
# kept their answers wherever a later process of its own might find them, to hand them in again
# at 1x: it finds none (the sandbox removes what its uid left), so its 3x stands. Under rlimits
# without sandbox uids (not root) nothing is timed a second time (runs.sh, time_again).
at_3x() { [[ $(item_messages "$1" performance | grep -c "^3 ms against the reference's 1 ms: 3.00x") == 6 ]]; }
if grep -q '^No second timings' "$work/screen-retire.txt"; then
    check "without sandbox uids nothing is timed a second time, unlucky's 3x stands" at_3x unlucky
else
    check "unlucky: full marks, each part a and b with the better of two timings ($(labcpu_points "$out" unlucky))" \
        bash -c "[[ $(labcpu_points "$out" unlucky) == 30 && $(item_messages unlucky performance | grep -c 'the better of two timings (the first: 3 ms)') == 6 ]]"
    check "unlucky: parts a and b, and only those, were timed again on each timed case" bash -c \
        "grep -q 'second timing of unlucky labcpu (medium/a medium/b wide/a wide/b): exited 0' '$out/grading.log' &&
         grep -q 'second timing of unlucky labcpu (big/a big/b): exited 0' '$out/grading.log'"
    check "replayer was timed again too" grep -q 'second timing of replayer labcpu (big/a big/b): exited 0' "$out/grading.log"
fi
check "replayer: nothing its first timing kept reached its second, its 3x stands ($(labcpu_points "$out" replayer))" at_3x replayer
# What it left where the sandbox does not clean (as this user, without sandbox uids).
rm -f /tmp/kept-[ab]-* /var/tmp/kept-[ab]-* /dev/shm/kept-[ab]-* /run/lock/kept-[ab]-* 2>/dev/null
check "no other student was timed again" \
    test "$(ls -d "$out"/students/*/labcpu/runs/*/second-timing 2>/dev/null | grep -vc -e /unlucky/ -e /replayer/)" == 0

# A reference solution with a fault (tests/grading/fixtures/labcpu-reference-faulty). Right on
# every case's checked run and wrong on the inputs of every timed run: its own check fails where
# it is run on fresh inputs, beside round 1, and grade.sh stops, saying so, before the timed runs
# (the lab's timed case, big, runs in round 3).
course=$work/course-wrong out=$work/out-wrong
make_labcpu_course "$course"
cp "$fixtures/labcpu-reference-faulty/work.cpp" "$course/solutions/labcpu/"
mkdir -p "$work/subs-wrong/good" && cp "$fixtures/labcpu-solution/work.cpp" "$work/subs-wrong/good/"
LABCPU_REFERENCE_FAULT=timed-inputs grade_labcpu "$course" "$work/subs-wrong" "$out" >"$work/screen-wrong.txt" 2>&1
status=$?
check "a reference solution wrong on the timed runs' inputs stops grade.sh (status $status: $(tail -1 "$work/screen-wrong.txt"))" \
    bash -c "(($status == 1)) && grep -q 'the reference solution fails labcpu on the inputs of a timed run' '$work/screen-wrong.txt'"
check "its log says which check failed" grep -q 'exited 1: .*FAIL' "$out/.grader/reference-checked-labcpu.log"
check "and no run was timed" bash -c "! grep -qE 'batch [0-9]+ of good labcpu \\(big|the machine is quiet' '$out/grading.log'"
# Dying in the runs that time it: the grading goes on and says why, and the student's lab is left
# not graded (state not-run, not done: --resume grades it again), saying so, not scored as theirs.
LABCPU_REFERENCE_FAULT=timing grade_labcpu "$course" "$work/subs-wrong" "$work/out-untimed" >"$work/screen-untimed.txt" 2>&1
status=$?
check "a reference that dies when timed: grading goes on and says so (status $status)" bash -c \
    "(($status == 0)) && grep -q 'timing the reference solution on GPU 0 failed for labcpu (exit 134' '$work/screen-untimed.txt'"
untimed=$work/out-untimed/students/good/labcpu
lab_record=$(grep 'record=lab' "$untimed/score.tsv" 2>/dev/null | tr '\t' ' ')
check "and the student's lab is left to grade again, saying why, not done ($lab_record)" bash -c \
    "grep 'record=lab' '$untimed/score.tsv' | grep 'state=not-run' | grep -q 'note=cases not run: the reference solution could not be timed on GPU 0' &&
     [[ ! -e '$untimed/done' ]]"
# One wrong on its checked runs too (a student's part b that squares wrongly): the case outputs'
# run fails its own check, and grade.sh stops before any student runs.
cp "$fixtures/labcpu-students/wrong-b/work.cpp" "$course/solutions/labcpu/"
grade_labcpu "$course" "$work/subs-wrong" "$work/out-wrong-2" >"$work/screen-wrong.txt" 2>&1
status=$?
check "a reference solution wrong on a case stops grade.sh (status $status: $(tail -1 "$work/screen-wrong.txt" | cut -c1-150))" \
    bash -c "(($status == 1)) && grep -q 'the reference solution of labcpu fails its own check (exit 1: b .*FAIL' '$work/screen-wrong.txt' &&
             ! grep -q 'batch 1 of good' '$work/out-wrong-2/grading.log'"
check "and keeps no output of that run, which a later run would take as made" \
    bash -c "compgen -G '$work/out-wrong-2/.grader/reference/labcpu/*/*/log.txt' >/dev/null &&
             ! compgen -G '$work/out-wrong-2/.grader/reference/labcpu/*/*/out' >/dev/null"
# The binary built for it is kept (GRADE_TEMPLATE_CACHE, under the key of its sources and the
# solution): a run into another folder takes it, and it fails the same way. (The run above,
# with another solution in the same course, was not served the binary of the one before it.)
grade_labcpu "$course" "$work/subs-wrong" "$work/out-wrong-3" >"$work/screen-again.txt" 2>&1
check "another run takes the kept reference binary, which fails alike" bash -c \
    "grep -qx '  the reference solution of labcpu: kept from an earlier run' '$work/screen-again.txt' &&
     grep -q 'the reference solution of labcpu fails its own check (exit 1: b .*FAIL' '$work/screen-again.txt'"
finish
