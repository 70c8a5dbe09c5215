# The reference solution's side of every case, run by the grader itself (trusted: no sandbox,
# but a time limit), on the GPU, one run at a time. Sourced by grade.sh. In a self-check
# (grade.sh --self-check, make labN-check) there is no reference solution: the reference binary
# is the lab's driver with its starter, run with REFERENCE_ARGS=(--reference-outputs), which
# writes the CPU reference's answer as every part's output and runs no part.
#   outputs: once per case, with --write-bounds, cached under .grader/reference/<lab>/<key>/
#            (key: the pristine sources, the solution and the case's arguments) and never
#            visible inside a student's sandbox;
#   timings: the performance cases again on each GPU, several times through this grading run,
#            for the curve (runs.sh, reference_timed_on);
#   checked timed runs: the outputs of the timed runs a student's driver kept, on the same
#            inputs (--data-seed: what the run drew them from), each made before the student
#            is scored;
#            first, one run of each part on each case on fresh inputs, to find a reference
#            solution that is wrong there before any run is timed.

# cases_file LAB USE FILE ITEMS [OPTION...]: FILE, the cases file of one reference run of ITEMS
# (grader cases-file, grading/cases_file.hpp), and FILE.wall, the run's wall clock: a student's
# batch's of the same cases (grading/run_ledger.hpp), with no budget to draw on; prints what it runs.
cases_file() {
    "$GRADER" cases-file --plan "$PLAN_DIR/$1.tsv" --for "$2" --out "$3" --wall-out "$3.wall" --items "$4" "${@:5}"
}

# reference_binary LAB GPU WALL LOG ARG...: one run of LAB's reference binary with the ARGs, its
# output in LOG, killed after WALL seconds; from the repository, where the cases' data files
# are named (hidden ones too); on the timed runs' CPUs when timed (TIMED_ON). Under the affinity
# guard, as a student's runs are, so that its CPU parts are pinned the same way, and its GPU parts
# after them, which the guard keeps on the CPU parts' CPUs, timed as the students' are.
reference_binary() {
    local lab=$1 gpu=$2 wall=$3 log=$4 cpus
    shift 4
    cpus=$(timed_cpus)
    (cd "$REPO" && CUDA_VISIBLE_DEVICES=$gpu ${cpus:+taskset -c "$cpus"} timeout -s KILL "$wall" \
        "$AFFINITY_GUARD" "${REFERENCE_BIN[$lab]}" "${REFERENCE_ARGS[@]}" "$@" >"$log" 2>&1)
}

# run_reference LAB DIR GPU BOUNDS CASE...: one trusted run of the reference solution over the
# cases, each into DIR/CASE/out (BOUNDS: --write-bounds, or "" for a timing run); fails as the
# binary did. The outputs' run times nothing (--reps 0): an output is its part's checked run's,
# before any timed run, and the times compared are the timing runs' (a lab 7 reference spent 6 s
# on i-j-k's timed runs). It checks every output against the CPU reference, whose bounds it
# writes: a failed check, or a part that stopped, is an exit status other than 0.
run_reference() {
    local lab=$1 dir=$2 gpu=$3 bounds=$4 case_name wall status=0 use=reference-timing
    shift 4
    [[ -n $bounds ]] && use=reference-outputs
    mkdir -p -- "$dir"
    rm -rf -- "$dir/.run" && mkdir -- "$dir/.run"
    cases_file "$lab" "$use" "$dir/.run/cases.txt" "$*" >/dev/null || die "cannot write the cases file of the reference solution of $lab"
    wall=$(<"$dir/.run/cases.txt.wall")
    reference_binary "$lab" "$gpu" "$wall" "$dir/.run/log.txt" --cases "$dir/.run/cases.txt" --out "$dir/.run" ${bounds:+"$bounds"} ||
        status=$?
    for case_name in "$@"; do
        rm -rf -- "${dir:?}/$case_name" && mkdir -p -- "$dir/$case_name"
        # A run that failed keeps only its log: no later run may take its outputs as made.
        ((status == 0)) && [[ -d $dir/.run/$case_name ]] && mv -- "$dir/.run/$case_name" "$dir/$case_name/out"
        cp -- "$dir/.run/log.txt" "$dir/$case_name/log.txt"
    done
    rm -rf -- "$dir/.run"
    return $status
}
# failed_checks LOG: what a reference run's log says failed (its FAIL rows, or its last line).
failed_checks() { { grep -m3 -w FAIL "$1" || tail -1 "$1"; } 2>/dev/null | tr -s ' \t' ' ' | paste -sd';'; }

