# The GPU side of grading: every case of every built student x lab, in the sandbox, one run at
# a time per GPU (one runner per GPU), then the sanitizer tools. Sourced by grade.sh.
#
# A student's cases run in few processes (CUDA starts once for many cases): one for the public
# cases, then the sanitizer runs, then one for the hidden cases, so that nothing a process saw
# of a hidden case can reach a message the feedback shows. Each such batch gives the driver a
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
    stopped=$("$GRADER" stopped --manifests "$REPO/labs" --lab "$lab" --run "$dir")
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
# reaches the next one (a hidden case's arguments, say).
fresh_box() {
    local built=$BOXES/$2/$3 box=$BOXES/$2/$3.run
    rm -rf -- "$box" && cp -a -- "$built" "$box" && mkdir -- "$box/run-out" || die "cannot copy the work folder $built"
    lend_box "$box" "$1"
    printf '%s\n' "$box"
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
    "$SANDBOX" "${SANDBOX_ARGS[@]}" --box "$box" --status "$evidence/sandbox.tsv" --stdout "$evidence/stdout.txt" \
        --stderr "$evidence/stderr.txt" --wall "$wall" --nproc 128 --fsize "$OUTPUT_LIMIT" \
        --gpu --env "CUDA_VISIBLE_DEVICES=$gpu" -- \
        "./build/bin/$lab-graded" "${args[@]}" --out run-out --time-limit "$limit" --part "$part"
    spend "$evidence/sandbox.tsv"
    collect_outputs "$box" run-out "$evidence/out"
    rm -rf -- "$box"
    trim_log "$evidence/stdout.txt"
    trim_log "$evidence/stderr.txt"
    log "run $student $lab $case_name $part: $(field_of "$evidence/sandbox.tsv" outcome) $(field_of "$evidence/sandbox.tsv" exit)"
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
    # The list of cases, written as the grader (never through a link the folder might hold).
    rm -rf -- "$box/cases.txt"
    (
        set -o noclobber
        for case_name in "${cases[@]}"; do
            printf '%s %s --time-limit %s --part %s\n' "$case_name" "${CASE_ARGS[$lab/$case_name]}" \
                "$(case_limit "$lab" "$case_name")" "${parts_of[$case_name]}"
        done >"$box/cases.txt"
    ) || die "cannot write the cases file of $student $lab"
    lend_box "$box/cases.txt" "$slot"
    local run=$dir/runs/.batch-$n
    rm -rf -- "$run" && mkdir -p -- "$run"
    "$SANDBOX" "${SANDBOX_ARGS[@]}" --box "$box" --status "$run/sandbox.tsv" --stdout "$run/stdout.txt" \
        --stderr "$run/stderr.txt" --wall "$wall" --nproc 128 --fsize "$OUTPUT_LIMIT" \
        --gpu --env "CUDA_VISIBLE_DEVICES=$gpu" -- \
        "./build/bin/$lab-graded" --cases cases.txt --out run-out
    spend "$run/sandbox.tsv"
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
            for part in $("$GRADER" unrecorded --manifests "$REPO/labs" --lab "$lab" --run "$dir/runs/$case_name/batch-$n"); do
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
    local limit args part parts=""
    limit=$(case_limit "$lab" "$case_name")
    read -ra args <<<"${CASE_ARGS[$lab/$case_name]}"
    # The parts not retired (--part a,c): a part that never ends would keep the tool from finishing.
    for part in ${LAB_PARTS[$lab]}; do retired "$part" || parts+="${parts:+,}$part"; done
    # The run of `make labN-memcheck`: mk/sanitize.sh, passed as text because the box's own copy
    # is the student's to change (grading/sanitizer_log.hpp knows its --error-exitcode).
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
        # The tool's threads share one process: its CPU time may run ahead of the wall clock.
        "$SANDBOX" "${SANDBOX_ARGS[@]}" --box "$box" --status "$evidence/sandbox.tsv" --stdout "$evidence/log.txt" \
            --stderr "$evidence/log.txt" --wall "$wall" --cpu $((4 * wall)) --nproc 256 \
            --fsize "$OUTPUT_LIMIT" --gpu --env "CUDA_VISIBLE_DEVICES=$gpu" -- \
            bash -c "$SANITIZE_SCRIPT" mk/sanitize.sh "$tool" "./build/bin/$lab-graded" "${args[@]}" \
            --time-limit "$limit" --part "$parts"
        spend "$evidence/sandbox.tsv"
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
    "$@"
    status=$?
    exec {rw}>&-
    [[ $mode == exclusive ]] && exec {turnstile}>&-
    return $status
}

