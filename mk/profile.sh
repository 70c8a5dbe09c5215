#!/usr/bin/env bash
# Profiles a lab's driver with Nsight Compute on the case and metrics its manifest names.
#
#   mk/profile.sh LAB BINARY [ARGS...]       (make LAB-profile; make LAB-profile ARGS="--part tiled")
#
# Runs, with the report on stdout,
#     ncu --clock-control none --metrics <profile.metrics, comma-separated> <profile.filter> \
#         BINARY <profile.args> --no-yardstick ARGS...
# --clock-control none: the GPU runs at its usual clocks, as in the sweeps, rather than at the
# base clocks ncu locks by default; --no-yardstick: the library's kernels are not profiled.
# profile.filter (optional) chooses which launches ncu profiles, for labs that launch one kernel
# many times (lab3: one launch per k) where profiling every launch would take minutes.
# ARGS come last, so they override the manifest's (the driver takes the last value given).
# Exit: ncu's own status; 1 when ncu is not found; 2 for bad usage or a lab without profile.args.
set -uo pipefail

if [[ $# -lt 2 ]]; then
    echo "usage: $0 LAB BINARY [ARGS...]   (from make: make LAB-profile, or make LAB-profile ARGS='...')" >&2
    exit 2
fi
lab=$1 binary=$2
shift 2
# The manifest is found beside this script; the binary and ARGS keep the caller's folder.
root=$(cd "$(dirname "$0")/.." && pwd) || exit 2
source "$root/mk/manifest.sh"
manifest=$root/labs/$lab/manifest
[[ $lab =~ ^[A-Za-z0-9._-]+$ && -f $manifest ]] || { echo "error: no lab '$lab' (labs/$lab/manifest does not exist)" >&2; exit 2; }

read -r -a case_args <<<"$(manifest_value "$manifest" profile.args)"
if ((${#case_args[@]} == 0)); then
    echo "error: labs/$lab/manifest has no profile.args, so there is no case to profile (labs/MANIFEST.md)" >&2
    exit 2
fi
read -r -a metrics <<<"$(manifest_value "$manifest" profile.metrics)"
read -r -a filter <<<"$(manifest_value "$manifest" profile.filter)"
[[ -x $binary && -f $binary ]] || { echo "error: $binary is not an executable file (build it with make $lab-build)" >&2; exit 2; }

ncu=$(command -v ncu || { [[ -x /usr/local/cuda/bin/ncu ]] && echo /usr/local/cuda/bin/ncu; })
if [[ -z $ncu ]]; then
    cat >&2 <<EOF
error: Nsight Compute (ncu) was not found, neither on PATH nor in /usr/local/cuda/bin.
It ships with the CUDA toolkit as Nsight Compute: from NVIDIA's apt repository install the
package of your toolkit's version (e.g. sudo apt-get install cuda-nsight-compute-13-0), or the
standalone Nsight Compute (https://developer.nvidia.com/nsight-compute); then add the folder
that holds ncu to PATH (it is linked into /usr/local/cuda/bin by the toolkit's package).
EOF
    exit 1
fi

metric_args=()
if ((${#metrics[@]} > 0)); then
    metric_list=$(IFS=,; printf '%s' "${metrics[*]}")
    metric_args=(--metrics "$metric_list")
fi
# Reading the GPU's counters may need permission (ERR_NVGPUCTRPERM): see
# https://developer.nvidia.com/ERR_NVGPUCTRPERM, or run as root.
echo "ncu: ${filter[*]}${filter[*]:+ }$binary ${case_args[*]} --no-yardstick $*" >&2
exec "$ncu" --clock-control none "${metric_args[@]}" "${filter[@]}" "$binary" "${case_args[@]}" --no-yardstick "$@"
