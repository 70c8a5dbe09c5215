# The runs' progress line: the round (runs.sh), students done / total in it, how many failed
# so far, and an estimate of the time left, all the grader's (grader progress,
# grading/progress.hpp), its state in a file under a lock. On a terminal one line is rewritten
# in place; elsewhere (a log, a batch job's output) each finished student x lab adds a plain
# line. Sourced by grade.sh.
#
#   progress_start WORK       before the first round: the work of every round (round_work)
#   progress_round K TOTAL    before round K, with TOTAL student x labs
#   progress_step ID LAB W    by a runner, once ID's LAB is through the round (work W)
#   progress_end              after the last round

progress_start() {
    PROGRESS_FILE=$RUN_DIR/progress
    "$GRADER" progress start --state "$PROGRESS_FILE" --work "$1" --rounds "$ROUNDS" || die "grader progress start failed"
}

progress_round() {
    "$GRADER" progress round --state "$PROGRESS_FILE" --round "$1" --name "${ROUND_NAMES[$1]}" --total "$2" ||
        die "grader progress round failed"
}

progress_step() {
    local lock line
    exec {lock}>>"$PROGRESS_FILE.lock"
    flock -x "$lock"
    line=$("$GRADER" progress step --state "$PROGRESS_FILE" --dir "$OUT/students/$1/$2" --who "$1"$'\t'"$2" --work "$3") ||
        line="runs: round ? (grader progress step failed for $1 $2)"
    exec {lock}>&-
    if [[ -t 2 ]]; then
        printf '\r\033[K%s' "$line" >&2
    else
        printf '%s (%s %s)\n' "$line" "${1//[[:cntrl:]]/ }" "$2" >&2
    fi
    log "$line ($1 $2)"
}

progress_end() {
    [[ -t 2 ]] && printf '\n' >&2
    rm -f -- "$PROGRESS_FILE" "$PROGRESS_FILE".*
}
