#!/usr/bin/env bash
# Each handout's grading numbers are the grade's: the rubric block of its "How it is graded"
# section (the cases, each part's correctness and performance points and curve, the sanitizer
# deductions, the lab's total) is exactly what the grader prints from the lab's manifest
# (`grader rubric`, grading/rubric_markdown.cpp). A failure names the lab and the first line that
# differs; `make handouts-rubric` rewrites the blocks. The reading and writing of the blocks is
# tests/scripts/lib/handouts.py's. Withheld from the student tarball, whose manifests lack the
# hidden cases the blocks count.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
command -v python3 >/dev/null || { echo "python3 is not installed (make deps)"; exit 77; }
source mk/manifest.sh
grader=${BUILD:-build}/bin/grader
[[ -x $grader ]] || { echo "$grader is missing: run make test-build first"; exit 77; }
work=$(mktemp -d /tmp/handout-rubric-test.XXXXXX)
trap 'rm -rf -- "$work"' EXIT
failed=0

# The check itself can fail: a block written by the tool passes, the same block with one number
# changed fails and names that line, a handout without a block fails.
printf '# Lab\n\n## 6. How it is graded\n\nProse.\n' >"$work/handout.md"
python3 tests/scripts/lib/handouts.py rubric write "$grader" lab0 "$work/handout.md" >/dev/null || failed=1
if ! python3 tests/scripts/lib/handouts.py rubric check "$grader" lab0 "$work/handout.md" >"$work/out"; then
    echo "FAIL  a block just written by handouts.py rubric write does not pass the check:"; cat "$work/out"; failed=1
fi
line=$(grep -n '^\*\*In all: ' "$work/handout.md" | cut -d: -f1)
sed -i 's/^\*\*In all: [0-9]*/**In all: 9999/' "$work/handout.md"
if python3 tests/scripts/lib/handouts.py rubric check "$grader" lab0 "$work/handout.md" >"$work/out" ||
    ! grep -q "handout.md:$line: lab0's rubric differs" "$work/out"; then
    echo "FAIL  a total changed by hand on line $line is not reported there:"; cat "$work/out"; failed=1
fi
printf '# Lab\n\n## 6. How it is graded\n' >"$work/handout.md"
if python3 tests/scripts/lib/handouts.py rubric check "$grader" lab0 "$work/handout.md" >/dev/null; then
    echo "FAIL  a handout without a rubric block passes the check"; failed=1
fi

checked=0
for manifest in labs/*/manifest; do
    lab=$(basename "$(dirname "$manifest")")
    handout=$(manifest_value "$manifest" handout)
    if [[ -z $handout || ! -f $handout ]]; then
        echo "FAIL  $lab: its manifest names no handout file ('$handout')"; failed=1; continue
    fi
    # The block's total is the maximum the grader scores against (grader plan's "max").
    max=$("$grader" plan --lab "$lab" | awk -F'\t' '$1 == "max" { print $2 }')
    total=$("$grader" rubric --lab "$lab" | sed -n 's/^\*\*In all: \([0-9.]*\) points\?\*\*.*/\1/p')
    if [[ -z $max || $total != "$max" ]]; then
        echo "FAIL  $lab: the rubric's total is '$total' points, the grader's maximum '$max'"; failed=1
    fi
    python3 tests/scripts/lib/handouts.py rubric check "$grader" "$lab" "$handout" || failed=1
    checked=$((checked + 1))
done
echo "$checked handouts' rubric blocks checked against the grader"
exit $failed
