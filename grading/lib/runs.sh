# The GPU side of grading: every case of every built student x lab, in the sandbox, in three
# rounds over the class (the last part of this file), and the sanitizer tools. Sourced by
# grade.sh.
#
# A student's cases run in few processes (CUDA starts once for many cases): one for the public
# untimed cases, one for the public timed cases, then the sanitizer runs, then one for the
# hidden cases, so that nothing a process saw of a hidden case can reach a message the
# feedback shows. Each such batch gives the driver a
# list of cases (--cases) and writes one results.tsv per case as each part finishes. When a
# batch dies part-way (a crash, a stuck kernel, the wall clock), the first part it left without
# a record (the one that was running) is run again on its own, for its own evidence, and the
# parts after it go on in a new batch, so a failing part costs only its own points. A part that
# the time limit stopped on three cases is not run again for that student x lab (ledger, below).

OUTPUT_LIMIT=${GRADE_OUTPUT_LIMIT:-$((256 << 20))}

# trim_logs FILE...: each log kept to its last 64 KB, enough for the feedback, small for 50
# students. One find names the longer ones: most logs are a few lines, and a tail and a mv for
# each cost four processes a run.
trim_logs() {
    local file
    while IFS= read -r -d '' file; do
        tail -c 65536 -- "$file" >"$file.tail" && mv -- "$file.tail" "$file"
    done < <(find "$@" -maxdepth 0 -type f -size +64k -print0 2>/dev/null)
    return 0
}

# What a student x lab may still run is the grader's to decide (grading/run_ledger.hpp, `grader
# ledger`), in a ledger file that passes from round to round: the run-time budget (--budget; by
# default three of the lab's longest process walls, so a part that never ends still costs only
# its own points), the seconds its runs took, and the cases on which the time limit stopped each
# part. A run gets at most what is left as its wall, and none starts once nothing is left: its
# parts are marked "not run". A part that the time limit stopped on three cases is retired: it is
# not run on that student's later cases of the lab (public or hidden) nor under the sanitizers,
# and each run it misses says why in its not-run.txt (scored 0, "not run: ...").
#   ledger VERB OPTION...: `grader ledger VERB` on the caller's student x lab (its lab and
#   ledger_file, through bash's dynamic scope, set by runner_item); what it says for the log goes
#   to the log. Exit 1: no (no wall is left, no part is left).
ledger() {
    local said status
    { said=$("$GRADER" ledger "$1" --ledger "$ledger_file" --plan "$PLAN_DIR/$lab.tsv" "${@:2}" 2>&1 >&3)
        status=$?; } 3>&1
    [[ -n $said ]] && log "$said"
    ((status < 2)) || die "grader ledger $1 failed for $student $lab: $said"
    return $status
}

# fresh_box SLOT STUDENT LAB: a fresh copy of the student's built work folder for one process,
# lent to the sandbox uid of SLOT; prints its path. Nothing a process leaves in its folder
# reaches the next one (a hidden case's arguments, say). A process of the hidden cases
# (RUN_HIDDEN=yes) also finds the lab's hidden data (grading/hidden/LAB/, named by the hidden
# cases' arguments), which no other run, the student tarball or the sandbox's public files hold.
fresh_box() {
    local built=$BOXES/$2/$3 box=$BOXES/$2/$3.run
    rm -rf -- "$box" && cp -a -- "$built" "$box" && mkdir -- "$box/run-out" || die "cannot copy the work folder $built"
    if [[ ${RUN_HIDDEN:-no} == yes && -d $REPO/grading/hidden/$3 ]]; then
        mkdir -p -- "$box/grading/hidden" && cp -a -- "$REPO/grading/hidden/$3" "$box/grading/hidden/" ||
            die "cannot copy the hidden data of $3"
    fi
    lend_box "$box" "$1"
    printf '%s\n' "$box"
}

