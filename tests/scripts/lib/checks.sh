# What every script test of tests/scripts/ reports with: each check prints "ok" or "FAIL" and
# its description, failures are counted, and the script ends with `finish`, whose status
# tests/run.sh reads. Sourced by the scripts.

failures=0

# check DESCRIPTION COMMAND...: passes when the command succeeds.
check() {
    local what=$1
    shift
    if "$@"; then
        echo "ok    $what"
    else
        echo "FAIL  $what"
        failures=$((failures + 1))
    fi
}

# fail DESCRIPTION: a failure found without a command to run.
fail() {
    echo "FAIL  $*"
    failures=$((failures + 1))
}

# check_run STATUS TEXT -- COMMAND...: the command exits with STATUS and prints a line holding
# TEXT (on stdout or stderr); on a mismatch, what it printed is shown.
check_run() {
    local want_status=$1 want_text=$2 output status
    shift 3
    output=$("$@" 2>&1)
    status=$?
    if [[ $status == "$want_status" ]] && grep -qF -- "$want_text" <<<"$output"; then
        echo "ok    $* -> exit $status, '$want_text'"
    else
        echo "FAIL  $* -> exit $status (wanted $want_status, with '$want_text'):"
        head -20 <<<"$output" | sed 's/^/      /'
        failures=$((failures + 1))
    fi
}

contains() { grep -qF -- "$2" <<<"$1"; }  # contains TEXT NEEDLE
indent() { sed 's/^/      /' <<<"$1"; }

# finish: the closing line and the status: 0 when nothing failed.
finish() {
    echo "$failures failure(s)"
    ((failures == 0))
}
