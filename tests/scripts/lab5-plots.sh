#!/usr/bin/env bash
# Lab 5's figures: mk/plot.sh with labs/lab5/plots.gp draws its three figures (bandwidth
# against n, the cumulative speedup bars, bandwidth against the block size) from a synthetic CSV
# in the driver's format, written here (the committed sample: sample-figures.sh). Rungs without a passing row are left out with a line
# saying so, and the figures are still drawn.
# Exit 0: passed; 77: skipped (the last line says why); anything else: failed.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/scripts/lib/checks.sh
command -v gnuplot >/dev/null 2>&1 || { echo "gnuplot is not installed"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# A made-up GPU: each rung a fixed bandwidth, reached from n = 2^20 on; under it, a launch
# time of 5 us per pass.
{
    echo "# synthetic CSV written by tests/scripts/lab5-plots.sh: not a measurement"
    echo "# gpu: Synthetic GPU"
    echo "# memory peak: 4800 GB/s (made up)"
    echo "n,block_size,part,block,threads,launches,check,median_ms,q1_ms,q3_ms,gbps,pct_yardstick"
    awk 'function row(n, b, part, rate, passes,    ms) {
             ms = 8 * n / (rate * 1e6) + 0.005 * passes
             printf "%d,%d,%s,%s,%s,%d,PASS,%.4f,%.4f,%.4f,%.1f,%.1f\n", n, b, part, part == "cub" ? "-" : b "x1", \
                    part == "cub" ? "-" : b, passes, ms, ms * 0.98, ms * 1.02, 8 * n / (ms * 1e6), 100
         }
         BEGIN {
             split("cub neighbored neighbored_less interleaved unrolling2 unrolling4 unrolling8 unroll_warps8 complete_unroll_warps8 complete_unroll shuffle grid_stride", parts, " ")
             split("4200 400 700 900 1500 2500 3300 3400 3450 3500 3800 4100", rates, " ")
             split("2 3 3 3 3 2 2 2 2 2 2 1", passes, " ")
             for (e = 10; e <= 28; e += 2)
                 for (i = 1; i <= 12; i++) row(2 ^ e, 512, parts[i], rates[i], passes[i])
             for (b = 64; b <= 1024; b *= 2)
                 for (i = 1; i <= 12; i++) row(16777216, b, parts[i], rates[i] * (0.8 + 0.05 * log(b) / log(2) - 0.3), passes[i])
         }'
    echo "16777216,512,shuffle,512x1,512,2,FAIL,0.01,0.01,0.01,13421.8,0"  # never drawn
} >"$tmp/sweep.csv"

figures="lab5-bandwidth lab5-speedup lab5-blocks"
out=$(mk/plot.sh lab5 "$tmp/sweep.csv" "$tmp/out" 2>&1)
status=$?
indent "$out"
check "mk/plot.sh draws the synthetic sweep (exit $status)" test $status == 0
for f in $figures; do check "$f.png is drawn" test -s "$tmp/out/$f.png"; done
check "gnuplot warned about nothing" bash -c "! grep -qiE 'warning|error' <<<'$out'"
check "no rung was left out" bash -c "! grep -q 'left out' <<<'$out'"

# Without a neighbored row and with no passing grid_stride row: the other curves are drawn, the
# speedup figure says why it is empty.
grep -v ',neighbored,' "$tmp/sweep.csv" | sed 's/,grid_stride,\([^,]*\),\([^,]*\),\([^,]*\),PASS,/,grid_stride,\1,\2,\3,FAIL,/' >"$tmp/partial.csv"
out=$(mk/plot.sh lab5 "$tmp/partial.csv" "$tmp/partial" 2>&1)
status=$?
indent "$out"
check "a CSV without neighbored and with grid_stride failing: exit 0" test $status == 0
check "... saying grid_stride is left out" grep -q "lab5-bandwidth.png: no passing row for grid_stride, left out" <<<"$out"
check "... and why the speedup figure is empty" grep -q "lab5-speedup.png: no passing neighbored row" <<<"$out"
check "... without a gnuplot warning or error" bash -c "! grep -qiE 'warning|error' <<<'$out'"
for f in $figures; do check "... $f.png is still drawn" test -s "$tmp/partial/$f.png"; done

finish
