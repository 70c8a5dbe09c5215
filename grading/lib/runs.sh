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
# the time limit stopped on RETIRE_AFTER cases is not run again for that student x lab.

OUTPUT_LIMIT=${GRADE_OUTPUT_LIMIT:-$((256 << 20))}
MAX_COLLECTED_FILES=64

# Copies what a run left in BOX/SUB (run-out, or run-out/CASE) into DEST: plain files with
# plain names only (never a link), and only from the real folder (the program may have
# replaced it with a link).
collect_outputs() {
    local box=$1 sub=$2 dest=$3 source=$1/$2 count=0 file name
    mkdir -p -- "$dest"
    if [[ -d $source && ! -L $source && $(realpath -e -- "$source") == "$(realpath -e -- "$box")/$sub" ]]; then
        while IFS= read -r -d '' file; do
            name=${file##*/}
            [[ $name =~ ^[A-Za-z0-9._-]+$ ]] || continue
            ((++count > MAX_COLLECTED_FILES)) && break
            cp -- "$file" "$dest/$name"
        done < <(find "$source" -mindepth 1 -maxdepth 1 -type f -print0)
    fi
}

# Logs are kept to their last 64 KB: enough for the feedback, small for 50 students.
trim_log() { [[ -f $1 ]] && tail -c 65536 -- "$1" >"$1.tail" && mv -- "$1.tail" "$1"; return 0; }

# The run-time budget of one student x lab: the seconds its sandboxed runs may take in all
# (--budget; by default three of the lab's longest process walls, so a part that never ends
# still costs only its own points). SPENT counts them in the runner; a run gets at most what
# is left as its wall, and none starts once nothing is left: its parts are marked "not run".
budget_of() {
    [[ -n $BUDGET ]] && { echo "$BUDGET"; return; }
    local case_name longest=0
    for case_name in ${LAB_CASES[$1]}; do
        longest=$(awk -v a="$longest" -v b="$(process_wall "$(case_limit "$1" "$case_name")")" 'BEGIN { print (b > a ? b : a) }')
    done
    echo $((3 * longest))
}
budget_left() { awk -v b="$(budget_of "$1")" -v s="$SPENT" 'BEGIN { printf "%d", b - s }'; }
# within_budget LAB WALL: the wall a run may have (WALL or less), or fails when none is left.
within_budget() {
    local left
    left=$(budget_left "$1")
    ((left >= 1)) || return 1
    echo $((left < $2 ? left : $2))
}
spend() { SPENT=$(awk -v s="$SPENT" -v t="$(field_of "$1" seconds)" 'BEGIN { printf "%.3f", s + t }'); }
# not_run_for_budget LAB FOLDER...: each folder (a part's evidence, a sanitizer tool's) says why
# it has none.
not_run_for_budget() {
    local lab=$1 folder
    shift
    for folder in "$@"; do
        mkdir -p -- "$folder"
        echo "this submission used up its run-time budget for $lab ($(budget_of "$lab") s of runs in all)" >"$folder/not-run.txt"
    done
    log "budget: $(budget_of "$lab") s used up; not run: ${*#"$OUT/students/"}"
}

# A part that the time limit stopped on RETIRE_AFTER cases of a student x lab is retired: it is
# not run on that student's later cases of the lab (public or hidden) nor under the sanitizers,
# and each run it misses says why in its not-run.txt (scored 0, "not run: ..."). A part that
# never ends would otherwise cost its time limit on every case and use up the budget that the
# lab's working parts need. Three, like the budget's three longest runs: a part that hangs on a
# couple of sizes only still earns the cases it passes.
RETIRE_AFTER=3
# STOPPED_ON[PART] (reset with SPENT, per student x lab): the cases, blank-separated, on which
# the time limit stopped PART: its record in a run's results.tsv says timeout (the driver's
# watchdog), or a run of that part alone met its wall clock. A case counts once.
declare -A STOPPED_ON=()
# note_stops LAB CASE DIR [PART]: what the run folder DIR of CASE says was stopped; PART is the
# part a run of its own ran (run_parts), whose wall clock counts too.
note_stops() {
    local lab=$1 case_name=$2 dir=$3 part stopped
    stopped=$("$GRADER" stopped --manifests "$MANIFESTS" --lab "$lab" --run "$dir")
    [[ -n ${4-} && $(field_of "$dir/sandbox.tsv" outcome) == timeout ]] && stopped+=" $4"
    for part in $stopped; do
        [[ " ${STOPPED_ON[$part]-} " == *" $case_name "* ]] || STOPPED_ON[$part]+="${STOPPED_ON[$part]:+ }$case_name"
    done
}
retired() {
    local cases
    read -ra cases <<<"${STOPPED_ON[$1]-}"
    ((${#cases[@]} >= RETIRE_AFTER))
}
# retired_reason PART: "b was stopped by its time limit on cases one, two and three, so ...".
retired_reason() {
    local cases list
    read -ra cases <<<"${STOPPED_ON[$1]}"
    list=${cases[*]:0:${#cases[@]}-1}
    echo "$1 was stopped by its time limit on cases ${list// /, }${list:+ and }${cases[-1]}, so it is not run" \
        "on later cases (a part that never ends would cost each its time limit)"
}
# drop_retired DIR: takes the CASE/PART pairs of retired parts out of the caller's `pending`
# (run_group's, through bash's dynamic scope); each gets DIR/runs/CASE/PART/not-run.txt.
drop_retired() {
    local pair kept=() dropped=()
    for pair in "${pending[@]}"; do
        if retired "${pair#*/}"; then
            mkdir -p -- "$1/runs/$pair"
            retired_reason "${pair#*/}" >"$1/runs/$pair/not-run.txt"
            dropped+=("$1/runs/$pair")
        else
            kept+=("$pair")
        fi
    done
    ((${#dropped[@]} == 0)) || log "retired: not run: ${dropped[*]#"$OUT/students/"}"
    pending=("${kept[@]}")
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

# A run that ends saying the GPU was short of memory (the driver's exit 7) or that no GPU was
# usable (3) while the GPU was shared, or a sanitizer run whose log shows a CUDA call failing
# for memory (LOG: compute-sanitizer ends with its own status and reports the failed call), may
# have met another student's program, not its own fault: note it, so that the round runs the
# student's group again with the GPU to itself (shared_or_alone). Sets GPU_SHORT.
#   note_gpu_short SANDBOX_TSV [LOG]
note_gpu_short() {
    [[ ${GPU_LOCK_MODE:-} == shared ]] || return 0
    case $(field_of "$1" exit) in
        3 | 7) [[ $(field_of "$1" outcome) == exited ]] && GPU_SHORT=yes ;;
    esac
    [[ -n ${2-} ]] && grep -q 'cudaErrorMemoryAllocation' -- "$2" 2>/dev/null && GPU_SHORT=yes
    return 0
}

# The CPUs of a timed run on GPU: the machine's CPUs in as many slices as there are GPUs, the
# GPU's own slice (so two GPUs' timed runs never share a core, and the reference's timing
# uses the same cores as the students'); empty outside the timed runs (TIMED_ON unset).
timed_cpus() {
    [[ -n ${TIMED_ON-} ]] || return 0
    local count slice position=0 g
    count=$(nproc)
    slice=$((count / ${#GPU_IDS[@]}))
    ((slice >= 1)) || return 0
    for g in "${!GPU_IDS[@]}"; do [[ ${GPU_IDS[$g]} == "$TIMED_ON" ]] && position=$g; done
    echo "$((position * slice))-$((position * slice + slice - 1))"
}

# run_parts SLOT GPU STUDENT LAB CASE PART: one sandboxed process running PART alone on CASE;
# its evidence goes to runs/CASE/PART. Fails, running nothing, when the budget is spent.
run_parts() {
    local slot=$1 gpu=$2 student=$3 lab=$4 case_name=$5 part=$6
    local dir=$OUT/students/$student/$lab box
    local evidence=$dir/runs/$case_name/$part limit args wall
    rm -rf -- "$evidence"
    limit=$(case_limit "$lab" "$case_name")
    if ! wall=$(within_budget "$lab" "$(process_wall "$limit")"); then
        not_run_for_budget "$lab" "$evidence"
        return 1
    fi
    mkdir -p -- "$evidence"
    box=$(fresh_box "$slot" "$student" "$lab")
    read -ra args <<<"${CASE_ARGS[$lab/$case_name]}"
    local cpus
    cpus=$(timed_cpus)
    "$SANDBOX" "${SANDBOX_ARGS[@]}" --box "$box" --status "$evidence/sandbox.tsv" --stdout "$evidence/stdout.txt" \
        --stderr "$evidence/stderr.txt" --wall "$wall" --nproc 128 --fsize "$OUTPUT_LIMIT" ${cpus:+--cpus "$cpus"} \
        --gpu --env "CUDA_VISIBLE_DEVICES=$gpu" -- \
        "./build/bin/$lab-graded" "${args[@]}" --out run-out --time-limit "$limit" --part "$part"
    spend "$evidence/sandbox.tsv"
    note_gpu_short "$evidence/sandbox.tsv"
    collect_outputs "$box" run-out "$evidence/out"
    rm -rf -- "$box"
    trim_log "$evidence/stdout.txt"
    trim_log "$evidence/stderr.txt"
    log "run $student $lab $case_name $part: $(field_of "$evidence/sandbox.tsv" outcome) $(field_of "$evidence/sandbox.tsv" exit)"
}

# case_line LAB CASE PARTS: the line of a cases file that runs PARTS (comma-separated) on CASE,
# as every graded process of the case runs it (a batch, and the sanitizers: so a program cannot
# tell the sanitizer's run from a graded one by its arguments).
case_line() { printf '%s %s --time-limit %s --part %s' "$2" "${CASE_ARGS[$1/$2]}" "$(case_limit "$1" "$2")" "$3"; }

# write_cases_file BOX SLOT LINE...: BOX/cases.txt, written as the grader (never through a link
# the folder might hold) and lent to the sandbox uid of SLOT.
write_cases_file() {
    local box=$1 slot=$2
    shift 2
    rm -rf -- "$box/cases.txt"
    (set -o noclobber && printf '%s\n' "$@" >"$box/cases.txt") || return 1
    lend_box "$box/cases.txt" "$slot"
}

# run_batch SLOT GPU STUDENT LAB N CASE/PART...: one sandboxed process running the given parts
# of the given cases, through a cases file; the evidence of each case goes to
# runs/CASE/batch-N (the process's end and logs are copied to each). Fails, running nothing,
# when the budget is spent.
run_batch() {
    local slot=$1 gpu=$2 student=$3 lab=$4 n=$5
    shift 5
    local dir=$OUT/students/$student/$lab box
    local cases=() pair case_name wall=0 limit
    local -A parts_of=()
    for pair in "$@"; do
        case_name=${pair%%/*}
        [[ -n ${parts_of[$case_name]+x} ]] || cases+=("$case_name")
        parts_of[$case_name]+="${parts_of[$case_name]:+,}${pair#*/}"
    done
    for case_name in "${cases[@]}"; do
        limit=$(case_limit "$lab" "$case_name")
        wall=$(awk -v w="$wall" -v t="$limit" 'BEGIN { printf "%d", w + 2 * t }')
    done
    wall=$((wall + ${GRADE_WALL_MARGIN:-10}))
    if ! wall=$(within_budget "$lab" "$wall"); then
        return 1
    fi
    box=$(fresh_box "$slot" "$student" "$lab")
    local lines=() cpus
    for case_name in "${cases[@]}"; do lines+=("$(case_line "$lab" "$case_name" "${parts_of[$case_name]}")"); done
    write_cases_file "$box" "$slot" "${lines[@]}" || die "cannot write the cases file of $student $lab"
    local run=$dir/runs/.batch-$n
    rm -rf -- "$run" && mkdir -p -- "$run"
    cpus=$(timed_cpus)
    "$SANDBOX" "${SANDBOX_ARGS[@]}" --box "$box" --status "$run/sandbox.tsv" --stdout "$run/stdout.txt" \
        --stderr "$run/stderr.txt" --wall "$wall" --nproc 128 --fsize "$OUTPUT_LIMIT" ${cpus:+--cpus "$cpus"} \
        --gpu --env "CUDA_VISIBLE_DEVICES=$gpu" -- \
        "./build/bin/$lab-graded" --cases cases.txt --out run-out
    spend "$run/sandbox.tsv"
    note_gpu_short "$run/sandbox.tsv"
    trim_log "$run/stdout.txt"
    trim_log "$run/stderr.txt"
    for case_name in "${cases[@]}"; do
        local evidence=$dir/runs/$case_name/batch-$n
        rm -rf -- "$evidence" && mkdir -p -- "$evidence"
        cp -- "$run"/sandbox.tsv "$run"/stdout.txt "$run"/stderr.txt "$evidence/"
        collect_outputs "$box" "run-out/$case_name" "$evidence/out"
    done
    rm -rf -- "$run" "$box"
    log "batch $n of $student $lab (${cases[*]}): $(field_of "$dir/runs/${cases[0]}/batch-$n/sandbox.tsv" outcome) $(field_of "$dir/runs/${cases[0]}/batch-$n/sandbox.tsv" exit)"
}

# run_group SLOT GPU STUDENT LAB CASE...: every part of the given cases, in batches, until
# each part has a record or its own run.
run_group() {
    local slot=$1 gpu=$2 student=$3 lab=$4
    shift 4
    local dir=$OUT/students/$student/$lab pending=() pair case_name part n=0
    for case_name in "$@"; do
        rm -rf -- "${dir:?}/runs/$case_name"  # what an earlier try left (shared_or_alone)
        for part in ${LAB_PARTS[$lab]}; do pending+=("$case_name/$part"); done
    done
    while ((${#pending[@]})); do
        drop_retired "$dir"
        ((${#pending[@]})) || break
        n=$((n + 1))
        if ! run_batch "$slot" "$gpu" "$student" "$lab" "$n" "${pending[@]}"; then
            not_run_for_budget "$lab" "${pending[@]/#/$dir/runs/}"
            return 0
        fi
        local unrecorded=" " seen=" " still=()
        for pair in "${pending[@]}"; do
            case_name=${pair%%/*}
            [[ $seen == *" $case_name "* ]] && continue
            seen+="$case_name "
            note_stops "$lab" "$case_name" "$dir/runs/$case_name/batch-$n"
            for part in $("$GRADER" unrecorded --manifests "$MANIFESTS" --lab "$lab" --run "$dir/runs/$case_name/batch-$n"); do
                unrecorded+="$case_name/$part "
            done
        done
        for pair in "${pending[@]}"; do [[ $unrecorded == *" $pair "* ]] && still+=("$pair"); done
        pending=("${still[@]}")
        drop_retired "$dir"
        ((${#pending[@]})) || break
        if ! run_parts "$slot" "$gpu" "$student" "$lab" "${pending[0]%%/*}" "${pending[0]#*/}"; then
            local rest=("${pending[@]:1}")
            ((${#rest[@]} == 0)) || not_run_for_budget "$lab" "${rest[@]/#/$dir/runs/}"
            return 0
        fi
        note_stops "$lab" "${pending[0]%%/*}" "$dir/runs/${pending[0]}" "${pending[0]#*/}"
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
    local limit part parts=""
    limit=$(case_limit "$lab" "$case_name")
    # The parts not retired (--part a,c): a part that never ends would keep the tool from finishing.
    for part in ${LAB_PARTS[$lab]}; do retired "$part" || parts+="${parts:+,}$part"; done
    # The run of `make labN-memcheck` (mk/sanitize.sh, passed as text because the box's own copy
    # is the student's to change; grading/sanitizer_log.hpp knows its --error-exitcode), but with
    # exactly a graded process's command line (--as-graded): the case's line in cases.txt,
    # --cases and --out, so nothing in its arguments tells the program it is being watched.
    for tool in ${SANITIZE_TOOLS[$lab]}; do
        local evidence=$dir/sanitize/$tool wall
        rm -rf -- "$evidence"
        if [[ -z $parts ]]; then
            mkdir -p -- "$evidence"
            echo "every part of $lab was stopped by its time limit on $RETIRE_AFTER cases, so none is left to run" >"$evidence/not-run.txt"
            continue
        fi
        if ! wall=$(within_budget "$lab" "$(awk -v t="$limit" 'BEGIN { printf "%d", 4 * t + 30 }')"); then
            not_run_for_budget "$lab" "$evidence"
            continue
        fi
        mkdir -p -- "$evidence"
        box=$(fresh_box "$slot" "$student" "$lab")
        write_cases_file "$box" "$slot" "$(case_line "$lab" "$case_name" "$parts")" || die "cannot write the cases file of $student $lab"
        # The tool's threads share one process: its CPU time may run ahead of the wall clock.
        "$SANDBOX" "${SANDBOX_ARGS[@]}" --box "$box" --status "$evidence/sandbox.tsv" --stdout "$evidence/log.txt" \
            --stderr "$evidence/log.txt" --wall "$wall" --cpu $((4 * wall)) --nproc 256 \
            --fsize "$OUTPUT_LIMIT" --gpu --env "CUDA_VISIBLE_DEVICES=$gpu" -- \
            bash -c "$SANITIZE_SCRIPT" mk/sanitize.sh --as-graded "$tool" "./build/bin/$lab-graded" --cases cases.txt --out run-out
        spend "$evidence/sandbox.tsv"
        note_gpu_short "$evidence/sandbox.tsv" "$evidence/log.txt"
        trim_log "$evidence/log.txt"
        rm -rf -- "$box"
        log "sanitize $student $lab $tool: $(field_of "$evidence/sandbox.tsv" outcome) $(field_of "$evidence/sandbox.tsv" exit)"
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
# (final_reference_timings). A part's reference time is the median of those timings' medians
# (grading/scoring.cpp), so the students timed through a night are compared with the GPU as it
# was around them, not only as it was at the start. Fails when it could not be timed.
RETIME_EVERY=${GRADE_RETIME_EVERY:-8}
reference_timed_on() {
    local lab=$1 gpu=$2 guard count=$RUN_DIR/timing-$1-$2.count since=0 status=0
    # A self-check compares with committed times (grade.sh, self_check_timing).
    [[ -z ${LAB_PERF_CASES[$lab]} || ${SELF_CHECK:-no} == yes ]] && return 0
    exec {guard}>>"$RUN_DIR/timing-$lab-$gpu.lock"
    flock -x "$guard"
    [[ -f $count ]] && since=$(<"$count")
    if [[ -e $(timing_root "$lab" "$gpu")/.failed ]]; then
        status=1
    elif ! compgen -G "$(timing_root "$lab" "$gpu")/t*/.done" >/dev/null || ((since >= RETIME_EVERY)); then
        time_reference_again "$lab" "$gpu" || status=1
        since=0
    fi
    echo $((since + 1)) >"$count"
    exec {guard}>&-
    return $status
}
timing_root() { echo "$PRIVATE/timing/$RUN_ID/$1/gpu$2"; }
# time_reference_again LAB GPU: one more timing, t<N>, of LAB's performance cases on GPU.
time_reference_again() {
    local lab=$1 gpu=$2 root started=$EPOCHREALTIME n
    root=$(timing_root "$lab" "$gpu")
    mkdir -p -- "$root"
    n=$(($(find "$root" -mindepth 1 -maxdepth 1 -name 't*' | wc -l) + 1))
    if TIMED_ON=$gpu with_gpu exclusive "$gpu" time_reference "$lab" "$gpu" "$root/t$n"; then
        touch "$root/t$n/.done"
    else
        rm -rf -- "${root:?}/t$n"
        touch "$root/.failed"
        return 1
    fi
    add_time reference-timing "$(seconds_since "$started")"
}
# After a round of timed runs: one last timing on every GPU that timed students since its last.
final_reference_timings() {
    local lab gpu count guard
    for lab in "${LABS[@]}"; do
        for gpu in "${GPU_IDS[@]}"; do
            count=$RUN_DIR/timing-$lab-$gpu.count
            [[ -f $count && $(<"$count") -gt 0 && ! -e $(timing_root "$lab" "$gpu")/.failed ]] || continue
            exec {guard}>>"$RUN_DIR/timing-$lab-$gpu.lock"
            flock -x "$guard"
            time_reference_again "$lab" "$gpu" || say "grade.sh: the last timing of the reference of $lab on GPU $gpu failed"
            echo 0 >"$count"
            exec {guard}>&-
        done
    done
}

# shared_or_alone GPU FUNCTION ARGS...: FUNCTION (run_group, run_sanitizers) with the GPU shared
# with the other runners; when one of its runs found the GPU short of memory (note_gpu_short),
# all of it again with the GPU to itself, the budget and the stopped parts as they were before:
# a classmate's program that fills the GPU costs this student nothing.
shared_or_alone() {
    local gpu=$1 spent=$SPENT stops
    shift
    stops=$(declare -p STOPPED_ON)
    GPU_SHORT=no
    with_gpu shared "$gpu" "$@"
    [[ $GPU_SHORT == yes ]] || return 0
    log "GPU $gpu was short while shared ($student $lab, $1): run again with the GPU to itself"
    SPENT=$spent
    eval "${stops/declare -A/declare -gA}"
    GPU_SHORT=no
    with_gpu exclusive "$gpu" "$@"
}

# The runs go over the class in three rounds (grade.sh, run_on_gpus), so that a timed run,
# which needs its GPU to itself, never waits for another student's untimed runs. With one
# student's runs after another, every timed run waited for the slowest untimed run then on its
# GPU, the other runners behind it: on an H200, one of lab 1's endless loops held the whole
# GPU for two minutes. Now an untimed run that never ends holds one runner, not the GPU.
#   round 1  the public untimed cases          RUNNERS students at a time on each GPU
#   round 2  the public timed cases            one student at a time on each GPU, nothing else
#   round 3  the sanitizers, the hidden cases  as round 1 (a hidden timed case still runs alone)
#            and the score
# Each student keeps the order public cases, sanitizers, hidden cases (run_hidden_round says
# why). A student's budget and stopped parts pass from round to round in a state file.
ROUNDS=3
ROUND_NAMES=("" "public cases" "timed cases" "sanitizers, hidden cases, scores")

save_runner_state() {  # save_runner_state NUMBER: SPENT and STOPPED_ON of the item NUMBER
    local part
    mkdir -p -- "$RUN_DIR/runner-state"
    {
        printf 'SPENT=%q\n' "$SPENT"
        for part in "${!STOPPED_ON[@]}"; do printf 'STOPPED_ON[%q]=%q\n' "$part" "${STOPPED_ON[$part]}"; done
    } >"$RUN_DIR/runner-state/$1"
}
load_runner_state() {  # load_runner_state NUMBER: as the last round left them (none: a fresh start)
    SPENT=0 STOPPED_ON=()
    # shellcheck source=/dev/null
    [[ -f $RUN_DIR/runner-state/$1 ]] && source "$RUN_DIR/runner-state/$1"
    return 0
}

# cases_of LAB timed|untimed CASE...: those of the cases that are (or are not) performance cases.
cases_of() {
    local lab=$1 kind=$2 case_name timed
    shift 2
    for case_name in "$@"; do
        timed=untimed
        [[ " ${LAB_PERF_CASES[$lab]} " == *" $case_name "* ]] && timed=timed
        [[ $timed == "$kind" ]] && printf '%s ' "$case_name"
    done
    return 0
}

# round_work LAB ROUND: the runner time one student x lab takes in ROUND, in sandboxed processes,
# a timed one counting as much as RUNNERS_PER_GPU untimed ones (it has the GPU to itself). The
# progress line's estimate of the time left weighs each step by it.
round_work() {
    local lab=$1 untimed=0 timed=0
    case $2 in
        1) [[ -n $(cases_of "$lab" untimed ${LAB_PUBLIC_CASES[$lab]}) ]] && untimed=1 ;;
        2) [[ -n $(cases_of "$lab" timed ${LAB_PUBLIC_CASES[$lab]}) ]] && timed=1 ;;
        3)
            [[ -n ${SANITIZE_CASE[$lab]} && -n $SANITIZER ]] && untimed=$(wc -w <<<"${SANITIZE_TOOLS[$lab]}")
            [[ -n $(cases_of "$lab" untimed ${LAB_HIDDEN_CASES[$lab]}) ]] && untimed=$((untimed + 1))
            [[ -n $(cases_of "$lab" timed ${LAB_HIDDEN_CASES[$lab]}) ]] && timed=1 ;;
    esac
    awk -v u="$untimed" -v t="$timed" -v r="$RUNNERS" 'BEGIN { printf "%.3f", u / r + t }'
}

# runner_item SLOT "STUDENT<TAB>LAB" NUMBER: sets the caller's student, lab, dir, gpu and
# sandbox_slot (through bash's dynamic scope) and the sandbox options of the item; fails when
# it is not to be run: an earlier round left a not-run.txt, or its GPU stopped working.
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
    sandbox_options "$sandbox_slot"
}

# gpu_lost_after GPU: after a round of the caller's student x lab on GPU. A program that ended
# saying "no GPU", or a fault, may have taken the GPU down with it: if so, no more runs go to it.
gpu_lost_after() {
    grep -qE $'outcome=(signal|timeout)|exit=(3|4|5)\t' "$dir"/runs/*/*/sandbox.tsv "$dir"/sanitize/*/sandbox.tsv 2>/dev/null || return 1
    gpu_still_works "$1" && return 1
    touch "$RUN_DIR/gpu-lost-$1"
    echo "GPU $1 stopped working while this submission ran; grade again with --resume" >"$dir/not-run.txt"
    say "grade.sh: GPU $1 stopped working (after $student $lab); the students left for it are not run"
}

# timed_runs CASE...: the caller's timed cases, alone on the GPU whose reference timing they are
# compared with (gpu.txt: the first round to time a case chooses it).
timed_runs() {
    local timing_gpu
    timing_gpu=$(cat "$dir/gpu.txt" 2>/dev/null || echo "$gpu")
    if ! reference_timed_on "$lab" "$timing_gpu"; then
        echo "the reference solution could not be timed on GPU $timing_gpu" >"$dir/not-run.txt"
        return 1
    fi
    echo "$timing_gpu" >"$dir/gpu.txt"
    local started=$EPOCHREALTIME
    TIMED_ON=$timing_gpu with_gpu exclusive "$timing_gpu" run_group "$sandbox_slot" "$timing_gpu" "$student" "$lab" "$@"
    add_time "timed cases" "$(seconds_since "$started")"
    ! gpu_lost_after "$timing_gpu"
}

# The rounds' worker functions, for run_pool: each takes SLOT "STUDENT<TAB>LAB" NUMBER.
run_public_round() {
    local student lab dir gpu sandbox_slot cases started=$EPOCHREALTIME
    if runner_item "$@"; then
        SPENT=0 STOPPED_ON=()
        cases=$(cases_of "$lab" untimed ${LAB_PUBLIC_CASES[$lab]})
        # shellcheck disable=SC2086  # a list of case names
        [[ -z $cases ]] || shared_or_alone "$gpu" run_group "$sandbox_slot" "$gpu" "$student" "$lab" $cases
        add_time cases "$(seconds_since "$started")"
        gpu_lost_after "$gpu" || save_runner_state "$3"
    fi
    progress_step "$student" "$lab" "$(round_work "$lab" 1)"
}

run_timed_round() {
    local student lab dir gpu sandbox_slot cases
    if runner_item "$@"; then
        cases=$(cases_of "$lab" timed ${LAB_PUBLIC_CASES[$lab]})
        load_runner_state "$3"
        # shellcheck disable=SC2086
        if [[ -z $cases ]] || timed_runs $cases; then save_runner_state "$3"; fi
    fi
    progress_step "$student" "$lab" "$(round_work "$lab" 2)"
}

# Round 3. The sanitizers (public) run before the hidden cases: nothing a process saw of a
# hidden case can reach a run whose messages the student sees (under --sandbox rlimits, say, a
# file the uid left in /tmp).
run_hidden_round() {
    local student lab dir gpu sandbox_slot cases started=$EPOCHREALTIME
    if runner_item "$@"; then
        load_runner_state "$3"
        shared_or_alone "$gpu" run_sanitizers "$sandbox_slot" "$gpu" "$student" "$lab"
        add_time sanitizer "$(seconds_since "$started")"
        started=$EPOCHREALTIME
        cases=$(cases_of "$lab" untimed ${LAB_HIDDEN_CASES[$lab]})
        # shellcheck disable=SC2086
        [[ -z $cases ]] || RUN_HIDDEN=yes shared_or_alone "$gpu" run_group "$sandbox_slot" "$gpu" "$student" "$lab" $cases
        add_time cases "$(seconds_since "$started")"
        cases=$(cases_of "$lab" timed ${LAB_HIDDEN_CASES[$lab]})
        # shellcheck disable=SC2086
        if ! gpu_lost_after "$gpu" && { [[ -z $cases ]] || RUN_HIDDEN=yes timed_runs $cases; }; then
            [[ -e $dir/gpu.txt ]] || echo "$gpu" >"$dir/gpu.txt"
            started=$EPOCHREALTIME
            score_student_lab "$student" "$lab" || log "scoring $student $lab failed in its runner; it is tried again at the end"
            add_time scoring "$(seconds_since "$started")"
        fi
    fi
    progress_step "$student" "$lab" "$(round_work "$lab" 3)"
}
