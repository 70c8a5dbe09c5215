#!/usr/bin/env bash
# test: long (it grades classes or runs the handouts: started first)
# grading/grade.sh end to end on what needs no GPU: every accepted layout is found and built;
# a compile error scores zero with the compiler's message in the feedback; malformed
# submissions (empty archives, `..` paths, links, a missing or misnamed file, an unknown
# format, an include outside the lab) each get a clear line and do not stop the run; a
# forbidden API is reported; the output folder is never reused unless asked; and, without a
# GPU, the run says plainly that the cases could not run. With a GPU the same run is made
# with --build-only (tests/scripts/grading-gpu.sh grades on the GPU).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/scripts/lib/checks.sh
source tests/scripts/grading-lib/sandbox.sh
export CUDA_ARCH=${CUDA_ARCH:-90}  # one architecture: the builds stay fast
# lab1's trusted objects compiled once for the runs below, and kept for the next run of the test.
export GRADE_TEMPLATE_CACHE=${GRADE_TEMPLATE_CACHE-$(mkdir -p "${BUILD:-build}" && cd "${BUILD:-build}" && pwd)/grading-templates}
sandbox=$(best_sandbox)
work=$(mktemp -d /tmp/grading-submissions-test.XXXXXX)
trap 'rm -rf -- "$work"' EXIT
subs=$work/submissions out=$work/out
mkdir -p "$subs"
starter=$PWD/labs/lab1/matmul.cu

feedback_has() { grep -qF -- "$2" "$out/students/$1/feedback.md"; }

# .zip submissions, made with python's zipfile (the grader opens them with it too: no zip or
# unzip is needed on any machine). make_zip ZIP FOLDER: every file under FOLDER; a symbolic link
# goes in as a link.
make_zip() {
    python3 - "$1" "$2" <<'PY'
import os, sys, zipfile
archive, folder = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(archive, "w") as z:
    for base, dirs, files in os.walk(folder):
        for name in files:
            path = os.path.join(base, name)
            member = os.path.relpath(path, folder)
            if os.path.islink(path):
                info = zipfile.ZipInfo(member)
                info.external_attr = 0o120777 << 16
                z.writestr(info, os.readlink(path))
            else:
                z.write(path, member)
PY
}

# Accepted layouts, all holding the starter (which compiles).
mkdir -p "$subs/alice" && cp "$starter" "$subs/alice/"                         # file at the top
mkdir -p "$work/b/bob/lab1" && cp "$starter" "$work/b/bob/lab1/"               # wrapped, in lab1/
tar -czf "$subs/bob.tar.gz" -C "$work/b" bob
mkdir -p "$work/c/labs/lab1" && cp "$starter" "$work/c/labs/lab1/"             # as in the repository
make_zip "$subs/cara.zip" "$work/c"
# A compile error.
mkdir -p "$subs/dan" && { cat "$starter"; echo 'int broken = undeclared_name;'; } >"$subs/dan/matmul.cu"
# Malformed submissions.
tar -czf "$subs/erin.tar.gz" -T /dev/null                                       # empty .tar.gz
printf 'PK\005\006%018d' 0 | tr 0 '\0' >"$subs/fay.zip"                         # empty .zip
mkdir -p "$work/g" && cp "$starter" "$work/g/matmul.cu"
tar -czPf "$subs/gil.tar.gz" -C "$work/g" --transform 's|^|../|' matmul.cu 2>/dev/null  # a ../ path
mkdir -p "$work/h" && ln -s /etc/passwd "$work/h/matmul.cu"
tar -czf "$subs/hal.tar.gz" -C "$work/h" matmul.cu                             # a symbolic link
make_zip "$subs/ivy.zip" "$work/h"                                             # a link in a zip
mkdir -p "$subs/jon" && ln -s /etc/passwd "$subs/jon/matmul.cu"                # a link in a folder
mkdir -p "$subs/kim" && echo "I forgot" >"$subs/kim/README.txt"                # missing file
mkdir -p "$subs/lee" && cp "$starter" "$subs/lee/Matmul.cu"                    # misnamed file
echo "not an archive" >"$subs/max.rar"                                          # unknown format
mkdir -p "$subs/ned" && { cat "$starter"; echo '#include <cublas_v2.h>'; echo 'void helper() { cublasHandle_t h; cublasCreate(&h); }'; } >"$subs/ned/matmul.cu"
mkdir -p "$subs/oli" && { echo '#include "/etc/passwd"'; cat "$starter"; } >"$subs/oli/matmul.cu"  # include outside
touch "$subs/.DS_Store"                                                         # not a student

check "the tar with a ../ member really holds one" bash -c "tar -tzf '$subs/gil.tar.gz' | grep -q '^\.\./'"

students=(alice bob cara dan erin fay gil hal ivy jon kim lee max ned oli)
built=(alice bob cara ned)

mode=()
expected_status=3
if [[ ${GPU:-no} == yes ]]; then
    mode=(--build-only)
    expected_status=0
fi
# Lab 1 only: these are lab-1 submissions, whatever other labs the course has.
grading/grade.sh --sandbox "$sandbox" --out "$out" --jobs 2 --labs lab1 "${mode[@]}" "$subs" >"$work/screen.txt" 2>&1
status=$?
tail -25 "$work/screen.txt"
check "grade.sh finishes with status $expected_status (got $status)" test "$status" == "$expected_status"
if [[ ${GPU:-no} == no ]]; then
    check "the screen says plainly that no case ran for lack of a GPU" grep -q "NO GPU: the cases of ${#built[@]} built submission(s) did not run" "$work/screen.txt"
    check "so does a built student's feedback" feedback_has alice "the cases were not run: no GPU was usable on the grading machine"
