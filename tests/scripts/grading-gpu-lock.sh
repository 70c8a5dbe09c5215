#!/usr/bin/env bash
# The GPU lock of grading/lib/runs.sh (with_gpu): untimed runs share a GPU, a timed run has it
# to itself, and a timed run that waits is not overtaken by untimed runs that come after it.
# Each run below records when it held the GPU; the intervals are then compared.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/scripts/lib/checks.sh
RUN_DIR=$(mktemp -d /tmp/grading-gpu-lock-test.XXXXXX)
trap '[[ ${KEEP:-0} == 1 ]] || rm -rf -- "$RUN_DIR"' EXIT
source grading/lib/runs.sh
now() { date +%s.%N; }
hold() {  # hold NAME SECONDS: records "NAME start end" while holding the GPU
    local start
    start=$(now)
    sleep "$2"
    echo "$1 $start $(now)" >>"$RUN_DIR/held.txt"
}
interval() { awk -v n="$1" '$1 == n { print $2, $3 }' "$RUN_DIR/held.txt"; }
overlap() {  # overlap A B: the two runs held the GPU at the same time
    read -r a0 a1 <<<"$(interval "$1")"
    read -r b0 b1 <<<"$(interval "$2")"
    awk -v a0="$a0" -v a1="$a1" -v b0="$b0" -v b1="$b1" 'BEGIN { exit !(a0 < b1 && b0 < a1) }'
}
before() {  # before A B: A let go of the GPU before B took it
    read -r a0 a1 <<<"$(interval "$1")"
    read -r b0 b1 <<<"$(interval "$2")"
    awk -v a1="$a1" -v b0="$b0" 'BEGIN { exit !(a1 <= b0) }'
}

with_gpu shared 0 hold s1 1.5 &
with_gpu shared 0 hold s2 1.5 &
sleep 0.3
with_gpu exclusive 0 hold x1 0.5 &  # waits for s1 and s2
sleep 0.3
with_gpu shared 0 hold s3 0.2 &     # came after x1: waits for it
with_gpu shared 1 hold other 0.2 &  # another GPU: waits for nothing
wait

check "untimed runs share the GPU" overlap s1 s2
check "the timed run waits for the untimed runs before it" before s1 x1
check "... for every one of them" before s2 x1
check "an untimed run that came later waits for the timed run" before x1 s3
check "another GPU is not held up" before other x1

# After each run (after_run): its seconds spent from the ledger, how it ended in the log, and,
# where the GPU was shared, a run that ended short of GPU memory (the driver's exit 7) or a
# sanitizer's log showing a failed allocation asks for the group again with the GPU to itself
# (GPU_SHORT; shared_or_alone). With the GPU to itself it was the program's own doing. The rule is
# the grader's (grading/run_evidence.hpp); this checks what runs.sh makes of its answer.
source grading/lib/common.sh
GRADER=${BUILD:-build}/bin/grader MANIFESTS=labs lab=lab1 student=s ledger_file=$RUN_DIR/ledger LOG_FILE=$RUN_DIR/grading.log
# The lab's plan in this run, which runs.sh's grader commands read (grade.sh, load_lab_plans).
PLAN_DIR=$RUN_DIR/plan
mkdir -p "$PLAN_DIR" && "$GRADER" plan --lab lab1 --write "$PLAN_DIR/lab1.tsv" >/dev/null || check "grader plan --write" false
"$GRADER" ledger start --manifests labs --lab lab1 --ledger "$ledger_file" || check "grader ledger start" false
printf 'outcome=exited\texit=7\tseconds=1.5\n' >"$RUN_DIR/short.tsv"
printf 'outcome=exited\texit=1\tseconds=2\n' >"$RUN_DIR/tool.tsv"
echo '========= Program hit cudaErrorMemoryAllocation (error 2)' >"$RUN_DIR/tool.log"
short_after() {  # short_after MODE SANDBOX_TSV [LOG]: GPU_SHORT after the run
    GPU_SHORT=no
    GPU_LOCK_MODE=$1 after_run "$2" "run s lab1 one a" ${3:+"$3"}
    echo "$GPU_SHORT"
}
check "a run short of GPU memory on a shared GPU is run again alone" test "$(short_after shared "$RUN_DIR/short.tsv")" == yes
check "... and not when it had the GPU to itself" test "$(short_after exclusive "$RUN_DIR/short.tsv")" == no
check "a sanitizer whose log shows a failed allocation on a shared GPU is run again alone" \
    test "$(short_after shared "$RUN_DIR/tool.tsv" "$RUN_DIR/tool.log")" == yes
check "... and not without such a log" test "$(short_after shared "$RUN_DIR/tool.tsv")" == no
check "the log says how each run ended" grep -q 'run s lab1 one a: exited 7' "$LOG_FILE"
check "the ledger spent every run's seconds (2 x 1.5 + 2 x 2 = 7)" grep -qE 'spent=7(\.0*)?([[:space:]]|$)' "$ledger_file"
# A second timing is the grader's choice (grading/run_ledger.hpp, spent_from_budget): its run is
# logged but not spent, and it has its wall when the budget has none left for a batch.
after_run "$RUN_DIR/tool.tsv" "second timing of s lab1 (perf/naive)" "" second-timing
check "a second timing's run is logged" grep -q 'second timing of s lab1 (perf/naive): exited 1' "$LOG_FILE"
check "... and not spent" grep -qE 'spent=7(\.0*)?([[:space:]]|$)' "$ledger_file"
"$GRADER" ledger start --manifests labs --lab lab1 --budget 1 --ledger "$ledger_file"
after_run "$RUN_DIR/short.tsv" "run s lab1 one a"
check "a spent budget leaves a batch no wall" bash -c '! "$@" >/dev/null 2>&1' _ \
    "$GRADER" ledger wall --manifests labs --lab lab1 --ledger "$ledger_file" --for batch --cases perf
check "... but a second timing its batch's ($(ledger wall --for second-timing --cases perf) s)" \
    test "$(ledger wall --for second-timing --cases perf)" == "$("$GRADER" ledger wall --manifests labs --lab lab1 --for batch --cases perf)"
finish
