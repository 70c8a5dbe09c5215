#!/usr/bin/env bash
# The sweep of any lab: runs the lab's driver over the sweep its manifest defines, into one CSV.
#
#   mk/sweep.sh LAB BINARY OUTFILE [--resume]     (make LAB-sweep; make LAB-sweep RESUME=OUTFILE)
#
# The sweep is read from labs/LAB/manifest (through mk/manifest.sh) and nowhere else:
#   sweep.runs         names of the runs, in order
#   sweep.run.<name>   the driver arguments of that run, a template: each $var in it takes every
#                      value of sweep.vary.<var> in turn (all combinations of the variables it
#                      names, the first named varying slowest, values in the order listed)
#   sweep.args         added to every run
# and each run is  BINARY <arguments> --csv --csv-header.
#
# OUTFILE: "# ..." lines saying where and when it was measured (GPU, compute capability,
# driver, clocks, date, host, the command, the sweep definition), the CSV header once, then
# the rows. After a run's rows, "# done: <its arguments>". A run that fails leaves
# "# FAILED (exit N, reason): <its arguments> -- <first line of its stderr>" (its rows, if any,
# stay above it) and the sweep goes on, exiting 1 at the end. With no usable GPU (exit 3) at the
# first run, OUTFILE is removed and the exit is 3; later, the sweep stops there, keeps what it
# measured and exits 3.
# An existing OUTFILE is never overwritten (exit 2). With --resume the sweep appends to it
# instead (a "# resumed: DATE" line) and skips every run with a "# done:" line in it, so an
# interrupted sweep is finished by running the same command again with --resume.
# Progress goes to stderr. Bad usage, a missing binary or sweep: exit 2.
set -uo pipefail

usage() {  # usage [STATUS]
    echo "usage: $0 LAB BINARY OUTFILE [--resume]   (from make: make LAB-sweep, or make LAB-sweep RESUME=OUTFILE)" >&2
    exit "${1:-2}"
}
resume=no positional=()
for arg in "$@"; do
    case $arg in
        --resume) resume=yes ;;
        -h | --help) usage 0 ;;
        -*) echo "error: unknown option $arg" >&2; usage ;;
        *) positional+=("$arg") ;;
    esac