fi
check "the screen says which isolation was used" grep -q "^Sandbox: " "$work/screen.txt"
check "so does isolation.txt" test -s "$out/isolation.txt"

check "the gradebook has its header and one row per student, .DS_Store ignored" \
    test "$(head -1 "$out/gradebook.csv")" == "student,lab1,total" -a "$(($(wc -l <"$out/gradebook.csv") - 1))" == "${#students[@]}"
for s in "${students[@]}"; do
    check "$s has feedback.md and results.json" test -s "$out/students/$s/feedback.md" -a -s "$out/students/$s/results.json"
    check "$s scores 0 in the gradebook" grep -qx "$s,0,0" "$out/gradebook.csv"
done
for s in "${built[@]}"; do
    check "$s's layout was found and built" test "$(cat "$out/students/$s/lab1/build/status" 2>/dev/null)" == ok
done
check "dan's compile error is in his feedback, with the compiler's words" \
    bash -c "grep -qF 'Build failed: the code did not compile' '$out/students/dan/feedback.md' && grep -q 'identifier \"undeclared_name\" is undefined' '$out/students/dan/feedback.md'"
check "dan's results.json carries the compiler's message" grep -q 'undeclared_name' "$out/students/dan/results.json"
check "erin: empty .tar.gz" feedback_has erin "the archive is empty"
check "fay: empty .zip" feedback_has fay "the archive is empty"
check "ivy: a link in a .zip" feedback_has ivy "the archive holds a link, which is not accepted: matmul.cu"
check "gil: a path leaving its folder" feedback_has gil "the archive holds a path that leaves its folder: ../matmul.cu"
check "hal: a link in a .tar.gz" feedback_has hal "the archive holds a link, which is not accepted: matmul.cu"
check "jon: a link in a folder" feedback_has jon "the folder holds a link, a special file or a name with a control character, which is not accepted: matmul.cu"
check "kim: the missing file" feedback_has kim "matmul.cu is missing (expected matmul.cu or lab1/matmul.cu)"
check "lee: the misnamed file" feedback_has lee "matmul.cu is missing; found Matmul.cu instead"
check "max: the unknown format" feedback_has max "'max.rar' is not a folder, a .tar.gz or a .zip"
check "ned: the forbidden API" feedback_has ned "forbidden API at matmul.cu:"
check "oli: the include outside the lab" feedback_has oli "reaches outside the lab"
check "nothing was unpacked outside the submission folders" test ! -e "$work/matmul.cu" -a ! -e "$out/matmul.cu"

# The output folder is never reused or overwritten unless asked.
grading/grade.sh --sandbox "$sandbox" --labs lab1 --out "$out" "$subs" >"$work/again.txt" 2>&1
check "a second run into the same folder is refused (status 2)" test $? == 2
check "... and says how to resume or regrade" grep -q -- "--resume" "$work/again.txt"
mkdir -p "$work/mine" && echo precious >"$work/mine/notes.txt"
grading/grade.sh --sandbox "$sandbox" --labs lab1 --out "$work/mine" --regrade "$subs" >"$work/mine.txt" 2>&1
check "a folder the grader did not make is refused, even with --regrade" test $? == 2 -a "$(cat "$work/mine/notes.txt")" == precious

before=$(stat -c %Y "$out/students/erin/lab1/score.tsv")
grading/grade.sh --sandbox "$sandbox" --labs lab1 --out "$out" --jobs 2 --resume "${mode[@]}" "$subs" >"$work/resume.txt" 2>&1
check "--resume keeps what was done (erin's score untouched)" test "$(stat -c %Y "$out/students/erin/lab1/score.tsv")" == "$before"
check "--resume reports the labs it kept" grep -q "labs already done and kept: $((${#students[@]} - ${#built[@]}))" "$work/resume.txt"
grading/grade.sh --sandbox "$sandbox" --labs lab1 --out "$out" --jobs 2 --regrade --student dan "${mode[@]}" "$subs" >"$work/regrade.txt" 2>&1
check "--regrade --student grades that student again" grep -q "Students: 1 (labs already done and kept: 0); builds to run: 1" "$work/regrade.txt"
check "... and the gradebook still lists everyone" test "$(($(wc -l <"$out/gradebook.csv") - 1))" == "${#students[@]}"
grading/grade.sh --sandbox "$sandbox" --labs lab1 --out "$out" --resume --student nobody "$subs" >/dev/null 2>&1
check "an unknown --student is refused (status 2)" test $? == 2

grading/grade.sh --help >"$work/help.txt"
check "--help explains the options" grep -q -- "--sandbox MODE" "$work/help.txt"
grading/grade.sh --jobs zero "$subs" >/dev/null 2>&1
check "a bad option value is refused (status 2)" test $? == 2
grading/grade.sh --budget 0 "$subs" >"$work/budget.txt" 2>&1
check "a budget of no time is refused, saying why (status $?)" grep -q "budget must be a whole number of seconds, 1 or more" "$work/budget.txt"

# Without a working bubblewrap, the default sandbox refuses to grade rather than fall back to
# rlimits unasked: a bwrap that cannot start comes first in PATH.
mkdir -p "$work/broken-bwrap" && printf '#!/bin/sh\necho "bwrap: no namespaces here" >&2\nexit 1\n' >"$work/broken-bwrap/bwrap"
chmod +x "$work/broken-bwrap/bwrap"
PATH=$work/broken-bwrap:$PATH grading/grade.sh --out "$work/no-bwrap" --build-only "$subs" >"$work/no-bwrap.txt" 2>&1
status=$?
check "without bubblewrap, the default sandbox refuses to grade (status $status)" test "$status" == 2
check "... naming the way out" grep -q "install it (sudo apt-get install bubblewrap), or grade with --sandbox rlimits" "$work/no-bwrap.txt"

finish
