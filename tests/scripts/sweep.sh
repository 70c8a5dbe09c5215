#!/usr/bin/env bash
# The generic sweep runner, mk/sweep.sh, driven by a fake lab driver (a bash script written
# here that answers --csv --csv-header like a lab binary), so it runs without a GPU:
# lab1's manifest expands to the expected 24 runs; the file has its "# ..." head, the CSV
# header once, the rows and a "# done:" line per run; a failing run leaves a FAILED line and
# the others go on (exit 1); no GPU at the first run removes the file (exit 3), later keeps it
# (exit 3); an existing file is refused and left as it was; --resume finishes an interrupted
# sweep without repeating a run or the header; bad usage exits 2; a lab copy with other sweep
# keys checks the order of the combinations and the refusals about sweep keys.
#
# Exit 0: passed; 77: skipped (the last line says why); anything else: failed.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/scripts/lib/checks.sh

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
count() { grep -c -- "$1" "$2"; }  # count REGEX FILE: matching lines

header=m,n,k,part,tile,depth,block,threads,launches,check,median_ms,q1_ms,q3_ms,gflops,pct_cublas

# --- the fake driver -------------------------------------------------------------------------
# It logs its arguments to $FAKE_LOG, prints the header and one row per part (cuBLAS first),
# deterministic; exits 3 ("no GPU") when its arguments contain $FAKE_NOGPU, and prints its rows
# then exits $FAKE_STATUS (default 1) when they contain $FAKE_FAIL.
mkdir -p "$tmp/bin"
cat >"$tmp/bin/fake-lab1" <<'EOF'
#!/usr/bin/env bash
all="$*"
[[ -n ${FAKE_LOG:-} ]] && printf '%s\n' "$all" >>"$FAKE_LOG"
if [[ -n ${FAKE_NOGPU:-} && $all == *"$FAKE_NOGPU"* ]]; then
    echo "error: no CUDA device (fake driver)" >&2
    exit 3
fi
m=1000 n=1000 k=1000 tile=32 depth=8 parts=naive,tiled,dynamic,coarse2,regblock csv=no header=no
while (($# > 0)); do
    case $1 in
        --m) m=$2; shift ;;
        --n) n=$2; shift ;;
        --k) k=$2; shift ;;
        --tile) tile=$2; shift ;;
        --depth) depth=$2; shift ;;
        --part) parts=$2; shift ;;
        --reps | --warmup) shift ;;
        --csv) csv=yes ;;
        --csv-header) header=yes ;;
        *) echo "error: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
[[ $csv == yes && $header == yes ]] || { echo "error: the fake driver wants --csv --csv-header" >&2; exit 2; }
echo "m,n,k,part,tile,depth,block,threads,launches,check,median_ms,q1_ms,q3_ms,gflops,pct_cublas"
row() {  # row PART TILE DEPTH
    local block=- threads=-
    [[ $2 != - ]] && block=$2x$2 threads=$(($2 * $2))
    echo "$m,$n,$k,$1,$2,$3,$block,$threads,1,PASS,$((m / 256)).2500,$((m / 256)).2000,$((m / 256)).3000,$((tile * 10)).0,50.0"
}
row cublas - -
IFS=, read -r -a list <<<"$parts"
for p in "${list[@]}"; do
    case $p in
        naive | tiled) row "$p" "$tile" - ;;
        dynamic) row "$p" "$tile" "$depth" ;;
        *) row "$p" - - ;;
    esac
done
if [[ -n ${FAKE_FAIL:-} && $all == *"$FAKE_FAIL"* ]]; then
    echo "error: tiled: C[3][4] is 7 but should be 2 (fake driver)" >&2
    exit "${FAKE_STATUS:-1}"
fi
exit 0
EOF
chmod +x "$tmp/bin/fake-lab1"
# A fake nvidia-smi first on PATH: the head of the file names its GPU, here or on a GPU machine.
cat >"$tmp/bin/nvidia-smi" <<'EOF'
#!/usr/bin/env bash
case "$*" in
    *compute_cap*) echo "9.0" ;;
    *) echo "Fake GPU 9000, 999.99, 1500 MHz, 1980 MHz, 2600 MHz, 3201 MHz" ;;
esac
EOF
chmod +x "$tmp/bin/nvidia-smi"
# And a fake gpu-limits beside the driver, as make builds it: the peaks and the host's CPU.
cat >"$tmp/bin/gpu-limits" <<'EOF'
#!/usr/bin/env bash
echo '  Peak FP32 rate                           1000 GFLOP/s (fake)'
echo '  Peak memory bandwidth                    2000 GB/s (fake)'
echo '  Host CPU                                 Fake CPU 42 (2 logical CPUs)'
EOF
chmod +x "$tmp/bin/gpu-limits"
export PATH="$tmp/bin:$PATH"
fake=$tmp/bin/fake-lab1

