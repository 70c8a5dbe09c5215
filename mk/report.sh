#!/usr/bin/env bash
# The skeleton of a lab report, the same for every lab: where it was measured, the measured
# table, the figures and the handout's questions with room for the answers.
#
#   mk/report.sh LAB CSV OUTDIR     (make LAB-report: the newest sweep, else the committed sample)
#
# Writes OUTDIR/report.md; an existing report.md is never overwritten (the student may have
# written in it): the next free name of report-2.md, report-3.md, ... is used, and named.
# A report is the student's own: from the committed sample (labs/LAB/sample/, what make
# LAB-report uses before any sweep of theirs) it takes no measurement and no GPU line, only
# the figures, each labelled as the course's sample, so that the report can be drafted where
# there is no GPU; "Where it was measured" and "Measured results" then say to run the sweep.
# It reads labs/LAB/manifest (`title`, `handout`) through mk/manifest.sh, the "# key: value"
# lines of the CSV's head that mk/sweep.sh writes (gpu, compute capability, driver version,
# clocks, the FP32 and memory peaks, date, host), and draws the figures with mk/plot.sh into
# OUTDIR. Without gnuplot (or when drawing fails) the report says so and is still written:
# exit 0, a warning on stderr.
# Exit 1: no CSV, or one without results; 2: bad usage or no such lab.
#
# The handout format, which is what makes a question (handouts are written to it):
#   - the questions are the items of the numbered markdown list in the section whose heading
#     (a line starting with '#'s) contains "Questions"; the section ends at the next heading
#     of the same or a higher level (headings inside fenced code blocks do not count);
#   - an item starts in the first column with "N. "; its further lines are indented (nested
#     lists and code blocks included) and it ends at the next item, or at a line back in the
#     first column after a blank line;
#   - an item that starts with "**Title.**" has that title; the rest is its text.
set -uo pipefail

