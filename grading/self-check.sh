#!/usr/bin/env bash
# grading/self-check.sh: `make labN-check`, the public part of the grade before submitting.
#
#   grading/self-check.sh LAB [FOLDER]
#
# Grades your files of LAB (labs/LAB/, or FOLDER holding the files the manifest names in
# student_files) the way grading/grade.sh grades a submission, because it IS grade.sh: run with
# --self-check on a class of one. The build has the grader's flags, its forbidden-API scan,
# symbol check and include check; every public case and the sanitizer case run in the grader's
# sandbox (bubblewrap where it works, else the weaker rlimits, which the output then says);
# the checker scores the outputs. What differs from the grade:
#   - the hidden cases are not run: their number is printed;
#   - there is no reference solution here: a part's output is compared with the CPU
#     reference's answer (the driver's --reference-outputs), not with the reference solution's
#     output, within the same tolerance of the same error bound (an output within a few
#     rounding errors of the limit may be judged differently, never a clearly wrong one);
#   - performance: your time is compared with the reference's time measured on the same GPU
#     model, committed in labs/LAB/sample/reference-times/; on any other GPU the performance
#     points are "timed at grading".
# Output: the points of the public cases part by part, each failing case with the grader's
# message, the sanitizer verdict, the hidden cases by count. The whole grading folder is kept
# in build/self-check/LAB/ (feedback.md: the feedback the grader would write).
# Without a usable GPU (a laptop without an NVIDIA GPU) it still builds your files as the
# grader does and makes the static checks (forbidden APIs, symbols, headers), prints what they
# found, and says that the cases need a GPU.
# Exit status: 0 checked (whatever the points); 2 bad usage; 3 no GPU (the build and the
# static checks were made, no case); 1 the check failed.
set -uo pipefail

GRADING_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$GRADING_DIR/.." && pwd)
cd "$REPO" || exit 1
# shellcheck source=../mk/manifest.sh
source mk/manifest.sh

