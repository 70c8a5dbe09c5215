#!/usr/bin/env bash
# Lab 7's figures: mk/plot.sh with labs/lab7/plots.gp draws its five figures from a synthetic
# CSV in the driver's format (written here: the thread sweep, every multiply against N, the
# streaming runs; the committed sample: sample-figures.sh); a CSV without a thread sweep still gives the other figures.
# Exit 0: passed; 77: skipped (the last line says why); anything else: failed.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/scripts/lib/checks.sh
command -v gnuplot >/dev/null 2>&1 || { echo "gnuplot is not installed"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

header=n,omp_threads,stream,part,tile,block,threads,launches,check,median_ms,q1_ms,q3_ms,gflops,gbps,pct_yardstick
{
    echo "# gpu: Synthetic GPU"
    echo "$header"
    for p in 1 2 4 8; do  # T_p = T_1 / p^0.9 (i-k-j) and / p^0.7 (i-j-k)
        awk -v p=$p 'BEGIN {
            t = 900 / p ^ 0.7; printf "1024,%d,1048576,cpu_ijk,-,host,-,1,PASS,%.3f,%.3f,%.3f,%.1f,,50\n", p, t, t * 0.98, t * 1.02, 2147.48 / t
            t = 200 / p ^ 0.9; printf "1024,%d,1048576,cpu_ikj,-,host,-,1,PASS,%.3f,%.3f,%.3f,%.1f,,100\n", p, t, t * 0.98, t * 1.02, 2147.48 / t }'
    done
    for n in 1024 2048 3072; do
        awk -v n=$n 'BEGIN { f = 2 * n ^ 3 / 1e6; split("cpu_ikj zc_naive zc_tiled copy_naive copy_tiled managed_tiled", parts, " ")
            split("30 60 300 2000 4000 3000", rate, " ")
            for (i = 1; i <= 6; i++) { t = f / rate[i]; tile = i == 1 ? "-" : 32
                printf "%d,8,1048576,%s,%s,32x32,1024,1,PASS,%.3f,%.3f,%.3f,%.1f,,%.1f\n", n, parts[i], tile, t, t, t, rate[i], rate[i] / 30 * 100 } }'
    done
    echo "1024,8,1048576,zc_naive,32,32x32,1024,1,FAIL,1.0,1.0,1.0,2000,,0"  # never drawn
    for c in 16777216 67108864; do
        echo "16,8,$c,pinned_h2d,-,-,-,-,-,1.2,1.2,1.2,,54.4,100.0"
        echo "16,8,$c,stream,-,256,256,1,PASS,1.3,1.3,1.3,,48.4,89.0"
    done
} >"$tmp/sweep.csv"

figures="lab7-threads-time lab7-threads-speedup lab7-threads-efficiency lab7-gpu-vs-n lab7-stream"
out=$(mk/plot.sh lab7 "$tmp/sweep.csv" "$tmp/out" 2>&1)
check "mk/plot.sh draws the synthetic sweep (exit $?)" test $? == 0
for f in $figures; do check "$f.png is drawn" test -s "$tmp/out/$f.png"; done
check "gnuplot warned about nothing" bash -c "! grep -qiE 'warning|error' <<<'$out'"

grep -v ',cpu_ijk,' "$tmp/sweep.csv" >"$tmp/no-threads.csv"
out=$(mk/plot.sh lab7 "$tmp/no-threads.csv" "$tmp/out2" 2>&1)
check "without a thread sweep the thread figures are skipped, with a reason" grep -q "no thread sweep in this CSV" <<<"$out"
check "... and the others still drawn" test -s "$tmp/out2/lab7-gpu-vs-n.png" -a -s "$tmp/out2/lab7-stream.png"

finish