# sweep OUTFILE [ARGS...]: runs mk/sweep.sh lab1 on the fake driver; its output in $out, status in $status.
sweep() {
    local outfile=$1
    shift
    out=$(mk/sweep.sh lab1 "$fake" "$outfile" "$@" 2>&1)
    status=$?
}

# --- the expected runs of lab1's manifest ---------------------------------------------------
# Written out here, not derived from the manifest: if the manifest's sweep changes, this
# list must change with it (and the handout's figures with both).
expected=$tmp/expected-runs
common="--reps 20 --warmup 3"
{
    for n in 256 512 1024 2048 4096; do
        for t in 8 16 32; do echo "--m $n --n $n --k $n --tile $t --part naive,tiled,dynamic $common"; done
    done
    for n in 256 512 1024 2048 4096; do echo "--m $n --n $n --k $n --part coarse2,regblock $common"; done
    for d in 1 2 4 8; do echo "--m 4096 --n 4096 --k 4096 --tile 32 --depth $d --part tiled,dynamic $common"; done
} >"$expected"

# --- a whole sweep -----------------------------------------------------------------------------
full=$tmp/full.csv
FAKE_LOG=$tmp/full.log sweep "$full"
check "a whole sweep on the fake driver exits 0 (exit $status)" test "$status" -eq 0
[[ $status -eq 0 ]] || indent "$out"
check "lab1's manifest expands to 24 runs (got $(wc -l <"$tmp/full.log"))" test "$(wc -l <"$tmp/full.log")" -eq 24
check "... each BINARY <args> --csv --csv-header, in the expected order" \
    diff <(sed 's/ --csv --csv-header$//' "$tmp/full.log") "$expected"
check "... the first is naive,tiled,dynamic at 256 with tile 8" \
    test "$(head -1 "$tmp/full.log")" = "--m 256 --n 256 --k 256 --tile 8 --part naive,tiled,dynamic --reps 20 --warmup 3 --csv --csv-header"
check "... the 16th is the first coarse2,regblock run" \
    test "$(sed -n 16p "$tmp/full.log")" = "--m 256 --n 256 --k 256 --part coarse2,regblock --reps 20 --warmup 3 --csv --csv-header"
check "... the last is depth 8 at 4096" \
    test "$(tail -1 "$tmp/full.log")" = "--m 4096 --n 4096 --k 4096 --tile 32 --depth 8 --part tiled,dynamic --reps 20 --warmup 3 --csv --csv-header"
check "progress [i/N] ... ok on stderr" contains "$out" "[24/24] --m 4096 --n 4096 --k 4096 --tile 32 --depth 8 --part tiled,dynamic --reps 20 --warmup 3 ... ok"
check "the file starts with its '# lab1 sweep' line" test "$(head -1 "$full")" = "# lab1 sweep, written by mk/sweep.sh"
for line in "# lab: lab1 (" "# gpu: Fake GPU 9000" "# compute capability: 9.0" "# driver version: 999.99" \
    "# clocks (nvidia-smi, when the sweep started): sm 1500 MHz (max 1980 MHz), memory 2600 MHz (max 3201 MHz)" \
    "# fp32 peak: 1000 GFLOP/s (fake)" "# memory peak: 2000 GB/s (fake)" "# cpu: Fake CPU 42 (2 logical CPUs)" "# date: " "# host: " "# command: " "#   sweep.run.tiles = --m \$n --n \$n --k \$n --tile \$tile" "#   sweep.vary.depth = 1 2 4 8"; do
    check "the head has '$line'" grep -qF -- "$line" "$full"
done
check "the head comes before the CSV header" test "$(grep -v -m1 '^#' "$full")" = "$header"
check "the CSV header appears once" test "$(count "^$header\$" "$full")" -eq 1
rows=$(grep -v '^#' "$full" | grep -vc "^$header\$")
check "one row per part and cuBLAS per run: 15 x 4 + 5 x 3 + 4 x 3 = 87 (got $rows)" test "$rows" -eq 87
check "a '# done:' line per run, with its arguments" diff <(sed -n 's/^# done: //p' "$full") "$expected"
check "each run's rows come right before its '# done:' line" \
    test "$(grep -B1 -m1 '^# done: ' "$full" | head -1)" = "256,256,256,dynamic,8,8,8x8,64,1,PASS,1.2500,1.2000,1.3000,80.0,50.0"