if [[ $# -ne 3 ]]; then
    echo "usage: $0 LAB CSV OUTDIR   (from make: make LAB-report, or make LAB-report CSV=path)" >&2
    exit 2
fi
lab=$1 csv=$2 outdir=$3
# Paths are relative to where we were called from; the lab's files to the repository root.
absolute() { [[ -z $1 || $1 == /* ]] && printf '%s\n' "$1" || printf '%s\n' "$PWD/$1"; }
csv_path=$(absolute "$csv") outdir_path=$(absolute "$outdir")
cd "$(dirname "$0")/.." || exit 2
root=$(pwd -P)
source mk/manifest.sh

manifest=labs/$lab/manifest
[[ $lab =~ ^[A-Za-z0-9._-]+$ && -f $manifest ]] || { echo "error: no lab '$lab' ($manifest does not exist)" >&2; exit 2; }
if [[ -z $csv ]]; then
    echo "error: no sweep yet: run make $lab-sweep, or pass CSV=path" >&2
    exit 1
fi
if [[ ! -f $csv_path || ! -r $csv_path ]]; then
    echo "error: $csv is not a readable file: run make $lab-sweep, or pass CSV=path to an existing sweep" >&2
    exit 1
fi
if ! grep -q -v -E '^[[:space:]]*(#|$)' "$csv_path"; then
    echo "error: $csv holds no results (empty, or comments only: did every run of the sweep fail?)" >&2
    exit 1
fi
mkdir -p "$outdir_path" || { echo "error: cannot create the folder $outdir" >&2; exit 1; }

title=$(manifest_get "$lab" title)
handout=$(manifest_get "$lab" handout)
warnings=0
warn() { echo "warning: $*" >&2; warnings=$((warnings + 1)); }

# The CSV's path as the reader knows it: relative to the repository when inside it.
csv_dir=$(cd "$(dirname "$csv_path")" && pwd -P) || exit 1
csv_real=$csv_dir/$(basename "$csv_path")
csv_shown=${csv_real#"$root"/}
sample=no
case $csv_real in
    "$root/labs/$lab/sample/"*) sample=yes ;;
esac
sample_gpu=$(sed -n 's/^#[[:space:]]*gpu:[[:space:]]*//p' "$csv_path" | head -1)
not_yet="_Not measured yet: there is no sweep of yours. Run \`make $lab-sweep\` on your GPU, then \`make $lab-report\` again._"
sample_note="_These figures are drawn from the course's committed sample, \`$csv_shown\`, measured for the course${sample_gpu:+ on an $sample_gpu}: they show what to expect and are not your results. Replace them with your own: \`make $lab-sweep\`, then \`make $lab-report\`._"

# --- where it was measured: the "# key: value" lines of the CSV's head --------------------
where() {
    local found=no line key value
    while IFS= read -r line; do
        [[ $line =~ ^#[[:space:]]*(gpu|compute\ capability|driver\ version|clocks[^:]*|fp32\ peak|memory\ peak|cpu|date|host):[[:space:]]*(.*)$ ]] || continue
        key=${BASH_REMATCH[1]} value=${BASH_REMATCH[2]}
        case $key in
            gpu) found=yes key=GPU ;;
            fp32\ peak) key="FP32 peak" ;;
            cpu) key=CPU ;;
        esac
        echo "- ${key^}: $value"
    done < <(sed -n '/^[[:space:]]*[^#[:space:]]/q; p' "$csv_path")
    if [[ $found == no ]]; then
        echo "The CSV does not say (its head has no \`# gpu:\` line): name the GPU, its driver and clocks here."
    fi
}

# --- the measured table ---------------------------------------------------------------------
# The columns that matter, found by name in the driver's header: the case settings (before
# `part`), `part`, the config columns (between `part` and `block`), `check`, `median_ms`, the
# metric (after `q3_ms`) and `pct_*`. A CSV without that layout is shown whole.
table() {
    awk '
    function split_csv(line, out,    n, field, c, i, quoted) {
        n = 0; field = ""; quoted = 0
        for (i = 1; i <= length(line); i++) {
            c = substr(line, i, 1)
            if (quoted) {
                if (c == "\"" && substr(line, i + 1, 1) == "\"") { field = field c; i++ }
                else if (c == "\"") quoted = 0
                else field = field c
            } else if (c == "\"") quoted = 1
            else if (c == ",") { out[++n] = field; field = "" }
            else field = field c
        }
        out[++n] = field
        return n
    }
    function cell(text) { gsub(/\|/, "\\|", text); return text }
    /^[[:space:]]*(#|$)/ { next }
    { sub(/\r$/, "") }
    !have_header {
        ncols = split_csv($0, name); have_header = 1; header_line = $0
        for (i = 1; i <= ncols; i++) col[name[i]] = i
        nkeep = 0
        if (("part" in col) && ("block" in col) && ("check" in col) && ("median_ms" in col) && ("q3_ms" in col)) {
            for (i = 1; i <= col["block"] - 1; i++) keep[++nkeep] = i
            keep[++nkeep] = col["check"]; keep[++nkeep] = col["median_ms"]
            if (col["q3_ms"] < ncols && name[col["q3_ms"] + 1] !~ /^pct_/) keep[++nkeep] = col["q3_ms"] + 1
            for (i = 1; i <= ncols; i++) if (name[i] ~ /^pct_/) keep[++nkeep] = i
        } else {
            for (i = 1; i <= ncols; i++) keep[++nkeep] = i
            print "_(This CSV is not in the layout of the current drivers, so every column is shown.)_\n"
        }
        next
    }
    $0 == header_line { next }  # a header repeated by concatenated sweeps
    { rows[++nrows] = $0 }
    END {
        if (!have_header) exit
        for (j = 1; j <= nkeep; j++) numeric[j] = 1
        for (r = 1; r <= nrows; r++) {
            split_csv(rows[r], f)
            for (j = 1; j <= nkeep; j++)
                if (f[keep[j]] != "" && f[keep[j]] != "-" && f[keep[j]] !~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/) numeric[j] = 0
        }
        line = "|"; rule = "|"
        for (j = 1; j <= nkeep; j++) { line = line " " cell(name[keep[j]]) " |"; rule = rule (numeric[j] ? " ---: |" : " --- |") }
        print line; print rule
        for (r = 1; r <= nrows; r++) {
            split_csv(rows[r], f); line = "|"
            for (j = 1; j <= nkeep; j++) line = line " " cell(f[keep[j]]) " |"
            print line
        }
    }' "$csv_path"
    # Runs of the sweep that failed: their arguments and first error line.
    local failed
    failed=$(sed -n 's/^# *\(FAILED.*\)/\1/p' "$csv_path")
    if [[ -n $failed ]]; then
        echo
        echo "Runs of the sweep that failed (their rows are missing or not PASS):"
        echo
        while IFS= read -r line; do printf -- '- `%s`\n' "$line"; done <<<"$failed"
    fi
}

# --- the figures ------------------------------------------------------------------------------
figures() {
    if ! command -v gnuplot >/dev/null 2>&1; then
        warn "gnuplot is not installed, so the report has no figures (sudo apt-get install gnuplot-nox)"
        echo "_No figures: gnuplot is not installed where this report was written (\`sudo apt-get install gnuplot-nox\`, then \`make $lab-report\` again)._"
        return
    fi
    if [[ ! -f labs/$lab/plots.gp ]]; then
        echo "_This lab has no figures (no labs/$lab/plots.gp)._"
        return
    fi
    local out status names=()
    out=$(mk/plot.sh "$lab" "$csv_path" "$outdir_path" 2>&1)
    status=$?
    # mk/plot.sh lists the figures it wrote, one "  DIR/NAME.png" line each.
    mapfile -t names < <(sed -n 's|^  .*/\([^/]*\.png\)$|\1|p' <<<"$out")
    if ((status != 0 || ${#names[@]} == 0)); then
        warn "mk/plot.sh $lab could not draw the figures (exit $status):"$'\n'"$out"
        echo "_No figures: \`mk/plot.sh $lab $csv_shown $outdir\` failed:_"
        echo
        sed 's/^/    /' <<<"$out"
        return
    fi
    # Messages from the lab's plot script (a curve left out, an empty figure) go in as well.
    local notes
    notes=$(grep -v -e '^figures written:' -e '^  .*\.png$' -e '^plotting ' <<<"$out")
    local name
    local label=
    [[ $sample == yes ]] && label=" (the course sample, not yours)"
    for name in "${names[@]}"; do
        printf '![%s](%s)\n\n' "${name%.png}$label" "$name"
    done
    if [[ -n $notes ]]; then
        echo "Notes from the plot script:"
        echo
        sed 's/^/    /' <<<"$notes"
    fi
}

# --- the questions of the handout -------------------------------------------------------------
questions() {
    if [[ -z $handout ]]; then
        warn "$manifest names no handout, so the report lists no questions"
        echo "_$manifest names no handout (key \`handout\`), so there are no questions to list._"
        return
    fi
    if [[ ! -f $handout ]]; then
        warn "the handout $handout does not exist, so the report lists no questions"
        echo "_The handout $handout was not found, so there are no questions to list._"
        return
    fi
    local text
    text=$(awk '
    function flush(    i, first, rest, title, n) {
        if (!nlines) return
        while (nlines > 0 && lines[nlines] ~ /^[[:space:]]*$/) nlines--
        first = lines[1]; title = ""; rest = first
        if (match(first, /^\*\*[^*]+\*\*/)) {
            title = substr(first, 3, RLENGTH - 4); sub(/[.:][[:space:]]*$/, "", title)
            rest = substr(first, RLENGTH + 1); sub(/^[[:space:]]+/, "", rest)
        }
        printf "### Question %s%s\n\n", number, (title == "" ? "" : ": " title)
        n = 0
        if (rest != "") { print "> " rest; n++ }
        for (i = 2; i <= nlines; i++) {
            if (lines[i] ~ /^[[:space:]]*$/) { if (n) print ">" }
            else { print "> " lines[i]; n++ }
        }
        print "\n_Your answer:_\n"
        nlines = 0; count++
    }
    {
        sub(/\r$/, "")
        # Inside a fenced code block nothing is a heading or an item (a shell comment is not).
        fenced = in_fence
        if ($0 ~ /^[[:space:]]*(```|~~~)/) { in_fence = !in_fence; fenced = 1 }
        if (!fenced && $0 ~ /^#+[[:space:]]/) {
            level = match($0, /[^#]/) - 1
            if (in_section && level <= section_level) { flush(); in_section = 0; item = 0 }
            if (!in_section && !seen && $0 ~ /Questions/) { in_section = 1; seen = 1; section_level = level; next }
        }
        if (!in_section) next
        if (!fenced && $0 ~ /^[0-9]+\.[[:space:]]/) {
            flush()
            item = 1; number = $0; sub(/\..*/, "", number)
            match($0, /^[0-9]+\.[[:space:]]+/); indent = RLENGTH
            lines[nlines = 1] = substr($0, indent + 1)
        } else if (item) {
            if (!fenced && blank && $0 ~ /^[^[:space:]]/) { flush(); item = 0 }
            else {
                # The item'"'"'s own indentation goes, so nested lists and code blocks keep theirs.
                line = $0
                for (i = 0; i < indent && substr(line, 1, 1) == " "; i++) line = substr(line, 2)
                lines[++nlines] = line
            }
        }
        blank = ($0 ~ /^[[:space:]]*$/)
    }
    END { flush(); if (!count) exit 1 }' "$handout")
    if (($? != 0)); then
        warn "$handout has no numbered list under a \"Questions\" heading, so the report lists no questions"
        echo "_$handout has no numbered list under a heading with \"Questions\" (the format is at the top of mk/report.sh)._"
        return
    fi
    echo "From [$handout]($(rel_to_outdir "$handout"))."
    echo
    printf '%s\n' "$text"
}
# rel_to_outdir PATH: PATH (relative to the repository) as a link from OUTDIR, where the report lies.
rel_to_outdir() {
    local out
    out=$(cd "$outdir_path" && pwd -P)
    if command -v realpath >/dev/null 2>&1; then
        realpath -m --relative-to="$out" "$root/$1"
    else
        printf '%s\n' "$root/$1"
    fi
}

draft=$(mktemp) || exit 1
trap 'rm -f "$draft"' EXIT
{
    echo "# ${title:-$lab}: report"
    echo
    echo "Lab \`$lab\`. Written by \`mk/report.sh\` on $(date '+%Y-%m-%d %H:%M'); fill in every _Your answer:_."
    echo
    echo "## Where it was measured"
    echo
    if [[ $sample == yes ]]; then echo "$not_yet The GPU, its driver and its clocks come from the head of your sweep."; else where; fi
    echo
    echo "## Measured results"
    echo
    if [[ $sample == yes ]]; then
        echo "$not_yet Your table goes here."
    else
        echo "From \`$csv_shown\`: your own sweep."
        echo
        table
    fi
    echo
    echo "## Figures"
    echo
    if [[ $sample == yes ]]; then echo "$sample_note"; echo; fi
    figures
    echo
    echo "## Questions"
    echo
    questions
} >"$draft"

# The first free name: report.md, else report-2.md, report-3.md, ... (created exclusively, so
# two reports written at once cannot take the same name).
number=1
while :; do
    name=report.md
    ((number > 1)) && name=report-$number.md
    if (set -o noclobber; : >"$outdir_path/$name") 2>/dev/null; then break; fi
    number=$((number + 1))
    ((number > 999)) && { echo "error: $outdir holds report.md to report-999.md already" >&2; exit 1; }
done
cat "$draft" >"$outdir_path/$name" || { echo "error: cannot write $outdir/$name" >&2; exit 6; }
if ((number > 1)); then
    echo "report written: ${outdir%/}/$name (report.md exists already and was left as it is)"
else
    echo "report written: ${outdir%/}/$name"
fi
if [[ $sample == yes ]]; then
    echo "(no sweep of yours yet: its figures are the course's sample, labelled so, and it has no measurements; run make $lab-sweep, then make $lab-report)"
fi
((warnings > 0)) && echo "(see the warnings above: the report says what is missing)" >&2
exit 0
