#!/usr/bin/env bash
# Every lab's starter and solution against the launch limits of every architecture the README
# promises (mk/cuda.mk, PORTABLE_ARCHS: sm_75 to sm_120), without a GPU: make compiles each
# student file (labs/LAB/) and solution file (solutions/LAB/) to PTX and through ptxas for each
# architecture of $ARCHS (mk/arch.mk), and build/bin/arch-check reads each kernel's registers,
# shared memory, stack and spills and checks it with the launcher's own check against each
# architecture's limits (common/arch_check_main.cpp says what a launch is taken to ask for). A
# kernel that would not launch on one of them fails, named with its numbers; a spill is a warning.
# Then the check itself: on the planted kernels of tests/arch/planted/ it must fail, each for its
# reason with its numbers, and pass the two that fit.
#
# Which architectures, and why only two in CI: each one more costs one more cicc run per file,
# by far the largest cost (ptxas is an eighth of it). Measured here, on 2 cores shared with other
# builds (load about 12), from nothing built: sm_75 and sm_120 took 95 s of CPU (5.5 minutes of
# wall time at that load), the five others 260 s more. The whole of `make test` took 2476 s of
# CPU beside it, so the two add about 4% to CI's CPU time, some 20 to 30 s of its 9.5 minutes;
# all seven would add about 15%. The two ends of the list carry what can break:
#   - sm_75 (Turing: T4, Colab) has the smallest limits of the seven: 64 KB of shared memory a
#     block with the opt-in (99 KB to 227 KB on the others), 1024 threads an SM; registers (64 K a
#     block, 255 a thread) and threads per block (1024) are the same on all seven. It is also
#     where the compiler spends the most registers on today's kernels near a limit;
#   - sm_120 (Blackwell: RTX 50) is the newest: its compiler front end and the code paths for
#     __CUDA_ARCH__ >= 900 (lab 3's DPX) are the newest rules.
# Between them only a kernel's registers change, and they are estimated from the two (the worst
# of them; the output says so). With all seven compiled, no kernel of the labs used more than 4
# registers more on a middle architecture than on the worse end. ARCHS="75 80 86 89 90 100 120"
# checks all seven exactly.
#
# Exit 0: passed; anything else: failed.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/scripts/lib/checks.sh
source mk/manifest.sh
BUILD=${BUILD:-build}
ARCHS=${ARCHS:-75 120}
check=$BUILD/bin/arch-check
[[ -x $check ]] || { echo "FAIL  $check is not built (make test builds it)"; exit 1; }
[[ " $ARCHS " == *" 75 "* ]] || { echo "FAIL  ARCHS='$ARCHS' leaves out 75, the architecture of the smallest limits"; exit 1; }
started=$SECONDS

# The files of each lab: the starter's, and the solution's where solutions/ has it.
declare -A lab_sources
for manifest in labs/*/manifest; do
    lab=$(basename "$(dirname "$manifest")")
    for file in $(manifest_get "$lab" student_files); do
        lab_sources[$lab]+=" labs/$lab/$file"
        [[ -d solutions/$lab ]] && lab_sources[$lab]+=" solutions/$lab/$file"
    done
done
planted=tests/arch/planted/kernels.cu

# One make for everything, on every core (CI has two); -k so that one file that does not compile
# leaves the others checked. MAKEFLAGS is cleared: under `make test`, the parent's jobserver is
# not ours.
targets=()
for source in ${lab_sources[@]} $planted; do
    for arch in $ARCHS; do targets+=("$BUILD/arch/sm_$arch/$source.ptxas"); done
done
log=$(mktemp) || exit 1
trap 'rm -f -- "$log"' EXIT
MAKEFLAGS= make -s -k -j"$(nproc)" BUILD="$BUILD" "${targets[@]}" >"$log" 2>&1
status=$?
if ((status != 0)); then
    fail "make could not compile every file for sm_${ARCHS// /, sm_}; the compiler said:"
    tail -40 "$log" | sed 's/^/      /'
fi
compiled_in=$((SECONDS - started))

for lab in $(printf '%s\n' "${!lab_sources[@]}" | sort); do
    echo "== $lab"
    output=$("$check" --build "$BUILD" --archs "$ARCHS" --manifest "labs/$lab/manifest" --sources "${lab_sources[$lab]# }" 2>&1)
    status=$?
    echo "$output"  # its FAIL lines are the findings: run.sh shows them when this script fails
    case $status in
        0) ;;
        1) fail "$lab: a kernel would not launch on every architecture (the lines above)" ;;
        *) fail "$lab: the check could not run (exit $status: a file that did not compile?)" ;;
    esac
done

# The check itself, on the planted kernels: it must fail, each kernel for its reason.
echo "== tests/arch/planted (each FAIL below is expected)"
output=$("$check" --build "$BUILD" --archs "$ARCHS" --manifest tests/arch/planted/manifest --sources "$planted" 2>&1)
status=$?
indent "$output"
check "the planted kernels fail the check (exit 1, got $status)" test "$status" == 1
failures_of() { grep "^FAIL .*: $1 " <<<"$output"; }
check "72 KB of dynamic shared memory a block: refused on sm_75, which allows 64 KB" \
    contains "$(failures_of 'conv_shared_kernel<8>')" "on sm_75 (Turing: T4, RTX 20): the block needs 73728 bytes of shared memory (0 static + 73728 dynamic), more than this GPU's 65536 bytes per block (sharedMemPerBlockOptin)"
check "... and on sm_75 alone (sm_86 to sm_120 allow 99 KB or more)" \
    test "$(failures_of 'conv_shared_kernel<8>' | grep -c 'sm_[189]')" == 0
check "40 KB static + 32 KB dynamic: refused on sm_75, named with both parts" \
    contains "$(failures_of static_plus_dynamic_kernel)" "on sm_75 (Turing: T4, RTX 20): the block needs 73728 bytes of shared memory (40960 static + 32768 dynamic)"
check "more than 64 registers a thread and no __launch_bounds__: 1024 threads are refused" \
    contains "$(failures_of many_registers_kernel)" "a block may use at most 65536 (regsPerBlock)"
on_75_and_120() { grep -q 'sm_75 (' <<<"$1" && grep -qE 'sm_120\*? \(' <<<"$1"; }
check "... on sm_75 and on sm_120" on_75_and_120 "$(failures_of many_registers_kernel)"
check "dynamic shared memory the manifest does not list: the check cannot be blind to it" \
    contains "$(failures_of unlisted_dynamic_kernel)" "uses dynamic shared memory (extern __shared__), but tests/arch/planted/manifest's launch.dynamic_shared does not say how much"
check "a manifest entry that names no kernel is stale" \
    contains "$output" "FAIL  tests/arch/planted/manifest: launch.dynamic_shared lists missing_kernel, but no kernel"
check "exactly 64 KB of shared memory fits sm_75: not refused" \
    test -z "$(failures_of exactly_64k_kernel)"
check "the same registers under __launch_bounds__(256) fit: not refused" \
    test -z "$(failures_of bounded_registers_kernel)"
check "five failures in all" contains "$output" ": 5 failures,"

echo "compiled for sm_${ARCHS// /, sm_} in ${compiled_in} s; checked in $((SECONDS - started)) s in all"
finish