done
((${#positional[@]} == 3)) || usage
lab=${positional[0]} binary=${positional[1]} outfile=${positional[2]}
command_line="$0 $*"

# Paths as given are relative to where we were called from; the manifest is read from the
# repository that holds this script (which may be a copy: the tests run one).
absolute() { [[ $1 == /* ]] && printf '%s\n' "$1" || printf '%s\n' "$PWD/$1"; }
binary_path=$(absolute "$binary")
outfile_path=$(absolute "$outfile")
cd "$(dirname "$0")/.." || exit 2
source mk/manifest.sh

manifest=labs/$lab/manifest
[[ $lab =~ ^[A-Za-z0-9._-]+$ && -f $manifest ]] || { echo "error: no lab '$lab' ($manifest does not exist)" >&2; exit 2; }
read -r -a run_names <<<"$(manifest_get "$lab" sweep.runs)"
if ((${#run_names[@]} == 0)); then
    echo "error: $manifest defines no sweep (no sweep.runs; labs/MANIFEST.md says how to add one)" >&2
    exit 2
fi
read -r -a common_args <<<"$(manifest_get "$lab" sweep.args)"

# --- the runs: every template expanded over the values of its variables -----------------
# subst TEXT VAR VALUE: TEXT with every $VAR (not followed by more of a name) replaced.
subst() {
    VAR=$2 VALUE=$3 awk '{
        name = "\\$" ENVIRON["VAR"] "([^A-Za-z0-9_]|$)"; out = ""; s = $0
        while (match(s, name)) {
            out = out substr(s, 1, RSTART - 1) ENVIRON["VALUE"]
            s = substr(s, RSTART + 1 + length(ENVIRON["VAR"]))
        }
        print out s
    }' <<<"$1"
}
# expand TEMPLATE: one line per combination; the first variable named varies slowest.
expand() {
    local template=$1 var value
    local -a values
    if [[ ! $template =~ \$([A-Za-z_][A-Za-z0-9_]*) ]]; then
        printf '%s\n' "$template"
        return 0
    fi
    var=${BASH_REMATCH[1]}
    read -r -a values <<<"$(manifest_get "$lab" "sweep.vary.$var")"
    if ((${#values[@]} == 0)); then
        echo "error: $manifest: a sweep template uses \$$var, but sweep.vary.$var lists no values" >&2
        return 1
    fi
    for value in "${values[@]}"; do
        expand "$(subst "$template" "$var" "$value")" || return 1
    done
}
runs=()  # each: the driver arguments of one run, blank-separated (no argument has blanks)
for name in "${run_names[@]}"; do
    template=$(manifest_get "$lab" "sweep.run.$name")
    if [[ -z $template ]]; then
        echo "error: $manifest lists '$name' in sweep.runs but has no sweep.run.$name" >&2
        exit 2
    fi
    expanded=$(expand "$template") || exit 2
    while IFS= read -r line; do
        read -r -a words <<<"$line ${common_args[*]}"
        runs+=("${words[*]}")  # one blank between arguments: the form "# done:" lines hold
    done <<<"$expanded"
done

[[ -x $binary_path && -f $binary_path ]] || { echo "error: $binary is not an executable file (build it with make $lab-build)" >&2; exit 2; }
if [[ $resume == yes ]]; then
    if [[ ! -f $outfile_path ]]; then
        echo "error: --resume: $outfile does not exist (there is nothing to resume; run without --resume)" >&2
        exit 2
    fi
    recorded_lab=$(sed -n 's/^# lab: *\([^ ]*\).*/\1/p' "$outfile_path" | head -1)
    if [[ -n $recorded_lab && $recorded_lab != "$lab" ]]; then
        echo "error: --resume: $outfile is a sweep of $recorded_lab, not of $lab" >&2
        exit 2
    fi
elif [[ -e $outfile_path ]]; then
    echo "error: $outfile already exists; the sweep does not overwrite results: choose another name, remove it, or finish it with --resume" >&2
    exit 2
fi
outdir=$(dirname "$outfile_path")
[[ -d $outdir ]] || { echo "error: the folder $outdir does not exist" >&2; exit 2; }

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
    # The course's own tool, built beside the binary (make limits): the compute capability
    # where nvidia-smi lacks it, and the two ceilings a figure may draw.
    local limits table=""
    limits="$(dirname "$binary_path")/gpu-limits"
    [[ -x $limits ]] && table=$("$limits" 2>/dev/null)
    [[ -z $cc ]] && cc=$(sed -n 's/^ *Compute capability *//p' <<<"$table" | head -1)
    local fp32 memory cpu
    fp32=$(sed -n 's/^ *Peak FP32 rate *//p' <<<"$table" | head -1)
    memory=$(sed -n 's/^ *Peak memory bandwidth *//p' <<<"$table" | head -1)
    cpu=$(sed -n 's/^ *Host CPU *//p' <<<"$table" | head -1)
    if [[ -n $line ]]; then
        local name driver sm sm_max mem mem_max
        IFS=, read -r name driver sm sm_max mem mem_max <<<"$line"
        trim() { local s=$1; s=${s#"${s%%[![:space:]]*}"}; printf '%s' "${s%"${s##*[![:space:]]}"}"; }
        echo "# gpu: $(trim "$name")"
        echo "# compute capability: ${cc:-unavailable}"
        echo "# driver version: $(trim "$driver")"
        echo "# clocks (nvidia-smi, when the sweep started): sm $(trim "$sm") (max $(trim "$sm_max")), memory $(trim "$mem") (max $(trim "$mem_max"))"
        [[ -n $fp32 ]] && echo "# fp32 peak: $fp32"
        [[ -n $memory ]] && echo "# memory peak: $memory"
        [[ -n $cpu ]] && echo "# cpu: $cpu"
    else
        echo "# gpu: unavailable (nvidia-smi not found or it failed)"
        echo "# compute capability: ${cc:-unavailable}"
        echo "# driver version: unavailable"
        echo "# clocks: unavailable"
    fi
}

# On --resume: the runs already done, and whether the CSV header is there already (the first
# line that is neither blank nor a comment).
declare -A done_before=()
file_header=""
if [[ $resume == yes ]]; then
    while IFS= read -r line; do
        [[ -n $line ]] && done_before[$line]=1
    done < <(sed -n 's/^# done: //p' "$outfile_path")
    file_header=$(grep -v -m1 -E '^[[:space:]]*(#|$)' "$outfile_path")
    echo "# resumed: $(date '+%Y-%m-%d %H:%M:%S %z') ($command_line)" >>"$outfile_path" || { echo "error: cannot write $outfile" >&2; exit 6; }
else
    set -o noclobber  # the first write fails rather than replace a file that appeared meanwhile
    {
        echo "# $lab sweep, written by mk/sweep.sh"
        echo "# lab: $lab ($(manifest_get "$lab" title))"
        gpu_lines
        echo "# date: $(date '+%Y-%m-%d %H:%M:%S %z')"
        echo "# host: $(hostname 2>/dev/null || uname -n)"
        echo "# command: $command_line"
        echo "# sweep ($manifest, ${#runs[@]} runs, each with --csv --csv-header added):"
        for key in sweep.runs $(manifest_keys "$manifest" sweep.run.) $(manifest_keys "$manifest" sweep.vary.) sweep.args; do
            echo "#   $key = $(manifest_get "$lab" "$key")"
        done
    } >"$outfile_path" || { echo "error: cannot create $outfile" >&2; exit 6; }
    set +o noclobber
fi

describe_exit() {
    case $1 in
        1) echo "a part's output failed the check" ;;
        2) echo "bad usage or a launch was refused" ;;
        3) echo "no usable GPU" ;;
        4) echo "a kernel crashed; the parts after it did not run" ;;
        5) echo "a kernel ran past the time limit; the parts after it did not run" ;;
        6) echo "a file could not be read or written" ;;
        124 | 137) echo "stopped from outside" ;;
        *) echo "exit status $1" ;;
    esac
}

