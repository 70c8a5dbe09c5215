# The reference solution's side of every case, run by the grader itself (trusted: no sandbox,
# but a time limit), on the GPU, one run at a time. Sourced by grade.sh.
#   outputs: once per case, with --write-bounds, cached under .grader/reference/<lab>/<key>/
#            (key: the pristine sources, the solution and the case's arguments) and never
#            visible inside a student's sandbox;
#   timings: the performance cases again on each GPU, in this grading run, for the curve.

# The time limit of a case in this run: the manifest's, or --time-limit when lower.
case_limit() {
    local limit=${CASE_LIMIT[$1/$2]}
    [[ -n $TIME_LIMIT_CAP ]] && awk -v a="$limit" -v b="$TIME_LIMIT_CAP" 'BEGIN { exit !(b < a) }' && limit=$TIME_LIMIT_CAP
    echo "$limit"
}
# Wall-clock limit of a process that runs parts on a case: the driver stops a stuck kernel
# after the case's limit; the rest is room for the work before it, for starting up and for
# a clean exit (GRADE_WALL_MARGIN seconds, default 10).
process_wall() { awk -v t="$1" -v m="${GRADE_WALL_MARGIN:-10}" 'BEGIN { printf "%d", 2 * t + m }'; }

all_parts_argument() { local parts=${LAB_PARTS[$1]}; echo "${parts// /,}"; }

# run_reference LAB CASE DIR GPU [--write-bounds]: one trusted run into DIR/out.
run_reference() {
    local lab=$1 case_name=$2 dir=$3 gpu=$4 bounds=${5-} limit args
    limit=$(case_limit "$lab" "$case_name")
    read -ra args <<<"${CASE_ARGS[$lab/$case_name]}"
    rm -rf -- "$dir" && mkdir -p -- "$dir/out"
    CUDA_VISIBLE_DEVICES=$gpu timeout -s KILL "$(process_wall "$limit")" "${REFERENCE_BIN[$lab]}" "${args[@]}" \
        --out "$dir/out" --time-limit "$limit" ${LAB_PART_OPTION[$lab]} "$(all_parts_argument "$lab")" \
        ${bounds:+"$bounds"} >"$dir/log.txt" 2>&1
}

# Outputs of every case of LAB, from the cache or made now on the first GPU.
make_reference_outputs() {
    local lab=$1 case_name dir problem
    REFERENCE_DIR[$lab]=$PRIVATE/reference/$lab/${REFERENCE_KEY[$lab]}
    for case_name in ${LAB_CASES[$lab]}; do
        dir=${REFERENCE_DIR[$lab]}/$case_name
        if [[ -d $dir ]] && "$GRADER" check-reference --manifests "$REPO/labs" --lab "$lab" --run "$dir" --with-bounds >/dev/null; then
            continue
        fi
        say "  reference outputs: $lab $case_name"
        run_reference "$lab" "$case_name" "$dir" "${GPU_IDS[0]}" --write-bounds
        if ! problem=$("$GRADER" check-reference --manifests "$REPO/labs" --lab "$lab" --run "$dir" --with-bounds); then
            die "the reference solution fails $lab case $case_name: $problem (log: $dir/log.txt). Fix the solution or the manifest before grading."
        fi
    done
}

# Timings of LAB's performance cases on GPU, for the students graded on it.
time_reference() {
    local lab=$1 gpu=$2 case_name dir problem
    for case_name in ${LAB_PERF_CASES[$lab]}; do
        dir=$PRIVATE/timing/$RUN_ID/$lab/gpu$gpu/$case_name
        run_reference "$lab" "$case_name" "$dir" "$gpu"
        if ! problem=$("$GRADER" check-reference --manifests "$REPO/labs" --lab "$lab" --run "$dir"); then
            say "grade.sh: timing the reference solution on GPU $gpu failed for $lab $case_name: $problem"
            return 1
        fi
    done
}

# The lab's binary must start inside the sandbox (its libraries found, its folder reachable)
# before any student is run with it: `--help` needs no GPU. Stops the run otherwise.
check_binary_in_sandbox() {
    local lab=$1 box=$BOXES/.probe
    rm -rf -- "$box" && mkdir -p -- "$box" && cp -- "${REFERENCE_BIN[$lab]}" "$box/lab-binary"
    sandbox_options 100
    lend_box "$box" 100
    "$SANDBOX" "${SANDBOX_ARGS[@]}" --box "$box" --status "$PRIVATE/probe.tsv" --stdout "$PRIVATE/probe.out" \
        --stderr "$PRIVATE/probe.out" --wall 60 -- ./lab-binary --help
    if [[ $(field_of "$PRIVATE/probe.tsv" outcome) != exited || $(field_of "$PRIVATE/probe.tsv" exit) != 0 ]]; then
        die "the $lab binary cannot start in the sandbox ($(tail -1 "$PRIVATE/probe.out")); if it needs LD_LIBRARY_PATH, set it before grade.sh"
    fi
    rm -rf -- "$box"
}
