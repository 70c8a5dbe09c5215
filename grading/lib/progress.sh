# The runs' progress line: students done / total, how many failed a case so far, and an
# estimate of the time left. On a terminal one line is rewritten in place; elsewhere (a log, a
# batch job's output) each finished student x lab adds a plain line. Sourced by grade.sh.
#
#   progress_start TOTAL     before the runners start
#   progress_step ID LAB     by a runner, once ID's LAB is run and scored
#   progress_end             after the runners end

progress_start() {
    PROGRESS_FILE=$RUN_DIR/progress
    PROGRESS_TOTAL=$1
    PROGRESS_STARTED=$EPOCHREALTIME
    printf '0 0\n' >"$PROGRESS_FILE"
}

# A student x lab "failed" when a correctness item or a sanitizer found a fault, or it could not
# be run or scored: what a teaching assistant would look at first.
progress_failed() {
    local score=$OUT/students/$1/$2/score.tsv
    [[ -f $score ]] || return 0
    [[ $(field_of "$score" state) == graded ]] || return 0
    grep -qE $'(^|\t)kind=(correctness|sanitizer)\t.*\tpassed=0(\t|$)' "$score"
}

progress_step() {
    local id=$1 lab=$2 lock done failed left line
    exec {lock}>>"$PROGRESS_FILE.lock"
    flock -x "$lock"
    read -r done failed <"$PROGRESS_FILE"
    done=$((done + 1))
    progress_failed "$id" "$lab" && failed=$((failed + 1))
    printf '%s %s\n' "$done" "$failed" >"$PROGRESS_FILE"
    left=$(awk -v s="$PROGRESS_STARTED" -v now="$EPOCHREALTIME" -v d="$done" -v t="$PROGRESS_TOTAL" 'BEGIN {
        r = (now - s) / d * (t - d)
        if (t == d) print "none"; else if (r < 90) printf "about %d s", r + 0.5; else printf "about %d min", r / 60 + 0.5 }')
    line="runs: $done/$PROGRESS_TOTAL done, $failed with failures, time left: $left"
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
    rm -f -- "$PROGRESS_FILE" "$PROGRESS_FILE.lock"
}
