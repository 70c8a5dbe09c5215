#!/usr/bin/env bash
# make's view of the manifests (mk/manifest.mk: every lab's keys read at once into
# $(BUILD)/manifests/) is the shell reader's (mk/manifest.sh, manifest_value, blanks collapsed
# as make's $(strip) does): for the keys make reads, and for every value holding a character
# make would take for its own ($ # \ and quotes).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/scripts/lib/checks.sh
source mk/manifest.sh
# Its own makes, not a parent's sub-makes (make test runs it): no jobserver, no directory lines.
unset MAKEFLAGS MFLAGS MAKELEVEL
work=$(mktemp -d /tmp/manifest-make-test.XXXXXX)
trap 'rm -rf -- "$work"' EXIT
# A build folder of its own: the other tests' makes share build/.
BUILD=$work/build

make_keys="student_files reference_files libraries time_limit run.default run.toolchain bench.args host_flags sanitize.case"
for manifest in labs/*/manifest; do
    lab=${manifest#labs/} lab=${lab%/manifest}
    keys=$(for key in $make_keys; do echo "$key"; done
        echo "case.$(manifest_value "$manifest" sanitize.case).args"
        sed -n 's/^[[:space:]]*\([A-Za-z0-9._-]*\)[[:space:]]*=.*[$#\\"'"'"'].*/\1/p' "$manifest")
    for key in $(sort -u <<<"$keys"); do
        printf '%s\t%s\t%s\n' "$lab" "$key" "$(manifest_value "$manifest" "$key" | tr -s '[:space:]' ' ' | sed 's/^ //; s/ $//')" >>"$work/shell.tsv"
        printf '\t$(info %s\t%s\t$(call manifest,%s,%s))\n' "$lab" "$key" "$lab" "$key" >>"$work/show.mk"
    done
done
# Printed by a recipe: make has remade its manifests file, if it had to, before it runs one.
sed -i '1i manifest-values:' "$work/show.mk"
make -s --no-print-directory BUILD="$BUILD" -f Makefile -f "$work/show.mk" manifest-values >"$work/make.tsv" 2>&1
check "make reads the manifests as the shell reader does ($(wc -l <"$work/shell.tsv") keys, $(grep -c '[$#\\]' "$work/shell.tsv") with \$, # or \\)" \
    cmp -s "$work/shell.tsv" "$work/make.tsv"
cmp -s "$work/shell.tsv" "$work/make.tsv" || diff "$work/shell.tsv" "$work/make.tsv" | head -10

# A changed manifest is read again: make remakes its manifests file before it reads a value.
mkdir -p "$work/course"
cp -rp Makefile mk common "$work/course/" && mkdir -p "$work/course/labs/demo" && cp -p labs/MANIFEST.md "$work/course/labs/"
printf 'title = Demo\nstudent_files = a.cu\n' >"$work/course/labs/demo/manifest"
printf 'show:\n\t@echo "files: $(call manifest,demo,student_files)"\n' >"$work/show-demo.mk"
first=$(make -s -C "$work/course" --no-print-directory -f Makefile -f "$work/show-demo.mk" show 2>&1)
sleep 1 && sed -i 's/a\.cu/b.cu/' "$work/course/labs/demo/manifest"
second=$(make -s -C "$work/course" --no-print-directory -f Makefile -f "$work/show-demo.mk" show 2>&1)
check "a changed manifest is read again ($first, then $second)" test "$first/$second" == "files: a.cu/files: b.cu"

# Two course trees sharing one BUILD folder (as the grading tests share build/ with their copies)
# each read their own labs, even where the other tree's manifests are newer.
mkdir -p "$work/older/labs/demo" && cp -rp Makefile mk common "$work/older/" && cp -p labs/MANIFEST.md "$work/older/labs/"
printf 'title = Older\nstudent_files = older.cu\n' >"$work/older/labs/demo/manifest"
touch -d '2000-01-01' "$work/older/labs/demo/manifest"
in_tree() { make -s -C "$work/$1" --no-print-directory BUILD="$work/shared" -f Makefile -f "$work/show-demo.mk" show 2>&1; }
first=$(in_tree older) && touch "$work/course/labs/demo/manifest" && other=$(in_tree course) && second=$(in_tree older)
check "trees sharing a build folder read their own manifests ($first, $other in the other, then $second)" \
    test "$first/$other/$second" == "files: older.cu/files: b.cu/files: older.cu"
finish