# after_run SANDBOX_TSV WHAT [LOG [KIND]]: the run's seconds spent from the ledger (grader ledger
# spend --for KIND, batch unless said), how it ended in the log ("WHAT: exited 0"), and
# GPU_SHORT set when its end says the GPU may have been short while the runners shared it
# (grader ledger spend; the rule is grading/run_evidence.hpp's gpu_may_have_been_short, LOG a
# sanitizer run's): a classmate's program may have held it, so the round runs the student's
# group again with the GPU to itself (shared_or_alone).
after_run() {
    local said shared=()
    [[ ${GPU_LOCK_MODE:-} == shared ]] && shared=(--shared)
    said=$(ledger spend --for "${4:-batch}" --sandbox "$1" --what "$2" ${3:+--log "$3"} "${shared[@]}")
    [[ $said == gpu-short ]] && GPU_SHORT=yes
    return 0
}

# The CPUs of each GPU's timed runs, those kept for the work beside them (BESIDE_CPUS, "" when
# the machine has too few) and the runners a GPU has unless --runners says (DEFAULT_RUNNERS):
# grader cpu-sets (grading/cpu_sets.hpp), asked once (plan_cpus, when the GPUs are known). A
# GPU's timed runs, the reference's timing included, use its own slice, so two GPUs' timed runs
# never share a core and the reference is timed on the students'.
TIMED_CPU_SETS=() BESIDE_CPUS="" DEFAULT_RUNNERS=1
plan_cpus() {
    local kind index cpus
    TIMED_CPU_SETS=() BESIDE_CPUS=""
    ((${#GPU_IDS[@]})) || return 0
    while IFS=$'\t' read -r kind index cpus; do
        case $kind in
            timed) TIMED_CPU_SETS[index]=$cpus ;;
            beside) BESIDE_CPUS=$index ;;
            runners) DEFAULT_RUNNERS=$index ;;
        esac
    done < <("$GRADER" cpu-sets --cpus "$(nproc)" --gpus "${#GPU_IDS[@]}" || die "grader cpu-sets failed")
}
# timed_cpus: the CPUs of a timed run on GPU TIMED_ON; empty outside the timed runs.
timed_cpus() {
    [[ -n ${TIMED_ON-} ]] || return 0
    local g
    for g in "${!GPU_IDS[@]}"; do [[ ${GPU_IDS[$g]} == "$TIMED_ON" ]] && echo "${TIMED_CPU_SETS[$g]-}"; done
    return 0
}
# beside_timed_runs COMMAND...: COMMAND on the CPUs kept beside the timed runs (checking and
# scoring, which may go on while another student's timed run does), or as it is without them.
beside_timed_runs() {
    if [[ -n $BESIDE_CPUS ]]; then taskset -c "$BESIDE_CPUS" "$@"; else "$@"; fi
}

# cases_file LAB USE FILE ITEMS [OPTION...]: FILE, the cases file of one run of ITEMS (grader
# cases-file, grading/cases_file.hpp: every graded process of a case gets the same line, so a
# program cannot tell a sanitizer's run from a graded one by its arguments); prints what it runs.
cases_file() {
    "$GRADER" cases-file --plan "$PLAN_DIR/$1.tsv" --for "$2" --out "$3" --items "$4" "${@:5}"
}

