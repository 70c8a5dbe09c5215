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

# One student x lab's runs (grader run-group, grading/run_group.hpp), through a stand-in for
# grading/sandbox.sh that runs nothing: it records the process's end as the test asks (ENDS, a
# sandbox.tsv line) and, in a sanitizer's log, a line (SAYS). Each run's seconds are spent from
# the ledger, the log says how each ended, and, where the GPU was shared, a run that ended short
# of GPU memory (the driver's exit 7) or a sanitizer's log showing a failed allocation ends the
# group at once, the ledger not written, for a run again with the GPU to itself (exit 10, which
# runs.sh's group_runs acts on). With the GPU to itself it was the program's own doing. The rule
# is the grader's (grading/run_evidence.hpp); this checks what run-group makes of it.
GRADER=${BUILD:-build}/bin/grader
mkdir -p "$RUN_DIR/plan" "$RUN_DIR/built" "$RUN_DIR/students/s/lab1"
"$GRADER" plan --lab lab1 --write "$RUN_DIR/plan/lab1.tsv" >/dev/null || check "grader plan --write" false
cat >"$RUN_DIR/sandbox" <<'EOF'
#!/usr/bin/env bash
while (($#)); do
    case $1 in
        --status) status=$2 ;;
        --stdout) out=$2 ;;
        --) break ;;
    esac
    shift
done
printf '%s\n' "$ENDS" >"$status"
[[ -z ${SAYS-} ]] || printf '%s\n' "$SAYS" >>"$out"
EOF
chmod +x "$RUN_DIR/sandbox"
printf '#!/usr/bin/env bash\n' >"$RUN_DIR/sanitize.sh"
ledger=$RUN_DIR/ledger
# group OPTION...: run-group on student s's lab 1 (case one has 5 parts); prints its exit status.
group() {
    "$GRADER" run-group --plan "$RUN_DIR/plan/lab1.tsv" --dir "$RUN_DIR/students/s/lab1" --built "$RUN_DIR/built" \
        --ledger "$ledger" "$@" -- "$RUN_DIR/sandbox" 2>>"$RUN_DIR/grading.log"
    echo $?
}
fails() { ! "$@"; }
spent_is() { awk -v want="$1" '{ for (i = 1; i <= NF; i++) if ($i ~ /^spent=/) exit !(substr($i, 7) + 0 == want + 0) }' "$ledger"; }
export ENDS SAYS
short=$'outcome=exited\texit=7\tseconds=1.5' failed=$'outcome=exited\texit=1\tseconds=2'

ENDS=$short
check "a run short of GPU memory on a shared GPU ends the group for a run again alone (exit 10)" \
    test "$(group --cases one --shared)" == 10
check "... its ledger not written" test ! -e "$ledger"
check "... and with the GPU to itself the group runs: every part is run again alone after its batch (exit 0)" \
    test "$(group --cases one)" == 0
check "the ledger spent every run's seconds (5 batches and 5 parts alone, x 1.5 = 15)" spent_is 15
check "the log says how each run ended" grep -q 'batch 1 of s lab1 (one): exited 7' "$RUN_DIR/grading.log"
check "... a part run alone too" grep -q 'run s lab1 one naive: exited 7' "$RUN_DIR/grading.log"
check "each run filed its evidence" test -s "$RUN_DIR/students/s/lab1/runs/one/regblock/sandbox.tsv"
ENDS=$failed SAYS='========= Program hit cudaErrorMemoryAllocation (error 2)'
check "a sanitizer whose log shows a failed allocation on a shared GPU is run again alone" \
    test "$(group --sanitize --sanitizer-script "$RUN_DIR/sanitize.sh" --shared)" == 10
SAYS=""
check "... and not without such a log" test "$(group --sanitize --sanitizer-script "$RUN_DIR/sanitize.sh" --shared)" == 0
check "... its runs spent (15 + 2 tools x 2 s = 19)" spent_is 19
check "without compute-sanitizer the tools are not run, and the feedback's note says why" \
    grep -q 'compute-sanitizer is not installed' <(group --sanitize >/dev/null; cat "$RUN_DIR/students/s/lab1/sanitize/not-run.txt")
ENDS=$'outcome=signal\texit=139\tsignal=SIGSEGV\tseconds=1'
check "a run that ended by a signal asks for the GPU to be checked before its next student (exit 11)" \
    test "$(group --cases one)" == 11
check "... the log saying how it ended" grep -q 'run s lab1 one naive: signal 139' "$RUN_DIR/grading.log"
rm -f "$ledger"
ENDS=$short
check "a budget of 1 s: the first batch runs (1.5 s)" test "$(group --budget 1 --cases one)" == 0
check "... and the parts it left get no run, each part's note says why" grep -q 'used up its run-time budget' "$RUN_DIR/students/s/lab1/runs/one/naive/not-run.txt"

# What runs.sh makes of those ends (group_runs): a short GPU while shared runs the group again
# with the GPU to itself; after a run that may have taken the GPU down, the grader asks the GPU
# (GPU 99, which no machine has: the question fails here as on a GPU machine), marks it lost and
# the student x lab not run.
source grading/lib/common.sh
source grading/lib/gpus.sh
unset GRADE_ASSUME_GPU
student=s lab=lab1 dir=$RUN_DIR/students/s/lab1 ledger_file=$RUN_DIR/ledger-runs sandbox_slot=1
PLAN_DIR=$RUN_DIR/plan BOXES=$RUN_DIR/boxes SANDBOX=$RUN_DIR/sandbox SANDBOX_ARGS=() SANDBOX_UID_BASE=""
DRIVER_ARGS=(--launch-trace required) REPO=$PWD LOG_FILE=$RUN_DIR/grading.log
mkdir -p "$BOXES/s/lab1"
ENDS=$short
check "group_runs: a short GPU while shared, then alone: done (status 0)" group_runs shared 0 --cases one
check "... the log says it ran again with the GPU to itself" \
    grep -q "GPU 0 was short while shared (s lab1): run again with the GPU to itself" "$LOG_FILE"
ENDS=$'outcome=signal\texit=139\tsignal=SIGSEGV\tseconds=1'
check "group_runs: after a run killed by a signal, with the GPU not answering, it fails" fails group_runs shared 99 --cases one
check "... the GPU is marked lost" test -e "$RUN_DIR/gpu-lost-99"
check "... and the student x lab says why it was not run" grep -q "GPU 99 stopped working" "$dir/not-run.txt"
finish
