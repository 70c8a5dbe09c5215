#!/usr/bin/env bash
# Lab 1 sweep: runs the lab1 driver over the sweep of labs/lab1/manifest and writes one CSV.
#
#   labs/lab1/sweep.sh BINARY OUTFILE        (make lab1-sweep calls it)
#
# For every size N of sweep.sizes (M = N = K = N) and every tile T of sweep.tiles it runs
#     BINARY --m N --n N --k N --tile T --rung <sweep.tiled_parts> --csv <sweep.args>
# and once per size
#     BINARY --m N --n N --k N --rung <sweep.fixed_parts> --csv <sweep.args>
# Every run also times cuBLAS, so each run adds a "cublas" row.
#
# OUTFILE: "# ..." lines saying where and when it was measured (GPU, clocks, date, host,
# command), then the driver's header line, then its rows:
#     m,n,k,rung,tile,block,threads,check,median_ms,gflops,pct_cublas
# A run that fails leaves a "# FAILED ..." line where its rows would be; the sweep goes
# on and exits 1 at the end. With no usable GPU it stops at the first run, removes
# OUTFILE and exits 3. An existing OUTFILE is never overwritten. Progress goes to stderr.
set -uo pipefail

usage() { echo "usage: $0 BINARY OUTFILE   (from make: make lab1-sweep)" >&2; exit 2; }
[[ $# -eq 2 ]] || usage
binary=$1 outfile=$2
command_line="$0 $*"

# Paths as given are relative to where we were called from; the manifest is read from
# the repository root.
absolute() { [[ $1 == /* ]] && printf '%s\n' "$1" || printf '%s\n' "$PWD/$1"; }
binary_path=$(absolute "$binary")
outfile_path=$(absolute "$outfile")
cd "$(dirname "$0")/../.." || exit 2
source mk/manifest.sh

[[ -x $binary_path && -f $binary_path ]] || { echo "error: $binary is not an executable file (build it with make lab1-build)" >&2; exit 2; }
if [[ -e $outfile_path ]]; then
    echo "error: $outfile already exists; the sweep does not overwrite results: choose another name or remove it" >&2
    exit 2
fi
outdir=$(dirname "$outfile_path")
[[ -d $outdir ]] || { echo "error: the folder $outdir does not exist" >&2; exit 2; }

read -r -a sizes <<<"$(manifest_get lab1 sweep.sizes)"
read -r -a tiles <<<"$(manifest_get lab1 sweep.tiles)"
read -r -a tiled_parts <<<"$(manifest_get lab1 sweep.tiled_parts)"
read -r -a fixed_parts <<<"$(manifest_get lab1 sweep.fixed_parts)"
read -r -a extra_args <<<"$(manifest_get lab1 sweep.args)"
((${#sizes[@]} > 0)) || { echo "error: labs/lab1/manifest has no sweep.sizes" >&2; exit 2; }
if ((${#tiled_parts[@]} > 0 && ${#tiles[@]} == 0)); then
    echo "error: labs/lab1/manifest lists sweep.tiled_parts but no sweep.tiles" >&2
    exit 2
fi
join_commas() { local IFS=,; printf '%s\n' "$*"; }

# --- the runs ----------------------------------------------------------------------------
runs=()  # each entry: the driver arguments of one run, as one string (no argument has blanks)
for n in "${sizes[@]}"; do
    if ((${#tiled_parts[@]} > 0)); then
        for t in "${tiles[@]}"; do
            runs+=("--m $n --n $n --k $n --tile $t --rung $(join_commas "${tiled_parts[@]}") --csv ${extra_args[*]}")
        done
    fi
    if ((${#fixed_parts[@]} > 0)); then
        runs+=("--m $n --n $n --k $n --rung $(join_commas "${fixed_parts[@]}") --csv ${extra_args[*]}")
    fi
done

# --- where it is measured ----------------------------------------------------------------
gpu_lines() {
    local query=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem
    local select=() line="" cc=""
    # The driver uses CUDA device 0: the first device CUDA_VISIBLE_DEVICES names, if set.
    # (nvidia-smi numbers devices in PCI order; CUDA's default order may differ.)
    if [[ -n ${CUDA_VISIBLE_DEVICES:-} ]]; then select=(-i "${CUDA_VISIBLE_DEVICES%%,*}"); else select=(-i 0); fi
    if command -v nvidia-smi >/dev/null 2>&1; then
        line=$(nvidia-smi "${select[@]}" --query-gpu=$query --format=csv,noheader 2>/dev/null | head -1)
        cc=$(nvidia-smi "${select[@]}" --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1)
    fi
    # The course's own tool, if it was built beside the binary (make limits).
    local limits
    limits="$(dirname "$binary_path")/gpu-limits"
    if [[ -z $cc && -x $limits ]]; then
        cc=$("$limits" 2>/dev/null | sed -n 's/^ *Compute capability *//p' | head -1)
    fi
    if [[ -n $line ]]; then
        local name driver sm sm_max mem mem_max
        IFS=, read -r name driver sm sm_max mem mem_max <<<"$line"
        trim() { local s=$1; s=${s#"${s%%[![:space:]]*}"}; printf '%s' "${s%"${s##*[![:space:]]}"}"; }
        echo "# gpu: $(trim "$name")"
        echo "# compute capability: ${cc:-unavailable}"
        echo "# driver version: $(trim "$driver")"
        echo "# clocks (nvidia-smi, when the sweep started): sm $(trim "$sm") (max $(trim "$sm_max")), memory $(trim "$mem") (max $(trim "$mem_max"))"
    else
        echo "# gpu: unavailable (nvidia-smi not found or it failed)"
        echo "# compute capability: ${cc:-unavailable}"
        echo "# driver version: unavailable"
        echo "# clocks: unavailable"
    fi
}

set -o noclobber  # the first write fails rather than replace a file that appeared meanwhile
{
    echo "# lab1 sweep, written by labs/lab1/sweep.sh"
    gpu_lines
    echo "# date: $(date '+%Y-%m-%d %H:%M:%S %z')"
    echo "# host: $(hostname 2>/dev/null || uname -n)"
    echo "# command: $command_line"
    echo "# sweep: sizes=${sizes[*]}; tiles=${tiles[*]}; tiled_parts=${tiled_parts[*]}; fixed_parts=${fixed_parts[*]}; args=${extra_args[*]}"
} >"$outfile_path" || { echo "error: cannot create $outfile" >&2; exit 6; }
set +o noclobber

describe_exit() {
    case $1 in
        1) echo "a rung's output failed the check" ;;
        2) echo "bad usage or a launch was refused" ;;
        3) echo "no usable GPU" ;;
        4) echo "a kernel crashed; the rungs after it did not run" ;;
        5) echo "a kernel ran past the time limit; the rungs after it did not run" ;;
        6) echo "a file could not be read or written" ;;
        124 | 137) echo "stopped from outside" ;;
        *) echo "exit status $1" ;;
    esac
}