# run_batch SLOT GPU STUDENT LAB KIND FOLDER CASE/PART...: one sandboxed process running the
# given parts of the given cases; the evidence of each case goes to runs/CASE/FOLDER (its end
# and logs copied to each). KIND, the ledger's: batch (FOLDER batch-N), part (one part alone,
# FOLDER the part) or second-timing (time_again). Fails, running nothing, when the budget is spent.
SECOND_TIMING=second-timing  # grading/run_evidence.hpp, kSecondTiming: the folder and the ledger's kind
run_batch() {
    local slot=$1 gpu=$2 student=$3 lab=$4 kind=$5 folder=$6
    shift 6
    local dir=$OUT/students/$student/$lab box cases=() wall what cpus
    box=$(fresh_box "$slot" "$student" "$lab")
    mapfile -t cases < <(cases_file "$lab" graded "$box/cases.txt" "$*") && ((${#cases[@]})) ||
        die "cannot write the cases file of $student $lab"
    lend_box "$box/cases.txt" "$slot"
    # (A second timing is the grader's choice: the ledger neither limits it nor spends it.)
    if ! wall=$(ledger wall --for "$kind" --cases "${cases[*]}"); then
        rm -rf -- "$box"
        return 1
    fi
    case $kind in
        batch) what="${folder/-/ } of $student $lab (${cases[*]})" ;;
        part) what="run $student $lab ${1%%/*} $folder" ;;
        *) what="second timing of $student $lab ($*)" ;;
    esac
    local run=$dir/runs/.$folder
    rm -rf -- "$run" && mkdir -p -- "$run"
    cpus=$(timed_cpus)
    "$SANDBOX" "${SANDBOX_ARGS[@]}" --box "$box" --status "$run/sandbox.tsv" --stdout "$run/stdout.txt" \
        --stderr "$run/stderr.txt" --wall "$wall" --nproc 128 --fsize "$OUTPUT_LIMIT" ${cpus:+--cpus "$cpus"} \
        --gpu --env "CUDA_VISIBLE_DEVICES=$gpu" -- \
        "./build/bin/$lab-graded" "${DRIVER_ARGS[@]}" --cases cases.txt --out run-out
    after_run "$run/sandbox.tsv" "$what" "" "$kind"
    trim_logs "$run/stdout.txt" "$run/stderr.txt"
    # Each case's evidence: the process's end and logs, and the plain files it wrote for the case.
    "$GRADER" file-evidence --box "$box" --run "$run" --evidence "$dir/runs" --folder "$folder" --cases "${cases[*]}" ||
        die "cannot file the evidence of $what"
    rm -rf -- "$run" "$box"
}

