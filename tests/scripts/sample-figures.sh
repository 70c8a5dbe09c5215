#!/usr/bin/env bash
# Every lab's committed sample draws every figure of the lab: `make labN-plots` draws from
# labs/labN/sample/*.csv before a student has swept (README.md, the report's figures), so each
# CSV there, measured on a GPU, must give each figure labs/labN/plots.gp writes (the figures
# its opening comment lists, one "#   labN-NAME.png  what it shows" a line), with no rung left
# out and no gnuplot warning. One test for every lab:
# a lab added with a sample and a plots.gp is checked with no line here. What a lab's figures
# show is its own test's (tests/scripts/labN-plots.sh, on a synthetic sweep).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/scripts/lib/checks.sh
command -v gnuplot >/dev/null 2>&1 || { echo "gnuplot is not installed"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf -- "$tmp"' EXIT
shopt -s nullglob

samples=0
for script in labs/*/plots.gp; do
    lab=$(basename "$(dirname "$script")")
    figures=$(grep -oE "^#[[:space:]]+$lab-[A-Za-z0-9_-]+\.png" "$script" | awk '{ print $2 }')
    check "$lab: plots.gp lists its figures in its opening comment" test -n "$figures"
    for sample in labs/"$lab"/sample/*.csv; do
        samples=$((samples + 1))
        out_dir=$tmp/$lab-$(basename "$sample" .csv)
        out=$(mk/plot.sh "$lab" "$sample" "$out_dir" 2>&1)
        status=$?
        check "$sample: mk/plot.sh draws it (exit $status)" test "$status" == 0
        for figure in $figures; do check "$sample: ... $figure" test -s "$out_dir/$figure"; done
        check "$sample: ... with nothing left out and no gnuplot warning" \
            bash -c "! grep -qiE 'left out|nothing to draw|warning|error' <<<\"\$1\"" _ "$out"
        grep -iE 'left out|nothing to draw|warning|error' <<<"$out" | head -5 | sed 's/^/      /'
    done
done
check "the samples were found ($samples)" test "$samples" -gt 0
finish
