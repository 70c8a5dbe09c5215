#!/usr/bin/env bash
# Lab 6's figures: mk/plot.sh with labs/lab6/plots.gp draws its two figures (throughput against
# the array length at 2^20 and 2^24 pairs) from a synthetic CSV in the driver's format, written
# here (the committed sample: sample-figures.sh). Parts without a passing row are left out with a line saying so, and the figures are still
# drawn.
# Exit 0: passed; 77: skipped (the last line says why); anything else: failed.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/scripts/lib/checks.sh
command -v gnuplot >/dev/null 2>&1 || { echo "gnuplot is not installed"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# A made-up GPU: a network's time grows with its passes over memory (log^2 of the length), a
# radix sort's does not; the one-block parts only up to 1024, Thrust only for one array.
{
    echo "# synthetic CSV written by tests/scripts/lab6-plots.sh: not a measurement"
    echo "# gpu: Synthetic GPU"
    echo "length,batch,dir,part,block,threads,launches,check,median_ms,q1_ms,q3_ms,mkeys,pct_yardstick"
    awk 'function row(len, total, dir, part, rate,    ms, check) {
             check = (part ~ /_shared$/ && len > 1024) ? "skipped" : "PASS"
             ms = total / (rate * 1e3)
             printf "%d,%d,%s,%s,-,-,1,%s,%.4f,%.4f,%.4f,%.1f,100\n", len, total / len, dir, part, check, ms, ms * 0.98, ms * 1.02, total / (ms * 1e3)
         }
         BEGIN {
             split("64 512 1024 4096 16384 65536 262144 524288 1048576", lens, " ")
             for (t = 1; t <= 2; t++) {
                 total = t == 1 ? 1048576 : 16777216
                 for (i = 1; i <= 9; i++) {
                     L = lens[i]; l = log(L) / log(2)
                     row(L, total, "up", "cub", 4000)
                     if (L == total) row(L, total, "up", "thrust", 6000)
                     row(L, total, "up", "bitonic_shared", 60000 / l)
                     row(L, total, "up", "bitonic", 60000 / (l * (l + 1) / 2) * 4)
                     row(L, total, "up", "oddeven_shared", 50000 / l)
                     row(L, total, "up", "oddeven", 50000 / (l * (l + 1) / 2) * 2)
                 }
             }
             row(1048576, 1048576, "up", "thrust_float", 5000)
         }'
    echo "1024,1024,up,bitonic,-,-,1,FAIL,0.01,0.01,0.01,99999,0"  # never drawn
} >"$tmp/sweep.csv"

figures="lab6-throughput lab6-throughput-16m"
out=$(mk/plot.sh lab6 "$tmp/sweep.csv" "$tmp/out" 2>&1)
status=$?
indent "$out"
check "mk/plot.sh draws the synthetic sweep (exit $status)" test $status == 0
for f in $figures; do check "$f.png is drawn" test -s "$tmp/out/$f.png"; done
check "gnuplot warned about nothing" bash -c "! grep -qiE 'warning|error' <<<'$out'"
check "no part was left out" bash -c "! grep -q 'left out' <<<'$out'"

# Without any oddeven row and with no thrust row: the other curves are drawn, and it says so.
grep -vE ',(oddeven|thrust),' "$tmp/sweep.csv" >"$tmp/partial.csv"
out=$(mk/plot.sh lab6 "$tmp/partial.csv" "$tmp/partial" 2>&1)
status=$?
indent "$out"
check "a CSV without oddeven and thrust: exit 0" test $status == 0
check "... saying oddeven is left out" grep -q "lab6-throughput.png: no passing row for oddeven, left out" <<<"$out"
check "... and thrust (at 2^20, where one array runs)" grep -q "lab6-throughput.png: no passing row for thrust, left out" <<<"$out"
check "... but not at 2^24, where Thrust never runs" bash -c "! grep -q 'lab6-throughput-16m.png: no passing row for thrust' <<<'$out'"
check "... without a gnuplot warning or error" bash -c "! grep -qiE 'warning|error' <<<'$out'"
for f in $figures; do check "... $f.png is still drawn" test -s "$tmp/partial/$f.png"; done

finish