# run_group SLOT GPU STUDENT LAB CASE...: every part of the given cases, in batches, until
# each part has a record or its own run.
run_group() {
    local slot=$1 gpu=$2 student=$3 lab=$4
    shift 4
    local dir=$OUT/students/$student/$lab pending=() case_name part n=0
    for case_name in "$@"; do
        rm -rf -- "${dir:?}/runs/$case_name"  # what an earlier try left (shared_or_alone)
        for part in ${LAB_PARTS[$lab]}; do pending+=("$case_name/$part"); done
    done
    while ((${#pending[@]})); do
        mapfile -t pending < <(ledger pending --dir "$dir" --pairs "${pending[*]}")
        ((${#pending[@]})) || break
        n=$((n + 1))
        if ! run_batch "$slot" "$gpu" "$student" "$lab" batch "batch-$n" "${pending[@]}"; then
            ledger not-run --dir "$dir" --folders "${pending[*]/#/runs/}"
            return 0
        fi
        # What the batch left without a record: the part it was running when it died, then the rest.
        mapfile -t pending < <(ledger after-batch --dir "$dir" --batch "$n" --pairs "${pending[*]}")
        ((${#pending[@]})) || break
        if ! run_batch "$slot" "$gpu" "$student" "$lab" part "${pending[0]#*/}" "${pending[0]}"; then
            ledger not-run --dir "$dir" --folders "${pending[*]/#/runs/}"
            return 0
        fi
        ledger stops --case "${pending[0]%%/*}" --run "$dir/runs/${pending[0]}" --part "${pending[0]#*/}"
        pending=("${pending[@]:1}")
    done
}

# A run that exits with "no GPU" may be telling the truth or lying: ask the GPU (trusted).
gpu_still_works() { gpu_assumed || CUDA_VISIBLE_DEVICES=$1 "$GRADER" gpus >/dev/null 2>&1; }

run_sanitizers() {
    local slot=$1 gpu=$2 student=$3 lab=$4 tool
    local dir=$OUT/students/$student/$lab box
    local case_name=${SANITIZE_CASE[$lab]}
    [[ -n $case_name ]] || return 0
    mkdir -p -- "$dir/sanitize"
    if [[ -z $SANITIZER ]]; then
        echo "compute-sanitizer is not installed on the grading machine" >"$dir/sanitize/not-run.txt"
        return 0
    fi
    # The run of `make labN-memcheck` (mk/sanitize.sh, passed as text because the box's own copy
    # is the student's to change; grading/sanitizer_log.hpp knows its --error-exitcode), but with
    # exactly a graded process's command line (--as-graded): the case's line in cases.txt,
    # --cases and --out, so nothing in its arguments tells the program it is being watched.
    for tool in ${SANITIZE_TOOLS[$lab]}; do
        local evidence=$dir/sanitize/$tool wall parts
        rm -rf -- "$evidence"
        # The parts not retired (--part a,c): a part that never ends would keep the tool from finishing.
        parts=$(ledger parts --dir "$dir" --folder "sanitize/$tool") || continue
        if ! wall=$(ledger wall --for sanitizer --cases "$case_name"); then
            ledger not-run --dir "$dir" --folders "sanitize/$tool"
            continue
        fi
        mkdir -p -- "$evidence"
        box=$(fresh_box "$slot" "$student" "$lab")
        cases_file "$lab" graded "$box/cases.txt" "$case_name/$parts" >/dev/null || die "cannot write the cases file of $student $lab"
        lend_box "$box/cases.txt" "$slot"
        # The tool's threads share one process: its CPU time may run ahead of the wall clock.
        "$SANDBOX" "${SANDBOX_ARGS[@]}" --box "$box" --status "$evidence/sandbox.tsv" --stdout "$evidence/log.txt" \
            --stderr "$evidence/log.txt" --wall "$wall" --cpu $((4 * wall)) --nproc 256 \
            --fsize "$OUTPUT_LIMIT" --gpu --env "CUDA_VISIBLE_DEVICES=$gpu" -- \
            bash -c "$SANITIZE_SCRIPT" mk/sanitize.sh --as-graded "$tool" "./build/bin/$lab-graded" "${DRIVER_ARGS[@]}" --cases cases.txt --out run-out
        after_run "$evidence/sandbox.tsv" "sanitize $student $lab $tool" "$evidence/log.txt"
        trim_logs "$evidence/log.txt"
        rm -rf -- "$box"
    done
}

# Timed runs need their GPU to themselves; untimed runs (the cases without performance
# points, the sanitizers) may share it, several runners at a time. A readers-writer lock per
# GPU: untimed runs hold it shared, timed runs exclusive; a turnstile in front of it keeps a
# timed run that waits from being overtaken by a stream of untimed ones.
#   with_gpu shared|exclusive GPU COMMAND...
with_gpu() {
    local mode=$1 gpu=$2 turnstile rw status
    shift 2
    exec {turnstile}>>"$RUN_DIR/gpu-$gpu.turnstile"
    flock -x "$turnstile"
    exec {rw}>>"$RUN_DIR/gpu-$gpu.lock"
    if [[ $mode == exclusive ]]; then
        flock -x "$rw"
    else
        flock -s "$rw"
        exec {turnstile}>&-
    fi
    local outer=${GPU_LOCK_MODE-}
    GPU_LOCK_MODE=$mode
    "$@"
    status=$?
    GPU_LOCK_MODE=$outer
    exec {rw}>&-
    [[ $mode == exclusive ]] && exec {turnstile}>&-
    return $status
}

# The reference solution timed on GPU for LAB's performance cases, each time with the GPU to
# itself and on the timed runs' CPUs: before the GPU's first timed student, again after every
# RETIME_EVERY students, and once more when the round of timed runs ends
# (final_reference_timings): the grader's schedule (grading/timing_schedule.hpp). A part's
# reference time is the median of those timings' medians (grading/scoring.cpp), so the students
# timed through a night are compared with the GPU as it was around them, not only as it was at
# the start. Fails when it could not be timed.
RETIME_EVERY=${GRADE_RETIME_EVERY:-8}
reference_timed_on() {
    local lab=$1 gpu=$2 guard status=0
    # A self-check compares with committed times (grade.sh, self_check_timing).
    [[ -z ${LAB_PERF_CASES[$lab]} || ${SELF_CHECK:-no} == yes ]] && return 0
    exec {guard}>>"$RUN_DIR/timing-$lab-$gpu.lock"
    flock -x "$guard"
    if [[ -e $(timing_root "$lab" "$gpu")/.failed ]]; then
        status=1
    elif timing_due before-student --count "$RUN_DIR/timing-$lab-$gpu.count" --timings "$(timing_root "$lab" "$gpu")" \
        --every "$RETIME_EVERY"; then
        time_reference_again "$lab" "$gpu" || status=1
    fi
    exec {guard}>&-
    return $status
}
# timing_due VERB OPTION...: whether the reference is to be timed now, the grader's rule (grader
# timing, grading/timing_schedule.hpp), which keeps the count of students timed since the last.
timing_due() {
    "$GRADER" timing "$@"
    case $? in
        0) return 0 ;;
        1) return 1 ;;
        *) die "grader timing $1 failed" ;;
    esac
}
timing_root() { echo "$PRIVATE/timing/$RUN_ID/$1/gpu$2"; }
# time_reference_again LAB GPU: one more timing, t<N>, of LAB's performance cases on GPU. Made
# as .t<N> and renamed once whole: a runner that scores a student (or asks what to time again)
# meanwhile reads the whole timings only.
time_reference_again() {
    local lab=$1 gpu=$2 root started=$EPOCHREALTIME n
    root=$(timing_root "$lab" "$gpu")
    mkdir -p -- "$root"
    n=$(($(find "$root" -mindepth 1 -maxdepth 1 -name 't*' | wc -l) + 1))
    if TIMED_ON=$gpu with_gpu exclusive "$gpu" time_reference "$lab" "$gpu" "$root/.t$n"; then
        touch "$root/.t$n/.done" && mv -- "$root/.t$n" "$root/t$n"
    else
        rm -rf -- "${root:?}/.t$n"
        touch "$root/.failed"
        return 1
    fi
    add_time reference-timing "$(seconds_since "$started")"
}
# After a round of timed runs: one last timing on every GPU that timed students since its last.
final_reference_timings() {
    local lab gpu guard
    for lab in "${LABS[@]}"; do
        for gpu in "${GPU_IDS[@]}"; do
            [[ -e $(timing_root "$lab" "$gpu")/.failed ]] && continue
            exec {guard}>>"$RUN_DIR/timing-$lab-$gpu.lock"
            flock -x "$guard"
            if timing_due after-round --count "$RUN_DIR/timing-$lab-$gpu.count"; then
                time_reference_again "$lab" "$gpu" || say "grade.sh: the last timing of the reference of $lab on GPU $gpu failed"
            fi
            exec {guard}>&-
        done
    done
}

# shared_or_alone GPU FUNCTION ARGS...: FUNCTION (run_group, run_sanitizers) with the GPU shared
# with the other runners; when one of its runs found the GPU short of memory (after_run),
# all of it again with the GPU to itself, the budget and the stopped parts as they were before:
# a classmate's program that fills the GPU costs this student nothing.
shared_or_alone() {
    local gpu=$1
    shift
    cp -- "$ledger_file" "$ledger_file.before" || die "cannot copy the ledger $ledger_file"
    GPU_SHORT=no
    with_gpu shared "$gpu" "$@"
    if [[ $GPU_SHORT == yes ]]; then
        log "GPU $gpu was short while shared ($student $lab, $1): run again with the GPU to itself"
        cp -- "$ledger_file.before" "$ledger_file" || die "cannot copy the ledger $ledger_file back"
        GPU_SHORT=no
        with_gpu exclusive "$gpu" "$@"
    fi
    rm -f -- "$ledger_file.before"
}

# The runs go over the class in three rounds (grade.sh, run_on_gpus), so that a timed run,
# which needs its GPU to itself, never waits for another student's untimed runs. With one
# student's runs after another, every timed run waited for the slowest untimed run then on its
# GPU, the other runners behind it: on an H200, one of lab 1's endless loops held the whole
# GPU for two minutes. Now an untimed run that never ends holds one runner, not the GPU.
#   round 1  the public untimed cases          RUNNERS students at a time on each GPU
#   round 2  the public timed cases            one student at a time on each GPU, nothing else;
#                                              its other runners check the outputs of those
#                                              before, on the CPUs beside (plan_cpus), if any
#   round 3  the sanitizers, the hidden cases  as round 1 (a hidden timed case still runs alone)
#            and the score
# Each student keeps the order public cases, sanitizers, hidden cases (run_hidden_round says
# why). A student's budget and stopped parts pass from round to round in its ledger file.
ROUNDS=3
ROUND_NAMES=("" "public cases" "timed cases" "sanitizers, hidden cases, scores")

# round_work LAB ROUND: the runner time one student x lab takes in ROUND (grader plan's work, from
# grading/round_plan.hpp), in untimed sandboxed processes, a timed one counting as RUNNERS of them
# (it has the GPU to itself, while RUNNERS untimed ones share it). The progress line's estimate
# of the time left weighs each step by it.
round_work() {
    local untimed timed
    read -r untimed timed <<<"${ROUND_WORK[$1/$2]}"
    echo $((untimed + timed * RUNNERS))
}

# runner_item SLOT "STUDENT<TAB>LAB" NUMBER: sets the caller's student, lab, dir, gpu,
# sandbox_slot and ledger_file (through bash's dynamic scope) and the sandbox options of the
# item, and starts its ledger in the first round to run it; fails when it is not to be run: an
# earlier round left a not-run.txt, or its GPU stopped working.
# RUNNERS runners share each GPU (slot modulo the number of GPUs picks it). Each student x lab
# runs as a sandbox uid of its own (from its place in the list, the same in every round), so
# nothing one student's runs leave behind belongs to the next student's uid.
runner_item() {
    IFS=$'\t' read -r student lab <<<"$2"
    dir=$OUT/students/$student/$lab
    gpu=${GPU_IDS[$(($1 % ${#GPU_IDS[@]}))]}
    # (The tasks of a Slurm job array interleave their numbers: two on one node never share a uid.)
    sandbox_slot=$((100 + (($3 - 1) * TASK_COUNT + TASK_INDEX) % 900))
    [[ -e $dir/not-run.txt ]] && return 1
    if [[ -e $RUN_DIR/gpu-lost-$gpu ]]; then
        echo "GPU $gpu stopped working during grading; grade again with --resume" >"$dir/not-run.txt"
        return 1
    fi
    ledger_file=$RUN_DIR/ledger/$3
    mkdir -p -- "$RUN_DIR/ledger"
    [[ -f $ledger_file ]] || ledger start ${BUDGET:+--budget "$BUDGET"}
    sandbox_options "$sandbox_slot"
}

# gpu_lost_after GPU: after a round of the caller's student x lab on GPU. A program that ended
# saying "no GPU", or a fault, may have taken the GPU down with it: if so, no more runs go to it.
gpu_lost_after() {
    "$GRADER" gpu-suspect --dir "$dir" || return 1
    gpu_still_works "$1" && return 1
    touch "$RUN_DIR/gpu-lost-$1"
    echo "GPU $1 stopped working while this submission ran; grade again with --resume" >"$dir/not-run.txt"
    say "grade.sh: GPU $1 stopped working (after $student $lab); the students left for it are not run"
}

# timed_runs CASE...: the caller's timed cases, alone on the GPU whose reference timing they are
# compared with (gpu.txt: the first round to time a case chooses it).
timed_runs() {
    local timing_gpu
    read -r timing_gpu 2>/dev/null <"$dir/gpu.txt" || timing_gpu=$gpu
    if ! reference_timed_on "$lab" "$timing_gpu"; then
        echo "the reference solution could not be timed on GPU $timing_gpu" >"$dir/not-run.txt"
        return 1
    fi
    echo "$timing_gpu" >"$dir/gpu.txt"
    local started=$EPOCHREALTIME
    TIMED_ON=$timing_gpu with_gpu exclusive "$timing_gpu" run_group "$sandbox_slot" "$timing_gpu" "$student" "$lab" "$@"
    add_time "timed cases" "$(seconds_since "$started")"
    gpu_lost_after "$timing_gpu" && return 1
    # Their outputs checked now; those of the timed runs the driver kept, reduced to their
    # samples, wait for their references, made once no run is timed (reference.sh,
    # make_class_checked_run_references).
    check_outputs "$@"
}

# time_again CASE...: the right parts of the caller's timed cases that the first timing put past
# their full points timed once more, alone on the GPU, into runs/CASE/second-timing; scoring
# keeps the better time of a correct part (grading/scoring.hpp, parts_to_time_again, says why).
# Called once the reference's timings around the first are made; not in a self-check, whose
# student can simply run it again, nor where a process could keep what it computed for the next
# (KEEPS_NOTHING, isolation.sh): the second timing has the first one's inputs.
time_again() {
    local timing_gpu pairs
    [[ ${SELF_CHECK:-no} == yes || ${KEEPS_NOTHING:-no} != yes ]] && return 0
    read -r timing_gpu 2>/dev/null <"$dir/gpu.txt" || return 0
    if ! pairs=$(beside_timed_runs "$GRADER" time-again --plan "$PLAN_DIR/$lab.tsv" --dir "$dir" \
        --reference "${REFERENCE_DIR[$lab]-}" --timing "$(timing_root "$lab" "$timing_gpu")" --cases "$*" 2>&1); then
        log "what to time again of $student $lab is unknown: $pairs"
        return 0
    fi
    [[ -n $pairs ]] || return 0
    local started=$EPOCHREALTIME
    # shellcheck disable=SC2086  # CASE<TAB>PART lines, as CASE/PART words
    TIMED_ON=$timing_gpu with_gpu exclusive "$timing_gpu" run_batch "$sandbox_slot" "$timing_gpu" "$student" "$lab" \
        "$SECOND_TIMING" "$SECOND_TIMING" $(tr '\t' / <<<"$pairs")
    add_time "second timings" "$(seconds_since "$started")"
    gpu_lost_after "$timing_gpu" && return 1
    check_outputs "$@"
}

# check_outputs CASE...: the caller's outputs of those cases checked against the reference now,
# the verdicts kept and the arrays removed (grader check-outputs, grading/output_verdicts.hpp),
# so that a class's outputs never wait on disk for the scores: a lab 2 performance case leaves
# 2 GB per student, and 8 copies of every lab filled a 64 GB disk during the timed round. The
# outputs of the timed runs the driver kept, whose references wait for the end of the timed
# round (about two thirds of those 2 GB), are reduced to the positions they will be compared at
# (grading/checked_positions.hpp: at most 65536, 1.3 MB a run). Those are drawn by the
# reference's check on fresh inputs, beside round 1: a round 1 run that ended before is noted,
# and reduced before the first timed run (reduce_kept_runs_left). Everything is left for scoring
# when this fails.
check_outputs() {
    [[ -n ${REFERENCE_DIR[$lab]-} ]] || return 0
    local said
    if said=$(beside_timed_runs "$GRADER" check-outputs --plan "$PLAN_DIR/$lab.tsv" --dir "$dir" --cases "$*" \
        --reference "${REFERENCE_DIR[$lab]}" $([[ ${GRADE_KEEP_WORK:-0} == 1 ]] && echo --keep) 2>&1); then
        [[ $said =~ \ [1-9][0-9]*\ (checked\ timed|waiting) ]] && log "the outputs of $student $lab ($*): $said"
        [[ $said =~ \ [1-9][0-9]*\ waiting\ for\ their\ positions ]] && printf '%s\t%s\t%s\n' "$student" "$lab" "$*" >>"$RUN_DIR/kept-runs-whole.tsv"
    else
        log "checking the outputs of $student $lab ($*) failed: $said"
    fi
    return 0
}
# reduce_kept_runs_left: the kept runs that check_outputs left whole, their process having ended
# before their positions were drawn, reduced now that they are (grade.sh: once the reference's
# check on fresh inputs has ended, before the first timed run).
reduce_kept_runs_left() {
    local noted=$RUN_DIR/kept-runs-whole.tsv student lab dir cases
    [[ -s $noted ]] || return 0
    mv -- "$noted" "$noted.taken" || return 0
    while IFS=$'\t' read -r student lab cases; do
        dir=$OUT/students/$student/$lab
        # shellcheck disable=SC2086  # a list of case names
        check_outputs $cases
    done < <(sort -u -- "$noted.taken")
    rm -f -- "$noted.taken"
}

# The rounds' worker functions, for run_pool: each takes SLOT "STUDENT<TAB>LAB" NUMBER.
run_public_round() {
    local student lab dir gpu sandbox_slot ledger_file cases started=$EPOCHREALTIME
    if runner_item "$@"; then
        cases=${ROUND_CASES[$lab/public-untimed]}
        # shellcheck disable=SC2086  # a list of case names
        [[ -z $cases ]] || shared_or_alone "$gpu" run_group "$sandbox_slot" "$gpu" "$student" "$lab" $cases
        add_time cases "$(seconds_since "$started")"
        # shellcheck disable=SC2086
        gpu_lost_after "$gpu" || [[ -z $cases ]] || check_outputs $cases
    fi
    progress_step "$student" "$lab" "$(round_work "$lab" 1)"
}

run_timed_round() {
    local student lab dir gpu sandbox_slot ledger_file cases
    if runner_item "$@"; then
        cases=${ROUND_CASES[$lab/public-timed]}
        # shellcheck disable=SC2086
        [[ -z $cases ]] || timed_runs $cases
    fi
    progress_step "$student" "$lab" "$(round_work "$lab" 2)"
}

# After round 2 and the reference's last timing: the public timed parts that lost performance
# points timed again (time_again), one student at a time on each GPU.
run_second_timings() {
    local student lab dir gpu sandbox_slot ledger_file cases
    runner_item "$@" || return 0
    cases=${ROUND_CASES[$lab/public-timed]}
    # shellcheck disable=SC2086
    [[ -z $cases ]] || time_again $cases
}

# Round 3. The sanitizers (public) run before the hidden cases: nothing a process saw of a
# hidden case can reach a run whose messages the student sees (under --sandbox rlimits, say, a
# file the uid left in /tmp).
run_hidden_round() {
    local student lab dir gpu sandbox_slot ledger_file cases started=$EPOCHREALTIME
    if runner_item "$@"; then
        shared_or_alone "$gpu" run_sanitizers "$sandbox_slot" "$gpu" "$student" "$lab"
        add_time sanitizer "$(seconds_since "$started")"
        started=$EPOCHREALTIME
        cases=${ROUND_CASES[$lab/hidden-untimed]}
        # shellcheck disable=SC2086
        [[ -z $cases ]] || RUN_HIDDEN=yes shared_or_alone "$gpu" run_group "$sandbox_slot" "$gpu" "$student" "$lab" $cases
        add_time cases "$(seconds_since "$started")"
        cases=${ROUND_CASES[$lab/hidden-timed]}
        # shellcheck disable=SC2086
        if ! gpu_lost_after "$gpu" && { [[ -z $cases ]] || { RUN_HIDDEN=yes timed_runs $cases && RUN_HIDDEN=yes time_again $cases; }; }; then
            [[ -e $dir/gpu.txt ]] || echo "$gpu" >"$dir/gpu.txt"
            started=$EPOCHREALTIME
            score_student_lab "$student" "$lab" || log "scoring $student $lab failed in its runner; it is tried again at the end"
            add_time scoring "$(seconds_since "$started")"
        fi
    fi
    progress_step "$student" "$lab" "$(round_work "$lab" 3)"
}
