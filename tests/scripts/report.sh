#!/usr/bin/env bash
# The report skeleton, mk/report.sh, on lab1 with a synthetic CSV in the drivers' format
# (written here, so no GPU is needed): report.md has the GPU of the CSV's head, the measured
# table, a figure link for every PNG mk/plot.sh drew (when gnuplot is here; without gnuplot
# the report says so and is still written), and one "### Question N: Title" per question of
# the lab1 handout, counted here on its own; an existing report.md is never overwritten.
#
# Exit 0: passed; 77: skipped (the last line says why); anything else: failed.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/scripts/lib/checks.sh
source mk/manifest.sh

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
has_line() { grep -qxF -- "$2" "$1"; }  # has_line FILE LINE

# --- a synthetic sweep: every part at N = 256, 512, 1024, tiles 16 and 32, depths 4 and 8 ---
csv=$tmp/synthetic-sweep.csv
awk 'function row(n, part, tile, depth,    ms) {
         ms = n / 256 * (part == "cublas" ? 0.1 : 1) * (tile == 16 ? 1.2 : 1) / (depth == 4 ? 0.9 : 1)
         printf "%d,%d,%d,%s,%s,%s,%s,%s,1,PASS,%.4f,%.4f,%.4f,%.1f,%.1f\n", n, n, n, part, tile, depth, \
                tile == "-" ? "-" : tile "x" tile, tile == "-" ? "-" : tile * tile, ms, ms * 0.95, ms * 1.05, \
                2 * n * n * n / (ms * 1e6), 50
     }
     BEGIN {
         print "# synthetic CSV written by tests/scripts/report.sh: not a measurement"
         print "# gpu: Synthetic GPU 7"
         print "# compute capability: 9.0"
         print "# driver version: 123.45"
         print "# cpu: Synthetic CPU 3"
         print "# date: 2000-01-01 00:00:00 +0000"
         print "m,n,k,part,tile,depth,block,threads,launches,check,median_ms,q1_ms,q3_ms,gflops,pct_cublas"
         for (n = 256; n <= 1024; n *= 2) {
             for (t = 16; t <= 32; t *= 2) { row(n, "cublas", "-", "-"); row(n, "naive", t, "-"); row(n, "tiled", t, "-"); row(n, "dynamic", t, 8) }
             row(n, "cublas", "-", "-"); row(n, "coarse2", "-", "-"); row(n, "regblock", "-", "-")
             row(n, "dynamic", 32, 4)
         }
         print "# FAILED (exit 4, a kernel crashed; the parts after it did not run): --m 9 -- error: synthetic"
     }' >"$csv"
rows=$(grep -vc -e '^#' -e '^m,n,k,' "$csv")

# --- the report ------------------------------------------------------------------------------
out_dir=$tmp/out
out=$(mk/report.sh lab1 "$csv" "$out_dir" 2>&1)
status=$?
indent "$out"
report=$out_dir/report.md
check "mk/report.sh lab1 on a synthetic CSV exits 0 (got $status)" test "$status" -eq 0
check "it writes report.md, and says so" test -s "$report" -a -n "$(grep -F "report written: $out_dir/report.md" <<<"$out")"
[[ -f $report ]] || { echo "no report to check"; exit 1; }
title=$(manifest_get lab1 title)
check "the title is the manifest's ('$title')" test "$(head -1 "$report")" = "# $title: report"
check "'Where it was measured' has the GPU line of the CSV" has_line "$report" "- GPU: Synthetic GPU 7"
check "... and its CPU line" has_line "$report" "- CPU: Synthetic CPU 3"
check "... its compute capability" has_line "$report" "- Compute capability: 9.0"
check "... and its driver" has_line "$report" "- Driver version: 123.45"
# (Named by its physical path: the temporary folder may lie behind a symbolic link.)
check "it names the CSV, as the student's own sweep (not under labs/lab1/sample/)" \
    grep -qF -- "From \`$(cd "$tmp" && pwd -P)/${csv##*/}\`: your own sweep" "$report"
check "the table's columns: case settings, part, config, check, median_ms, metric, pct" \
    has_line "$report" "| m | n | k | part | tile | depth | check | median_ms | gflops | pct_cublas |"
table_rows=$(grep -cE '^\| [0-9]+ \| ' "$report")
check "the table has every row of the CSV ($rows, got $table_rows)" test "$table_rows" -eq "$rows"
check "... e.g. dynamic at 512, tile 32, depth 4" has_line "$report" "| 512 | 512 | 512 | dynamic | 32 | 4 | PASS | 2.2222 | 120.8 | 50.0 |"
check "the failed run of the CSV is listed" grep -qF -- "FAILED (exit 4, a kernel crashed" "$report"

# Figures: one link per PNG that mk/plot.sh drew, when gnuplot is here.
if command -v gnuplot >/dev/null 2>&1; then
    shopt -s nullglob
    pngs=("$out_dir"/*.png)
    shopt -u nullglob
    check "gnuplot is here: figures were drawn into the output folder (${#pngs[@]})" test "${#pngs[@]}" -gt 0
    for png in "${pngs[@]}"; do
        name=${png##*/}
        check "the report shows $name" grep -qF -- "![${name%.png}]($name)" "$report"
    done
else
    echo "skip  gnuplot is not installed here, so no figure links are checked"
