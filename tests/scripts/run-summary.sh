#!/usr/bin/env bash
# tests/run.sh's report of its scripts, on a tree of three made-up ones: a pass with its wall
# and CPU time, a skip with its reason, a failure with its failed checks, the lines that explain
# each (indented under it), and its last lines; the closing counts and a failing exit status.
# CI's excerpt shows only this report, so what it keeps is what a failure on CI can say. And the
# quiet lock: an "alone" script starts beside the others and gets the lock once they have ended,
# though one of them left a process behind. A made-up Catch2 binary runs beside the scripts, its
# output shown and its test cases counted, the [gpu] ones skipped (no GPU in the made-up tree);
# another dies before its summary.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/scripts/lib/checks.sh
work=$(mktemp -d /tmp/run-summary-test.XXXXXX)
trap 'rm -rf -- "$work"' EXIT

mkdir -p "$work/tests/scripts" "$work/build/tests" "$work/build/bin"
cp tests/run.sh "$work/tests/"
printf '#!/usr/bin/env bash\nfor ((i = 0; i < 300000; i++)); do :; done\necho "ok    spun"\necho "TEST_LOGS: ${TEST_LOGS-unset}"\n' >"$work/tests/scripts/busy.sh"
printf '#!/usr/bin/env bash\necho "needs a thing this machine lacks"\nexit 77\n' >"$work/tests/scripts/lacking.sh"
cat >"$work/tests/scripts/broken.sh" <<'EOF'
#!/usr/bin/env bash
echo "ok    first"
echo "FAIL  second"
echo "      why the second failed"
echo "ok    third"
echo "      a detail of a passing check"
echo "FAIL  fourth"
exit 1
EOF
# (A long one, started first: the Catch2 binary, which holds one of the two jobs, runs beside it.)
printf '#!/usr/bin/env bash\n# test: long\necho "started $(date +%%s.%%N)"\nsleep 2\necho "ended $(date +%%s.%%N)"\n' >"$work/tests/scripts/slow.sh"
printf '#!/usr/bin/env bash\nsleep 30 >/dev/null 2>&1 &\necho "left a process behind"\n' >"$work/tests/scripts/lingering.sh"
printf '#!/usr/bin/env bash\n# test: alone\necho "started $(date +%%s.%%N)"\nflock -s "$TEST_QUIET_LOCK" true\necho "quiet $(date +%%s.%%N)"\n' \
    >"$work/tests/scripts/timer.sh"
cat >"$work/build/tests/unit" <<'EOF'
#!/usr/bin/env bash
if [[ $1 == --list-tests ]]; then
    [[ $2 == "[gpu]" ]] && echo "1 matching test case" || echo "2 matching test cases"
    exit 0
fi
echo "started with $*"
sleep 1
echo "ended $(date +%s.%N)"
echo "All tests passed (4 assertions in 2 test cases)"
EOF
# And one that dies before its summary: a failure, named, with its last words.
cat >"$work/build/tests/crashing" <<'EOF'
#!/usr/bin/env bash
if [[ $1 == --list-tests ]]; then
    [[ $2 == "[gpu]" ]] && echo "0 matching test cases" || echo "1 matching test case"
    exit 0
fi
echo "the last words before the crash"
kill -ABRT $$
EOF
chmod +x "$work/build/tests/unit" "$work/build/tests/crashing"
# (A time limit: a quiet lock never let go would leave the alone script waiting for good.)
(cd "$work" && TEST_JOBS=2 TEST_LOGS="$work/logs" timeout 60 bash tests/run.sh) >"$work/out.txt" 2>&1
status=$?

check "a failed script fails the run (status $status)" test "$status" == 1
check "a pass names its wall and CPU seconds" grep -qE '^PASS  busy\.sh \([0-9]+ s, [0-9]+ s of CPU\)$' "$work/out.txt"
check "a skip gives its reason" grep -qx 'SKIP  lacking.sh: needs a thing this machine lacks' "$work/out.txt"
check "a failure counts its failed checks" grep -qE '^FAIL  broken\.sh \(exit 1, [0-9]+ s, [0-9]+ s of CPU\): 2 failed check\(s\):$' "$work/out.txt"
# The failed checks first, each with its explanation, and nothing under a passing one.
check "each failed check comes with the lines that explain it" \
    test "$(sed -n '/^FAIL  broken/,/--- the last lines/p' "$work/out.txt" | sed '1d;$d')" == \
    "$(printf '      FAIL  second\n            why the second failed\n      FAIL  fourth')"
check "then its last lines" grep -qx '      ok    third' "$work/out.txt"
check "the counts, the Catch2 binaries' test cases among them" grep -qx '6 passed, 2 failed, 2 skipped' "$work/out.txt"
check "a Catch2 binary that dies before its summary is a failure, with its last words" bash -c \
    "grep -qx 'FAIL  crashing (exit 134): 1 failed test case(s); its last lines:' '$work/out.txt' &&
     grep -qx '      the last words before the crash' '$work/out.txt'"
check "the Catch2 binary's output is shown, its [gpu] tests left out" \
    test "$(grep -A1 '^== unit$' "$work/out.txt" | sed -n 2p)" == "started with ~[gpu]"
# time_of SCRIPT WORD: the time the script's log line "WORD <seconds>" gives.
time_of() { sed -n "s/^$2 //p" "$work/logs/$1.log"; }
slow_ended=$(time_of slow.sh ended) timer_started=$(time_of timer.sh started) quiet=$(time_of timer.sh quiet)
unit_ended=$(sed -n 's/^ended //p' "$work/out.txt") slow_started=$(time_of slow.sh started)
check "the Catch2 binary ran beside the scripts (a script started at $slow_started, before it ended at $unit_ended)" \
    awk -v a="$slow_started" -v b="$unit_ended" 'BEGIN { exit !(a != "" && a < b) }'
check "the alone script started beside the others ($timer_started, before $slow_ended)" \
    awk -v a="$timer_started" -v b="$slow_ended" 'BEGIN { exit !(a != "" && a < b) }'
check "and got the quiet lock once they had ended, the process left behind holding nothing ($quiet)" \
    awk -v q="$quiet" -v e="$slow_ended" 'BEGIN { exit !(q != "" && q >= e && q < e + 10) }'
# A script that runs tests/run.sh itself must not report into this run's folder.
check "TEST_LOGS keeps the logs, and is not passed down to the scripts" grep -qx 'TEST_LOGS: unset' "$work/logs/busy.sh.log"
((failures == 0)) || indent "$(<"$work/out.txt")"
finish