# The reference solution timed on GPU for LAB's performance cases, once per grading run and
# GPU, by whichever runner of that GPU comes first. Fails when it could not be timed.
reference_timed_on() {
    local lab=$1 gpu=$2 guard timing=$PRIVATE/timing/$RUN_ID/$1/gpu$2
    [[ -z ${LAB_PERF_CASES[$lab]} || -e $timing/.done ]] && return 0
    exec {guard}>>"$RUN_DIR/timing-$lab-$gpu.lock"
    flock -x "$guard"
    if [[ ! -e $timing/.done && ! -e $timing/.failed ]]; then
        local started=$EPOCHREALTIME
        mkdir -p -- "$timing"
        if with_gpu exclusive "$gpu" time_reference "$lab" "$gpu"; then touch "$timing/.done"; else touch "$timing/.failed"; fi
        add_time reference-timing "$(seconds_since "$started")"
    fi
    exec {guard}>&-
    [[ -e $timing/.done ]]
}

# run_cases SLOT GPU STUDENT LAB CASE...: the untimed cases among them with the GPU shared, then
# the timed ones (performance cases) with the GPU to themselves.
run_cases() {
    local slot=$1 gpu=$2 student=$3 lab=$4 case_name untimed=() timed=()
    shift 4
    for case_name in "$@"; do
        if [[ " ${LAB_PERF_CASES[$lab]} " == *" $case_name "* ]]; then timed+=("$case_name"); else untimed+=("$case_name"); fi
    done
    ((${#untimed[@]} == 0)) || with_gpu shared "$gpu" run_group "$slot" "$gpu" "$student" "$lab" "${untimed[@]}"
    ((${#timed[@]} == 0)) || with_gpu exclusive "$gpu" run_group "$slot" "$gpu" "$student" "$lab" "${timed[@]}"
}

# run_student_lab SLOT "STUDENT<TAB>LAB" NUMBER: the runners' worker function: runs and scores
# one student x lab, then moves the progress line on.
run_student_lab() {
    local student lab
    IFS=$'\t' read -r student lab <<<"$2"
    run_and_score "$1" "$student" "$lab" "$3"
    progress_step "$student" "$lab"
}

# run_and_score SLOT STUDENT LAB NUMBER. RUNNERS_PER_GPU runners share each GPU (slot modulo the
# number of GPUs picks it). Each student x lab runs as a sandbox uid of its own (from its place
# in the list), so nothing one student's runs leave behind belongs to the next student's uid.
run_and_score() {
    local slot=$1 student=$2 lab=$3 number=$4
    # (The tasks of a Slurm job array interleave their numbers: two on one node never share a uid.)
    local gpu=${GPU_IDS[$((slot % ${#GPU_IDS[@]}))]} sandbox_slot=$((100 + ((number - 1) * TASK_COUNT + TASK_INDEX) % 900))
    local dir=$OUT/students/$student/$lab
    if [[ -e $RUN_DIR/gpu-lost-$gpu ]]; then
        echo "GPU $gpu stopped working during grading; grade again with --resume" >"$dir/not-run.txt"
        return 0
    fi
    if ! reference_timed_on "$lab" "$gpu"; then
        echo "the reference solution could not be timed on GPU $gpu" >"$dir/not-run.txt"
        return 0
    fi
    sandbox_options "$sandbox_slot"
    SPENT=0 STOPPED_ON=()
    # Public cases, then the sanitizers (public too), then the hidden cases: nothing a process
    # saw of a hidden case can reach a run whose messages the student sees.
    local started=$EPOCHREALTIME
    [[ -z ${LAB_PUBLIC_CASES[$lab]} ]] || run_cases "$sandbox_slot" "$gpu" "$student" "$lab" ${LAB_PUBLIC_CASES[$lab]}
    add_time cases "$(seconds_since "$started")"
    started=$EPOCHREALTIME
    with_gpu shared "$gpu" run_sanitizers "$sandbox_slot" "$gpu" "$student" "$lab"
    add_time sanitizer "$(seconds_since "$started")"
    started=$EPOCHREALTIME
    [[ -z ${LAB_HIDDEN_CASES[$lab]} ]] || run_cases "$sandbox_slot" "$gpu" "$student" "$lab" ${LAB_HIDDEN_CASES[$lab]}
    add_time cases "$(seconds_since "$started")"
    echo "$gpu" >"$dir/gpu.txt"
    # A program that ended saying "no GPU", or a fault, may have taken the GPU down with it.
    if grep -qE $'outcome=(signal|timeout)|exit=(3|4|5)\t' "$dir"/runs/*/*/sandbox.tsv 2>/dev/null && ! gpu_still_works "$gpu"; then
        touch "$RUN_DIR/gpu-lost-$gpu"
        echo "GPU $gpu stopped working while this submission ran; grade again with --resume" >"$dir/not-run.txt"
        say "grade.sh: GPU $gpu stopped working (after $student $lab); the students left for it are not run"
        return 0
    fi
    started=$EPOCHREALTIME
    score_student_lab "$student" "$lab" || log "scoring $student $lab failed in its runner; it is tried again at the end"
    add_time scoring "$(seconds_since "$started")"
}