check "no FAILED line" test "$(count '^# FAILED' "$full")" -eq 0

# --- an existing file is refused --------------------------------------------------------------
before=$(cksum <"$full")
sweep "$full"
check "an existing OUTFILE: exit 2 (got $status)" test "$status" -eq 2
check "... saying it already exists" contains "$out" "already exists"
check "... and the file is unchanged" test "$(cksum <"$full")" = "$before"

# --- a failing run ------------------------------------------------------------------------
failing="--m 512 --n 512 --k 512 --tile 16 --part naive,tiled,dynamic --reps 20 --warmup 3"
FAKE_FAIL="--m 512 --n 512 --k 512 --tile 16 " FAKE_LOG=$tmp/fail.log sweep "$tmp/fail.csv"
check "a run that fails its check: the sweep exits 1 (got $status)" test "$status" -eq 1
check "... every run still ran (24)" test "$(wc -l <"$tmp/fail.log")" -eq 24
check "... it leaves '# FAILED (exit 1, reason): <args> -- <first stderr line>'" \
    grep -qxF -- "# FAILED (exit 1, a part's output failed the check): $failing -- error: tiled: C[3][4] is 7 but should be 2 (fake driver)" "$tmp/fail.csv"
check "... and no '# done:' line" test "$(count "^# done: $failing\$" "$tmp/fail.csv")" -eq 0
check "... the 23 other runs are done" test "$(count '^# done: ' "$tmp/fail.csv")" -eq 23
check "... the last run among them" grep -qxF -- "# done: $(tail -1 "$expected")" "$tmp/fail.csv"
FAKE_FAIL="--depth 2 " FAKE_STATUS=4 sweep "$tmp/crash.csv"
check "a run that crashes (exit 4): FAILED with the reason, exit 1" \
    grep -qF -- "# FAILED (exit 4, a kernel crashed; the parts after it did not run): --m 4096" "$tmp/crash.csv"

# --- no GPU --------------------------------------------------------------------------------------
FAKE_NOGPU="--reps" sweep "$tmp/nogpu.csv"
check "no GPU at the first run: exit 3 (got $status)" test "$status" -eq 3
check "... and the file is removed" test ! -e "$tmp/nogpu.csv"
check "... saying so" contains "$out" "no usable GPU"
FAKE_NOGPU="--tile 32 --part naive" sweep "$tmp/lost.csv"
check "no GPU at a later run (the third): exit 3 (got $status)" test "$status" -eq 3
check "... the file is kept, with the two runs before it done" test "$(count '^# done: ' "$tmp/lost.csv" 2>/dev/null)" = 2
check "... and a FAILED line for the third" grep -qF -- "# FAILED (exit 3, no usable GPU): --m 256 --n 256 --k 256 --tile 32" "$tmp/lost.csv"

# --- resume an interrupted sweep -----------------------------------------------------------------
# Interrupted after the 5th run: the file up to its 5th "# done:" line.
cut_after=$(grep -n '^# done: ' "$full" | sed -n 5p | cut -d: -f1)
head -n "$cut_after" "$full" >"$tmp/resume.csv"
FAKE_LOG=$tmp/resume.log sweep "$tmp/resume.csv" --resume
check "--resume after 5 runs: exit 0 (got $status)" test "$status" -eq 0
[[ $status -eq 0 ]] || indent "$out"
check "... runs only the 19 missing runs" diff <(sed 's/ --csv --csv-header$//' "$tmp/resume.log") <(tail -n +6 "$expected")
check "... says it skipped the others" contains "$out" "[5/24] $(sed -n 5p "$expected") ... done before, skipped"
check "... adds a '# resumed:' line" test "$(count '^# resumed: ' "$tmp/resume.csv")" -eq 1
check "... does not repeat the CSV header" test "$(count "^$header\$" "$tmp/resume.csv")" -eq 1
check "... nor the head" test "$(count '^# gpu: ' "$tmp/resume.csv")" -eq 1
check "... and ends with the same rows and '# done:' lines as the whole sweep" \
    diff <(grep -e '^# done: ' -e '^[^#]' "$full") <(grep -e '^# done: ' -e '^[^#]' "$tmp/resume.csv")
