#!/usr/bin/env bash
# test: long (it grades classes or runs the handouts: started first)
# Archives as students make them: the CPU test lab's solution (tests/grading/fixtures/labcpu)
# packed by Python's zipfile.writestr, by Windows, by the macOS Finder (with __MACOSX/), by
# `zip -r`, by GNU tar and by bsdtar (plain, and pax with macOS `._` files) scores exactly what
# the same file in a plain folder scores, full marks; a link, a device, a pipe or a `..` path
# packed the same ways is still refused with its message. zip and bsdtar are the real tools;
# the Windows and Finder zips are built with Python's zipfile, setting the fields those tools
# set (see make_zip). Skipped (77) where zip or bsdtar is missing.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
for tool in zip:zip bsdtar:libarchive-tools; do
    if ! command -v "${tool%%:*}" >/dev/null; then
        echo "skipped: ${tool%%:*} is not installed (apt-get install ${tool#*:})"
        exit 77
    fi
done
source tests/scripts/lib/checks.sh
source tests/scripts/grading-lib/labcpu.sh
source tests/scripts/grading-lib/sandbox.sh
BUILD=${BUILD:-build}
[[ $BUILD == /* ]] || BUILD=$PWD/$BUILD
work=$(mktemp -d /tmp/grading-archives-test.XXXXXX)
trap '[[ ${KEEP:-0} == 1 ]] || rm -rf -- "$work"' EXIT
solution=$PWD/tests/grading/fixtures/labcpu-solution/work.cpp
subs=$work/submissions out=$work/out src=$work/src
mkdir -p "$subs" "$src"

# The test lab with its public case only (1 point a part, checked against the reference's
# output): no timed case, no hidden one, no sanitizer. What is tested here is what reaches the
# build; grading-pipeline.sh grades the rest, and every run saved keeps this test short.
repo=$work/course
make_labcpu_course "$repo"
sed -i -e 's/^cases .*/cases = small/' -e '/^case\.big\./d' -e '/^perf\./d' -e '/^sanitize\./d' "$repo/labs/labcpu/manifest"

# make_zip KIND ZIP: a zip made in Python, KIND one of
#   writestr  zipfile.writestr(NAME, DATA), as scripts and LMS bulk downloads write it: the mode
#             is 0o600 << 16, permissions with no file-type bits;
#   windows   as Explorer's "Send to > Compressed folder": "version made by" 2.0 on MS-DOS
#             (create_system 0), the DOS attributes in the low byte of external_attr (0x10 a
#             folder, 0x20 the archive bit, 0x01 read-only) and nothing in the high 16 bits,
#             which only Unix zips fill;
#   finder    as the macOS Finder's "Compress" (ditto): "version made by" 2.1 on Unix
#             (create_system 3), Unix modes with their type bits (S_IFDIR, S_IFREG), bit 3 of
#             the flags (sizes in a data descriptor after the data: the Finder streams), and
#             beside the folder a __MACOSX/ folder of AppleDouble `._NAME` files;
#   device    writestr with a character device's mode (S_IFCHR), as a hostile zip would;
#   up        writestr with a member "../work.cpp";
#   apple     not a zip: the AppleDouble file itself, as bsdtar on a Mac adds `._NAME` files.
make_zip() {
    python3 - "$@" "$solution" <<'PY'
import stat, sys, zipfile
kind, archive, solution = sys.argv[1:]
code = open(solution, "rb").read()
# An AppleDouble header (magic 0x00051607, version 2, "Mac OS X" filler, no entries): what
# the Finder writes as __MACOSX/.../._NAME for a file with extended attributes.
apple_double = b"\x00\x05\x16\x07\x00\x02\x00\x00" + b"Mac OS X".ljust(16) + b"\x00\x00"

class Stream:
    """A file that cannot seek: zipfile then sets flag bit 3 and writes data descriptors."""
    def __init__(self, out): self.out = out
    def write(self, data): return self.out.write(data)
    def flush(self): self.out.flush()

def entry(name, external_attr, create_system, create_version):
    info = zipfile.ZipInfo(name, date_time=(2024, 3, 1, 12, 0, 0))
    info.external_attr, info.create_system, info.create_version = external_attr, create_system, create_version
    info.compress_type = zipfile.ZIP_DEFLATED
    return info

with open(archive, "wb") as out:
    if kind == "apple":
        out.write(apple_double)
    elif kind == "writestr":
        with zipfile.ZipFile(out, "w") as z:
            z.writestr("labcpu/work.cpp", code)
            z.writestr("labcpu/notes.txt", "my notes")
    elif kind == "windows":
        with zipfile.ZipFile(out, "w") as z:
            for name, attr, data in (("alice/", 0x10, b""), ("alice/work.cpp", 0x20, code), ("alice/notes.txt", 0x21, b"mine")):
                z.writestr(entry(name, attr, 0, 20), data)
    elif kind == "finder":
        with zipfile.ZipFile(Stream(out), "w") as z:
            unix = lambda mode: mode << 16
            for name, attr, data in (("alice/", unix(stat.S_IFDIR | 0o755), b""),
                                     ("alice/work.cpp", unix(stat.S_IFREG | 0o644), code),
                                     ("__MACOSX/", unix(stat.S_IFDIR | 0o755), b""),
                                     ("__MACOSX/alice/", unix(stat.S_IFDIR | 0o755), b""),
                                     ("__MACOSX/alice/._work.cpp", unix(stat.S_IFREG | 0o644), apple_double)):
                z.writestr(entry(name, attr, 3, 21), data)
    elif kind == "device":
        with zipfile.ZipFile(out, "w") as z:
            z.writestr(entry("work.cpp", (stat.S_IFCHR | 0o600) << 16, 3, 20), b"")
    elif kind == "up":
        with zipfile.ZipFile(out, "w") as z:
            z.writestr("../work.cpp", code)
PY
}

# zip_fields ZIP: each member's name, create_system, mode type bits and flag bit 3, to show
# the archives really are as described.
zip_fields() {
    python3 -c '
import stat, sys, zipfile
for i in zipfile.ZipFile(sys.argv[1]).infolist():
    print(i.filename, i.create_system, oct(stat.S_IFMT(i.external_attr >> 16)), hex(i.external_attr & 0xff), i.flag_bits & 8)' "$1"
}

# Correct submissions: the same solution in a plain folder and packed every way.
mkdir -p "$subs/folder" && cp "$solution" "$subs/folder/"
make_zip writestr "$subs/writestr.zip"
make_zip windows "$subs/windows.zip"
make_zip finder "$subs/finder.zip"
mkdir -p "$src/zip/alice" && cp "$solution" "$src/zip/alice/"                          # wrapped in a folder
(cd "$src/zip" && zip -qr "$subs/zip-r.zip" alice)
mkdir -p "$src/gnu/labs/labcpu" && cp "$solution" "$src/gnu/labs/labcpu/"              # as in the repository
tar -czf "$subs/gnutar.tar.gz" -C "$src/gnu" labs
mkdir -p "$src/bsd/labcpu" && cp "$solution" "$src/bsd/labcpu/"                        # in the lab's folder
bsdtar -czf "$subs/bsdtar.tgz" -C "$src/bsd" labcpu
# bsdtar on macOS stores a file's extended attributes as an AppleDouble `._NAME` member beside
# it; here they are files, as they unpack. --format pax: an extended header for every member.
mkdir -p "$src/pax/alice" && cp "$solution" "$src/pax/alice/"
make_zip apple "$src/pax/._alice" && make_zip apple "$src/pax/alice/._work.cpp"
bsdtar --format pax -czf "$subs/bsdtar-pax.tar.gz" -C "$src/pax" ._alice alice
good=(folder writestr windows finder zip-r gnutar bsdtar bsdtar-pax)

# Broken submissions, refused whatever packed them.
mkdir -p "$src/link" && ln -s /etc/passwd "$src/link/work.cpp"
(cd "$src/link" && zip -qry "$subs/zip-link.zip" work.cpp)                              # -y: the link itself
bsdtar --format pax -czf "$subs/bsdtar-link.tar.gz" -C "$src/link" work.cpp
mkdir -p "$src/fifo" && mkfifo "$src/fifo/work.cpp"
bsdtar -czf "$subs/bsdtar-pipe.tar.gz" -C "$src/fifo" work.cpp
make_zip device "$subs/writestr-device.zip"
make_zip up "$subs/writestr-up.zip"
mkdir -p "$src/up" && cp "$solution" "$src/up/"
bsdtar -czf "$subs/bsdtar-up.tar.gz" -P -s ',^,../,' -C "$src/up" work.cpp
declare -A refusal=(
    [zip-link]="the archive holds a link, which is not accepted: work.cpp"
    [bsdtar-link]="the archive holds a link, which is not accepted: work.cpp"
    [bsdtar-pipe]="the archive holds a special file (device, pipe or socket): work.cpp"
    [writestr-device]="the archive holds a special file (device, pipe or socket), which is not accepted: work.cpp"
    [writestr-up]="the archive holds a path that leaves its folder: ../work.cpp"
    [bsdtar-up]="the archive holds a path that leaves its folder: ../work.cpp"
)

# The archives are what they claim to be.
check "writestr: its members carry permissions and no type bits" \
    test "$(python3 -c 'import sys, zipfile; print(*{oct(i.external_attr >> 16) for i in zipfile.ZipFile(sys.argv[1]).infolist()})' "$subs/writestr.zip")" == 0o600
check "windows: MS-DOS, DOS attributes only" \
    test "$(zip_fields "$subs/windows.zip" | paste -sd,)" == "alice/ 0 0o0 0x10 0,alice/work.cpp 0 0o0 0x20 0,alice/notes.txt 0 0o0 0x21 0"
check "finder: Unix modes, data descriptors, __MACOSX beside the folder" \
    test "$(zip_fields "$subs/finder.zip" | awk '{ print $1, $2, $3, $5 }' | paste -sd,)" == \
    "alice/ 3 0o40000 8,alice/work.cpp 3 0o100000 8,__MACOSX/ 3 0o40000 8,__MACOSX/alice/ 3 0o40000 8,__MACOSX/alice/._work.cpp 3 0o100000 8"
check "zip -r: Unix modes with type bits" \
    test "$(zip_fields "$subs/zip-r.zip" | awk '{ print $1, $2, $3 }' | paste -sd,)" == "alice/ 3 0o40000,alice/work.cpp 3 0o100000"
check "zip -ry: a link entry (S_IFLNK)" test "$(zip_fields "$subs/zip-link.zip" | awk '{ print $3 }')" == 0o120000
check "bsdtar --format pax: a pax header on every member, ._ files beside the real ones" \
    test "$(python3 -c 'import sys, tarfile; print(",".join(sorted("%s:%d" % (m.name, bool(m.pax_headers)) for m in tarfile.open(sys.argv[1]))))' "$subs/bsdtar-pax.tar.gz")" == \
    "._alice:1,alice/._work.cpp:1,alice/work.cpp:1,alice:1"
check "bsdtar: a pipe member" bash -c "bsdtar -tvzf '$subs/bsdtar-pipe.tar.gz' | grep -q '^p'"
check "bsdtar -P: a ../ member" test "$(bsdtar -tzf "$subs/bsdtar-up.tar.gz")" == ../work.cpp

started=$EPOCHREALTIME
grade_labcpu "$repo" "$subs" "$out" --jobs 2 >"$work/screen.txt" 2>&1
status=$?
check "grade.sh grades the class (status $status, $(awk -v a="$started" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }') s)" test "$status" == 0
((status == 0)) || tail -30 "$work/screen.txt"

maximum=$(awk -F'\t' '/record=lab/ { for (i = 1; i <= NF; i++) if (index($i, "max=") == 1) print substr($i, 5) }' "$out/students/folder/labcpu/score.tsv" 2>/dev/null)
check "folder: the solution in a plain folder gets full marks ($(labcpu_points "$out" folder) of ${maximum:-?})" \
    test -n "$maximum" -a "$(labcpu_points "$out" folder)" == "$maximum"
for student in "${good[@]:1}"; do
    check "$student: scores as the folder ($(labcpu_points "$out" "$student"))" \
        test -n "$(labcpu_points "$out" "$student")" -a "$(labcpu_points "$out" "$student")" == "$(labcpu_points "$out" folder)"
done
for student in "${!refusal[@]}"; do
    check "$student: refused, saying why, and scores 0" \
        bash -c "grep -qF -- '${refusal[$student]}' '$out/students/$student/feedback.md' && grep -qx '$student,0,0' '$out/gradebook.csv'"
done
check "the gradebook has every student" test "$(($(wc -l <"$out/gradebook.csv") - 1))" == $((${#good[@]} + ${#refusal[@]}))
check "nothing was unpacked outside the submission folders" test ! -e "$work/work.cpp" -a ! -e "$out/work.cpp"
finish