usage() { sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
(($# >= 1 && $# <= 2)) || { usage >&2; exit 2; }
[[ $1 == --help || $1 == -h ]] && { usage; exit 0; }
lab=$1
[[ $lab =~ ^[A-Za-z0-9._-]+$ && -f labs/$lab/manifest ]] || { echo "self-check: no lab '$lab' (labs/$lab/manifest)" >&2; exit 2; }
from=${2:-labs/$lab}
[[ -d $from ]] || { echo "self-check: '$from' is not a folder" >&2; exit 2; }
BUILD=${BUILD:-build}
[[ $BUILD == /* ]] || BUILD=$REPO/$BUILD
export BUILD

# The class of one: you, with your lab's files as the course lays them out. The grading folder
# of the last check is graded again (--regrade), so the trusted objects it compiled and the
# reference answers it made are reused while the lab stays as it was.
work=$BUILD/self-check/$lab
rm -rf -- "$work/submissions" && mkdir -p -- "$work/submissions/you/labs/$lab" || exit 1
again=()
[[ -f $work/out/.grading-output ]] && again=(--regrade)
for file in $(manifest_get "$lab" student_files); do
    [[ -f $from/$file ]] || { echo "self-check: $from/$file is missing" >&2; exit 2; }
    cp -- "$from/$file" "$work/submissions/you/labs/$lab/$file" || exit 1
done

# bubblewrap where it works here, as the grader requires; otherwise the grader's weaker
# isolation, which the output names.
sandbox=rlimits
probe=$work/sandbox-probe
if command -v bwrap >/dev/null && mkdir -p -- "$probe" &&
    "$GRADING_DIR/sandbox.sh" --isolation bwrap --box "$probe" --status "$probe.tsv" -- /bin/true 2>/dev/null &&
    grep -q $'outcome=exited\texit=0\t' "$probe.tsv"; then
    sandbox=bwrap
fi
rm -rf -- "$probe" "$probe.tsv"
echo "Checking your $lab as the grader does (its public cases; the full log: $work/out/grading.log) ..."
"$GRADING_DIR/grade.sh" --self-check "${again[@]}" --labs "$lab" --out "$work/out" --jobs 2 --sandbox "$sandbox" \
    "$work/submissions" \
    >"$work/grade.log" 2>&1
status=$?
# Exit 3: no usable GPU. grade.sh still built the files and made the static checks; the score
# says so, and what follows prints those and not the cases' points.
no_gpu=""
if ((status == 3)); then
    no_gpu=$(sed -n 's/^NO GPU: \(.*\)\. Submissions are unpacked.*/\1/p' "$work/grade.log" | head -1)
    no_gpu=${no_gpu:-no CUDA device was usable}
elif ((status != 0)); then
    tail -5 "$work/grade.log" >&2
    exit "$status"
fi
score=$work/out/students/you/$lab/score.tsv
[[ -f $score ]] || { echo "self-check: the grader wrote no score (see $work/grade.log)" >&2; exit 1; }

# Hidden cases, by count only: the instructor's manifest names them; the student tarball keeps
# their number in grading/hidden-cases.tsv (make dist).
hidden=$(manifest_hidden_cases "labs/$lab/manifest" | wc -w)
if ((hidden == 0)) && [[ -f grading/hidden-cases.tsv ]]; then
    hidden=$(awk -F'\t' -v lab="$lab" '$1 == lab { print $2 }' grading/hidden-cases.tsv)
fi

echo
awk -F'\t' -v hidden="${hidden:-0}" -v isolation="$(cat "$work/out/isolation.txt" 2>/dev/null)" -v no_gpu="$no_gpu" -v lab="$lab" '
    function field(name,   i) { for (i = 1; i <= NF; i++) if (index($i, name "=") == 1) return substr($i, length(name) + 2); return "" }
    function add_part(p) { if (!(p in seen)) { seen[p] = 1; order[++parts] = p } }
    field("record") == "lab" { title = field("title"); state = field("state"); note = field("note"); total = field("points"); max = field("max"); next }
    field("record") != "item" { next }
    {
        kind = field("kind"); part = field("part"); c = field("case"); points = field("points") + 0; top = field("max") + 0
        message = field("message"); passed = field("passed")
        if (kind == "correctness" || kind == "performance") {
            add_part(part)
            if (!(c in case_seen)) { case_seen[c] = 1; public_cases++ }
            if (kind == "performance" && message ~ /^timed at grading/) { untimed[part] += top; untimed_all += top; timed_note = message }
            else { got[part] += points; of[part] += top }
            if (kind == "correctness" && passed != "1") failures[part] = failures[part] "    case " c ": " message "\n"
            if (kind == "performance" && message !~ /^timed at grading/) perf[part] = perf[part] "    performance, case " c ": " message "\n"
        } else if (kind == "sanitizer") {
            sanitizer = sanitizer "  " message (points < 0 ? " (" points " points)" : "") "\n"
        } else if (kind == "build" && passed == "1") {
            built = 1
        } else if (kind == "forbidden" || kind == "build" || kind == "submission" || kind == "run" && no_gpu == "" || kind == "below-bound") {
            problems = problems "  " message "\n"
        }
    }
    END {
        if (no_gpu != "") {
            # Without a GPU: the build and the static checks as the grader makes them; no case ran.
            printf "%s: %s\n", title, built ? "built as the grader builds it" : "NOT BUILT"
            if (problems != "") printf "%s", problems
            else if (built) printf "  no forbidden API, symbol or header found: the static checks pass\n"
            printf "Cases: not run. They need an NVIDIA GPU, and this machine has none usable (%s).\n", no_gpu
            printf "Run make %s-check on a machine with one for the points of the %d public cases (%d hidden ones run only at grading).\n", lab, public_cases, hidden
            exit
        }
        printf "%s: %s\n", title, state == "graded" ? "built and run as the grader does" : "NOT GRADED (" note ")"
        if (problems != "") printf "%s", problems
        for (i = 1; i <= parts; i++) {
            p = order[i]
            printf "  part %-12s %6g of %g points%s\n", p, got[p], of[p], p in untimed ? sprintf(" (+%g performance points: timed at grading)", untimed[p]) : ""
            printf "%s%s", failures[p], perf[p]
        }
        if (sanitizer != "") printf "compute-sanitizer:\n%s", sanitizer
        printf "Public cases: %g of %g points", total, max - untimed_all
        if (untimed_all > 0) printf "; %g performance points are timed at grading (%s)", untimed_all, timed_note
        printf "\n"
        printf "Hidden cases: %d, run only at grading (their points are not in these numbers)\n", hidden
        printf "Sandbox: %s\n", isolation
    }' "$score"
echo "The grader's feedback on these runs: $work/out/students/you/feedback.md"
[[ -z $no_gpu ]] || exit 3
