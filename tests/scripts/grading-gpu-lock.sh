#!/usr/bin/env bash
# The GPU lock of grading/lib/runs.sh (with_gpu): untimed runs share a GPU, a timed run has it
# to itself, and a timed run that waits is not overtaken by untimed runs that come after it.
# Each run below records when it held the GPU; the intervals are then compared.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/scripts/lib/checks.sh
RUN_DIR=$(mktemp -d /tmp/grading-gpu-lock-test.XXXXXX)
trap 'rm -rf -- "$RUN_DIR"' EXIT
source grading/lib/runs.sh
now() { date +%s.%N; }
hold() {  # hold NAME SECONDS: records "NAME start end" while holding the GPU
    local start
    start=$(now)
    sleep "$2"
    echo "$1 $start $(now)" >>"$RUN_DIR/held.txt"
}
interval() { awk -v n="$1" '$1 == n { print $2, $3 }' "$RUN_DIR/held.txt"; }
overlap() {  # overlap A B: the two runs held the GPU at the same time
    read -r a0 a1 <<<"$(interval "$1")"
    read -r b0 b1 <<<"$(interval "$2")"
    awk -v a0="$a0" -v a1="$a1" -v b0="$b0" -v b1="$b1" 'BEGIN { exit !(a0 < b1 && b0 < a1) }'
}
before() {  # before A B: A let go of the GPU before B took it
    read -r a0 a1 <<<"$(interval "$1")"
    read -r b0 b1 <<<"$(interval "$2")"
    awk -v a1="$a1" -v b0="$b0" 'BEGIN { exit !(a1 <= b0) }'
}

with_gpu shared 0 hold s1 1.5 &
with_gpu shared 0 hold s2 1.5 &
sleep 0.3
with_gpu exclusive 0 hold x1 0.5 &  # waits for s1 and s2
sleep 0.3
with_gpu shared 0 hold s3 0.2 &     # came after x1: waits for it
with_gpu shared 1 hold other 0.2 &  # another GPU: waits for nothing
wait

check "untimed runs share the GPU" overlap s1 s2
check "the timed run waits for the untimed runs before it" before s1 x1
check "... for every one of them" before s2 x1
check "an untimed run that came later waits for the timed run" before x1 s3
check "another GPU is not held up" before other x1
finish
