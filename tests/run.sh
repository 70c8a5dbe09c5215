#!/usr/bin/env bash
# Runs every test of the course and prints one closing line: "N passed, N failed, N skipped".
#
#   - each Catch2 binary in $BUILD/tests (one per folder of tests/), a job of the pool below
#     like a script, its output shown once it ends; where no CUDA device is usable, tests
#     tagged [gpu] are left out and counted as skipped, never as passed;
#   - each script tests/scripts/*.sh: exit 0 passes, 77 is skipped (it says why), else fails.
#     They run TEST_JOBS at a time (default: the number of CPUs, at least 6: on CI's two cores
#     they kept 1.35 cores busy at four, the rest of their time spent waiting on time limits,
#     sandboxes and daemons), the long ones ("# test: long")
#     first, each reported with its wall and CPU time as it ends. A script whose first lines hold
#     "# test: alone" (one that times GPU work, whose numbers another test's load would skew)
#     starts first, beside everything else, and before it times anything it waits for a shared
#     lock on the file TEST_QUIET_LOCK names, which this run holds until every other test has
#     ended (grading-gpu.sh passes it to grade.sh as GRADE_QUIET_LOCK): its untimed start goes
#     on while the other tests run (on an H200, grading the planted bugs spent 259 s building
#     and making reference outputs before its first timed run). Several run one after another.
#     TEST_LOGS=DIR keeps each script's log in DIR/NAME.log. TEST_SKIP="a.sh b.sh" leaves those
#     out, counted as skipped, with TEST_SKIP_WHY as the reason (a test that already ran them).
# Counts are test cases. The exit status is 0 only when nothing failed.
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
passed=0 failed=0 skipped=0

if "$BUILD/bin/gpu-limits" >/dev/null 2>&1; then
    gpu=yes
    echo "GPU: $("$BUILD/bin/gpu-limits" | head -1)"
else
    gpu=no
    echo "No usable CUDA device here: tests tagged [gpu] are skipped."
fi

# The number in Catch2's "N matching test cases" line (2.x and 3.x both print it; 2.x
# also returns the count as its exit status, hence the `|| true`).
count_tests() {
    local n
    n=$({ "$1" --list-tests "$2" 2>/dev/null || true; } | grep -oE '^[0-9]+ matching test case' | grep -oE '^[0-9]+')
    echo "${n:-0}"
}

# TEST_LOGS=DIR keeps every script's log there (NAME.log); else they go with the run. Not
# passed down: a script that runs tests/run.sh itself (run-summary.sh, the tarball's make test in
# grading-dist.sh) would write its scripts' results into this run's folder, and this run would
# report them as its own (it did on the H200).
if [[ -n ${TEST_LOGS-} ]]; then
    logs=$TEST_LOGS
    mkdir -p -- "$logs" || exit 1
else
    logs=$(mktemp -d /tmp/tests-run.XXXXXX)
    trap 'rm -rf -- "$logs"' EXIT
fi
unset TEST_LOGS
# write_done FILE TEXT: FILE holds TEXT whole or not at all (collect may look at any moment).
write_done() { echo "$2" >"$1.partial" && mv -- "$1.partial" "$1"; }
# run_script SCRIPT: runs it, leaving LOGS/NAME.log and LOGS/NAME.done ("STATUS SECONDS CPU"):
# its wall time, and the CPU time it and its children took (user and system), which is what
# the scripts compete for on a small machine.
run_script() {
    local name=${1##*/} start=$SECONDS times status TIMEFORMAT='%U %S'
    times=$({ time BUILD=$BUILD GPU=$gpu bash "$1" >"$logs/$name.log" 2>&1; } 2>&1)
    status=$?
    write_done "$logs/$name.done" "$status $((SECONDS - start)) $(awk '{ printf "%.0f", $1 + $2 }' <<<"$times")"
}
# collect: reports every Catch2 binary and script that has ended since the last call.
collect() {
    local done name p f s
    for done in "$logs"/*.catch2-done; do
        [[ -f $done ]] || continue
        cat -- "${done%-done}"
        read -r p f s <"$done"
        passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
        rm -f -- "$done"
    done
    for done in "$logs"/*.done; do
        [[ -f $done ]] || continue
        name=${done##*/} name=${name%.done}
        read -r status seconds cpu <"$done"
        report_script "$name" "$status" "$seconds" "$cpu" "$logs/$name.log"
        rm -f -- "$done"
    done
}

cpus=$(nproc)
jobs_max=${TEST_JOBS:-$((cpus > 6 ? cpus : 6))}
[[ $jobs_max =~ ^[1-9][0-9]*$ ]] || { echo "TEST_JOBS must be a positive number, not '$jobs_max'"; exit 2; }
alone=() long=() short=()
# The long scripts (a "# test: long" line among their first) start first, so that none of them
# is left running alone at the end while the cores idle.
for script in tests/scripts/*.sh; do
    [[ -f $script ]] || continue
    if [[ " ${TEST_SKIP-} " == *" ${script##*/} "* ]]; then
        skipped=$((skipped + 1))
        echo "SKIP  ${script##*/}: TEST_SKIP names it (${TEST_SKIP_WHY:-no reason given})"
    elif head -20 "$script" | grep -q '^# test: alone'; then
        alone+=("$script")
    elif grep -q '^# test: long' "$script"; then
        long+=("$script")
    else
        short+=("$script")
    fi
