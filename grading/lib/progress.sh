# The runs' progress line: the round (runs.sh), students done / total in it, how many failed
# so far, and an estimate of the time left. On a terminal one line is rewritten in place;
# elsewhere (a log, a batch job's output) each finished student x lab adds a plain line.
# Sourced by grade.sh.
#
#   progress_start WORK       before the first round: the work of every round (round_work)
#   progress_round K TOTAL    before round K, with TOTAL student x labs
#   progress_step ID LAB W    by a runner, once ID's LAB is through the round (work W)
#   progress_end              after the last round

progress_start() {
    PROGRESS_FILE=$RUN_DIR/progress
    PROGRESS_WORK=$1
    PROGRESS_STARTED=$EPOCHREALTIME
    printf '0\n' >"$PROGRESS_FILE.work"
    : >"$PROGRESS_FILE.failed"
}

progress_round() {
    PROGRESS_ROUND=$1 PROGRESS_TOTAL=$2
    printf '0\n' >"$PROGRESS_FILE"
}

# A student x lab "failed" when a run of it crashed or was stopped, a sanitizer found a fault
# or, once it is scored, a correctness item failed or it could not be run or scored: what a
# teaching assistant would look at first. (Before the score, a wrong output is not known.)
progress_failed() {
    local dir=$OUT/students/$1/$2 score=$OUT/students/$1/$2/score.tsv
    grep -qvE $'^outcome=exited\texit=0\t' "$dir"/runs/*/*/sandbox.tsv "$dir"/sanitize/*/sandbox.tsv 2>/dev/null && return 0
    [[ -f $score ]] || return 1
    [[ $(field_of "$score" state) == graded ]] || return 0
    grep -qE $'(^|\t)kind=(correctness|sanitizer)\t.*\tpassed=0(\t|$)' "$score"
}

progress_step() {
    local id=$1 lab=$2 lock done work failed left line micros
    exec {lock}>>"$PROGRESS_FILE.lock"
    flock -x "$lock"
    read -r done <"$PROGRESS_FILE"
    done=$((done + 1))
    printf '%s\n' "$done" >"$PROGRESS_FILE"
    work=$(($(<"$PROGRESS_FILE.work") + $3))
    printf '%s\n' "$work" >"$PROGRESS_FILE.work"
    if progress_failed "$id" "$lab" && ! grep -qxF -- "$id"$'\t'"$lab" "$PROGRESS_FILE.failed"; then
        printf '%s\t%s\n' "$id" "$lab" >>"$PROGRESS_FILE.failed"
    fi
    failed=$(wc -l <"$PROGRESS_FILE.failed")
    # The time so far, per unit of work done, times the work left (round_work's units).
    if ((PROGRESS_ROUND == ROUNDS && done == PROGRESS_TOTAL)); then
        left=none
    elif ((work <= 0)); then
        left="not known yet"
    else
        micros=$(($(micros_since "$PROGRESS_STARTED") * (PROGRESS_WORK - work) / work))
        ((micros < 0)) && micros=0
        if ((micros < 90000000)); then
            left="about $(((micros + 500000) / 1000000)) s"
        else
            left="about $(((micros + 30000000) / 60000000)) min"
        fi
    fi
    line="runs: round $PROGRESS_ROUND/$ROUNDS (${ROUND_NAMES[$PROGRESS_ROUND]}) $done/$PROGRESS_TOTAL, $failed with failures, time left: $left"
    if [[ -t 2 ]]; then
        printf '\r\033[K%s' "$line" >&2
    else
        printf '%s (%s %s)\n' "$line" "${id//[[:cntrl:]]/ }" "$lab" >&2
    fi
    log "$line ($id $lab)"
    exec {lock}>&-
}

progress_end() {
    [[ -t 2 ]] && printf '\n' >&2
    rm -f -- "$PROGRESS_FILE" "$PROGRESS_FILE".*
}
