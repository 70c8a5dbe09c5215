#!/usr/bin/env bash
# Lab 4's figures: mk/plot.sh with labs/lab4/plots.gp draws its six figures from a synthetic CSV
# in the driver's format (written here: the block sizes at n = 200000 and 2^24, n from 2^10 to
# 2^28, image sides and radii, every yardstick in every run as the driver times them; the
# committed sample: sample-figures.sh). A CSV
# without the convolution runs still gives the 1D figures, and says what it left out.
# Exit 0: passed; 77: skipped (the last line says why); anything else: failed.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/scripts/lib/checks.sh
command -v gnuplot >/dev/null 2>&1 || { echo "gnuplot is not installed"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
lacks() { ! grep -qiE -- "$2" <<<"$1"; }  # lacks TEXT REGEX (case-insensitive)

header=n,block_size,width,height,radius,part,block,threads,launches,check,median_ms,q1_ms,q3_ms,gbps,pct_yardstick
# row N BLOCK W H R PART MS GBPS CHECKED: one CSV row as the driver writes it.
synthetic() {
    awk -v header="$header" 'function row(n, bs, w, h, r, part, ms, bytes, checked,    gbps) {
            gbps = bytes / (ms * 1e6)
            if (checked) printf "%d,%d,%d,%d,%d,%s,%dx1,%d,1,PASS,%.4f,%.4f,%.4f,%.1f,90.0\n", n, bs, w, h, r, part, bs, bs, ms, ms * 0.98, ms * 1.03, gbps
            else printf "%d,%d,%d,%d,%d,%s,-,-,-,-,%.4f,%.4f,%.4f,%.1f,100.0\n", n, bs, w, h, r, part, ms, ms * 0.98, ms * 1.03, gbps
        }
        # A run: the yardsticks, then the parts; times from a model: launch 0.003 ms, memory at
        # 3500 GB/s, the CPU at 2 GB/s, the convolutions slower with the radius.
        function run(n, bs, w, h, r, which,    sb, ib, t) {
            sb = 8 * (n + 2); ib = 8 * w * h
            row(n, bs, w, h, r, "cpu", sb / 2e6, sb, 0)
            row(n, bs, w, h, r, "launch", 0.003, sb, 0)
            row(n, bs, w, h, r, "copy", 0.003 + sb / 3.5e9, sb, 0)
            row(n, bs, w, h, r, "memcpy", 0.005 + sb / 2.5e9, sb, 0)
            row(n, bs, w, h, r, "copy_half", 0.003 + 4 * n / 3.5e9, 4 * n, 0)
            row(n, bs, w, h, r, "copy_image", 0.003 + ib / 3.5e9, ib, 0)
            if (which == "1d") {
                t = 1 + (bs == 1024 ? 0.1 : 0)
                row(n, bs, w, h, r, "stencil_global", t * (0.004 + sb / 3.3e9), sb, 1)
                row(n, bs, w, h, r, "stencil_shared", t * (0.004 + sb / 3.2e9), sb, 1)
                row(n, bs, w, h, r, "max", 0.007 + 4 * n / 3.0e9, 4 * n, 1)
            } else {
                row(n, bs, w, h, r, "conv_global", 0.004 + ib / 3.3e9 * (1 + r * r / 4), ib, 1)
                row(n, bs, w, h, r, "conv_shared", 0.004 + ib / 3.0e9 * (1 + r / 4), ib, 1)
            }
        }
        BEGIN {
            print "# lab4 sweep, synthetic: written by tests/scripts/lab4-plots.sh, not a measurement"
            print "# gpu: Synthetic GPU"
            print header
            for (b = 32; b <= 1024; b *= 2) { run(200000, b, 16, 16, 2, "1d"); run(16777216, b, 16, 16, 2, "1d") }
            for (n = 1024; n <= 268435456; n *= 4) run(n, 256, 16, 16, 2, "1d")
            for (s = 256; s <= 8192; s *= 2) run(1024, 256, s, s, 2, "2d")
            for (r = 0; r <= 8; r++) run(1024, 256, 4096, 4096, r, "2d")
            print "1024,256,4096,4096,3,conv_shared,32x8,256,1,FAIL,0.0100,0.0100,0.0100,99999.0,0"  # never drawn
        }'
}
synthetic >"$tmp/sweep.csv"

figures="lab4-blocks-time lab4-blocks-speedup lab4-bandwidth lab4-time lab4-conv-radius lab4-conv-size"
out=$(mk/plot.sh lab4 "$tmp/sweep.csv" "$tmp/out" 2>&1)
status=$?
indent "$out"
check "mk/plot.sh draws the synthetic sweep (exit $status)" test $status == 0
for f in $figures; do
    check "$f.png is drawn" test -s "$tmp/out/$f.png"
    [[ -s $tmp/out/$f.png ]] && check "$f.png is more than an empty frame" test "$(wc -c <"$tmp/out/$f.png")" -gt 10000
done
check "gnuplot warned about nothing and left nothing out" lacks "$out" "warning|error|left out|empty"

# The 1D runs only: the convolution figures are empty and say so, the others are drawn.
grep -vE ',(conv_global|conv_shared),' "$tmp/sweep.csv" >"$tmp/no-conv.csv"
out=$(mk/plot.sh lab4 "$tmp/no-conv.csv" "$tmp/out2" 2>&1)
status=$?
check "a CSV without convolution rows still draws (exit $status)" test $status == 0
check "... saying the convolutions are left out" contains "$out" "lab4-conv-radius.png: no passing row for conv_global conv_shared, left out"
check "... without a gnuplot warning" lacks "$out" "warning|error"
check "... and the 1D figures drawn" test -s "$tmp/out2/lab4-bandwidth.png" -a -s "$tmp/out2/lab4-blocks-speedup.png"

# Nothing at n = 200000: the student report's figures are empty and say so.
grep -v '^200000,' "$tmp/sweep.csv" >"$tmp/no-blocks.csv"
out=$(mk/plot.sh lab4 "$tmp/no-blocks.csv" "$tmp/out3" 2>&1)
check "a CSV without n = 200000 says its block figures are empty" contains "$out" "lab4-blocks-time.png: no passing row for any of its curves; the figure is empty"
check "... both of them" contains "$out" "lab4-blocks-speedup.png: no block size"
check "... without a gnuplot warning" lacks "$out" "warning|error"
for f in $figures; do check "... $f.png still written" test -s "$tmp/out3/$f.png"; done

finish
