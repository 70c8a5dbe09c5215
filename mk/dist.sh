#!/usr/bin/env bash
# `make dist`: the student distribution, a tarball of the course as students get it.
#
#   mk/dist.sh TARBALL
#
# It holds the working tree's files (git's tracked and untracked-but-not-ignored files)
# except what students must not see: solutions/, the grader's documentation, planted-bug
# copies of the solutions, hidden data, tests and instructor make rules (grading/, but for what
# make labN-check runs: grade.sh, its lib/ and its C++ sources), the architecture check of
# the starters and solutions (tests/scripts/arch.sh), the instructor guides (handouts/instructor/:
# the answers to the handouts' questions and notes for the teacher, and the test that checks
# their references), build and grading outputs (so no reference output), and, in every lab's
# manifest, the hidden cases. In the Markdown files it keeps, the lines from a line
# `<!-- instructor-only -->` to a line `<!-- /instructor-only -->` go (the README's and
# labs/MANIFEST.md's notes on solutions, grading and adding a lab).
set -euo pipefail
cd "$(dirname "$0")/.."
(($# == 1)) || { echo "usage: mk/dist.sh TARBALL" >&2; exit 2; }
tarball=$1
name=$(basename "$tarball" .tar.gz)
staging=$(mktemp -d)
trap 'rm -rf -- "$staging"' EXIT
root=$staging/$name

if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    mapfile -d '' files < <(git ls-files -z --cached --others --exclude-standard)
else
    mapfile -d '' files < <(find . -type f -printf '%P\0')
fi

# What make labN-check needs of the grader ships (grading/self-check.sh runs grade.sh on the
# student's files, public cases only): its scripts and its C++ sources, but none of its
# documentation, planted-bug variants, hidden data or benchmark.
grader_shipped() {
    case $1 in
        grading/grade.sh | grading/self-check.sh | grading/sandbox.sh | grading/unpack.py | grading/lib/*.sh) return 0 ;;
        grading/*/*) return 1 ;;
        grading/*.cpp | grading/*.hpp) return 0 ;;
    esac
    return 1
}

withheld() {
    grader_shipped "$1" && return 1
    case $1 in
        solutions/* | grading/* | tests/grading/* | tests/scripts/grading-* | mk/grading.mk | mk/dist.sh) return 0 ;;
        # The architecture check is the course's check of its starters and solutions before they
        # ship (its manifest entries name the solutions' kernels); a student's own kernels meet
        # their GPU's limits at run time, in the launcher.
        tests/scripts/arch.sh | tests/arch/*) return 0 ;;
        # The instructor guides, and the handouts' tests that read them or count the hidden cases.
        handouts/instructor/* | tests/scripts/dist-* | tests/scripts/handout-references.*) return 0 ;;
        tests/scripts/handout-rubric.sh | tests/scripts/handout-answers.sh | tests/scripts/lib/handout_answers.py) return 0 ;;
        build/* | dist/* | results/* | grading-out/* | .git/*) return 0 ;;
    esac
    return 1
}

copied=0
for file in "${files[@]}"; do
    [[ -f $file ]] || continue  # deleted from the working tree
    withheld "$file" && continue
    mkdir -p "$root/$(dirname "$file")"
    cp -p -- "$file" "$root/$file"
    copied=$((copied + 1))
done

# The instructor-only blocks leave the Markdown files; a block left open would swallow the
# rest of its file, so that stops the distribution.
while IFS= read -r -d '' doc; do
    if ! awk '
        /^[[:space:]]*<!-- instructor-only -->[[:space:]]*$/ { if (inside) exit 1; inside = 1; next }
        /^[[:space:]]*<!-- \/instructor-only -->[[:space:]]*$/ { if (!inside) exit 1; inside = 0; next }
        !inside
        END { if (inside) exit 1 }' "$doc" >"$doc.student"; then
        echo "mk/dist.sh: ${doc#"$root"/}: an instructor-only block is not closed (or closed twice); stopping" >&2
        exit 1
    fi
    mv -- "$doc.student" "$doc"
done < <(find "$root" -name '*.md' -type f -print0)

# Hidden cases leave every manifest (mk/manifest.sh, manifest_public).
source mk/manifest.sh
for manifest in "$root"/labs/*/manifest; do
    [[ -f $manifest ]] || continue
    manifest_public "$manifest" >"$manifest.public"
    mv -- "$manifest.public" "$manifest"
done

# make labN-check: the starters as they ship (labs/LAB holds the student's work once they
# start), with which the grader compares a submission's symbols and headers; and the number of
# each lab's hidden cases, which the check names (not the cases).
for manifest in labs/*/manifest; do
    lab=$(basename "$(dirname "$manifest")")
    mkdir -p "$root/grading/starters/$lab"
    for file in $(manifest_get "$lab" student_files); do cp -p -- "labs/$lab/$file" "$root/grading/starters/$lab/$file"; done
    printf '%s\t%s\n' "$lab" "$(manifest_hidden_cases "$manifest" | wc -w)"
done >"$root/grading/hidden-cases.tsv"

# Nothing withheld may have slipped in: no solution, no instructor guide, no reference output.
if [[ -e $root/solutions || -e $root/handouts/instructor ]] || grep -rlq --binary-files=text '^labout 1 ' "$root" 2>/dev/null; then
    echo "mk/dist.sh: the distribution would hold a solution, an instructor guide or a reference output; stopping" >&2
    exit 1
fi

mkdir -p "$(dirname "$tarball")"
tar -czf "$tarball.partial" -C "$staging" "$name"
mv -- "$tarball.partial" "$tarball"
echo "Wrote $tarball: $copied files, without solutions/, the grader's variants and documents, the instructor guides or hidden cases."
