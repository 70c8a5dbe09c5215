# Grading on a Slurm cluster (grade.sh --slurm). The submit host unpacks, checks and builds
# every submission into the output folder, which the cluster's nodes share; then a job array
# runs the cases, one GPU per task, each task grading every N-th student (grade.sh --task I/N:
# the reference solution timed on its own GPU, its students scored and their feedback
# written); a last job, started once every task has ended, makes the gradebook (grade.sh
# --collect). A task that failed or was cancelled leaves its students unfinished: grade.sh
# --slurm --resume grades only those. Sourced by grade.sh.

require_sbatch() {
    command -v sbatch >/dev/null ||
        usage_error "--slurm needs Slurm's sbatch, which is not on PATH here: run grade.sh on the cluster's submit host (or without --slurm on a GPU machine)"
}

# The grade.sh command line the jobs repeat: the same labs, folders and options.
job_command() {
    local command=("$GRADING_DIR/grade.sh" --out "$OUT" --labs "$(IFS=,; echo "${LABS[*]}")" --sandbox "$SANDBOX_REQUEST"
        --similarity "$SIMILARITY")
    [[ -n $RUNNERS_PER_GPU ]] && command+=(--runners "$RUNNERS_PER_GPU")
    [[ -n $BUDGET ]] && command+=(--budget "$BUDGET")
    [[ $LEADERBOARD == yes ]] && command+=(--leaderboard)
    [[ -n $ONLY_STUDENT ]] && command+=(--student "$ONLY_STUDENT")
    command+=("$SUBMISSIONS")
    printf '%q ' "${command[@]}"
}

# In a task: the selected students' labs that the submit host built and no task finished.
built_before() {
    BUILD_ITEMS=() DONE_COUNT=0
    local id lab
    for id in "${SELECTED[@]}"; do
        for lab in "${LABS[@]}"; do
            if [[ -f $OUT/students/$id/$lab/done ]]; then
                ((DONE_COUNT++))
            elif [[ -f $OUT/students/$id/$lab/build/status ]]; then
                BUILD_ITEMS+=("$id"$'\t'"$lab")
            fi
        done
    done
}

submit_jobs() {
    local tasks=$SLURM_TASKS command array collect folder=$PRIVATE/slurm
    ((tasks > ${#SELECTED[@]})) && tasks=${#SELECTED[@]}
    ((tasks > 0)) || die "no student to grade"
    mkdir -p -- "$folder"
    command=$(job_command)
    array=$(sbatch --parsable --job-name=grade --array=0-$((tasks - 1)) --gres=gpu:1 --output="$folder/task-%a.log" \
        "${SBATCH_OPTIONS[@]}" --wrap "exec $command--task \$SLURM_ARRAY_TASK_ID/$tasks" 2>&1) ||
        die "sbatch refused the job array: $array"
    array=${array%%;*}
    collect=$(sbatch --parsable --job-name=grade-collect --dependency=afterany:"$array" --output="$folder/collect.log" \
        "${SBATCH_OPTIONS[@]}" --wrap "exec $command--collect" 2>&1) ||
        die "sbatch refused the collecting job: $collect (the job array $array is submitted: scancel it, or collect by hand with grade.sh --collect)"
    collect=${collect%%;*}
    printf '%s\t%s\t%s\n' "$array" "$collect" "$tasks" >"$folder/jobs.tsv"
    say "Submitted job array $array ($tasks tasks, one GPU each) and job $collect, which makes the gradebook when they end."
    say "  watch: squeue -j $array,$collect; the logs: $folder/task-*.log and $folder/collect.log"
    say "  when $collect ends: $OUT/gradebook.csv and summary.txt"
    say "  if a task fails or is cancelled: grade.sh --slurm --resume with the same options grades only what is missing"
}

# The waiting job: every student x lab must be done (scored for good by a task); then the
# gradebook and summary. Otherwise no gradebook is written, and the message says what to do.
collect_class() {
    local id lab missing=()
    collect_submissions
    for id in "${STUDENT_IDS[@]}"; do
        [[ -z $ONLY_STUDENT || $id == "$ONLY_STUDENT" ]] || continue
        for lab in "${LABS[@]}"; do
            [[ -f $OUT/students/$id/$lab/done ]] || missing+=("$id $lab")
        done
    done
    if ((${#missing[@]})); then
        rm -f -- "$OUT/gradebook.csv" "$OUT/summary.txt"
        say "grade.sh: ${#missing[@]} student x lab(s) not graded (first: ${missing[0]}): a task failed or was cancelled (its log: $PRIVATE/slurm/task-*.log). Grade them with grade.sh --slurm --resume and the same options."
        exit 1
    fi
    write_class_reports
    write_class_pages
}
