# Scoring: each student x lab's score from its evidence (grader score), as its runner ends or
# at the end of the runs, then each student's reports (grader report). Sourced by grade.sh.

# score_student_lab ID LAB: the score of one student x lab from its evidence (grader score). A
# lab graded for good is marked done, and its box and output files are removed: the runners
# score each student as soon as its runs end, so a class's outputs never pile up on disk.
score_student_lab() {
    local id=$1 lab=$2 dir=$OUT/students/$1/$2 gpu state
    gpu=$(cat "$dir/gpu.txt" 2>/dev/null || echo none)
    # The reference outputs of the timed runs its driver kept, on the GPU of its runs.
    if [[ -n ${REFERENCE_DIR[$lab]-} ]]; then
        make_checked_run_references "$lab" "$dir" "$([[ $gpu == none ]] && echo "${GPU_IDS[0]:-0}" || echo "$gpu")" || return 1
    fi
    local timing=(--timing "$PRIVATE/timing/$RUN_ID/$lab/gpu$gpu")
    [[ $SELF_CHECK == yes ]] && self_check_timing "$lab"
    local scored
    scored=$(beside_timed_runs "$GRADER" score --plan "$PLAN_DIR/$lab.tsv" --dir "$dir" \
        --reference "${REFERENCE_DIR[$lab]:-$PRIVATE/reference/none}" "${timing[@]}" 2>>"$LOG_FILE") || return 1
    log "score $id $scored"
    state=$(field_of "$dir/score.tsv" state)
    if [[ $state == graded || $state == malformed || $state == build-failed ]]; then
        touch "$dir/done"
        [[ ${GRADE_KEEP_WORK:-0} == 1 ]] || rm -rf -- "${BOXES:?}/$id/$lab" "$dir"/runs/*/*/out/*.out
    fi
}

# A self-check's reference times (sets the caller's `timing`): those committed for this GPU
# model (grade.sh --reference-times wrote them into labs/LAB/sample/reference-times/MODEL/),
# else none, and the performance items say the parts are timed at grading.
self_check_timing() {
    local folder
    folder=$REPO/labs/$1/sample/reference-times/$(gpu_model_folder "$GPU_NAME")
    if [[ -n $GPU_NAME ]] && compgen -G "$folder/t*" >/dev/null; then
        timing=(--timing "$folder")
    else
        timing=(--untimed "timed at grading: no reference time of this lab on this GPU model (${GPU_NAME:-none}) ships with the course")
    fi
}

# score.tsv for each student x lab graded in this run and not scored yet, then every student's
# reports.
score_and_report() {
    local id lab dir
    local when gpu_text
    when=$(date '+%Y-%m-%d %H:%M')
    gpu_text=$(gpu_in_words)
    for id in "${SELECTED[@]}"; do
        [[ -d $OUT/students/$id ]] || continue
        for lab in "${LABS[@]}"; do
            dir=$OUT/students/$id/$lab
            [[ -d $dir && ! -f $dir/done ]] || continue
            score_student_lab "$id" "$lab" ||
                die "scoring $id $lab failed (see $LOG_FILE); fix the cause and run again with --resume"
        done
        leaderboard_report_options "$id"
        "$GRADER" report --student "$id" --dir "$OUT/students/$id" --labs "${LABS[*]}" --manifests "$MANIFESTS" \
            --grading-seed "$GRADING_SEED" "${LEADERBOARD_OPTIONS[@]}" \
            --when "$when" --gpu "$gpu_text" --isolation "$ISOLATION_TEXT" || die "cannot write the reports of $id"
    done
}