stdout_tmp=$(mktemp) stderr_tmp=$(mktemp)
trap 'rm -f "$stdout_tmp" "$stderr_tmp"' EXIT
header_written=no failures=0 total=${#runs[@]} index=0
start_all=$SECONDS
for run in "${runs[@]}"; do
    index=$((index + 1))
    read -r -a args <<<"$run"
    printf '[%d/%d] %s %s ... ' "$index" "$total" "$binary" "$run" >&2
    start=$SECONDS
    "$binary_path" "${args[@]}" --csv-header >"$stdout_tmp" 2>"$stderr_tmp"
    status=$?
    # The header line once, then the rows (each run prints its own header first).
    while IFS= read -r line; do
        if [[ $line == [0-9]* ]]; then
            echo "$line"
        elif [[ $header_written == no && -n $line ]]; then
            echo "$line"
            header_written=yes
        fi
    done <"$stdout_tmp" >>"$outfile_path"
    if ((status == 0)); then
        echo "ok ($((SECONDS - start)) s)" >&2
        continue
    fi
    echo "FAILED: exit $status, $(describe_exit "$status")" >&2
    sed 's/^/    /' "$stderr_tmp" >&2
    if ((status == 3)); then
        if ((index == 1)); then
            rm -f "$outfile_path"
            echo "error: no usable GPU, so nothing was measured and $outfile was removed" >&2
        else
            echo "# FAILED (exit 3, no usable GPU): $binary $run; the sweep stopped here" >>"$outfile_path"
            echo "error: the GPU became unusable; $outfile holds the runs before it" >&2
        fi
        exit 3
    fi
    failures=$((failures + 1))
    reason=$(grep -m1 . "$stderr_tmp" | tr -d '\r')
    echo "# FAILED (exit $status, $(describe_exit "$status")): $binary $run${reason:+ -- $reason}" >>"$outfile_path"
done

echo "sweep: $total runs in $((SECONDS - start_all)) s, $failures failed; results in $outfile" >&2
if ((failures > 0)); then
    echo "error: $failures of $total runs failed (see the # FAILED lines in $outfile)" >&2
    exit 1
fi
exit 0