# make_case_outputs LAB: the outputs of every case of LAB, from the cache or made now on the first
# GPU; sets REFERENCE_DIR[LAB]. The labs' are made side by side (for_labs_side_by_side): each is
# one process, mostly its CPU reference's work, 51 s of lab 2's 118 s of eight labs one after
# another on an H200.
make_case_outputs() { with_lock "$PRIVATE/reference-$1.lock" make_missing_reference_outputs "$1"; }
make_missing_reference_outputs() {
    local lab=$1 line missing=() problems status=0
    REFERENCE_DIR[$lab]=$PRIVATE/reference/$lab/${REFERENCE_KEY[$lab]}
    problems=$(check_reference "$lab" "${REFERENCE_DIR[$lab]}" "${LAB_CASES[$lab]}" --with-bounds) || status=$?
    ((status < 2)) || die "grader check-reference failed for $lab: $problems"
    while IFS= read -r line; do [[ -n $line ]] && missing+=("${line%%:*}"); done <<<"$problems"
    ((${#missing[@]})) || return 0
    say "  reference outputs: $lab ${missing[*]}"
    local log=${REFERENCE_DIR[$lab]}/${missing[0]}/log.txt
    run_reference "$lab" "${REFERENCE_DIR[$lab]}" "${GPU_IDS[0]}" --write-bounds "${missing[@]}" ||
        die "the reference solution of $lab fails its own check (exit $?: $(failed_checks "$log"); log: $log). Fix the solution or the manifest before grading."
    problems=$(check_reference "$lab" "${REFERENCE_DIR[$lab]}" "${missing[*]}" --with-bounds) ||
        die "the reference solution fails $lab: ${problems//$'\n'/; } (logs: ${REFERENCE_DIR[$lab]}/CASE/log.txt). Fix the solution or the manifest before grading."
}
# check_reference LAB ROOT CASES [--with-bounds]: a line "CASE: what is wrong" for each reference
# run of CASES under ROOT that is not complete (grader check-reference); exit 1 if any.
check_reference() {
    "$GRADER" check-reference --plan "$PLAN_DIR/$1.tsv" --root "$2" --cases "$3" "${@:4}"
}

# time_reference LAB GPU DIR: one timing of LAB's performance cases on GPU, into DIR/<case>/.
time_reference() {
    local lab=$1 gpu=$2 dir=$3 problems status=0
    run_reference "$lab" "$dir" "$gpu" "" ${LAB_PERF_CASES[$lab]} || status=$?
    if ((status)); then
        say "grade.sh: timing the reference solution on GPU $gpu failed for $lab (exit $status; log: $dir/${LAB_PERF_CASES[$lab]%% *}/log.txt)"
        return 1
    fi
    if ! problems=$(check_reference "$lab" "$dir" "${LAB_PERF_CASES[$lab]}"); then
        say "grade.sh: timing the reference solution on GPU $gpu failed for $lab ${problems//$'\n'/; }"
        return 1
    fi
}

# The lab's binary must start inside the sandbox (its libraries found, its folder reachable)
# before any student is run with it: `--help` needs no GPU. Stops the run otherwise.
check_binary_in_sandbox() {
    local lab=$1 box=$BOXES/.probe
    rm -rf -- "$box" && mkdir -p -- "$box" && cp -- "${REFERENCE_BIN[$lab]}" "$box/lab-binary"
    sandbox_options 100
    lend_box "$box" 100
    "$SANDBOX" "${SANDBOX_ARGS[@]}" --box "$box" --status "$RUN_DIR/probe.tsv" --stdout "$RUN_DIR/probe.out" \
        --stderr "$RUN_DIR/probe.out" --wall 60 -- ./lab-binary --help
    if [[ $(field_of "$RUN_DIR/probe.tsv" outcome) != exited || $(field_of "$RUN_DIR/probe.tsv" exit) != 0 ]]; then
        die "the $lab binary cannot start in the sandbox ($(tail -1 "$RUN_DIR/probe.out")); if it needs LD_LIBRARY_PATH, set it before grade.sh"
    fi
    rm -rf -- "$box"
}

# The references of checked timed runs (a student's driver keeps the outputs of two timed runs
# of each part, decided as each run ends, and names them with the seeds of their inputs, drawn as
# each run began: grading/FORMATS.md): the reference solution on the same inputs (`--data-seed S
# --part P`), kept as a sample of at most 65536 positions drawn from SAMPLE_SEED, which no
# student's process ever sees (grader keep-checked-runs). The first of a part's on a case draws
# them, and the others take them (grading/checked_positions.hpp), as do the students' kept
# outputs, reduced to them once their process has ended (runs.sh, check_outputs). No two
# students' runs share inputs, so each is made for the student whose record names it: those of
# the public cases for the whole class at once after the timed round
# (make_class_checked_run_references), beside round 3, and any still missing (a hidden case's)
# when the student is scored (make_checked_run_references).
# Never beside a timed run.
#
# check_reference_on_fresh_inputs LAB...: before any run is timed, beside round 1, one run of each
# part the reference ran on each case, on inputs of a seed drawn from SAMPLE_SEED (grader
# checked-runs --probe): a reference solution right on the cases' own inputs and wrong on a timed
# run's stops the grading before the timed runs, not after them; and the positions of every
# part's samples are drawn. A self-check has no reference solution to find wrong (its reference
# answers are the CPU reference's): none, and its kept runs stay whole until it is scored.
check_reference_on_fresh_inputs() {
    [[ ${SELF_CHECK:-no} == yes ]] && return 0
    make_checked_run_references_side_by_side probe_runs "the reference on fresh inputs" "$@"
}
probe_runs() {
    "$GRADER" checked-runs --plan "$PLAN_DIR/$1.tsv" --reference "${REFERENCE_DIR[$1]}" --probe "$SAMPLE_SEED"
}
# make_class_checked_run_references LAB...: every reference the records of the public cases' runs
# name (the timed round's, its second timings included) for the students of each LAB in
# RUN_ITEMS. grade.sh runs it after the timed round, in the background beside round 3 (untimed
# both), and a student of the lab is scored once they are made (make_checked_run_references
# waits for the lab's lock, which this holds).
make_class_checked_run_references() {
    make_checked_run_references_side_by_side class_checked_runs "reference outputs of checked timed runs" "$@"
}
class_checked_runs() {
    local item student lab
    for item in "${RUN_ITEMS[@]}"; do
        IFS=$'\t' read -r student lab <<<"$item"
        [[ $lab == "$1" && -d $OUT/students/$student/$lab/runs ]] || continue
        "$GRADER" checked-runs --plan "$PLAN_DIR/$lab.tsv" --reference "${REFERENCE_DIR[$lab]}" \
            --dir "$OUT/students/$student/$lab" || return 1
    done | sort -u
    return "${PIPESTATUS[0]}"
}
# make_checked_run_references_side_by_side LISTER WHAT LAB...: the references LISTER LAB names
# (CASE/SEED/PART lines; WHAT says what they are, on screen), for every LAB, made
# side_by_side_runs reference runs at once, the labs' lines sharing them: one lab's last line
# holds up no other lab's first (eight labs one after another took 81 s, most ending on a few
# runs still busy). Each lab's lock is held throughout (lock_labs): a Slurm task beside makes
# none of the same, and a student of the lab is scored only once they are made. What a
# side-by-side run could not make (a GPU too small for so many at once) is made again by one run
# alone; a run that fails then stops the grading.
make_checked_run_references_side_by_side() {
    local lister=$1 what=$2 lab needed lines=() labs=() LAB_LOCKS=()
    local -A needed_of=()
    shift 2
    lock_labs "$@"
    for lab in "$@"; do
        needed=$("$lister" "$lab") || die "grader checked-runs failed for $lab"
        [[ -z $needed ]] && continue
        say "  $what: $lab, $(wc -l <<<"$needed")"
        labs+=("$lab")
        needed_of[$lab]=$needed
        mapfile -t -O "${#lines[@]}" lines < <(sed "s/^/$lab\t/" <<<"$needed")
    done
    ((${#lines[@]})) && side_by_side_checked_run_references "${lines[@]}"
    for lab in "${labs[@]}"; do
        run_checked_run_references "$lab" "${GPU_IDS[0]}" exclusive "${needed_of[$lab]}" ||
            die "the reference solution fails $lab on the inputs of a timed run (see $PRIVATE/reference-checked-$lab.log)"
    done
    unlock_labs
}
# lock_labs LAB...: each LAB's reference lock, held exclusively, its descriptor added to the
# caller's LAB_LOCKS (unlock_labs lets them go). A job started in the background after this holds
# them until it ends, whatever this shell then does with its own descriptors.
lock_labs() {
    local lab fd
    for lab in "$@"; do
        exec {fd}>>"$PRIVATE/reference-$lab.lock"
        flock -x "$fd"
        LAB_LOCKS+=("$fd")
    done
}
unlock_labs() {
    local fd
    for fd in "${LAB_LOCKS[@]}"; do exec {fd}>&-; done
    LAB_LOCKS=()
}
# side_by_side_runs: how many reference runs make the checked-run references at once: as many as
# there are CPUs, at most 16. A self-check's one: its reference answers are the CPU reference's,
# each at a performance case's size a long computation.
side_by_side_runs() {
    local jobs
    jobs=$(nproc)
    ((jobs > 16)) && jobs=16
    [[ ${SELF_CHECK:-no} == yes ]] && jobs=1
    echo "$jobs"
}
# side_by_side_checked_run_references LINE...: lines of LAB<TAB>CASE/SEED/PART made by
# side_by_side_runs reference runs at once, each a share of the lines (in turn, so that each
# gets some of every lab's large cases), a lab at a time, the GPUs taken in turn. Their logs are
# not kept: what one could not make, the caller makes again alone. No timed run goes on
# meanwhile, so no CPU is kept beside one.
side_by_side_checked_run_references() {
    local lines=("$@") jobs j i pids=() BESIDE_CPUS="" order lab
    local -A share
    jobs=$(side_by_side_runs)
    ((jobs > ${#lines[@]})) && jobs=${#lines[@]}
    for ((j = 0; j < jobs; j++)); do
        share=() order=()
        for ((i = j; i < ${#lines[@]}; i += jobs)); do
            lab=${lines[i]%%$'\t'*}
            [[ -n ${share[$lab]+x} ]] || order+=("$lab")
            share[$lab]+=${lines[i]#*$'\t'}$'\n'
        done
        (for lab in "${order[@]}"; do run_checked_run_references "$lab" "${GPU_IDS[j % ${#GPU_IDS[@]}]}" shared "${share[$lab]}" ".side-$j"; done) \
            >/dev/null 2>&1 &
        pids+=($!)
    done
    wait "${pids[@]}"
}
# make_checked_run_references LAB DIR GPU: those the student's evidence in DIR names and that are
# missing (after make_class_checked_run_references, a hidden case's); with the GPU shared with
# the other runners, and again with it to itself should a classmate's program have filled it.
# It waits for the lab's lock, which make_class_checked_run_references holds while it makes the
# class's, but shares it with the other students' (each its own references, in a work folder of
# its own).
make_checked_run_references() {
    local lab=$1 dir=$2 gpu=$3 needed guard status=0
    needed=$(beside_timed_runs "$GRADER" checked-runs --plan "$PLAN_DIR/$lab.tsv" --dir "$dir" \
        --reference "${REFERENCE_DIR[$lab]}") || return 1
    [[ -z $needed ]] && return 0
    exec {guard}>>"$PRIVATE/reference-$lab.lock"
    flock -s "$guard"
    # The lock first, the GPU second (inside): a runner never waits for this lock while it holds the GPU's.
    run_checked_run_references "$lab" "$gpu" shared "$needed" ".student-$BASHPID" ||
        run_checked_run_references "$lab" "$gpu" exclusive "$needed" ".student-$BASHPID" || status=1
    exec {guard}>&-
    ((status == 0)) ||
        die "the reference solution fails $lab on the inputs of a timed run (see $PRIVATE/reference-checked-$lab.log)"
}
# run_checked_run_references LAB GPU shared|exclusive NEEDED [SHARE]: makes the references NEEDED
# lists (CASE/SEED/PART words) that are still missing, in one run of the reference solution
# holding the GPU as said, then checks and samples them (grader keep-checked-runs) with the GPU
# let go, on the CPUs beside the timed runs. Fails, keeping its log in
# $PRIVATE/reference-checked-LAB.log, when one of them could not be made. SHARE names the work
# folder of one of several at once (.side-J: side by side, whose logs are not kept, the caller
# making again alone what one could not make; .student-PID: a student's).
run_checked_run_references() {
    local lab=$1 gpu=$2 mode=$3 share=${5-} root=${REFERENCE_DIR[$1]} work list made=() wall status=0
    work=$root/.checked-runs$share
    rm -rf -- "$work" && mkdir -p -- "$work"
    # Only those still missing: another run may have made some meanwhile.
    list=$(cases_file "$lab" checked-runs "$work/cases.txt" "$4" --reference "$root") ||
        die "cannot write the checked runs' cases file of $lab"
    [[ -z $list ]] || mapfile -t made <<<"$list"
    if ((${#made[@]})); then
        wall=$(<"$work/cases.txt.wall")
        log "reference outputs of checked timed runs: $lab ${made[*]}"
        with_gpu "$mode" "$gpu" reference_binary "$lab" "$gpu" "$wall" "$work/log.txt" --cases "$work/cases.txt" \
            --out "$work" --write-bounds || status=$?
        # A failed check (or a stop) keeps none of the run's outputs.
        if ((status)); then
            echo "$lab: the reference run of ${made[*]} exited $status: $(failed_checks "$work/log.txt")" >>"$work/log.txt"
        else
            beside_timed_runs "$GRADER" keep-checked-runs --plan "$PLAN_DIR/$lab.tsv" --runs "${made[*]}" \
                --work "$work" --reference "$root" >>"$work/log.txt" 2>&1 || status=1
        fi
        [[ $share == .side-* ]] || cp -- "$work/log.txt" "$PRIVATE/reference-checked-$lab.log"
    fi
    rm -rf -- "$work"
    ((status == 0))
}
