# Shared helpers of grading/grade.sh: messages, the log, phase timing. Sourced, not run.

# A line on screen and in the run's log (once the output folder exists). Control characters
# (a student's terminal escapes, in a file name or a message) become blanks in both.
say() {
    local text=${*//[[:cntrl:]]/ }
    printf '%s\n' "$text" >&2
    [[ -n ${LOG_FILE-} && -d ${LOG_FILE%/*} ]] && printf '%s %s\n' "$(date +%H:%M:%S)" "$text" >>"$LOG_FILE"
    return 0
}
# A line in the log only: the details of each student's grading.
log() {
    local text=${*//[[:cntrl:]]/ }
    [[ -n ${LOG_FILE-} && -d ${LOG_FILE%/*} ]] && printf '%s %s\n' "$(date +%H:%M:%S)" "$text" >>"$LOG_FILE"
    return 0
}
# Stop the whole run: a problem with the grading itself, not with a submission.
die() {
    say "grade.sh: $1"
    exit "${2:-1}"
}

# Phase timing, for the closing summary: phase_begin NAME ... phase_end NAME.
declare -A PHASE_START=()
phase_begin() { PHASE_START[$1]=$EPOCHREALTIME; }
phase_end() {
    local seconds
    seconds=$(awk -v a="${PHASE_START[$1]}" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
    printf '%s\t%s\n' "$1" "$seconds" >>"$RUN_DIR/timings.tsv"
}
# Time spent inside a parallel phase, added up over its workers: add_time KIND SECONDS.
add_time() { printf '%s\t%s\n' "$1" "$2" >>"$RUN_DIR/worker-times.$BASHPID.tsv"; }
seconds_since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }'; }

# The value of KEY in a tab-separated key=value file (sandbox.tsv, score.tsv's first line).
field_of() { awk -v key="$2" -F'\t' '{ for (i = 1; i <= NF; i++) if (index($i, key "=") == 1) { print substr($i, length(key) + 2); exit } }' "$1" 2>/dev/null; }

# sha256 of the named files' paths and contents, and of any extra words: a cache key.
content_key() {
    local words=$1; shift
    { printf '%s\n' "$words"; for f in "$@"; do printf '%s\n' "$f"; cat -- "$f"; done; } | sha256sum | cut -c1-16
}

# with_lock FILE COMMAND...: COMMAND in this shell, holding an exclusive lock on FILE (the tasks
# of a Slurm job array share the output folder's caches: one builds, the others wait and reuse).
with_lock() {
    local guard status
    exec {guard}>>"$1"
    flock -x "$guard"
    "${@:2}"
    status=$?
    exec {guard}>&-
    return $status
}
