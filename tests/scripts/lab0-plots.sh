#!/usr/bin/env bash
# Lab 0's figures: mk/plot.sh with labs/lab0/plots.gp draws its two figures (bandwidth against
# n, against the block size) from a synthetic CSV in the driver's format, written here (the
# committed sample: sample-figures.sh). A part without a passing row is left out with a line saying so, and the figures are still drawn.
# Exit 0: passed; 77: skipped (the last line says why); anything else: failed.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/scripts/lib/checks.sh
command -v gnuplot >/dev/null 2>&1 || { echo "gnuplot is not installed"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# A made-up GPU: a launch of 3 us, then memory at a fixed rate per part, lower at small blocks.
{
    echo "# synthetic CSV written by tests/scripts/lab0-plots.sh: not a measurement"
    echo "# gpu: Synthetic GPU"
    echo "n,block_size,part,block,threads,launches,check,median_ms,q1_ms,q3_ms,gbps,pct_yardstick"
    awk 'function row(n, b, part, rate,    ms, c) {
             ms = 12 * n / (rate * 1e6) + 0.003
             c = part == "copy" ? "-" : "PASS"
             printf "%d,%d,%s,%s,%s,%s,%s,%.4f,%.4f,%.4f,%.1f,%.1f\n", n, b, part, part == "copy" ? "-" : b "x1", \
                    part == "copy" ? "-" : b, part == "copy" ? "-" : 1, c, ms, ms * 0.98, ms * 1.02, 12 * n / (ms * 1e6), 100
         }
         BEGIN {
             split("copy one_per_thread grid_stride", parts, " ")
             split("3000 2900 2950", rates, " ")
             for (e = 10; e <= 26; e += 2)
                 for (i = 1; i <= 3; i++) row(2 ^ e, 256, parts[i], rates[i])
             for (b = 32; b <= 1024; b *= 2)
                 for (i = 1; i <= 3; i++) row(16777216, b, parts[i], rates[i] * (b < 128 ? 0.7 : 1))
         }'
    echo "16777216,256,grid_stride,256x1,256,1,FAIL,0.01,0.01,0.01,20132.7,0"  # never drawn
} >"$tmp/sweep.csv"

figures="lab0-bandwidth lab0-blocks"
out=$(mk/plot.sh lab0 "$tmp/sweep.csv" "$tmp/out" 2>&1)
status=$?
indent "$out"
check "mk/plot.sh draws the synthetic sweep (exit $status)" test $status == 0
for f in $figures; do check "$f.png is drawn" test -s "$tmp/out/$f.png"; done
check "gnuplot warned about nothing" bash -c "! grep -qiE 'warning|error' <<<'$out'"
check "no part was left out" bash -c "! grep -q 'left out' <<<'$out'"

# With no passing grid_stride row (a starter's): the other curves are drawn, and it says so.
sed 's/,grid_stride,\([^,]*\),\([^,]*\),\([^,]*\),PASS,/,grid_stride,\1,\2,\3,FAIL,/' "$tmp/sweep.csv" >"$tmp/partial.csv"
out=$(mk/plot.sh lab0 "$tmp/partial.csv" "$tmp/partial" 2>&1)
status=$?
indent "$out"
check "a CSV with grid_stride failing: exit 0" test $status == 0
check "... saying grid_stride is left out of both figures" \
    bash -c "grep -q 'lab0-bandwidth.png: no passing row for grid_stride, left out' <<<'$out' && grep -q 'lab0-blocks.png: no passing row for grid_stride, left out' <<<'$out'"
check "... without a gnuplot warning or error" bash -c "! grep -qiE 'warning|error' <<<'$out'"
for f in $figures; do check "... $f.png is still drawn" test -s "$tmp/partial/$f.png"; done

finish
