#!/usr/bin/env bash
# grading/sandbox.sh against hostile CPU programs (tests/grading/fixtures/hostile.cpp), in
# every isolation this machine offers: an endless loop is stopped by the wall clock, a fork
# bomb by the process limit, 1 GB of output by the file-size limit; writing outside the box,
# reading the grader's files, opening a network connection and leaving a process behind all
# fail. Where an isolation cannot prevent something (rlimits as the grader's own user cannot
# hide the grader's files), the test says which isolation held and checks the rest.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/scripts/lib/checks.sh
SANDBOX=$PWD/grading/sandbox.sh
work=$(mktemp -d /tmp/grading-sandbox-test.XXXXXX)
listener=""
cleanup() {
    [[ -n $listener ]] && kill "$listener" 2>/dev/null
    rm -rf -- "$work"
}
trap cleanup EXIT
chmod 711 "$work"  # the sandbox user may reach its box inside, not list or write here

if ! g++ -O1 -o "$work/hostile" tests/grading/fixtures/hostile.cpp; then
    echo "cannot compile the hostile program"
    exit 1
fi

pass() { echo "ok    $*"; }
field() { awk -v key="$2" -F'\t' '{ for (i = 1; i <= NF; i++) if (index($i, key "=") == 1) print substr($i, length(key) + 2) }' "$1"; }

# The grader's secret (what the reference outputs are to a student): a folder only its owner reads.
mkdir -p "$work/grader-private"
echo "reference" >"$work/grader-private/reference.out"
chmod 700 "$work/grader-private"
chmod 600 "$work/grader-private/reference.out"

# A port for the connection test: a listener outside the sandbox, on loopback.
port=$((20000 + RANDOM % 20000))
"$work/hostile" listen "$port" >"$work/listener.txt" 2>&1 &
listener=$!
for _ in 1 2 3 4 5 6 7 8 9 10; do grep -q listening "$work/listener.txt" 2>/dev/null && break; sleep 0.2; done
grep -q listening "$work/listener.txt" || { echo "cannot start the loopback listener"; exit 1; }
"$work/hostile" connect 127.0.0.1 "$port" | grep -q '^connected' || { echo "the listener cannot be reached from outside"; exit 1; }

# shellcheck source=../../grading/lib/tasks.sh
source grading/lib/tasks.sh