stdout_tmp=$(mktemp) stderr_tmp=$(mktemp)
trap 'rm -f "$stdout_tmp" "$stderr_tmp"' EXIT
# Ctrl-C (or a kill) leaves the runs done so far, each with its "# done:" line: say how to finish.
trap 'echo >&2; echo "interrupted: finish the sweep with: $0 $lab $binary $outfile --resume (make $lab-sweep RESUME=$outfile)" >&2; exit 130' INT TERM
failures=0 skipped=0 ran=0 total=${#runs[@]} index=0
start_all=$SECONDS
for run in "${runs[@]}"; do
    index=$((index + 1))
    if [[ -n ${done_before[$run]:-} ]]; then
        printf '[%d/%d] %s ... done before, skipped\n' "$index" "$total" "$run" >&2
        skipped=$((skipped + 1))
        continue
    fi
    read -r -a args <<<"$run"
    printf '[%d/%d] %s ... ' "$index" "$total" "$run" >&2
    start=$SECONDS
    "$binary_path" "${args[@]}" --csv --csv-header >"$stdout_tmp" 2>"$stderr_tmp"
    status=$?
    ran=$((ran + 1))
    why=$(describe_exit "$status")
    reason=$(grep -m1 . "$stderr_tmp" | tr -d '\r')
    # The run's first line is its CSV header: written once, and it must be the file's (rows
    # under another header would be misread; it happens on --resume with another binary).
    header=$(grep -m1 . "$stdout_tmp" | tr -d '\r')
    if [[ -n $header && -n $file_header && $header != "$file_header" ]]; then
        ((status == 0)) && status=1
        why="its CSV header differs from the file's; its rows were left out"
        reason="its header: $header"
    else
        {
            [[ -n $header && -z $file_header ]] && printf '%s\n' "$header"
            grep . "$stdout_tmp" | tr -d '\r' | tail -n +2
            ((status == 0)) && printf '# done: %s\n' "$run"
        } >>"$outfile_path"
        [[ -n $header ]] && file_header=$header
    fi
    if ((status == 0)); then
        echo "ok ($((SECONDS - start)) s)" >&2
        continue
    fi
    echo "FAILED: exit $status, $why" >&2
    sed 's/^/    /' "$stderr_tmp" >&2
    if ((status == 3)); then
        if ((ran == 1)) && [[ $resume == no ]]; then
            rm -f "$outfile_path"
            echo "error: no usable GPU, so nothing was measured and $outfile was removed" >&2
        else
            echo "# FAILED (exit 3, no usable GPU): $run -- ${reason:-(nothing on stderr)}; the sweep stopped here" >>"$outfile_path"
            echo "error: no usable GPU; $outfile holds the runs before it (finish it later with --resume)" >&2
        fi
        exit 3
    fi
    failures=$((failures + 1))
    echo "# FAILED (exit $status, $why): $run -- ${reason:-(nothing on stderr)}" >>"$outfile_path"
done

echo "sweep: $total runs ($skipped done before) in $((SECONDS - start_all)) s, $failures failed; results in $outfile" >&2
if ((failures > 0)); then
    echo "error: $failures of $total runs failed (see the # FAILED lines in $outfile; --resume runs them again)" >&2
    exit 1
fi
exit 0
