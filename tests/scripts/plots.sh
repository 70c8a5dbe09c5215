#!/usr/bin/env bash
# The figures: mk/plot.sh with labs/lab1/plots.gp draws lab 1's figures from the committed
# sample CSV (labs/lab1/sample/*.csv, measured on a current GPU), and mk/plot.sh fails
# with a clear message when the CSV is missing or gnuplot is not installed.
#
# Exit 0: passed; 77: skipped (the last line says why); anything else: failed.
# PLOTS_TEST_CSV=path draws that CSV instead of the committed sample (to try a sweep).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
failures=0
check() {  # check DESCRIPTION COMMAND...: runs the command, reports, counts failures
    local what=$1
    shift
    if "$@"; then
        echo "ok    $what"
    else
        echo "FAIL  $what"
        failures=$((failures + 1))
    fi
}
contains() { grep -qF -- "$2" <<<"$1"; }
lacks() { ! grep -qiE -- "$2" <<<"$1"; }  # lacks TEXT REGEX (case-insensitive)
indent() { sed 's/^/      /' <<<"$1"; }

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
printf '# a CSV that exists\nm,n,k,rung\n1,1,1,cublas\n' >"$tmp/any.csv"

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

# --- the figures of the sample ----------------------------------------------------------------
if ! command -v gnuplot >/dev/null 2>&1; then
    echo "gnuplot is not installed here (sudo apt-get install gnuplot-nox), so no figure was drawn"
    exit 77
fi
shopt -s nullglob
if [[ -n ${PLOTS_TEST_CSV:-} ]]; then
    samples=("$PLOTS_TEST_CSV")
else
    samples=(labs/lab1/sample/*.csv)
fi
if ((${#samples[@]} == 0)); then
    echo "no sample CSV committed (labs/lab1/sample/*.csv), so no figure was drawn"
    exit 77
fi

png_magic="89 50 4e 47 0d 0a 1a 0a"
expected=(lab1-gflops.png lab1-block.png)
index=0
for sample in "${samples[@]}"; do
    index=$((index + 1))
    outdir="$tmp/figures-$index"
    out=$(mk/plot.sh lab1 "$sample" "$outdir" 2>&1)
    status=$?
    indent "$out"
    check "mk/plot.sh lab1 $sample exits 0" test "$status" -eq 0
    check "... without a gnuplot warning or error" lacks "$out" "warning|error"
    # The sample is measured with the reference solution: every curve has its points.
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

if ((failures > 0)); then
    echo "$failures checks failed"
    exit 1
fi
echo "all checks passed"
