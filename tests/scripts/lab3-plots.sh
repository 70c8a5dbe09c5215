#!/usr/bin/env bash
# Lab 3's figures: mk/plot.sh with labs/lab3/plots.gp (and labs/lab3/plots.awk) draws its four
# figures from a synthetic CSV in the driver's format, written here (the student report's runs at N = 400 ..
# 2000 x blocks 8, 16, 32 with the CPU timed; the blocked runs up to N = 8192 with the CPU
# skipped; the committed sample: sample-figures.sh). The numbers drawn are the CSV's: a speedup is T_CPU / T_part of the same N. A CSV
# without the CPU or without the blocked runs still gives the other figures, saying what it left
# out. Exit 0: passed; 77: skipped (the last line says why); anything else: failed.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/scripts/lib/checks.sh
command -v gnuplot >/dev/null 2>&1 || { echo "gnuplot is not installed"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
lacks() { ! grep -qiE -- "$2" <<<"$1"; }  # lacks TEXT REGEX (case-insensitive)

header=n,blocksize,arcs,part,block,threads,launches,check,median_ms,q1_ms,q3_ms,grelax,gbps,pct_yardstick
{
    echo "# gpu: Synthetic GPU"
    echo "$header"
    awk 'function row(n, b, part, block, threads, launches, ms, check) {
             printf "%d,%d,%d,%s,%s,%s,%s,%s,%.4f,%.4f,%.4f,%.1f,,\n", n, b, n * n / 10, part, block, threads, \
                    launches, check, ms, ms * 0.98, ms * 1.03, n * n * n / (ms * 1e6)
         }
         BEGIN {
             split("400 1000 1400 2000", ns, " "); split("8 16 32", bs, " ")
             for (i = 1; i <= 4; i++) for (j = 1; j <= 3; j++) {
                 n = ns[i]; b = bs[j]; c = n * n * n / 2e6   # the CPU: 2 Grelax/s
                 row(n, b, "cpu", "-", "-", "-", c, "PASS")
                 row(n, b, "trusted_2d", "-", "-", "-", c / (50 + b), "PASS")
                 row(n, b, "cpu_diameter", "-", "-", "-", n * n / 1e6, "PASS")
                 row(n, b, "fw_1d", b * b "x1", b * b, n, c / (40 + b), "PASS")
                 row(n, b, "fw_2d", b "x" b, b * b, n, c / (45 + b), "PASS")
                 row(n, b, "fw_blocked", "16x16", 256, 3 * int((n + 63) / 64), c / 900, "PASS")
                 row(n, b, "diameter", b * b "x1", b * b, 2, n * n / 1e8, "PASS")
             }
             row(1000, 8, "fw_1d", "64x1", 64, 1000, 1, "FAIL")   # never drawn
             for (n = 1024; n <= 8192; n *= 2) {
                 c = n * n * n / 2e6
                 printf "%d,32,%d,cpu,-,-,-,skipped,,,,,,\n", n, n * n / 10
                 row(n, 32, "trusted_2d", "-", "-", "-", c / 80, "PASS")
                 row(n, 32, "fw_2d", "32x32", 1024, n, c / 78, "PASS")
                 row(n, 32, "fw_blocked", "16x16", 256, 3 * int((n + 63) / 64), c / (80 * 30), "PASS")
             }
         }'
} >"$tmp/sweep.csv"

figures="lab3-times lab3-speedups lab3-blocked lab3-rates"
out=$(mk/plot.sh lab3 "$tmp/sweep.csv" "$tmp/out" 2>&1)
status=$?
indent "$out"
check "mk/plot.sh draws the synthetic sweep (exit $status)" test $status == 0
for f in $figures; do check "$f.png is drawn" test -s "$tmp/out/$f.png"; done
check "gnuplot warned about nothing and left nothing out" lacks "$out" "warning|error|left out|empty"

# The numbers: what plots.awk hands gnuplot.
rows() { awk -v "part=$1" -v "block=$2" -v "only=$3" -v "y=$4" -v "base=$5" -f labs/lab3/plots.awk "$tmp/sweep.csv" "$tmp/sweep.csv" | sort -g; }
check "the speedup of fw_2d at block 16 is T_CPU / T_2D = 61 at every N of the report's runs" \
    test "$(rows fw_2d 16 report speedup "" | awk '{ printf "%s %.2f;", $1, $2 }')" == "400 61.00;1000 61.00;1400 61.00;2000 61.00;"
check "the report's runs are N = 400, 1000, 1400, 2000 (not the blocked runs' N)" \
    test "$(rows fw_blocked '*' report ms "" | awk '{ printf "%s ", $1 }')" == "400 1000 1400 2000 "
check "fw_blocked is 30x the plain 2D kernel at block 32 in the blocked runs" \
    test "$(rows fw_blocked 32 "" over trusted_2d | awk '$1 % 1024 == 0 { printf "%.1f ", $2 }')" == "30.0 30.0 30.0 30.0 "
check "a failed row is never drawn" test "$(rows fw_1d 8 report ms "" | awk '$1 == 1000 { print ($2 == 1 ? "drawn" : "not drawn") }')" == "not drawn"
check "a skipped CPU row is never drawn" test -z "$(rows cpu '*' "" ms "" | awk '$1 % 1024 == 0')"

# Without the CPU (a sweep run with --no-yardstick): the speedups figure says why it is empty.
grep -vE ',(cpu|trusted_2d|cpu_diameter),' "$tmp/sweep.csv" >"$tmp/no-cpu.csv"
out=$(mk/plot.sh lab3 "$tmp/no-cpu.csv" "$tmp/out2" 2>&1)
check "without the CPU: exit 0 ($?)" test $? == 0
check "... the speedups figure is empty, saying why" grep -q "lab3-speedups.png: no row of the student report's runs" <<<"$out"
check "... the times figure leaves the CPU out, saying so" grep -q "lab3-times.png: no passing row for cpu, left out" <<<"$out"
for f in $figures; do check "... $f.png is still written" test -s "$tmp/out2/$f.png"; done
check "... without a gnuplot warning or error" lacks "$out" "warning|error"

# Only the blocked runs: the report's figures are empty, the blocked ones drawn.
awk -F, '/^#/ || $1 == "n" || $1 % 1024 == 0' "$tmp/sweep.csv" >"$tmp/blocked-only.csv"
out=$(mk/plot.sh lab3 "$tmp/blocked-only.csv" "$tmp/out3" 2>&1)
check "only the blocked runs: exit 0 ($?)" test $? == 0
check "... lab3-times.png says it has no run of the report's experiment" grep -q "lab3-times.png: no row of the student report's runs" <<<"$out"
check "... lab3-blocked.png is drawn" test -s "$tmp/out3/lab3-blocked.png"

finish