fi
# Without gnuplot (a PATH without it) the report is still written, and says why it has no figures.
mkdir -p "$tmp/bin"
for tool in bash dirname sed grep mkdir basename awk date mktemp cat realpath rm; do
    path=$(command -v "$tool") && ln -s "$path" "$tmp/bin/$tool"
done
env_bin=$(command -v env)
out=$("$env_bin" PATH="$tmp/bin" mk/report.sh lab1 "$csv" "$tmp/no-gnuplot" 2>&1)
status=$?
check "without gnuplot on PATH: exit 0 all the same (got $status)" test "$status" -eq 0
check "... a warning on stderr" contains "$out" "warning: gnuplot is not installed"
check "... and the report says it has no figures" grep -qF -- "No figures: gnuplot is not installed" "$tmp/no-gnuplot/report.md"
check "... but has its questions" grep -q '^### Question 1' "$tmp/no-gnuplot/report.md"

# Questions: counted here from the handout's "Questions" section, independently of mk/report.sh.
handout=$(manifest_get lab1 handout)
section=$(awk '/^#+ .*Questions/ { on = 1; next } on && /^## / { on = 0 } on' "$handout")
wanted=$(grep -cE '^[0-9]+\. ' <<<"$section")
got=$(grep -cE '^### Question [0-9]+' "$report")
check "the handout $handout has questions ($wanted)" test "$wanted" -gt 0
check "one '### Question N' per question of the handout ($wanted, got $got)" test "$got" -eq "$wanted"
check "... numbered and titled as in the handout, in order" \
    diff <(sed -n 's/^\([0-9]*\)\. \*\*\(.*\)\.\*\*.*/### Question \1: \2/p' <<<"$section") <(grep '^### Question ' "$report")
check "... each followed by its text as a blockquote" \
    test "$(grep -A2 -E '^### Question [0-9]+' "$report" | grep -c '^> ')" -eq "$wanted"
check "... and an '_Your answer:_' line" test "$(grep -cxF '_Your answer:_' "$report")" -eq "$wanted"
first_text=$(sed -n 's/^1\. \*\*[^*]*\*\* *//p' <<<"$section")
check "... the first question's text is quoted" has_line "$report" "> $first_text"

# --- an existing report.md is never overwritten -------------------------------------------------
echo "my answers" >>"$report"
before=$(cksum <"$report")
out=$(mk/report.sh lab1 "$csv" "$out_dir" 2>&1)
status=$?
check "a second report: exit 0 (got $status)" test "$status" -eq 0
check "... report.md is left as it was" test "$(cksum <"$report")" = "$before"
check "... report-2.md is written instead" test -s "$out_dir/report-2.md"
check "... and named" contains "$out" "report-2.md"

# --- the committed sample: figures only, labelled, and no measurement passed off as the student's ----
shopt -s nullglob
samples=(labs/lab1/sample/*.csv)
shopt -u nullglob
if ((${#samples[@]} > 0)); then
    out=$(mk/report.sh lab1 "${samples[0]}" "$tmp/sample" 2>&1)
    sample_report=$tmp/sample/report.md
    sample_gpu=$(sed -n 's/^# *gpu: *//p' "${samples[0]}" | head -1)
    check "a report of ${samples[0]} is written, and says it has no sweep of the student's" \
        grep -qF -- "no sweep of yours yet" <<<"$out"
    check "... its 'Where it was measured' names no GPU (the sample's is not the student's)" \
        bash -c "! grep -q '^- GPU:' '$sample_report'"
    check "... its 'Measured results' has no table of the sample's rows" \
        bash -c "! grep -qE '^\| [0-9]+ \| ' '$sample_report'"
    check "... both sections say to run the sweep" \
        test "$(grep -c 'Not measured yet: there is no sweep of yours. Run `make lab1-sweep`' "$sample_report")" -eq 2
    if command -v gnuplot >/dev/null 2>&1; then
        check "... its figures are labelled as the course's sample, from ${samples[0]}" \
            grep -qF -- "These figures are drawn from the course's committed sample, \`${samples[0]}\`, measured for the course on an $sample_gpu" "$sample_report"
        check "... and so is every figure's link" \
            test "$(grep -c '^!\[' "$sample_report")" -eq "$(grep -c '^!\[.* (the course sample, not yours)\]' "$sample_report")"
        # mk/plot.sh draws from a copy of the sample whose "# gpu:" line says what it is, so every
        # title that names the GPU names the sample as well.
        plot_out=$(mk/plot.sh lab1 "${samples[0]}" "$tmp/sample-plots" 2>&1)
        check "mk/plot.sh on the sample says it draws the course's sample" contains "$plot_out" "drawing the committed sample of the course"
    fi
fi

# --- refusals --------------------------------------------------------------------------------------
out=$(mk/report.sh lab1 "" "$tmp/none" 2>&1)
check "no CSV (make lab1-report before any sweep): exit 1, saying so" test $? -eq 1 -a -n "$(grep -F 'no sweep yet' <<<"$out")"
mk/report.sh lab1 "$tmp/no-such.csv" "$tmp/none" >/dev/null 2>&1
check "a CSV that does not exist: exit 1" test $? -eq 1
mk/report.sh lab1 "$csv" >/dev/null 2>&1
check "two arguments: exit 2" test $? -eq 2
mk/report.sh nolab "$csv" "$tmp/none" >/dev/null 2>&1
check "a lab that does not exist: exit 2" test $? -eq 2
check "no refusal wrote anything" test ! -e "$tmp/none"

finish
