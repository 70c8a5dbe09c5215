# The GPU side of grading: every case of every built student x lab, in the sandbox, in three
# rounds over the class (the last part of this file), and the sanitizer tools. Sourced by
# grade.sh.
#
# One student x lab's runs of a round are `grader run-group`'s (grading/run_group.hpp): the
# batches of its cases (one process for many cases: CUDA starts once), a part run alone where a
# batch died, the sanitizer runs, the second timing; its run-time ledger (grading/run_ledger.hpp:
# its budget, and the parts the time limit stopped on three cases, which are not run again); the
# evidence of each process. A student's public cases, sanitizers and hidden cases run in
# separate processes, so that nothing a process saw of a hidden case can reach a message the
# feedback shows. What stays here is about the class: the pool, the rounds, the GPU locks.

OUTPUT_LIMIT=${GRADE_OUTPUT_LIMIT:-$((256 << 20))}

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

# group_runs shared|exclusive GPU OPTION...: the caller's student x lab's runs that OPTIONs ask
# of grader run-group (--cases, --sanitize, --time-again), holding GPU as the mode says (with_gpu);
# RUN_HIDDEN=yes: the cases are hidden, and their copies get the lab's hidden data. With the GPU
# shared, a run that found it short of memory (a classmate's program may have held it) has the
# group run again with the GPU to itself, the ledger as it was before (run-group exits 10 and
# leaves it): it costs the student nothing. Fails when a run may have taken the GPU down (exit
# 11) and the GPU no longer answers: no more runs go to it.
group_runs() {
    local mode=$1 gpu=$2 said status cpus
    shift 2
    cpus=$(timed_cpus)
    local options=(--plan "$PLAN_DIR/$lab.tsv" --dir "$dir" --built "$BOXES/$student/$lab" --ledger "$ledger_file"
                   --gpu "$gpu" --driver-args "${DRIVER_ARGS[*]}" --output-limit "$OUTPUT_LIMIT" ${BUDGET:+--budget "$BUDGET"}
                   ${SANDBOX_UID_BASE:+--uid $((SANDBOX_UID_BASE + sandbox_slot))} ${cpus:+--cpus "$cpus"} "$@")
    [[ ${RUN_HIDDEN:-no} == yes ]] && options+=(--hidden --hidden-data "$REPO/grading/hidden/$lab")
    [[ $mode == shared ]] && options+=(--shared)
    said=$(with_gpu "$mode" "$gpu" "$GRADER" run-group "${options[@]}" -- "$SANDBOX" "${SANDBOX_ARGS[@]}" 2>&1)
    status=$?
    local line
    while IFS= read -r line; do [[ -n $line ]] && log "$line"; done <<<"$said"
    case $status in
        0) return 0 ;;
        10) log "GPU $gpu was short while shared ($student $lab): run again with the GPU to itself"
            group_runs exclusive "$gpu" "$@" ;;
        11) gpu_still_works "$gpu" && return 0
            touch "$RUN_DIR/gpu-lost-$gpu"
            echo "GPU $gpu stopped working while this submission ran; grade again with --resume" >"$dir/not-run.txt"
            say "grade.sh: GPU $gpu stopped working (after $student $lab); the students left for it are not run"
            return 1 ;;
        *) die "grader run-group failed for $student $lab: ${said##*$'\n'}" ;;
    esac
}

# A run that exits with "no GPU" may be telling the truth or lying: ask the GPU (trusted).
gpu_still_works() { gpu_assumed || CUDA_VISIBLE_DEVICES=$1 "$GRADER" gpus >/dev/null 2>&1; }

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
    "$@"
    status=$?
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
# item (the first round to run it starts its ledger: group_runs); fails when it is not to be
# run: an earlier round left a not-run.txt, or its GPU stopped working.
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
    sandbox_options "$sandbox_slot"
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
    TIMED_ON=$timing_gpu group_runs exclusive "$timing_gpu" --cases "$*" || return 1
    add_time "timed cases" "$(seconds_since "$started")"
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
    local timing_gpu started=$EPOCHREALTIME
    [[ ${SELF_CHECK:-no} == yes || ${KEEPS_NOTHING:-no} != yes ]] && return 0
    read -r timing_gpu 2>/dev/null <"$dir/gpu.txt" || return 0
    TIMED_ON=$timing_gpu group_runs exclusive "$timing_gpu" --time-again "$*" --reference "${REFERENCE_DIR[$lab]-}" \
        --timing "$(timing_root "$lab" "$timing_gpu")" || return 1
    compgen -G "$dir/runs/*/$SECOND_TIMING" >/dev/null || return 0
    add_time "second timings" "$(seconds_since "$started")"
    check_outputs "$@"
}
SECOND_TIMING=second-timing  # grading/run_evidence.hpp, kSecondTiming: the run's folder

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
# shellcheck disable=SC2086  # below, $cases is a list of case names
run_public_round() {
    local student lab dir gpu sandbox_slot ledger_file cases started=$EPOCHREALTIME
    if runner_item "$@"; then
        cases=${ROUND_CASES[$lab/public-untimed]}
        [[ -z $cases ]] || { group_runs shared "$gpu" --cases "$cases" && check_outputs $cases; }
        add_time cases "$(seconds_since "$started")"
    fi
    progress_step "$student" "$lab" "$(round_work "$lab" 1)"
}

run_timed_round() {
    local student lab dir gpu sandbox_slot ledger_file cases
    if runner_item "$@"; then
        cases=${ROUND_CASES[$lab/public-timed]}
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
    [[ -z $cases ]] || time_again $cases
}

# Round 3. The sanitizers (public) run before the hidden cases: nothing a process saw of a
# hidden case can reach a run whose messages the student sees (under --sandbox rlimits, say, a
# file the uid left in /tmp).
run_hidden_round() {
    local student lab dir gpu sandbox_slot ledger_file cases started=$EPOCHREALTIME
    if runner_item "$@"; then
        local ran=yes
        [[ -z ${SANITIZE_CASE[$lab]} ]] ||
            group_runs shared "$gpu" --sanitize ${SANITIZER:+--sanitizer-script "$REPO/mk/sanitize.sh"} || ran=no
        add_time sanitizer "$(seconds_since "$started")"
        started=$EPOCHREALTIME
        cases=${ROUND_CASES[$lab/hidden-untimed]}
        [[ $ran == no || -z $cases ]] || RUN_HIDDEN=yes group_runs shared "$gpu" --cases "$cases" || ran=no
        add_time cases "$(seconds_since "$started")"
        cases=${ROUND_CASES[$lab/hidden-timed]}
        if [[ $ran == yes ]] && { [[ -z $cases ]] || { RUN_HIDDEN=yes timed_runs $cases && RUN_HIDDEN=yes time_again $cases; }; }; then
            [[ -e $dir/gpu.txt ]] || echo "$gpu" >"$dir/gpu.txt"
            started=$EPOCHREALTIME
            score_student_lab "$student" "$lab" || log "scoring $student $lab failed in its runner; it is tried again at the end"
            add_time scoring "$(seconds_since "$started")"
        fi
    fi
    progress_step "$student" "$lab" "$(round_work "$lab" 3)"
}
