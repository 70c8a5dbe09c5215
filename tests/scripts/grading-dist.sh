#!/usr/bin/env bash
# test: long (it grades classes or runs the handouts: started first)
# `make dist`: the student tarball holds no solutions, no grader, no hidden case and no
# reference output; and, unpacked on its own, it passes its own test command (make test,
# README.md) as a student would run it: here without a GPU, so its GPU tests are skipped.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/scripts/lib/checks.sh
work=$(mktemp -d /tmp/grading-dist-test.XXXXXX)
trap 'rm -rf -- "$work"' EXIT
source mk/manifest.sh

make -s dist DIST="$work/course-student.tar.gz" || { echo "make dist failed"; exit 1; }
tar -tzf "$work/course-student.tar.gz" >"$work/list.txt"
check "the tarball has one top folder, course-student/" bash -c "! grep -qv '^course-student/' '$work/list.txt'"
check "no solutions/" bash -c "! grep -q '^course-student/solutions/' '$work/list.txt'"
check "of the grader, only what make labN-check runs (below)" bash -c "! grep -qE '^course-student/tests/grading/' '$work/list.txt'"
check "no architecture check (its manifest entries name the solutions' kernels)" \
    bash -c "! grep -qE '^course-student/tests/(scripts/arch.sh|arch/)' '$work/list.txt'"

tar -xzf "$work/course-student.tar.gz" -C "$work"
root=$work/course-student
for manifest in labs/*/manifest; do
    lab=$(basename "$(dirname "$manifest")")
    shipped=$root/labs/$lab/manifest
    check "$lab: the student file is the starter" \
        bash -c "for f in $(manifest_get "$lab" student_files); do cmp -s labs/$lab/\$f '$root/labs/$lab/'\$f || exit 1; done"
    public=() hidden=()
    for c in $(manifest_get "$lab" cases); do
        if [[ $(manifest_get "$lab" "case.$c.visibility") == hidden ]]; then hidden+=("$c"); else public+=("$c"); fi
    done
    for c in "${hidden[@]}"; do
        check "$lab: hidden case '$c' is gone from the manifest" bash -c "! grep -qE '(^|[[:space:].])$c([[:space:].]|\$)' '$shipped'"
    done
    check "$lab: the public cases remain (${public[*]})" test "$(manifest_value "$shipped" cases)" == "${public[*]}"
done
check "no reference output anywhere" bash -c "! grep -rlq --binary-files=text '^labout 1 ' '$root'"

# Hidden means hidden: no hidden case's input or arguments in the tarball, in a handout, or in
# what a student's process finds in its work folder when it runs the public cases (the grader's
# template of the lab: grading/lib/workfolders.sh, with its manifest as manifest_public makes it).
REPO=$PWD
source grading/lib/workfolders.sh
absent() { ! grep -rqF -- "$1" "${@:2}"; }                 # absent TEXT FILE...: TEXT in none of them
sum_absent() { ! grep -qx -- "$1" "$2"; }                  # sum_absent SUM LIST: SUM not a line of LIST
(cd "$root" && find . -type f -exec sha256sum {} + | awk '{ print $1 }' | sort -u) >"$work/shipped.sums"
for manifest in labs/*/manifest; do
    lab=$(basename "$(dirname "$manifest")")
    declare -A LAB_FILES=([$lab]="$(manifest_get "$lab" student_files)")
    template_sources "$lab" | grep -v "^labs/$lab/manifest$" | xargs sha256sum | awk '{ print $1 }' | sort -u >"$work/template.sums"
    manifest_public "$manifest" >"$work/public.manifest"
    for c in $(manifest_get "$lab" cases); do
        [[ $(manifest_get "$lab" "case.$c.visibility") == hidden ]] || continue
        args=$(manifest_get "$lab" "case.$c.args")
        check "$lab $c: its arguments are in no file of the tarball" absent "$args" "$root"
        check "$lab $c: its arguments are in no handout" absent "$args" handouts/*.md
        check "$lab $c: its arguments are not in the work folder's manifest" absent "$args" "$work/public.manifest"
        for word in $args; do
            [[ $word == */* && -f $word ]] || continue
            check "$lab $c: its input $word lies in grading/hidden/$lab/" test "${word#grading/hidden/$lab/}" != "$word"
            sum=$(sha256sum "$word" | awk '{ print $1 }')
            check "$lab $c: no file of the tarball holds its input $word" sum_absent "$sum" "$work/shipped.sums"
            check "$lab $c: no file of the public runs' work folder holds its input $word" sum_absent "$sum" "$work/template.sums"
        done
    done
done

# --- make labN-check (issue 22): the grader's scripts and C++ sources ship, nothing else of it -------
# No planted-bug variant (a patched solution), hidden data, documentation or benchmark; the
# starters as shipped and the hidden cases' number, which the check uses.
unexpected=$(sed -n 's|^course-student/grading/||p' "$work/list.txt" | grep -vE '^$|^(grade\.sh|self-check\.sh|sandbox\.sh|unpack\.py|hidden-cases\.tsv|[a-z_]+\.(cpp|hpp)|lib/|lib/[a-z]+\.sh|starters/.*)$')
check "the tarball's grading/ holds only what make labN-check runs" test -z "$unexpected"
[[ -n $unexpected ]] && indent "$(head -10 <<<"$unexpected")"
for manifest in labs/*/manifest; do
    lab=$(basename "$(dirname "$manifest")")
    for f in $(manifest_get "$lab" student_files); do
        check "$lab: grading/starters/$lab/$f is the starter" cmp -s "labs/$lab/$f" "$root/grading/starters/$lab/$f"
    done
    check "$lab: grading/hidden-cases.tsv counts its hidden cases" \
        grep -qx "$lab"$'\t'"$(manifest_hidden_cases "$manifest" | wc -w)" "$root/grading/hidden-cases.tsv"
done
# --- end of make labN-check -------------------------------------------------------------------------

# The tarball's own test command, alone (one architecture, to stay fast; two jobs as CI has).
# This checkout's object files of what the tarball ships (common/, labs/, tests/, the grader:
# dist copies those sources unchanged) seed its build, their times kept, so make compiles only
# what differs from them and the test does not build the course twice; the tarball's Makefile
# still links every binary and runs every test. DIST_FROM_NOTHING=1 builds it from nothing.
if [[ ${DIST_FROM_NOTHING:-0} != 1 && -d ${BUILD:-build}/obj ]]; then
    mkdir -p "$root/build/obj"
    for folder in common labs tests grading; do [[ -d ${BUILD:-build}/obj/$folder ]] && cp -a "${BUILD:-build}/obj/$folder" "$root/build/obj/"; done
fi
# handout-commands.sh runs every handout command in an unpacked tarball already: not again here.
(cd "$root" && TEST_SKIP=handout-commands.sh TEST_SKIP_WHY="grading-dist.sh: the course's handout-commands.sh runs them in a tarball" \
    CUDA_ARCH="${CUDA_ARCH:-90}" make -j2 test) >"$work/test.log" 2>&1
status=$?
# The summary line of tests/run.sh (make may print its own lines after it).
summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$work/test.log" | tail -1)
check "make test passes in the unpacked tarball ($summary)" test "$status" == 0
check "... and ran tests, failing none" grep -qE '^[1-9][0-9]* passed, 0 failed, [0-9]+ skipped$' <<<"$summary"
check "... and built no solution" bash -c "! grep -q 'solutions/' '$work/test.log'"
((status == 0)) || tail -40 "$work/test.log"
finish