# Interrupted during the first run: only the head, no CSV header yet.
grep '^#' "$full" | grep -v '^# done: ' >"$tmp/resume0.csv"
FAKE_LOG=$tmp/resume0.log sweep "$tmp/resume0.csv" --resume
check "--resume of a file with no run done: exit 0, all 24 runs" test "$status" -eq 0 -a "$(wc -l <"$tmp/resume0.log")" -eq 24
check "... and the CSV header written once" test "$(count "^$header\$" "$tmp/resume0.csv")" -eq 1
FAKE_LOG=$tmp/resume2.log sweep "$tmp/resume.csv" --resume
check "--resume of a finished sweep runs nothing and exits 0" test "$status" -eq 0 -a ! -e "$tmp/resume2.log"
sweep "$tmp/never-written.csv" --resume
check "--resume of a file that does not exist: exit 2" test "$status" -eq 2

# --- bad usage ---------------------------------------------------------------------------------
usage_case() {  # usage_case DESCRIPTION EXPECTED-TEXT COMMAND...: exit 2 with that text, no file
    local what=$1 text=$2
    shift 2
    out=$("$@" 2>&1)
    status=$?
    check "$what: exit 2 (got $status)" test "$status" -eq 2
    check "... saying '$text'" contains "$out" "$text"
}
usage_case "no arguments" "usage: " mk/sweep.sh
usage_case "two arguments" "usage: " mk/sweep.sh lab1 "$fake"
usage_case "an unknown option" "unknown option --fast" mk/sweep.sh lab1 "$fake" "$tmp/u.csv" --fast
usage_case "a lab that does not exist" "no lab 'nolab'" mk/sweep.sh nolab "$fake" "$tmp/u.csv"
usage_case "a binary that does not exist" "is not an executable file" mk/sweep.sh lab1 "$tmp/no-binary" "$tmp/u.csv"
usage_case "a folder that does not exist" "does not exist" mk/sweep.sh lab1 "$fake" "$tmp/no-dir/u.csv"
check "no bad usage wrote a file" test ! -e "$tmp/u.csv"

# --- a copy of the repository with a lab of other sweep keys --------------------------------
# mk/sweep.sh reads the lab from the repository that holds it, wherever it is called from.
copy=$tmp/repo
mkdir -p "$copy/mk" "$copy/labs/toy" "$copy/labs/nosweep" "$copy/labs/novalues"
cp mk/sweep.sh mk/manifest.sh "$copy/mk/"
cat >"$copy/labs/toy/manifest" <<'EOF'
title = A toy lab
# $a and $ab: a name that starts another must not be replaced inside it.
sweep.vary.a   = 1 2
sweep.vary.ab  = x y
sweep.runs     = pair plain
sweep.run.pair = --m $ab --n $a --k 7 --part p$a,q$ab
sweep.run.plain = --m 3   --n 3 --k 3
EOF
printf 'title = no sweep\n' >"$copy/labs/nosweep/manifest"
printf 'sweep.runs = one\nsweep.run.one = --m $size\n' >"$copy/labs/novalues/manifest"
cat >"$tmp/bin/fake-toy" <<'EOF'
#!/usr/bin/env bash
[[ -n ${FAKE_LOG:-} ]] && printf '%s\n' "$*" >>"$FAKE_LOG"
echo "m,part,check,median_ms"
echo "1,p,PASS,1.0"
EOF
chmod +x "$tmp/bin/fake-toy"
out=$(cd "$tmp" && FAKE_LOG=$tmp/toy.log "$copy/mk/sweep.sh" toy bin/fake-toy toy.csv 2>&1)
status=$?
check "a copy of the repository, called from elsewhere with relative paths: exit 0 (got $status)" test "$status" -eq 0
[[ $status -eq 0 ]] || indent "$out"
# $ab is named first, so it varies slowest.
check "... the combinations in order, the first variable named slowest; blanks normalised; no sweep.args" \
    diff "$tmp/toy.log" - <<'EOF'
--m x --n 1 --k 7 --part p1,qx --csv --csv-header
--m x --n 2 --k 7 --part p2,qx --csv --csv-header
--m y --n 1 --k 7 --part p1,qy --csv --csv-header
--m y --n 2 --k 7 --part p2,qy --csv --csv-header
--m 3 --n 3 --k 3 --csv --csv-header
EOF
check "... into the file named relative to where it was called" test -f "$tmp/toy.csv"
out=$("$copy/mk/sweep.sh" nosweep "$fake" "$tmp/n.csv" 2>&1)
status=$?
check "a lab without sweep keys: exit 2 (got $status)" test "$status" -eq 2
check "... saying it defines no sweep" contains "$out" "defines no sweep"
out=$("$copy/mk/sweep.sh" novalues "$fake" "$tmp/n.csv" 2>&1)
status=$?
check "a template variable without sweep.vary values: exit 2 (got $status)" test "$status" -eq 2
check "... naming it" contains "$out" "sweep.vary.size lists no values"
check "... and no file" test ! -e "$tmp/n.csv"

finish
