#!/usr/bin/env bash
# The construct rules (a part's forbidden_ptx, labs/MANIFEST.md) on the PTX the compiler makes,
# without a GPU: the reference solution of every lab that has rules matches none of them, and
# each planted construct variant below matches the rule of exactly the parts it names. The PTX is
# made as a student's build makes it (make grading-ptx-LAB, mk/grader.mk: every architecture of
# CUDA_ARCH) in a copy of the build system, and matched by the grader itself (grader
# check-build's forbidden scan), so the test reads the rules as the grading does.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/scripts/lib/checks.sh
source mk/manifest.sh
source tests/scripts/grading-lib/variants.sh
BUILD=${BUILD:-build}
GRADER=$BUILD/bin/grader
[[ -x $GRADER ]] || { echo "SKIP: $GRADER is not built (make grader)"; exit 77; }
command -v nvcc >/dev/null || [[ -x /usr/local/cuda/bin/nvcc ]] || { echo "SKIP: no nvcc"; exit 77; }
# One architecture is enough to read the rules (CI builds for one too); the sm_80 construct
# below (redux.sync) needs 80 or later.
arch=${CUDA_ARCH:-90}
arch=${arch##* }
work=$(mktemp -d /tmp/grading-construct-rules.XXXXXX)
trap 'rm -rf -- "$work"' EXIT

# The planted constructs: LAB VARIANT PARTS (the parts whose rule its PTX must match; every other
# part's rule must match nothing).
constructs=(
    "lab3 atomic-ref-max diameter"
    "lab3 diameter-redux diameter"
    "lab3 diameter-atomic-cas diameter"
    "lab5 volatile-warp unroll_warps8 complete_unroll_warps8 complete_unroll"
    "lab5 volatile-spelled-otherwise unroll_warps8 complete_unroll_warps8 complete_unroll"
    "lab5 warp-steps-relaxed-atomics unroll_warps8 complete_unroll_warps8 complete_unroll"
)

# The build system a student's work folder has (the grader's template): make grading-ptx-LAB
# there compiles labs/LAB's student files.
tree=$work/tree
mkdir -p "$tree"
cp -r Makefile mk common labs "$tree/"

# matched_parts LAB FOLDER: the parts whose construct rule matches the student files in FOLDER,
# sorted, blank-separated ("" for none).
matched_parts() {
    local lab=$1 folder=$2 file out=$work/forbidden.tsv
    for file in $(manifest_get "$lab" student_files); do cp -- "$folder/$file" "$tree/labs/$lab/$file"; done
    rm -rf -- "$tree/build"
    make -s -C "$tree" --no-print-directory BUILD=build CUDA_ARCH="$arch" "grading-ptx-$lab" "grading-preprocess-$lab" \
        >"$work/make.log" 2>&1 || { echo "BUILD-FAILED"; return; }
    : >"$work/starter-headers"
    "$GRADER" check-build --manifests labs --lab "$lab" --sources "$tree/labs/$lab" --compiled "$tree/build" \
        --starter-headers "$work/starter-headers" --out "$out" >/dev/null
    # The construct matches alone: their `where` says "compiled code".
    grep -a 'compiled code' "$out" | grep -oE 'part=[^	]*' | sed 's/^part=//' | sort -u | tr '\n' ' ' | sed 's/ $//'
}

for lab in $(variant_labs); do
    "$GRADER" plan --manifests labs --lab "$lab" | grep -qx "ptx	yes" || continue
    solution=$(matched_parts "$lab" "solutions/$lab")
    check "$lab: the reference solution's PTX matches no construct rule (matched: '${solution}')" test -z "$solution"
done
for entry in "${constructs[@]}"; do
    read -r lab variant parts <<<"$entry"
    dest=$work/variants/$lab/$variant
    make_variant "$lab" "$variant" "$dest" || { fail "$lab $variant: cannot be made"; continue; }
    expected=$(tr ' ' '\n' <<<"$parts" | sort -u | tr '\n' ' ' | sed 's/ $//')
    got=$(matched_parts "$lab" "$dest")
    check "$lab $variant: its PTX matches the rule of exactly $expected (matched: '$got')" test "$got" == "$expected"
done
# The PTX of every architecture built, not of the first: diameter-redux's warp reduction exists
# for sm_80 and later only (its sm_75 code is the tree), so an sm_75 build's PTX alone shows
# nothing, and a build for "75 90" must show it all the same.
dest=$work/variants/lab3/diameter-redux
if [[ -d $dest ]]; then
    arch=75 got=$(matched_parts lab3 "$dest")
    check "lab3 diameter-redux built for sm_75 alone: its PTX matches nothing (matched: '$got')" test -z "$got"
    arch="75 90" got=$(matched_parts lab3 "$dest")
    check "lab3 diameter-redux built for sm_75 and sm_90: the diameter's rule matches (matched: '$got')" test "$got" == diameter
fi
finish
