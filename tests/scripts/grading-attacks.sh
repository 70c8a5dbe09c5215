#!/usr/bin/env bash
# test: long (it grades classes or runs the handouts: started first)
# Hostile submissions, each attack performed for real on the CPU test lab
# (tests/grading/fixtures/labcpu) with grade.sh, and each must score 0 or be refused with a
# clear line in the student's feedback:
#   - a folder name with a line break that forges a second line of the grader's file list,
#     pointing at the reference solution (it once gave a starter 12/12);
#   - a tar bomb whose member has an owner name with a blank (which once shifted the sizes of
#     `tar -tv` out of sight), and a zip whose headers understate its sizes;
#   - .zip submissions open where unzip is not installed;
#   - a name a spreadsheet would run as a formula, terminal escapes in a file name, and two
#     entries for one student (the newest is graded, with a note; a tie is refused);
#   - identical submissions, which the instructor's similarity report must list;
#   - includes that reach the reference solution in ways no text scan sees (a digraph, a line
#     continuation, a split .incbin), graded under rlimits where nothing else hides it;
#   - calling the trusted driver's code, replacing it, or opening the yardstick's library by
#     hand (dlopen with the name in pieces): refused from the object's symbols.
# A plain correct submission graded in the same run keeps full marks.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/scripts/lib/checks.sh
source tests/scripts/grading-lib/labcpu.sh
source tests/scripts/grading-lib/sandbox.sh
BUILD=${BUILD:-build}
[[ $BUILD == /* ]] || BUILD=$PWD/$BUILD
work=$(mktemp -d /tmp/grading-attacks-test.XXXXXX)
trap '[[ ${KEEP:-0} == 1 ]] || rm -rf -- "$work"' EXIT
fixtures=$PWD/tests/grading/fixtures
repo=$work/course subs=$work/submissions out=$work/out
make_labcpu_course "$repo"
# The test lab allows every symbol (the sandbox tests' students need fork and files); here it
# allows only the grader's base list, as a real lab does.
sed -i 's/^allowed_symbols = .*/allowed_symbols =/' "$repo/labs/labcpu/manifest"
mkdir -p "$subs/good"
cp "$fixtures/labcpu-solution/work.cpp" "$subs/good/"
feedback_has() { grep -qF -- "$2" "$out/students/$1/feedback.md"; }

# 1. The injection: the archive's only folder is named "x<line break>file<tab>work.cpp<tab>
# solutions", and holds labcpu/work.cpp (the starter). A line-based list of the files found,
# "file<tab>NAME<tab>PATH", then reads a second entry: work.cpp at solutions/labcpu/work.cpp,
# relative to the grader's working folder (the course): the reference solution.
injected=$'x\nfile\twork.cpp\tsolutions/labcpu/work.cpp'
mkdir -p "$work/inject/${injected%/*}" && cp "$fixtures/labcpu/work.cpp" "$work/inject/$injected"
tar -czf "$subs/injector.tar.gz" -C "$work/inject" "${injected%%/*}"
mkdir -p "$subs/injector-folder/${injected%/*}" && cp "$fixtures/labcpu/work.cpp" "$subs/injector-folder/$injected"

# 2. Bombs. A 200 MB file of zeros (the limit is 50 MB), owned in the archive by "a b".
mkdir -p "$work/bomb" && cp "$fixtures/labcpu-solution/work.cpp" "$work/bomb/"
head -c $((200 << 20)) /dev/zero >"$work/bomb/zeros"
tar -czf "$subs/tarbomb.tar.gz" -C "$work/bomb" --owner='a b' --group='c d' work.cpp zeros
# The same zeros in a zip whose headers say 1 KB.
python3 - "$subs/zipbomb.zip" "$work/bomb/zeros" "$fixtures/labcpu-solution/work.cpp" <<'PY'
import struct, sys, zipfile
archive, zeros, work = sys.argv[1:]
with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
    z.write(work, "work.cpp")
    z.write(zeros, "zeros")
data = bytearray(open(archive, "rb").read())
# Rewrite the uncompressed size of "zeros" in its local header and in the central directory.
for signature, offset in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
    start = 0
    while (at := data.find(signature, start)) >= 0:
        name_at = at + (30 if signature == b"PK\x03\x04" else 46)
        if data[name_at:name_at + 5] == b"zeros":
            data[at + offset:at + offset + 4] = struct.pack("<I", 1024)
        start = at + 4
open(archive, "wb").write(bytes(data))
PY
# 3. A correct .zip, graded as if unzip were not installed: stand-ins that fail come first in PATH.
python3 -c "import zipfile, sys; z = zipfile.ZipFile(sys.argv[1], 'w'); z.write(sys.argv[2], 'work.cpp'); z.close()" \
    "$subs/zipper.zip" "$fixtures/labcpu-solution/work.cpp"
mkdir -p "$work/no-unzip"
for tool in unzip zipinfo; do printf '#!/bin/sh\necho "%s: not installed" >&2\nexit 127\n' "$tool" >"$work/no-unzip/$tool"; done
chmod +x "$work/no-unzip"/*

# 4. Output hygiene. A student named like a spreadsheet formula; a file named with terminal
# escapes (the grader's log must not replay them); two entries for one student, the folder
# (a starter) older than the archive (correct): the archive is graded, with a note.
mkdir -p "$subs/+cmd" && cp "$fixtures/labcpu-solution/work.cpp" "$subs/+cmd/"
mkdir -p "$subs/escaper" && cp "$fixtures/labcpu-solution/work.cpp" "$subs/escaper/"$'\e]0;owned\a\e[2J'
mkdir -p "$subs/pat" && cp "$fixtures/labcpu/work.cpp" "$subs/pat/" && touch -d '2 hours ago' "$subs/pat" "$subs/pat/work.cpp"
mkdir -p "$work/pat" && cp "$fixtures/labcpu-solution/work.cpp" "$work/pat/" && tar -czf "$subs/pat.tgz" -C "$work/pat" work.cpp
mkdir -p "$subs/sam" "$work/sam" && cp "$fixtures/labcpu/work.cpp" "$subs/sam/" && cp "$fixtures/labcpu/work.cpp" "$work/sam/"
tar -czf "$subs/sam.tgz" -C "$work/sam" work.cpp && touch -d '1 hour ago' "$subs/sam" "$subs/sam/work.cpp" "$subs/sam.tgz"

# 7. Trusted code, called or replaced; the yardstick's library opened by hand.
mkdir -p "$subs"/{dlopener,caller,overrider,interposer}
{ cat "$fixtures/labcpu-solution/work.cpp"; cat <<'CPP'
#include <dlfcn.h>
#include <string>
// The library's name in pieces, so no text scan sees it.
static void* library = dlopen((std::string("libcu") + "blas.so").c_str(), RTLD_NOW);
CPP
} >"$subs/dlopener/work.cpp"
{ cat "$fixtures/labcpu-solution/work.cpp"; cat <<'CPP'
#include <cstddef>
void require_device_memory(std::size_t bytes);  // the trusted driver's own
static int called = (require_device_memory(0), 0);
CPP
} >"$subs/caller/work.cpp"
{ cat "$fixtures/labcpu-solution/work.cpp"; cat <<'CPP'
#include <cuda_runtime.h>
#include <string>
// A strong definition of an inline function of the trusted headers: it would replace theirs.
std::string describe_cuda_error(cudaError_t) { return "all is well"; }
CPP
} >"$subs/overrider/work.cpp"
{ cat "$fixtures/labcpu-solution/work.cpp"; cat <<'CPP'
#include <ctime>
// The C library's clock, which the driver's host timer reaches through libstdc++: every time
// would read zero.
extern "C" int clock_gettime(clockid_t, struct timespec* t) { t->tv_sec = 0; t->tv_nsec = 0; return 0; }
CPP
} >"$subs/interposer/work.cpp"

check "the injected name really holds a line break" test -f "$subs/injector-folder/$injected"
check "the zip bomb's header says 1 KB" python3 -c "
import sys, zipfile; sys.exit(zipfile.ZipFile('$subs/zipbomb.zip').getinfo('zeros').file_size != 1024)"

(cd "$repo" && PATH=$work/no-unzip:$PATH grade_labcpu "$repo" "$subs" "$out" --jobs 2) >"$work/screen.txt" 2>&1
status=$?
sed -n '/^student /,/^$/p' "$work/screen.txt"
check "grade.sh grades the class (status $status)" test "$status" == 0
((status == 0)) || tail -20 "$work/screen.txt"
check "good: full marks" test "$(labcpu_points "$out" good)" == 12
for s in injector injector-folder; do
    check "$s: scores 0" test "$(labcpu_points "$out" $s)" == 0
    check "$s: the name is refused" feedback_has $s "a name with a control character"
done
check "tarbomb: scores 0" test "$(labcpu_points "$out" tarbomb)" == 0
check "tarbomb: refused as too large" feedback_has tarbomb "unpacks to more than 50 MB"
check "zipbomb: scores 0" test "$(labcpu_points "$out" zipbomb)" == 0
check "zipbomb: refused (its sizes do not match its headers, or it is too large)" \
    bash -c "grep -qE 'unpacks to more than 50 MB|not a readable .zip' '$out/students/zipbomb/feedback.md'"
check "no bomb was unpacked: the output folder stays small ($(du -sm "$out" | cut -f1) MB)" \
    test "$(du -sm "$out" | cut -f1)" -lt 60
check "zipper: a .zip is graded without unzip" test "$(labcpu_points "$out" zipper)" == 12
check "+cmd: the gradebook cell cannot run as a formula" grep -qx "'+cmd,12,12" "$out/gradebook.csv"
check "escaper: refused, and no terminal escape reached the log or the summary" \
    bash -c "grep -qF 'control character' '$out/students/escaper/feedback.md' && ! grep -q \$'\\e' '$out/grading.log' '$out/summary.txt'"
check "pat: the newer of pat/ and pat.tgz is graded" test "$(labcpu_points "$out" pat)" == 12
check "pat: the feedback says which entry was graded and which ignored" \
    feedback_has pat "Note: graded pat.tgz, the newest of the entries for this student (pat, pat.tgz); the others were ignored"
check "sam: two entries changed at the same moment are both refused" feedback_has sam "changed at the same time: keep one"
check "dlopener: opening a library by hand is refused" \
    grep -qF 'work.cpp uses dlopen, which this lab does not allow' "$out/students/dlopener/feedback.md"
check "dlopener: 0 points" test "$(labcpu_points "$out" dlopener)" == 0
check "caller: calling the trusted driver is refused" \
    grep -qF 'work.cpp uses require_device_memory(unsigned long), which this lab does not allow' "$out/students/caller/labcpu/score.tsv"
check "caller: 0 points" test "$(labcpu_points "$out" caller)" == 0
check "overrider: replacing trusted code is refused" \
    grep -qF 'work.cpp defines describe_cuda_error[abi:cxx11](cudaError), which belongs to the trusted driver' "$out/students/overrider/labcpu/score.tsv"
check "overrider: 0 points" test "$(labcpu_points "$out" overrider)" == 0
check "interposer: standing in for a C library function is refused" \
    grep -qF 'work.cpp defines clock_gettime, a C name' "$out/students/interposer/labcpu/score.tsv"
check "interposer: 0 points" test "$(labcpu_points "$out" interposer)" == 0
# 5. Copies: good, +cmd, pat and zipper all handed in the same solution.

# 6. Includes no text scan sees, reaching the reference solution of the course copy (made
# readable to all, as a repository often is), graded under rlimits, where nothing hides it:
# a digraph `%:include`, a directive split by a line continuation, an assembler .incbin made
# of two literals.
chmod 755 "$work"
attackers=$work/attackers
secret=$repo/solutions/labcpu/work.cpp
mkdir -p "$attackers"/{digraph,split,incbin}
printf '%%:include "%s"\n' "$secret" >"$attackers/digraph/work.cpp"
printf '#inc\\\nlude "%s"\n' "$secret" >"$attackers/split/work.cpp"
{ cat "$fixtures/labcpu-solution/work.cpp"; printf 'asm(".section .rodata\\n.inc" "bin \\"%s\\"\\n.text");\n' "$secret"; } >"$attackers/incbin/work.cpp"
(cd "$repo" && grade_labcpu "$repo" "$attackers" "$work/out-includes" --jobs 2 --sandbox rlimits) >"$work/includes.txt" 2>&1
check "the include attacks were graded (status $?)" grep -q "^Gradebook:" "$work/includes.txt"
check "digraph: scores 0" test "$(labcpu_points "$work/out-includes" digraph)" == 0
check "digraph: its build read the reference solution: refused" \
    grep -qF "work.cpp: its build read $secret, outside the lab" "$work/out-includes/students/digraph/feedback.md"
check "split: scores 0" test "$(labcpu_points "$work/out-includes" split)" == 0
check "split: refused" grep -qF "its build read $secret, outside the lab" "$work/out-includes/students/split/feedback.md"
check "incbin: scores 0" test "$(labcpu_points "$work/out-includes" incbin)" == 0
check "incbin: refused" grep -qF "an assembler .incbin reads a file at build time" "$work/out-includes/students/incbin/feedback.md"

check "the summary lists the identical submissions as similar" \
    bash -c "grep -q '^Similar submissions' '$out/summary.txt' && grep -qE 'labcpu  good and pat: 1.000' '$out/summary.txt'"
check "similarity.csv has the pairs, for the instructor" grep -q '^labcpu,good,pat,1.000,' "$out/similarity.csv"
check "no feedback mentions it" bash -c "! grep -rl -i 'similar' '$out'/students/*/feedback.md '$out'/students/*/results.json"
finish
