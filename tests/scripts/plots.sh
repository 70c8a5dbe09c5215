#!/usr/bin/env bash
# The figures: mk/plot.sh with labs/lab1/plots.gp draws lab 1's three figures (lab1-gflops,
# lab1-block, lab1-depth) from a synthetic CSV in the drivers' format, written here (every lab's
# committed sample: sample-figures.sh); and mk/plot.sh fails with a clear message when the CSV
# is missing or gnuplot is not installed.
#
# Exit 0: passed; 77: skipped (the last line says why); anything else: failed.
# PLOTS_TEST_CSV=path draws that CSV instead of the synthetic one (to try a sweep).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/scripts/lib/checks.sh

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
lacks() { ! grep -qiE -- "$2" <<<"$1"; }  # lacks TEXT REGEX (case-insensitive)

# --- mk/plot.sh refuses clearly, whether or not gnuplot is here ---------------------------
# A PATH with only the tools mk/plot.sh uses (symbolic links in a temporary folder), so
# that gnuplot, wherever it is installed, is not on it.
mkdir -p "$tmp/bin" "$tmp/stub"
for tool in bash dirname grep mkdir mktemp touch date find sort rm sed head cat; do
    path=$(command -v "$tool") && ln -s "$path" "$tmp/bin/$tool"
done
env_bin=$(command -v env)
if PATH=$tmp/bin command -v gnuplot >/dev/null 2>&1; then
    echo "FAIL  the stripped PATH still finds gnuplot"
    exit 1
fi
printf '# a CSV that exists\nm,n,k,part\n1,1,1,cublas\n' >"$tmp/any.csv"

out=$("$env_bin" PATH="$tmp/bin" mk/plot.sh lab1 "$tmp/any.csv" "$tmp/out-no-gnuplot" 2>&1)
status=$?
indent "$out"
check "without gnuplot on PATH, mk/plot.sh exits non-zero" test "$status" -ne 0
check "... and prints the install hint" contains "$out" "gnuplot is not installed: sudo apt-get install gnuplot-nox (Debian/Ubuntu)"
check "... and writes nothing" test ! -e "$tmp/out-no-gnuplot"

# The CSV checks come after the gnuplot check: a stub gnuplot that records being called
# lets them run on a machine without gnuplot too.
printf '#!%s\ntouch "%s/stub-called"\n' "$(command -v bash)" "$tmp" >"$tmp/stub/gnuplot"
chmod +x "$tmp/stub/gnuplot"
stub_path="$tmp/stub:$tmp/bin"

out=$("$env_bin" PATH="$stub_path" mk/plot.sh lab1 "$tmp/no-such.csv" "$tmp/out-missing" 2>&1)
status=$?
indent "$out"
check "a CSV that does not exist: mk/plot.sh exits non-zero" test "$status" -ne 0
check "... saying so and how to make one" contains "$out" "$tmp/no-such.csv does not exist: run make lab1-sweep"

out=$("$env_bin" PATH="$stub_path" mk/plot.sh lab1 "" "$tmp/out-missing" 2>&1)
status=$?
indent "$out"
check "no CSV at all (make lab1-plots before any sweep): exits non-zero" test "$status" -ne 0
check "... saying there is no sweep yet" contains "$out" "no sweep yet: run make lab1-sweep, or pass CSV=path"

printf '# lab1 sweep\n# FAILED (exit 1): every run\n' >"$tmp/comments-only.csv"
out=$("$env_bin" PATH="$stub_path" mk/plot.sh lab1 "$tmp/comments-only.csv" "$tmp/out-missing" 2>&1)
status=$?
indent "$out"
check "a CSV with comments only: exits non-zero" test "$status" -ne 0
check "... saying it holds no results" contains "$out" "holds no results"
check "gnuplot was never started for a missing or empty CSV" test ! -e "$tmp/stub-called"
check "... and no output folder was made" test ! -e "$tmp/out-missing"

if ((failures > 0)); then
    echo "$failures checks failed"
    exit 1
fi

# --- the figures -------------------------------------------------------------------------------
if ! command -v gnuplot >/dev/null 2>&1; then
    echo "gnuplot is not installed here (sudo apt-get install gnuplot-nox), so no figure was drawn"
    exit 77
