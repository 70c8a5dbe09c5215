# Shared helpers of grading/grade.sh: messages, the log, phase timing. Sourced, not run.

# A line on screen and in the run's log (once the output folder exists), the log's with the
# time (bash's own printf: a grading logs thousands of lines, each a `date` process before).
# Control characters (a student's terminal escapes, in a file name or a message) become blanks.
say() {
    local text=${*//[[:cntrl:]]/ }
    printf '%s\n' "$text" >&2
    [[ -n ${LOG_FILE-} && -d ${LOG_FILE%/*} ]] && printf '%(%H:%M:%S)T %s\n' -1 "$text" >>"$LOG_FILE"
    return 0
}
# A line in the log only: the details of each student's grading.
log() {
    local text=${*//[[:cntrl:]]/ }
    [[ -n ${LOG_FILE-} && -d ${LOG_FILE%/*} ]] && printf '%(%H:%M:%S)T %s\n' -1 "$text" >>"$LOG_FILE"
    return 0
}
# Stop the whole run: the command line asks for what cannot be done (exit 2, bad usage).
usage_error() { echo "grade.sh: $1 (see --help)" >&2; exit 2; }
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
    seconds=$(seconds_since "${PHASE_START[$1]}")
    printf '%s\t%s\n' "$1" "${seconds%??}" >>"$RUN_DIR/timings.tsv"
}
# Time spent inside a parallel phase, added up over its workers: add_time KIND SECONDS.
add_time() { printf '%s\t%s\n' "$1" "$2" >>"$RUN_DIR/worker-times.$BASHPID.tsv"; }
# micros_since START: the microseconds since START (an $EPOCHREALTIME), counted by bash itself
# (the decimal point is the locale's); seconds_since START: the same in seconds, to the millisecond.
micros_since() { echo $((10#${EPOCHREALTIME//[.,]/} - 10#${1//[.,]/})); }
seconds_since() {
    local elapsed
    elapsed=$(micros_since "$1")
    printf '%d.%03d\n' $((elapsed / 1000000)) $((elapsed % 1000000 / 1000))
}

# field_of FILE KEY: the first value of KEY in a tab-separated key=value file (sandbox.tsv,
# score.tsv's first line); nothing when the file or the key is missing. Read by bash itself:
# it runs several times for every sandboxed process.
field_of() {
    local fields field
    while IFS=$'\t' read -r -a fields || ((${#fields[@]})); do
        for field in "${fields[@]}"; do
            [[ $field == "$2="* ]] && { printf '%s\n' "${field#"$2="}"; return 0; }
        done
        fields=()
    done 2>/dev/null <"$1"
    return 0
}

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