test_isolation() {
    local isolation=$1
    shift
    local options=("$@") box=$work/box-$isolation uid="" i
    for ((i = 0; i + 1 < ${#options[@]}; i++)); do [[ ${options[i]} == --uid ]] && uid=${options[i + 1]}; done
    rm -rf -- "$box" && mkdir -p -- "$box" && cp -- "$work/hostile" "$box/"
    [[ -n $uid ]] && chown -R "$uid:$uid" "$box"
    echo "== $isolation ${options[*]}"

    local started=$EPOCHREALTIME
    "$SANDBOX" --isolation "$isolation" --box "$box" --status "$work/status.tsv" --wall 2 "${options[@]}" -- ./hostile spin
    local took
    took=$(awk -v a="$started" -v b="$EPOCHREALTIME" 'BEGIN { print int(b - a) }')
    check "an endless loop is stopped by the wall clock (outcome $(field "$work/status.tsv" outcome), ${took}s)" \
        test "$(field "$work/status.tsv" outcome)" == timeout -a "$took" -lt 15

    # The CPU-time limit: the wall's and 5 s for one thread; on CPUs of its own (a timed run),
    # that for each of them, so a part on --threads 4 CPUs may use them all the wall long.
    local cpu_limits="" cpus
    for cpus in "" 0 0-1,3; do
        "$SANDBOX" --isolation "$isolation" --box "$box" --status "$work/status.tsv" --stdout "$work/out.txt" --wall 7 \
            ${cpus:+--cpus "$cpus"} "${options[@]}" -- /bin/sh -c 'ulimit -t'
        cpu_limits+=" $(cat "$work/out.txt")"
    done
    check "the CPU-time limit is 12 s a CPU it runs on (none, 1 and 3 CPUs:$cpu_limits)" test "$cpu_limits" == " 12 12 36"
    "$SANDBOX" --isolation "$isolation" --box "$box" --status "$work/status.tsv" --cpus 0,3-1 "${options[@]}" -- /bin/true \
        2>"$work/err.txt"
    local refused=$?
    check "a CPU range that runs backwards is refused (status $refused: $(cat "$work/err.txt"))" \
        bash -c "(($refused == 2)) && grep -q 'the range 3-1 runs backwards' '$work/err.txt'"

    # 255 is an exit status, not a signal (128 + 127): compute-sanitizer's own failures end so.
    "$SANDBOX" --isolation "$isolation" --box "$box" --status "$work/status.tsv" --wall 10 "${options[@]}" -- /bin/sh -c 'exit 255'
    check "an exit with status 255 is an exit ($(field "$work/status.tsv" outcome) $(field "$work/status.tsv" exit) $(field "$work/status.tsv" signal))" \
        test "$(field "$work/status.tsv" outcome) $(field "$work/status.tsv" exit) $(field "$work/status.tsv" signal)" == "exited 255 "

    "$SANDBOX" --isolation "$isolation" --box "$box" --status "$work/status.tsv" --stdout "$work/out.txt" --wall 60 \
        --nproc 40 "${options[@]}" -- ./hostile forkbomb
    local forked
    forked=$(sed -n 's/^forked \([0-9]*\) then refused.*/\1/p' "$work/out.txt")
    # As the grader's own user the limit is counted from that user's tasks at the start, some of
    # which (the sandbox's own helpers) end before the bomb: allow a few more.
    local most=40
    [[ -z $uid && $isolation == rlimits ]] && most=50
    check "a fork bomb is stopped by the process limit (forked ${forked:-?} of at most $most)" \
        test -n "$forked" -a "${forked:-999}" -le "$most"
    check "the fork bomb's processes are gone afterwards" test "$(field "$work/status.tsv" outcome)" == exited
    [[ -n $uid ]] && check "no process of uid $uid is left" test "$(live_tasks_of_uid "$uid")" == 0

    "$SANDBOX" --isolation "$isolation" --box "$box" --status "$work/status.tsv" --stdout "$work/out.txt" --wall 60 \
        --fsize $((10 << 20)) "${options[@]}" -- ./hostile flood $((1 << 30))
    local size
    size=$(stat -c %s "$work/out.txt")
    check "1 GB of output is stopped by the file-size limit ($(field "$work/status.tsv" outcome), $((size >> 20)) MB kept)" \
        test "$(field "$work/status.tsv" outcome)" == output-limit -a "$size" -le $((10 << 20))

    # A folder in /tmp that anyone may write to, as another program may leave one: what the
    # program writes in it is found too.
    local inside_tmp=/tmp/grading-sandbox-probe-$$ outside_repo=$PWD/grading-sandbox-probe-$$
    local shared_tmp=/tmp/grading-sandbox-shared-$$
    mkdir -p "$shared_tmp/deeper" && chmod 1777 "$shared_tmp" "$shared_tmp/deeper"
    "$SANDBOX" --isolation "$isolation" --box "$box" --status "$work/status.tsv" --stdout "$work/out.txt" --wall 30 \
        "${options[@]}" -- ./hostile write "$work/planted.txt" "$outside_repo" /etc/grading-sandbox-probe "$inside_tmp" \
        "$shared_tmp/deeper/left.txt" "$box/inside.txt"
    check "writing inside its box works" grep -qx "wrote $box/inside.txt" "$work/out.txt"
    if [[ -n $uid || $isolation == bwrap ]]; then
        # Under bubblewrap the grader's folder is an empty tmpfs: a write there lands in it and vanishes.
        [[ $isolation == bwrap ]] || check "writing into the grader's folder fails" grep -qx "refused $work/planted.txt" "$work/out.txt"
        check "writing into the repository fails" grep -qx "refused $outside_repo" "$work/out.txt"
        check "writing into /etc fails" grep -qx "refused /etc/grading-sandbox-probe" "$work/out.txt"
        check "nothing it wrote in /tmp is left outside" test ! -e "$inside_tmp" -a ! -e "$shared_tmp/deeper/left.txt"
        check "no file appeared outside the box" test ! -e "$work/planted.txt" -a ! -e "$outside_repo" -a ! -e /etc/grading-sandbox-probe
    else
        echo "note  rlimits as the grader's own user: writing where that user may write is not prevented"
        check "files the user may not write stay untouched" test ! -e "$outside_repo" -a ! -e /etc/grading-sandbox-probe
    fi
    rm -rf -- "$work/planted.txt" "$outside_repo" "$inside_tmp" "$shared_tmp"

    "$SANDBOX" --isolation "$isolation" --box "$box" --status "$work/status.tsv" --stdout "$work/out.txt" --wall 30 \
        "${options[@]}" -- ./hostile read "$work/grader-private/reference.out" /etc/hostname
    check "reading the system works" grep -qx "read /etc/hostname" "$work/out.txt"
    if [[ -n $uid || $isolation == bwrap ]]; then
        check "reading the grader's reference outputs fails" grep -qx "refused $work/grader-private/reference.out" "$work/out.txt"
    else
        echo "note  rlimits as the grader's own user: the grader's files are readable; use bubblewrap or run as root"
    fi

    "$SANDBOX" --isolation "$isolation" --box "$box" --status "$work/status.tsv" --stdout "$work/out.txt" --wall 30 \
        "${options[@]}" -- ./hostile connect 127.0.0.1 "$port"
    if [[ $isolation == bwrap || " ${options[*]} " == *" --namespaces "* ]]; then
        check "opening a network connection fails ($(cat "$work/out.txt"))" grep -q '^refused' "$work/out.txt"
    else
        echo "note  no network namespace in this isolation: the connection $(cat "$work/out.txt")"
    fi

    if [[ -n $uid ]]; then
        "$SANDBOX" --isolation "$isolation" --box "$box" --status "$work/status.tsv" --wall 30 "${options[@]}" -- ./hostile escape 60
        check "a process that left its group does not outlive the sandbox" test "$(live_tasks_of_uid "$uid")" == 0
    fi

    # What a sandboxed run could learn or leave for the next one: the grader's command lines
    # (its paths; the sandbox's own arguments name them), and System V shared memory.
    if [[ $isolation == bwrap || " ${options[*]} " == *" --namespaces "* ]]; then
        printf '%s\n' "$work/status.tsv" >"$box/word.txt"  # the sandbox's own --status: the grader's side
        "$SANDBOX" --isolation "$isolation" --box "$box" --status "$work/status.tsv" --stdout "$work/out.txt" --wall 30 \
            "${options[@]}" -- ./hostile cmdlines word.txt
        check "no command line outside the sandbox is visible ($(tail -1 "$work/out.txt"))" grep -q " 0 with the word$" "$work/out.txt"
        local key=$((4242 + isolations))
        "$SANDBOX" --isolation "$isolation" --box "$box" --status "$work/status.tsv" --stdout "$work/out.txt" --wall 30 \
            "${options[@]}" -- ./hostile shm "$key"
        check "a shared-memory segment dies with the sandbox ($(cat "$work/out.txt"))" \
            bash -c "! ipcs -m 2>/dev/null | awk '{ print \$1 }' | grep -qix '$(printf '0x%08x' "$key")'"
    else
        echo "note  no namespaces in this isolation: other processes and System V IPC are shared"
    fi
}

isolations=0
uid_options=()
if ((EUID == 0)); then
    # shellcheck source=../../grading/lib/uids.sh
    source grading/lib/uids.sh
    reserve_sandbox_uids "${GRADE_SANDBOX_UID-}" || { echo "every block of sandbox uids is busy"; exit 1; }
    uid_options=(--uid "$SANDBOX_UID_BASE")
fi
if command -v bwrap >/dev/null && "$SANDBOX" --isolation bwrap --box "$work" --status "$work/probe.tsv" -- /bin/true 2>/dev/null &&
   [[ $(field "$work/probe.tsv" exit) == 0 ]]; then
    test_isolation bwrap "${uid_options[@]}"
    isolations=$((isolations + 1))
else
    echo "note  bubblewrap is not usable here: only the rlimits isolation is tested"
fi
rlimits_options=("${uid_options[@]}")
((EUID == 0)) && unshare --net --ipc --pid --fork --mount --mount-proc true 2>/dev/null &&
    rlimits_options=(--namespaces "${uid_options[@]}")
test_isolation rlimits "${rlimits_options[@]}"
isolations=$((isolations + 1))

echo "$isolations isolation(s) tested"
finish
