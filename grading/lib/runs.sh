# The GPU side of grading: every case of every built student x lab, in the sandbox, one run at
# a time per GPU (one runner per GPU), then the sanitizer tools. Sourced by grade.sh.
#
# Each case runs all parts in one process. When that process dies part-way (a crash, a
# stuck kernel, the wall clock), the parts it left without a record are run again one at a
# time, so a failing part costs only its own points.

OUTPUT_LIMIT=${GRADE_OUTPUT_LIMIT:-$((256 << 20))}
MAX_COLLECTED_FILES=64

# Copies what a run left in BOX/run-out into DEST: plain files with plain names only (never
# a link), and only from the real run-out folder (the program may have replaced it).
collect_outputs() {
    local box=$1 dest=$2 source=$1/run-out count=0 file name
    mkdir -p -- "$dest"
    if [[ -d $source && ! -L $source && $(realpath -e -- "$source") == "$(realpath -e -- "$box")/run-out" ]]; then
        while IFS= read -r -d '' file; do
            name=${file##*/}
            [[ $name =~ ^[A-Za-z0-9._-]+$ ]] || continue
            ((++count > MAX_COLLECTED_FILES)) && break
            cp -- "$file" "$dest/$name"
        done < <(find "$source" -mindepth 1 -maxdepth 1 -type f -print0)
    fi
    rm -rf -- "$source"
}

# Logs are kept to their last 64 KB: enough for the feedback, small for 50 students.
trim_log() { [[ -f $1 ]] && tail -c 65536 -- "$1" >"$1.tail" && mv -- "$1.tail" "$1"; return 0; }

# run_parts SLOT GPU STUDENT LAB CASE NAME PARTS: one sandboxed process running PARTS (a
# comma-separated list) on CASE; its evidence goes to runs/CASE/NAME.
run_parts() {
    local slot=$1 gpu=$2 student=$3 lab=$4 case_name=$5 name=$6 parts=$7
    local dir=$OUT/students/$student/$lab box=$BOXES/$student/$lab
    local evidence=$dir/runs/$case_name/$name limit args
    rm -rf -- "$evidence" && mkdir -p -- "$evidence"
    rm -rf -- "$box/run-out" && mkdir -- "$box/run-out"
    lend_box "$box/run-out" "$slot"
    limit=$(case_limit "$lab" "$case_name")
    read -ra args <<<"${CASE_ARGS[$lab/$case_name]}"
    "$SANDBOX" "${SANDBOX_ARGS[@]}" --box "$box" --status "$evidence/sandbox.tsv" --stdout "$evidence/stdout.txt" \
        --stderr "$evidence/stderr.txt" --wall "$(process_wall "$limit")" --nproc 128 --fsize "$OUTPUT_LIMIT" \
        --gpu --env "CUDA_VISIBLE_DEVICES=$gpu" -- \
        "./build/bin/$lab-student" "${args[@]}" --out run-out --time-limit "$limit" ${LAB_PART_OPTION[$lab]} "$parts"
    collect_outputs "$box" "$evidence/out"
    trim_log "$evidence/stdout.txt"
    trim_log "$evidence/stderr.txt"
    log "run $student $lab $case_name $name: $(field_of "$evidence/sandbox.tsv" outcome) $(field_of "$evidence/sandbox.tsv" exit)"
}

# A run that exits with "no GPU" may be telling the truth or lying: ask the GPU (trusted).
gpu_still_works() { gpu_assumed || CUDA_VISIBLE_DEVICES=$1 "$GRADER" gpus >/dev/null 2>&1; }

run_case() {
    local slot=$1 gpu=$2 student=$3 lab=$4 case_name=$5 part missing
    local dir=$OUT/students/$student/$lab
    run_parts "$slot" "$gpu" "$student" "$lab" "$case_name" all "$(all_parts_argument "$lab")"
    mapfile -t missing < <("$GRADER" unrecorded --manifests "$REPO/labs" --lab "$lab" --run "$dir/runs/$case_name/all")
    for part in "${missing[@]}"; do
        run_parts "$slot" "$gpu" "$student" "$lab" "$case_name" "$part" "$part"
    done
}

run_sanitizers() {
    local slot=$1 gpu=$2 student=$3 lab=$4 tool
    local dir=$OUT/students/$student/$lab box=$BOXES/$student/$lab
    local case_name=${SANITIZE_CASE[$lab]}
    [[ -n $case_name ]] || return 0
    mkdir -p -- "$dir/sanitize"
    if [[ -z $SANITIZER ]]; then
        echo "compute-sanitizer is not installed on the grading machine" >"$dir/sanitize/not-run.txt"
        return 0
    fi
    local limit args
    limit=$(case_limit "$lab" "$case_name")
    read -ra args <<<"${CASE_ARGS[$lab/$case_name]}"
    # The run of `make labN-memcheck`: mk/sanitize.sh, passed as text because the box's own copy
    # is the student's to change (grading/sanitizer_log.hpp knows its --error-exitcode).
    for tool in ${SANITIZE_TOOLS[$lab]}; do
        local evidence=$dir/sanitize/$tool wall
        rm -rf -- "$evidence" && mkdir -p -- "$evidence"
        wall=$(awk -v t="$limit" 'BEGIN { printf "%d", 4 * t + 30 }')
        # The tool's threads share one process: its CPU time may run ahead of the wall clock.
        "$SANDBOX" "${SANDBOX_ARGS[@]}" --box "$box" --status "$evidence/sandbox.tsv" --stdout "$evidence/log.txt" \
            --stderr "$evidence/log.txt" --wall "$wall" --cpu $((4 * wall)) --nproc 256 \
            --fsize "$OUTPUT_LIMIT" --gpu --env "CUDA_VISIBLE_DEVICES=$gpu" -- \
            bash -c "$SANITIZE_SCRIPT" mk/sanitize.sh "$tool" "./build/bin/$lab-student" "${args[@]}" \
            --time-limit "$limit" ${LAB_PART_OPTION[$lab]} "$(all_parts_argument "$lab")"
        trim_log "$evidence/log.txt"
        log "sanitize $student $lab $tool: $(field_of "$evidence/sandbox.tsv" outcome) $(field_of "$evidence/sandbox.tsv" exit)"
    done
}

# run_student_lab SLOT "STUDENT<TAB>LAB": the runners' worker function; SLOT picks the GPU.
run_student_lab() {
    local slot=$1 student lab case_name
    IFS=$'\t' read -r student lab <<<"$2"
    local gpu=${GPU_IDS[$1]} sandbox_slot=$((100 + $1))
    local dir=$OUT/students/$student/$lab box=$BOXES/$student/$lab
    if [[ -e $PRIVATE/gpu-lost-$gpu ]]; then
        echo "GPU $gpu stopped working during grading; grade again with --resume" >"$dir/not-run.txt"
        return 0
    fi
    local timing=$PRIVATE/timing/$RUN_ID/$lab/gpu$gpu
    if [[ -n ${LAB_PERF_CASES[$lab]} && ! -e $timing/.done ]]; then
        local started=$EPOCHREALTIME
        if time_reference "$lab" "$gpu"; then touch "$timing/.done"; fi
        add_time reference-timing "$(seconds_since "$started")"
        if [[ ! -e $timing/.done ]]; then
            echo "the reference solution could not be timed on GPU $gpu" >"$dir/not-run.txt"
            return 0
        fi
    fi
    sandbox_options "$sandbox_slot"
    lend_box "$box" "$sandbox_slot"
    local started=$EPOCHREALTIME
    for case_name in ${LAB_CASES[$lab]}; do
        run_case "$sandbox_slot" "$gpu" "$student" "$lab" "$case_name"
    done
    add_time cases "$(seconds_since "$started")"
    started=$EPOCHREALTIME
    run_sanitizers "$sandbox_slot" "$gpu" "$student" "$lab"
    add_time sanitizer "$(seconds_since "$started")"
    take_back_box "$box"
    echo "$gpu" >"$dir/gpu.txt"
    # A program that ended saying "no GPU", or a fault, may have taken the GPU down with it.
    if grep -qE $'outcome=(signal|timeout)|exit=(3|4|5)\t' "$dir"/runs/*/*/sandbox.tsv 2>/dev/null && ! gpu_still_works "$gpu"; then
        touch "$PRIVATE/gpu-lost-$gpu"
        echo "GPU $gpu stopped working while this submission ran; grade again with --resume" >"$dir/not-run.txt"
        say "grade.sh: GPU $gpu stopped working (after $student $lab); the students left for it are not run"
    fi
}
