#!/usr/bin/env bash
# What every lab's driver gets from the shared driver core, checked on each lab's student
# binary without a GPU: --help names the manifest's parts in the manifest's order; a bad part,
# a bad option or a bad cases file gets one clear line and exit 2 (6 for a missing file)
# before the GPU is even looked for; and with no GPU the driver says so and exits 3.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source mk/manifest.sh
BUILD=${BUILD:-build}
work=$(mktemp -d /tmp/drivers-test.XXXXXX)
trap 'rm -rf -- "$work"' EXIT
failures=0
expect() {  # expect STATUS TEXT -- command...: exit status and a line of its output
    local want_status=$1 want_text=$2
    shift 3
    local output status
    output=$("$@" 2>&1)
    status=$?
    if [[ $status != "$want_status" ]] || ! grep -qF -- "$want_text" <<<"$output"; then
        echo "FAILED: $* -> exit $status (wanted $want_status, with '$want_text'):"
        echo "$output" | head -10
        failures=$((failures + 1))
    fi
}

for manifest in labs/*/manifest; do
    lab=$(basename "$(dirname "$manifest")")
    binary=$BUILD/bin/$lab-student
    [[ -x $binary ]] || { echo "FAILED: $binary is not built (make test builds it)"; failures=$((failures + 1)); continue; }
    parts=$(manifest_get "$lab" parts)
    expect 0 "parts: ${parts// /, }" -- "$binary" --help
    expect 0 "usage: $lab [options]" -- "$binary" --help
    expect 2 "--part: no part named 'nosuch'" -- "$binary" --part "${parts%% *},nosuch"
    expect 2 "unknown option --nosuch" -- "$binary" --nosuch 1
    expect 2 "--reps must be between 1 and" -- "$binary" --reps 0
    expect 2 "--check must be auto, full, sample or none" -- "$binary" --check maybe
    expect 2 "--write-bounds needs --out DIR" -- "$binary" --write-bounds
    expect 6 "--cases: cannot read $work/none.txt" -- "$binary" --cases "$work/none.txt"
    printf '# comment\n\none --seed 1\none --seed 2\n' >"$work/twice.txt"
    expect 2 "twice.txt:4: case 'one' is named twice" -- "$binary" --cases "$work/twice.txt"
    printf 'a/b --seed 1\n' >"$work/slash.txt"
    expect 2 "slash.txt:1: a case name is letters, digits" -- "$binary" --cases "$work/slash.txt"
    printf 'x --cases other.txt\n' >"$work/nested.txt"
    expect 2 "a case cannot name --cases" -- "$binary" --cases "$work/nested.txt"
    printf 'x --reps 0\n' >"$work/badcase.txt"
    expect 2 "--reps must be between 1 and" -- "$binary" --cases "$work/badcase.txt"
    printf '# nothing\n' >"$work/empty.txt"
    expect 2 "holds no case" -- "$binary" --cases "$work/empty.txt"
    if [[ ${GPU:-no} != yes ]]; then
        expect 3 "This lab needs an NVIDIA GPU" -- "$binary"
        if "$binary" 2>&1 | grep -qiE 'cudaError|terminate|core dumped|Aborted'; then
            echo "FAILED: $lab: the no-GPU message is not plain"
            failures=$((failures + 1))
        fi
    fi
done
((failures == 0))
