#!/usr/bin/env bash
# Draws a lab's figures from one sweep CSV with the lab's gnuplot script.
#
#   mk/plot.sh LAB CSV OUTDIR        (make LAB-plots calls it; make LAB-plots CSV=path)
#
# Runs  gnuplot -e "csv='CSV'; outdir='OUTDIR'" labs/LAB/plots.gp  from the repository root
# and lists the PNG files it wrote. The same for every lab: what is drawn is up to
# labs/LAB/plots.gp. Exit status 0 when at least one figure was written, else 1
# (2 for bad usage).
set -uo pipefail

if [[ $# -ne 3 ]]; then
    echo "usage: $0 LAB CSV OUTDIR   (from make: make LAB-plots, or make LAB-plots CSV=path)" >&2
    exit 2
fi
lab=$1 csv=$2 outdir=$3
# Paths are relative to where we were called from; labs/LAB/plots.gp to the repository root.
absolute() { [[ -z $1 || $1 == /* ]] && printf '%s\n' "$1" || printf '%s\n' "$PWD/$1"; }
csv_path=$(absolute "$csv") outdir_path=$(absolute "$outdir")
cd "$(dirname "$0")/.." || exit 2
script=labs/$lab/plots.gp

if [[ ! -f $script ]]; then
    echo "error: $script does not exist: lab '$lab' has no figures to draw" >&2
    exit 2
fi
if ! command -v gnuplot >/dev/null 2>&1; then
    echo "error: gnuplot is not installed: sudo apt-get install gnuplot-nox (Debian/Ubuntu)" >&2
    exit 1
fi
if [[ -z $csv ]]; then
    echo "error: no sweep yet: run make $lab-sweep, or pass CSV=path" >&2
    exit 1
fi
if [[ ! -e $csv_path ]]; then
    echo "error: $csv does not exist: run make $lab-sweep, or pass CSV=path to an existing sweep" >&2
    exit 1
fi
if [[ ! -f $csv_path || ! -r $csv_path ]]; then
    echo "error: $csv is not a readable file" >&2
    exit 1
fi
# Non-empty: at least one line that is neither blank nor a "# ..." comment.
if ! grep -q -v -E '^[[:space:]]*(#|$)' "$csv_path"; then
    echo "error: $csv holds no results (empty, or comments only: did every run of the sweep fail?)" >&2
    exit 1
fi
# gnuplot reads the names between single quotes, where nothing is escaped.
for path in "$csv_path" "$outdir_path"; do
    if [[ $path == *"'"* ]]; then
        echo "error: $path: a path with a single quote cannot be handed to gnuplot" >&2
        exit 2
    fi
done
mkdir -p "$outdir_path" || { echo "error: cannot create the folder $outdir" >&2; exit 1; }

# The course's committed sample (labs/LAB/sample/, what make LAB-plots draws before any sweep
# of the student's) is labelled in every figure: every plots.gp names the GPU of the CSV's
# "# gpu:" line in its titles, so a copy whose line says it is the sample is drawn instead.
case $(cd "$(dirname "$csv_path")" && pwd -P)/ in
    "$(pwd -P)/labs/$lab/sample/"*)
        labelled=$(mktemp) || exit 1
        trap 'rm -f "$labelled"' EXIT
        sed 's/^\(#[[:space:]]*gpu:.*[^[:space:]]\)[[:space:]]*$/\1 (the course sample, not your run)/' "$csv_path" >"$labelled"
        echo "drawing the committed sample of the course ($csv), labelled so in every title: not your own sweep" >&2
        csv_path=$labelled
        ;;
esac

# The figures written are the PNGs newer than this marker, dated a second back in case
# the file system keeps whole seconds.
marker=$(mktemp) || exit 1
trap 'rm -f "$marker" ${labelled:+"$labelled"}' EXIT
touch -d "@$(($(date +%s) - 1))" "$marker" 2>/dev/null || true
echo "plotting $csv into $outdir/ with $script" >&2
if ! gnuplot -e "csv='$csv_path'; outdir='$outdir_path'" "$script"; then
    echo "error: gnuplot failed on $script (its message is above)" >&2
    exit 1
fi

mapfile -t written < <(find "$outdir_path" -maxdepth 1 -type f -name '*.png' -newer "$marker" | sort)
if ((${#written[@]} == 0)); then
    echo "error: gnuplot ran but wrote no PNG into $outdir" >&2
    exit 1
fi
echo "figures written:"
for f in "${written[@]}"; do printf "  %s\n" "${outdir%/}/${f##*/}"; done
