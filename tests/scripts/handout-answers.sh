#!/usr/bin/env bash
# No question's answer stands in the student's copy, as far as a test can tell: the answer to
# each question in the instructor guide (handouts/instructor/labN.md, "Answers") shares no run
# of 8 words with the lab's handout (its question's own text aside) or its student files. A
# failure names the file and line where the words stand, the lab, the question and the words;
# move the explanation out of the student's copy, or, where the answer only cites it, cite it by
# its section (or in quotes) instead of copying it. The reading is
# tests/scripts/lib/handout_answers.py's (its comment on ANSWER_RUN says what is compared). Withheld from the student tarball, which
# has no instructor guides.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
command -v python3 >/dev/null || { echo "python3 is not installed (make deps)"; exit 77; }
work=$(mktemp -d /tmp/handout-answers-test.XXXXXX)
trap 'rm -rf -- "$work"' EXIT
failed=0

# The check itself can fail: a lab 9 whose handout explains the answer to its question 2 and
# whose answer to question 1 restates the question and quotes the driver.
mkdir -p "$work/handouts/instructor" "$work/labs/lab9" "$work/mk"
cp mk/manifest.sh "$work/mk/"
printf 'student_files = work.cu\n' >"$work/labs/lab9/manifest"
printf '// TODO 1: launch one thread per element of the array, rounding the grid up\n' >"$work/labs/lab9/work.cu"
cat >"$work/handouts/lab9-test.md" <<'MD'
# Lab 9
## 1. Background
A grid of blocks covers the array. The last block is partial whenever the block size does not
divide the number of elements, so its threads past the end must return before they read. The
driver prints "the kernel read past the end of the array at element 1000".
## 2. Questions
1. **Blocks.** How many blocks cover one million and three elements with blocks of 256 threads each?
2. **The end.** Why must the last threads return?
MD
cat >"$work/handouts/instructor/lab9.md" <<'MD'
# Lab 9: instructor guide
## Answers
1. **Blocks.** How many blocks cover one million and three elements with blocks of 256 threads
   each? 3907; the driver says "the kernel read past the end of the array at element 1000".
2. **The end.** The last block is partial whenever the block size does not divide the number of
   elements.
MD
said=$(cd "$work" && python3 "$OLDPWD/tests/scripts/lib/handout_answers.py" lab9)
if [[ $said != *"handouts/lab9-test.md:3: lab9, question 2:"*"the last block is partial whenever the block size does not divide"* ]]; then
    echo "FAIL  an answer copied from the handout is not reported (it said: ${said:-nothing})"; failed=1
fi
if [[ $said == *"question 1"* ]]; then
    echo "FAIL  an answer that restates its question and quotes the driver is reported: $said"; failed=1
fi

checked=0
for guide in handouts/instructor/lab*.md; do
    lab=$(basename "$guide" .md)
    python3 tests/scripts/lib/handout_answers.py "$lab" || failed=1
    checked=$((checked + 1))
done
echo "$checked instructor guides' answers compared with the students' copies"
exit $failed
