# The sandbox a grading test asks grade.sh for: bubblewrap where it works here, else rlimits,
# named explicitly (grade.sh refuses to fall back to rlimits by itself).
# GRADE_TEST_ISOLATIONS=rlimits takes rlimits even where bubblewrap works: what the grading
# tests see on a machine that cannot run it (a container without user namespaces, say).
# Sourced from the repository root.
best_sandbox() {
    local probe
    [[ ${GRADE_TEST_ISOLATIONS-} == rlimits ]] && { echo rlimits; return; }
    probe=$(mktemp -d) || return 1
    if command -v bwrap >/dev/null && grading/sandbox.sh --isolation bwrap --box "$probe" --status "$probe.tsv" -- /bin/true 2>/dev/null &&
        grep -q $'outcome=exited\texit=0\t' "$probe.tsv"; then
        echo bwrap
    else
        echo rlimits
    fi
    rm -rf -- "$probe" "$probe.tsv"
}
