# The CPU test lab (tests/grading/fixtures/labcpu) in a copy of the course, so that grade.sh
# runs end to end without a GPU. Sourced by the grading tests from the repository root.

# make_labcpu_course DIR: a copy of the course's build system, common/ and grading/, with the
# test lab and its solution added (the grader finds labs by their manifests).
make_labcpu_course() {
    local repo=$1 fixtures=$PWD/tests/grading/fixtures
    mkdir -p "$repo/labs/labcpu" "$repo/solutions/labcpu"
    cp -rp Makefile mk common grading "$repo/"
    cp -p labs/MANIFEST.md "$repo/labs/"
    cp -p "$fixtures"/labcpu/* "$repo/labs/labcpu/"
    cp -p "$fixtures/labcpu-solution/work.cpp" "$repo/solutions/labcpu/"
}

# labcpu_template_cache: where the test lab's trusted objects are kept, compiled once for all
# the grading tests: $BUILD/grading-templates, unless GRADE_TEMPLATE_CACHE names another.
labcpu_template_cache() { echo "${GRADE_TEMPLATE_CACHE-$(cd "$BUILD" && pwd)/grading-templates}"; }

# grade_labcpu REPO SUBMISSIONS OUT [grade.sh options...]: grade.sh of REPO on the test lab,
# taking the machine to have one GPU (GRADE_ASSUME_GPU, unless the caller sets another count),
# with the lab's 1 s time limit, in the best sandbox this machine has (options given later,
# --sandbox among them, win), with the shared trusted objects (labcpu_template_cache).
grade_labcpu() {
    local repo=$1 subs=$2 out=$3
    shift 3
    GRADE_TEMPLATE_CACHE=$(labcpu_template_cache) GRADE_ASSUME_GPU=${GRADE_ASSUME_GPU:-1} GRADE_OUTPUT_LIMIT=${GRADE_OUTPUT_LIMIT:-$((8 << 20))} GRADE_WALL_MARGIN=${GRADE_WALL_MARGIN:-3} \
        BUILD=$BUILD CUDA_ARCH=${CUDA_ARCH:-90} "$repo/grading/grade.sh" --labs labcpu --out "$out" --time-limit 1 \
        --sandbox "$(best_sandbox)" "$@" "$subs"
}

# labcpu_points OUT STUDENT: the student's points on the test lab.
labcpu_points() {
    awk -F'\t' '/record=lab/ { for (i = 1; i <= NF; i++) if (index($i, "points=") == 1) print substr($i, 8) }' \
        "$1/students/$2/labcpu/score.tsv" 2>/dev/null
}

# The three below read the grading in $out, the caller's output folder.
# points_of STUDENT POINTS: the student scored POINTS on the test lab.
points_of() { [[ $(labcpu_points "$out" "$1") == "$2" ]]; }
# item_messages STUDENT KIND [PART CASE]: the messages of the student's items of that kind
# (correctness, performance, ...), of the part on the case when they are given, one a line.
item_messages() {
    awk -F'\t' -v k="$2" -v p="${3-}" -v c="${4-}" '/record=item/ {
        delete f; for (i = 1; i <= NF; i++) { e = index($i, "="); f[substr($i, 1, e - 1)] = substr($i, e + 1) }
        if (f["kind"] == k && (p == "" || f["part"] == p) && (c == "" || f["case"] == c)) print f["message"] }' \
        "$out/students/$1/labcpu/score.tsv"
}
# item_message STUDENT PART CASE: the message of the part's correctness item on the case.
item_message() { item_messages "$1" correctness "$2" "$3"; }
# says STUDENT PART TEXT [CASE]: that message, on case small unless CASE is given, holds TEXT.
says() { grep -qF -- "$3" <<<"$(item_message "$1" "$2" "${4:-small}")"; }

# labcpu_test_setup NAME: how the tests that grade the test lab with the stand-in sanitizer
# start (grading-pipeline, -rounds, -selfcheck). BUILD made absolute; $work, a folder in /tmp,
# and $stand_ins, a folder in /var/tmp holding the stand-in compute-sanitizer (below), first on
# PATH for every grading, both removed at exit unless KEEP=1; $fixtures; and $repo, a course
# holding the test lab.
labcpu_test_setup() {
    BUILD=${BUILD:-build}
    [[ $BUILD == /* ]] || BUILD=$PWD/$BUILD
    work=$(mktemp -d "/tmp/$1-test.XXXXXX") && stand_ins=$(mktemp -d "/var/tmp/$1-bin.XXXXXX") || exit 1
    trap '[[ ${KEEP:-0} == 1 ]] || rm -rf -- "$work" "$stand_ins"' EXIT
    sanitizer_stand_in "$stand_ins"
    export PATH=$stand_ins:$PATH
    fixtures=$PWD/tests/grading/fixtures
    repo=$work/course
    make_labcpu_course "$repo"
}

# sanitizer_stand_in DIR: a stand-in compute-sanitizer in DIR, to put first on PATH: the real
# one ends with status 255 on a program that makes no CUDA call, as the test lab's CPU parts,
# and machines without a GPU may lack it. It runs the program and says which parts it was given
# (its log). The sandbox uid runs it: DIR must be readable to all, and not in /tmp, which
# bubblewrap replaces (mktemp -d /var/tmp/...).
sanitizer_stand_in() {
    cat >"$1/compute-sanitizer" <<'EOF_STAND_IN'
#!/usr/bin/env bash
# Stand-in: compute-sanitizer [--OPTION VALUE]... PROGRAM ARGS...
while [[ ${1-} == --* ]]; do shift 2; done
echo "program: $*"
[[ -f cases.txt ]] && sed 's/^/case line: /' cases.txt
"$@"
status=$?
echo "========= ERROR SUMMARY: 0 errors"
exit "$status"
EOF_STAND_IN
    chmod 755 "$1" "$1/compute-sanitizer"
}