done
# The quiet lock, held here until every test but the "alone" scripts has ended. The tests inherit
# its descriptor; flock -u lets it go for all of them, a daemon a test left behind included.
export TEST_QUIET_LOCK=$logs/quiet.lock
exec {quiet}>"$TEST_QUIET_LOCK" && flock -x "$quiet" || { echo "cannot lock $TEST_QUIET_LOCK"; exit 2; }
alone_chain=none
if ((${#alone[@]})); then
    { for script in "${alone[@]}"; do run_script "$script"; done; } &
    alone_chain=$!
fi

# run_binary BINARY: one Catch2 binary (without its [gpu] tests where no CUDA device is usable),
# its output in LOGS/NAME.catch2, its counts in LOGS/NAME.catch2-done ("PASSED FAILED SKIPPED").
run_binary() {
    local binary=$1 name=${1##*/} filter=() gpu_skipped=0 status line p f s
    local log=$logs/$name.catch2
    : >"$log"
    if [[ $gpu == no ]]; then
        gpu_skipped=$(count_tests "$binary" "[gpu]")
        ((gpu_skipped > 0)) && echo "SKIP  $name: $gpu_skipped GPU test cases (no CUDA device)" >>"$log"
        filter=("~[gpu]")
        if [[ $(count_tests "$binary" "~[gpu]") == 0 ]]; then
            write_done "$log-done" "0 0 $gpu_skipped"
            return
        fi
    fi
    echo "== $name" >>"$log"
    "$binary" "${filter[@]}" >>"$log" 2>&1
    status=$?
    if line=$(grep -E '^test cases: +[0-9]+' "$log" | tail -1) && [[ -n $line ]]; then
        p=$(grep -oE '[0-9]+ passed' <<<"$line" | grep -oE '[0-9]+' || echo 0)
        f=$(grep -oE '[0-9]+ failed' <<<"$line" | grep -oE '[0-9]+' || echo 0)
        s=$(grep -oE '[0-9]+ skipped' <<<"$line" | grep -oE '[0-9]+' || echo 0)
    elif line=$(grep -oE 'All tests passed \([0-9]+ assertions? in [0-9]+ test cases?\)' "$log" | tail -1) && [[ -n $line ]]; then
        p=$(grep -oE 'in [0-9]+' <<<"$line" | grep -oE '[0-9]+'); f=0; s=0
    else
        p=0; f=1; s=0  # crashed before its summary
    fi
    ((status != 0 && f == 0)) && f=1
    # A binary that failed, or died before its summary, is named, with its last words.
    if ((f > 0)); then
        local last
        last=$(tail -5 "$log" | sed 's/^/      /')
        printf 'FAIL  %s (exit %s): %s failed test case(s); its last lines:\n%s\n' "$name" "$status" "$f" "$last" >>"$log"
    fi
    write_done "$log-done" "$p $f $((s + gpu_skipped))"
}

# report_script NAME STATUS SECONDS CPU LOG: its line, and for a failure its failed checks first,
# each with the indented lines a script prints under it to explain it (a CI excerpt that keeps
# only a screenful still shows them), then its last lines.
report_script() {
    local name=$1 status=$2 seconds=$3 cpu=$4 log=$5
    case $status in
        0) passed=$((passed + 1)); echo "PASS  $name (${seconds} s, ${cpu} s of CPU)" ;;
        77) skipped=$((skipped + 1)); echo "SKIP  $name: $(tail -1 "$log")" ;;
        *)
            failed=$((failed + 1))
            echo "FAIL  $name (exit $status, ${seconds} s, ${cpu} s of CPU): $(grep -c '^FAIL' "$log") failed check(s):"
            awk 'BEGIN { details = 12 }
                 /^FAIL/ { if (++shown > 10) exit; details = 0; print "      " $0; next }
                 /^ / && details < 12 { details++; print "      " $0; next }
                 { details = 12 }' "$log"
            echo "      --- the last lines it printed:"
            sed 's/^/      /' "$log" | tail -30
            ;;
    esac
}

# The Catch2 binaries are jobs of the pool too, after the long scripts: on an H200, one after
# another beside the scripts they took 120 s, and the timed round waits for every other test.
binaries=()
for binary in "$BUILD"/tests/*; do [[ -x $binary && -f $binary ]] && binaries+=("$binary"); done
pool=("${long[@]}" "${binaries[@]}" "${short[@]}")

# running: the jobs of the pool still running (the alone chain is not one of them).
running() { jobs -rp | grep -cvx "$alone_chain"; }
for job in "${pool[@]}"; do
    while (($(running) >= jobs_max)); do wait -n; collect; done
    if [[ $job == *.sh ]]; then run_script "$job" & else run_binary "$job" & fi
done
while (($(running) > 0)); do wait -n; collect; done
collect
flock -u "$quiet"
[[ $alone_chain == none ]] || wait "$alone_chain"
collect

echo
echo "$passed passed, $failed failed, $skipped skipped"
((failed == 0))
