#!/usr/bin/env bash
# The handouts' references: every "section N" and "question N" in the handouts, the instructor
# guides and the labs' files reaches a heading or a question of the handout it names, and the
# one listed in tests/scripts/handout-references.txt, where a person wrote down what each
# reference reached when they checked it (so a section added or moved, which renumbers the
# ones after it, shows as the references it displaced); every handout's sections, subsections
# and questions count up from 1; every TODO a handout names is in its lab's student file.
# The reading is tests/scripts/lib/handouts.py's. Needs python3 (make deps).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
command -v python3 >/dev/null || { echo "python3 is not installed (make deps)"; exit 77; }
shopt -s nullglob
files=(README.md handouts/*.md handouts/instructor/*.md labs/*/*.cu labs/*/*.cuh labs/*/*.h labs/*/*.hpp
       labs/*/*.cpp labs/*/manifest labs/*/plots.gp labs/*/graphs/README.md)
python3 tests/scripts/lib/handouts.py references tests/scripts/handout-references.txt "${files[@]}"