fi
# A synthetic sweep with every curve of every figure: lab1's whole sweep (tiles 8, 16, 32 at
# N = 256 ... 4096; coarse2 and regblock; depths 1, 2, 4, 8 at 4096), times from a made-up
# model, q1 and q3 around the median.
synthetic=$tmp/synthetic-sweep.csv
awk 'function row(n, part, tile, depth,    rate, ms) {
         rate = speed[part] * n / (n + 1024)
         if (tile != "-") rate = rate * (0.6 + 0.4 * tile / 32)
         if (depth != "-") rate = rate * (0.9 + 0.1 * depth / 8)
         ms = 2 * n * n * n / (rate * 1e6)
         printf "%d,%d,%d,%s,%s,%s,%s,%s,1,PASS,%.4f,%.4f,%.4f,%.1f,%.1f\n", n, n, n, part, tile, depth, \
                tile == "-" ? "-" : tile "x" tile, tile == "-" ? "-" : tile * tile, ms, ms * 0.97, ms * 1.04, \
                rate, 100 * rate / (speed["cublas"] * n / (n + 1024))
     }
     BEGIN {
         speed["cublas"] = 40000; speed["regblock"] = 25000; speed["coarse2"] = 9000
         speed["dynamic"] = 7000; speed["tiled"] = 6000; speed["naive"] = 4000
         print "# synthetic CSV written by tests/scripts/plots.sh: not a measurement"
         print "# gpu: Synthetic GPU"
         print "m,n,k,part,tile,depth,block,threads,launches,check,median_ms,q1_ms,q3_ms,gflops,pct_cublas"
         for (n = 256; n <= 4096; n *= 2) {
             for (t = 8; t <= 32; t *= 2) { row(n, "cublas", "-", "-"); row(n, "naive", t, "-"); row(n, "tiled", t, "-"); row(n, "dynamic", t, 8) }
             row(n, "cublas", "-", "-"); row(n, "coarse2", "-", "-"); row(n, "regblock", "-", "-")
         }
         for (d = 1; d <= 8; d *= 2) { row(4096, "cublas", "-", "-"); row(4096, "tiled", 32, "-"); row(4096, "dynamic", 32, d) }
     }' >"$synthetic"

# (The committed sample: tests/scripts/sample-figures.sh, for every lab.)
if [[ -n ${PLOTS_TEST_CSV:-} ]]; then
    samples=("$PLOTS_TEST_CSV")
else
    samples=("$synthetic")
fi

png_magic="89 50 4e 47 0d 0a 1a 0a"
expected=(lab1-gflops.png lab1-block.png lab1-depth.png)
index=0
for sample in "${samples[@]}"; do
    index=$((index + 1))
    outdir="$tmp/figures-$index"
    out=$(mk/plot.sh lab1 "$sample" "$outdir" 2>&1)
    status=$?
    indent "$out"
    check "mk/plot.sh lab1 $sample exits 0" test "$status" -eq 0
    check "... without a gnuplot warning or error" lacks "$out" "warning|error"
    # The synthetic CSV has every curve: no curve may be missing.
    check "... with every curve present (no figure empty, no curve left out)" \
        lacks "$out" "figure is empty|left out"
    for name in "${expected[@]}"; do
        png="$outdir/$name"
        check "$name exists" test -f "$png"
        [[ -f $png ]] || continue
        magic=$(od -An -tx1 -N8 "$png" | tr -s ' \n' ' ' | sed 's/^ //; s/ $//')
        check "$name starts with the PNG signature" test "$magic" = "$png_magic"
        size=$(wc -c <"$png")
        check "$name is more than a trivial image ($size bytes > 10000)" test "$size" -gt 10000
        # Width and height: bytes 16-23, in the IHDR chunk, big-endian.
        read -r w1 w2 w3 w4 h1 h2 h3 h4 < <(od -An -tu1 -j16 -N8 "$png" | tr -s ' \n' ' ')
        width=$(((w1 << 24) + (w2 << 16) + (w3 << 8) + w4))
        height=$(((h1 << 24) + (h2 << 16) + (h3 << 8) + h4))
        check "$name is at least 640 x 480 (it is $width x $height)" test "$width" -ge 640 -a "$height" -ge 480
        check "mk/plot.sh lists $name" contains "$out" "$name"
    done
done

# Curves without rows: no dynamic row at all, every row at N = 512 failed its check. The
# figures are still drawn, saying what was left out, without a gnuplot error.
grep -v ',dynamic,' "$synthetic" | sed 's/^\(512,512,512,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*\),PASS,/\1,FAIL,/' >"$tmp/partial.csv"
out=$(mk/plot.sh lab1 "$tmp/partial.csv" "$tmp/partial" 2>&1)
status=$?
indent "$out"
check "a CSV without dynamic rows and with failed rows: exit 0" test "$status" -eq 0
check "... without a gnuplot warning or error" lacks "$out" "warning|error"
check "... saying dynamic is left out" contains "$out" "no passing row for dynamic, left out"
check "... and the depth figure is empty" contains "$out" "lab1-depth.png: no passing dynamic row"
check "... all three figures written" test -s "$tmp/partial/lab1-gflops.png" -a -s "$tmp/partial/lab1-block.png" -a -s "$tmp/partial/lab1-depth.png"
# The optional FP32 peak line (a gnuplot variable, for those who run plots.gp themselves).
mkdir -p "$tmp/peak"
out=$(gnuplot -e "peak_gflops = 45000; csv = '$synthetic'; outdir = '$tmp/peak'" labs/lab1/plots.gp 2>&1; echo "exit $?")
check "plots.gp with peak_gflops set: no error" test "$(tail -1 <<<"$out")" = "exit 0" -a -s "$tmp/peak/lab1-gflops.png"
lacks "$out" "warning|error" || indent "$out"

finish
