#!/usr/bin/env bash
# test: long (it grades classes or runs the handouts: started first)
# Every command the handouts and the README show works where they ship: in the course (a copy
# of this working tree) and in the student tarball (make dist, unpacked), both on this build's
# binaries (tests/scripts/lib/run_handout_commands.py runs them; handouts.py reads them):
#   - a lab driver (make labN, -bench, -profile, -memcheck, -racecheck, -synccheck, -sweep)
#     checks its options before it looks for a GPU. The GPU is hidden (CUDA_VISIBLE_DEVICES=),
#     so exit 3 with "no CUDA device" means the options were accepted: reported as "gpu" (what
#     it prints is for a GPU to say), never as passed; exit 2 (refused) fails. Nsight Compute
#     and compute-sanitizer are replaced by stand-ins that run the program as the tool would,
#     so the arguments of their targets are checked here too.
#   - the figures and the report (labN-plots, labN-report) run for real, in the copy.
#   - make test, deps, clean, dist and the build targets are not run (they run this test,
#     install packages, delete the build, are dist-contents.sh's, or only compile): that make
#     knows the goal is checked.
# HANDOUT_COMMANDS_GPU=yes leaves the GPU visible: the drivers then run their cases (minutes:
# the sweeps), and a command passes only where it passed on the GPU.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
command -v python3 >/dev/null || { echo "python3 is not installed (make deps)"; exit 77; }
BUILD=${BUILD:-build}
build=$(cd "$BUILD" 2>/dev/null && pwd) || { echo "no build folder $BUILD: run make test-build first"; exit 77; }
for lab in labs/lab*/; do
    lab=$(basename "$lab")
    [[ -x $build/bin/$lab-student ]] || { echo "$build/bin/$lab-student is missing: run make test-build first"; exit 77; }
done
work=$(mktemp -d /tmp/handout-commands-test.XXXXXX)
trap 'rm -rf -- "$work"' EXIT

# Stand-ins for ncu and compute-sanitizer: run the program (the first argument that is an
# executable file) with the arguments after it, as the tool would.
mkdir -p "$work/tools"
for tool in ncu compute-sanitizer; do
    cat >"$work/tools/$tool" <<'TOOL'
#!/usr/bin/env bash
while (($#)) && ! [[ -f $1 && -x $1 ]]; do shift; done
(($#)) || { echo "stand-in: no program to run" >&2; exit 2; }
exec "$@"
TOOL
    chmod +x "$work/tools/$tool"
done

# The copies: this tree's files with their dates (so this build's objects are up to date in
# them too), and the tarball.
copies=(course)
mkdir -p "$work/course"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files -z --cached --others --exclude-standard
else
    find . -path ./build -prune -o -path ./results -prune -o -type f -printf '%P\0'
fi | while IFS= read -r -d '' f; do [[ -f $f ]] && printf '%s\0' "$f"; done |
    tar -cf - --null -T - | tar -xf - -C "$work/course"
if [[ -f mk/dist.sh ]]; then
    make -s dist DIST="$work/course-student.tar.gz" >/dev/null 2>&1 || { echo "make dist failed"; exit 1; }
    tar -xzf "$work/course-student.tar.gz" -C "$work" && mv "$work/course-student" "$work/student" && copies+=(student)
else
    echo "a student's copy (no make dist here): the commands run in a copy of it only"
fi

status=0
for copy in "${copies[@]}"; do
    echo "== the commands, in a copy of $([[ $copy == course ]] && echo "this tree" || echo "the student tarball")"
    if [[ ${HANDOUT_COMMANDS_GPU:-no} == yes ]]; then
        python3 tests/scripts/lib/run_handout_commands.py "$work/$copy" "$build" "$work/tools" "$work/cache.json" || status=1
    else
        CUDA_VISIBLE_DEVICES= python3 tests/scripts/lib/run_handout_commands.py "$work/$copy" "$build" "$work/tools" \
            "$work/cache.json" || status=1
    fi
done
exit $status
