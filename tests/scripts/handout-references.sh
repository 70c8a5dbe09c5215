#!/usr/bin/env bash
# The handouts' references: every "section N" and "question N" in the handouts, the instructor
# guides and the labs' files reaches a heading or a question of the handout it names, and says
# which in parentheses, by its title or the title's first words ("section 12 (Results)",
# "lab 1's section 3.2 (Coalescing)", "question 7 (Speedups then and now)"), so that a section
# added or moved, which renumbers the ones after it, shows as the references it displaced; every
# handout's sections, subsections and questions count up from 1; every TODO a handout names is
# in its lab's student file. The reading is tests/scripts/lib/handouts.py's. Needs python3 (make
# deps).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
command -v python3 >/dev/null || { echo "python3 is not installed (make deps)"; exit 77; }
work=$(mktemp -d /tmp/handout-references-test.XXXXXX)
trap 'rm -rf -- "$work"' EXIT
failed=0

# The check itself can fail: a reference without its title, or with another section's, is
# reported; one with its title's first words passes.
mkdir -p "$work/handouts"
cat >"$work/handouts/lab9-test.md" <<'MD'
# Lab 9
## 1. Goals
## 2. Background
### 2.1 Coalescing and sectors
## 3. Questions
1. **Speedups then and now.** Why?
MD
reads() {  # reads TEXT EXPECTED: the check of TEXT says EXPECTED ("" for no problem)
    printf '# Notes\n\n%s\n' "$1" >"$work/handouts/notes-lab9.md"
    local said
    said=$(cd "$work" && python3 "$OLDPWD/tests/scripts/lib/handouts.py" references handouts/notes-lab9.md | grep '^FAIL')
    if [[ -z $2 && -n $said ]] || [[ -n $2 && $said != *"$2"* ]]; then
        echo "FAIL  the check of \"$1\" said: ${said:-nothing}; expected: ${2:-nothing}"; failed=1
    fi
}
reads 'See section 2.1 (Coalescing) and question 1 (Speedups then and now).' ''
reads 'See sections 1 (Goals) and 2.1 (Coalescing and sectors).' ''
reads 'See section 2.1.' 'section 2.1 lacks its title: write "section 2.1 (Coalescing and sectors)"'
reads 'See section 2 (Goals).' 'section 2 of handouts/lab9-test.md is "Background", not "Goals"'
reads 'See question 1 (Speed).' 'question 1 of handouts/lab9-test.md is "Speedups then and now", not "Speed"'
reads 'See section 4 (Results).' 'has no section 4'

shopt -s nullglob
files=(README.md handouts/*.md handouts/instructor/*.md labs/*/*.cu labs/*/*.cuh labs/*/*.h labs/*/*.hpp
       labs/*/*.cpp labs/*/manifest labs/*/plots.gp labs/*/graphs/README.md)
python3 tests/scripts/lib/handouts.py references "${files[@]}" || failed=1
exit $failed
