#!/usr/bin/env bash
# `make dist`'s tarball is self-contained, and holds no instructor material: no instructor
# guide (handouts/instructor/), no instructor-only block of the Markdown files, and no student-
# visible file that refers to a document the tarball does not contain:
#   - the source reports the labs were written from, by number or as "the seed" (the course
#     quotes them and names them by what they are; --seed, the random seed option, stays), in
#     the tarball and in the reference solutions, which students get after the deadline;
#   - the instructor guides, the course's design notes (COURSE.md, seeds/);
#   - in the handouts, the README and the labs' files: a path under solutions/, grading/ or
#     handouts/instructor/, or any other path the tarball lacks.
# (The instructor's copy only: make dist is not in a student's copy, and this test is not in
# the tarball.)
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/scripts/lib/checks.sh
[[ -f mk/dist.sh ]] || { echo "a student's copy: there is no make dist here"; exit 77; }
command -v python3 >/dev/null || { echo "python3 is not installed (make deps)"; exit 77; }
work=$(mktemp -d /tmp/dist-contents-test.XXXXXX)
trap 'rm -rf -- "$work"' EXIT

make -s dist DIST="$work/course-student.tar.gz" >"$work/dist.log" 2>&1 || { cat "$work/dist.log"; echo "make dist failed"; exit 1; }
tar -xzf "$work/course-student.tar.gz" -C "$work"
root=$work/course-student
[[ -d $root ]] || { echo "the tarball has no course-student/"; exit 1; }

# --- the instructor guides stay home ---------------------------------------------------------------
guides=(handouts/instructor/*.md)
check "the instructor's copy has an instructor guide per lab (${#guides[@]})" \
    test "${#guides[@]}" -ge "$(ls -d labs/lab*/ | wc -l)"
check "the tarball has no handouts/instructor/" test ! -e "$root/handouts/instructor"
check "... and no instructor-only block of a Markdown file" bash -c "! grep -rlq -- '<!-- */\{0,1\}instructor-only -->' '$root'"
check "... which the README of the instructor's copy has" grep -q -- '<!-- instructor-only -->' README.md
check "... so the tarball's README says nothing of grade.sh" bash -c "! grep -q 'grade\.sh' '$root/README.md'"

# --- make help offers what the copy has ------------------------------------------------------------
# The reference solution's runs (IMPL=solution) need solutions/: listed in the instructor's copy only.
course_help=$(make -s --no-print-directory help 2>&1)
student_help=$(make -s --no-print-directory -C "$root" help 2>&1)
check "the instructor's make help lists make labN IMPL=solution" contains "$course_help" "IMPL=solution"
check "... and the tarball's does not: it has no solutions/" bash -c '! grep -q "IMPL=solution" <<<"$1"' _ "$student_help"
check "... which lists make labN-build, which the handouts use" contains "$student_help" "make labN-build"

# --- no reference to a document the tarball lacks ---------------------------------------------------
# Text files only (the samples are CSV, the graphs text: all are read).
mapfile -d '' texts < <(cd "$root" && find . -type f ! -name '*.png' -print0)
# The source reports, by number or as "the seed" (tests/scripts/lib/handouts.py says which
# uses of the word are the random seed's, and stay).
report_refs=$(cd "$root" && python3 "$OLDPWD/tests/scripts/lib/handouts.py" source-reports "${texts[@]}")
check "no file names a source report as a seed (fix each line below)" test -z "$report_refs"
[[ -n $report_refs ]] && indent "$(head -40 <<<"$report_refs")"
# The reference solutions are not in the tarball, but a course hands them out after the
# deadline: they name the source reports by what they are too.
mapfile -t solution_files < <(git ls-files solutions)
solution_refs=$(python3 tests/scripts/lib/handouts.py source-reports "${solution_files[@]}")
check "no reference solution names a source report as a seed (fix each line below)" test -z "$solution_refs"
[[ -n $solution_refs ]] && indent "$(head -40 <<<"$solution_refs")"
design_refs=$(cd "$root" && grep -n -E 'COURSE\.md|seeds/|handouts/instructor|[Ii]nstructor guide' "${texts[@]}" 2>/dev/null)
check "no file refers to the instructor guides or the course's design notes" test -z "$design_refs"
[[ -n $design_refs ]] && indent "$(head -20 <<<"$design_refs")"

# Paths in the documents a student reads: each must be in the tarball (or be an output: build/,
# results/, dist/), with labN, <lab>, DATE, ... standing for any lab, date or name.
missing=()
while IFS= read -r -d '' doc; do
    rel=${doc#"$root"/}
    while IFS= read -r path; do
        path=${path%%[.,:;)]}
        # grading/hidden/: a hidden case's input, which the manifest names and the tarball must lack.
        case $path in build/* | results/* | dist/* | grading/hidden/* | *labN* | *'<'* | *DATE* | *'*'*) continue ;; esac
        [[ -e $root/$path ]] || missing+=("$rel: $path")
    done < <(grep -o -E '\b(solutions|grading|handouts|labs|common|mk|tests)/[A-Za-z0-9_./<>*-]*[A-Za-z0-9_/>*-]' "$doc" | sort -u)
done < <(find "$root/handouts" "$root/README.md" "$root/labs" -type f \( -name '*.md' -o -name '*.cu' -o -name '*.h' \
         -o -name '*.hpp' -o -name '*.cpp' -o -name '*.cuh' -o -name manifest -o -name '*.gp' -o -name '*.awk' \) -print0)
check "every path the handouts, the README and the labs' files name is in the tarball (${#missing[@]} missing)" \
    test "${#missing[@]}" -eq 0
((${#missing[@]})) && indent "$(printf '%s\n' "${missing[@]}" | head -30)"

# --- and the checks can fail: a planted reference is found ---------------------------------------------
# The fifth is a source report before a colon ("two rungs beyond the seed: warp shuffles"),
# which an exemption once let through; the random seed's line (--seed, "the seed is printed")
# and a sentence that ends on the random seed stay unflagged.
printf 'as seed 001 measured\nthe seed'"'"'s loop\nas the seed merges\nthe seeds\nwith --seed 7, seed 1; the seed is printed\ntwo rungs beyond the seed: warp shuffles\n--seed S sets the seed.\n' >"$work/planted.md"
planted=$(python3 tests/scripts/lib/handouts.py source-reports "$work/planted.md" | cut -d: -f2 | tr '\n' ' ')
check "the five planted references to a source report are found, the random seed's lines are not ($planted)" \
    test "$planted" = "1 2 3 4 6 "
finish
