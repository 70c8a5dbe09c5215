#!/usr/bin/env bash
# Every planted-bug variant of every lab still applies to the current reference solution (a
# patch that no longer applies fails here, loudly, before a GPU is needed), changes something,
# and has an expect file whose keys name the lab's real parts, cases and tools; every lab has at
# least four planted bugs. The GPU test (grading-gpu.sh) grades them.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/scripts/lib/checks.sh
source mk/manifest.sh
source tests/scripts/grading-lib/variants.sh
work=$(mktemp -d /tmp/grading-variants-test.XXXXXX)
trap 'rm -rf -- "$work"' EXIT
count=0

known_keys=" bug source full_marks no_correctness note_has must_fail may_fail perf_zero perf_loses perf_no_gain sanitizer_errors make_test "
for lab in $(variant_labs); do
    parts=" $(manifest_get "$lab" parts) " cases=" $(manifest_get "$lab" cases) " tools=" $(manifest_get "$lab" sanitize.tools) "
    for variant in $(variant_names "$lab"); do
        count=$((count + 1))
        expect=grading/variants/$lab/$variant/expect
        dest=$work/$lab/$variant
        make_variant "$lab" "$variant" "$dest" || { fail "$lab $variant: cannot be made"; continue; }
        if [[ -f grading/variants/$lab/$variant/patch ]]; then
            changed=no
            for file in $(manifest_get "$lab" student_files); do
                cmp -s "$dest/$file" "solutions/$lab/$file" || changed=yes
            done
            [[ $changed == yes ]] || fail "$lab $variant: the patch changes nothing"
        fi
        [[ -n $(manifest_value "$expect" bug) ]] || fail "$lab $variant: no 'bug' line"
        while read -r key; do
            base=${key%%.*}
            [[ $known_keys == *" $base "* || $base =~ ^(fails_on|passes_on|stopped|retired)$ ]] || fail "$lab $variant: unknown key '$key'"
            [[ $key == *.* ]] && [[ $parts != *" ${key#*.} "* ]] && fail "$lab $variant: '$key' names no part of $lab"
            value=$(manifest_value "$expect" "$key")
            case $base in
                must_fail | may_fail | perf_zero | perf_loses | perf_no_gain) for p in $value; do [[ $parts == *" $p "* ]] || fail "$lab $variant: $key names '$p', no part of $lab"; done ;;
                fails_on | passes_on | stopped | retired) for c in $value; do [[ $cases == *" $c "* ]] || fail "$lab $variant: $key names '$c', no case of $lab"; done ;;
                sanitizer_errors) for t in $value; do [[ $tools == *" $t "* ]] || fail "$lab $variant: $key names '$t', not in sanitize.tools"; done ;;
                make_test) [[ $value == yes ]] || fail "$lab $variant: make_test is 'yes' or absent, not '$value'" ;;
            esac
        done < <(manifest_keys "$expect" "")
    done
    # make test grades the quick class (grading-gpu.sh): each lab's reference solution is in it,
    # the fairness of that lab's timing checked beside a copy of it.
    [[ $(manifest_value "grading/variants/$lab/solution/expect" make_test 2>/dev/null) == yes ]] ||
        fail "$lab: its solution variant is not in make test's quick class (make_test = yes)"
done
((count > 0)) || fail "no variant found under grading/variants/"
# Every lab, a new one too, has at least four planted bugs (a patch each; the solution and the
# starter as they are do not count): README.md, "Adding a lab".
for manifest in labs/*/manifest; do
    lab=$(basename "$(dirname "$manifest")")
    planted=$(find "grading/variants/$lab" -mindepth 2 -maxdepth 2 -name patch 2>/dev/null | wc -l)
    check "$lab has at least four planted bugs ($planted)" test "$planted" -ge 4
done
# The GPU test's class (grading-gpu.sh): a misspelt one is refused, before any GPU is looked for.
refused=$(CLASS=quick-ish BUILD=${BUILD:-build} bash tests/scripts/grading-gpu.sh 2>&1)
status=$?
check "grading-gpu.sh refuses CLASS=quick-ish (status $status: $refused)" \
    bash -c '[[ $1 == 2 && $2 == "CLASS must be quick or full, not '"'quick-ish'"'" ]]' _ "$status" "$refused"
echo "$count variant(s) checked"
finish
