#!/usr/bin/env bash
# The affinity guard every sandboxed command runs under (grading/affinity_guard.cpp), without a
# GPU: a program under it cannot widen a thread's CPU set, through libc, a raw `syscall`
# instruction, another thread, the i386 or x32 entry points, while a narrowing goes through; the
# same program without it widens freely (so the refusals are the guard's, not the machine's);
# the driver's pinning of a CPU part (common/cpu_affinity.hpp) still works under it; and
# grading/sandbox.sh runs its command under it in each isolation this machine offers.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/scripts/lib/checks.sh
BUILD=${BUILD:-build}
GUARD=$BUILD/bin/affinity-guard
[[ -x $GUARD ]] || { echo "SKIP: $GUARD is not built (make grader)"; exit 77; }
(($(nproc) >= 2)) || { echo "SKIP: one CPU here: no CPU set can be widened"; exit 77; }
work=$(mktemp -d /tmp/grading-affinity-guard.XXXXXX)
trap 'rm -rf -- "$work"' EXIT
chmod 755 "$work"  # the sandbox uid runs the probes from here

${CXX:-g++} -std=c++17 -O2 -pthread -o "$work/affinity-probe" tests/grading/fixtures/affinity_probe.cpp ||
    { fail "the affinity probe does not compile"; finish; }
${CXX:-g++} -std=c++17 -O2 -pthread -Icommon -o "$work/pinning-probe" tests/grading/fixtures/pinning_probe.cpp common/cpu_affinity.cpp ||
    { fail "the pinning probe does not compile"; finish; }

# check_probe DESCRIPTION COMMAND...: the probe's checks all pass (its output shown when not).
check_probe() {
    local what=$1 output status
    shift
    output=$("$@" 2>&1)
    status=$?
    check "$what" test "$status" == 0
    ((status == 0)) || sed 's/^/      /' <<<"$output"
}

check_probe "under the guard, every widening is refused and a narrowing goes through" "$GUARD" "$work/affinity-probe"
check_probe "without the guard, the same widenings go through" "$work/affinity-probe" --unguarded
check_probe "the driver's pinning under the guard: it narrows, may not widen again, and finds a parked thread" \
    "$GUARD" "$work/pinning-probe"
check_probe "the driver's pinning without the guard" "$work/pinning-probe" --unguarded

# --refuse-all (where the kernel has no user notification): every call is refused, narrowing too.
check "--refuse-all refuses a narrowing too" bash -c '! "$1" --refuse-all taskset -c 0 true 2>/dev/null' _ "$GUARD"
check "under the guard, taskset narrows a command's CPUs" "$GUARD" taskset -c 0 true
# The command's end is the guard's: its status, or its signal.
"$GUARD" sh -c 'exit 3'
status=$?
check "the guard exits with its command's status (3: $status)" test "$status" == 3
status=$( { "$GUARD" sh -c 'kill -SEGV $$'; echo $?; } 2>/dev/null)
check "a command killed by a signal kills the guard with it (status $status: 139)" test "$status" == 139
"$GUARD" "$work/no-such-command" 2>/dev/null
status=$?
check "a command that cannot run is status 127 ($status)" test "$status" == 127

# Through grading/sandbox.sh --guard, in each isolation this machine offers (as grade.sh runs
# every build and run): the probe's widenings refused there too, from inside the box.
isolations=(rlimits)
if command -v bwrap >/dev/null && bwrap --ro-bind / / --dev /dev --unshare-pid true 2>/dev/null; then isolations+=(bwrap); fi
uid=()
((EUID == 0)) && uid=(--uid 61999)
for isolation in "${isolations[@]}"; do
    box=$work/box-$isolation
    mkdir -p "$box" && cp "$work/affinity-probe" "$box/"
    [[ -n ${uid[*]} ]] && chown -R 61999:61999 "$box"
    grading/sandbox.sh --isolation "$isolation" "${uid[@]}" --box "$box" --status "$work/status" --stdout "$work/out" \
        --stderr "$work/out" --wall 30 --cpus 0 --guard "$GUARD" -- ./affinity-probe
    check "sandbox.sh --isolation $isolation --guard: the probe ran and every widening was refused ($(tr '\t' ' ' <"$work/status"))" \
        grep -q $'outcome=exited\texit=0\t' "$work/status"
    grep -q '^FAIL' "$work/out" && sed 's/^/      /' "$work/out"
    check "sandbox.sh --isolation $isolation: the probe was guarded (its widening of the raw system call refused)" \
        grep -q '^ok   the raw system call widens the thread to every CPU: refused' "$work/out"
done
finish
