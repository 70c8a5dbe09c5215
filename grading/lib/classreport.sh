# The class's reports: the gradebook, the similarity report and the summary (write_class_reports),
# then the class report and the leaderboard (write_class_pages).
#
# The class report (OUT/class-report.md, instructor only; grading/class_report.hpp): `grader
# class-pages` writes the Markdown and, in OUT/class-report/, a gnuplot script and its data for
# each figure, which gnuplot draws here. Without gnuplot, or when it fails, the report is
# written again saying so: its tables hold the same numbers. Sourced by grade.sh.

# draw_class_figures FOLDER PNG...: runs every gnuplot script of FOLDER there; prints why, and
# fails, when one fails or a figure the report links to was not written.
draw_class_figures() {
    local folder=$1 png log=gnuplot.log
    shift
    (cd "$folder" && for script in *.gp; do gnuplot "$script" || exit 1; done) >"$folder/$log" 2>&1 ||
        { echo "gnuplot failed (its messages: ${folder##*/}/$log)"; return 1; }
    for png in "$@"; do
        [[ -s $folder/$png ]] || { echo "gnuplot wrote no $png (its messages: ${folder##*/}/$log)"; return 1; }
    done
    [[ -s $folder/$log ]] || rm -f -- "$folder/$log"
}

# The class's gradebook, similarity report and summary, from every student's score files
# (grader class-summary: gradebook.csv, similarity.csv and summary.txt's text).
write_class_reports() {
    "$GRADER" class-summary --out "$OUT" --labs "${LABS[*]}" --manifests "$MANIFESTS" --threshold "$SIMILARITY" \
        >"$OUT/summary.txt" || die "cannot write the gradebook and the similarity report"
    {
        echo
        cat "$OUT/summary.txt"
        echo
        echo "Sandbox: $(cat "$OUT/isolation.txt" 2>/dev/null)"
        echo "Gradebook: $OUT/gradebook.csv; feedback: $OUT/students/NAME/feedback.md and results.json"
    } >&2
}

# The class report and the leaderboard (grader class-pages, one process for both): last, once
# the run's time line is complete.
write_class_pages() {
    local folder=$OUT/class-report why="" figures options
    rm -rf -- "$folder"
    options=(--out "$OUT" --labs "${LABS[*]}" --manifests "$MANIFESTS" --threshold "$SIMILARITY"
        --when "$(date '+%Y-%m-%d %H:%M')" --gpu "$(gpu_in_words)")
    # A Slurm collection has no time line of its own: each task's log has one.
    [[ $SLURM == collect ]] || options+=(--timings "$RUN_DIR/timings.tsv")
    leaderboard_entrants
    options+=("${LEADERBOARD_ENTRANTS[@]}")
    local pages="the class report${LEADERBOARD_ENTRANTS[*]:+ and the leaderboard}"
    command -v gnuplot >/dev/null || why="gnuplot is not installed here (apt-get install gnuplot-nox)"
    figures=$("$GRADER" class-pages "${options[@]}" ${why:+--no-figures "$why"}) || die "cannot write $pages"
    if [[ -z $why ]] && ! why=$(draw_class_figures "$folder" $figures); then
        "$GRADER" class-pages "${options[@]}" --no-figures "$why" >/dev/null || die "cannot write $pages"
    fi
    [[ -z $why ]] || say "The class report's figures could not be drawn: $why"
    say "Class report (instructor only): $OUT/class-report.md"
    ((${#LEADERBOARD_ENTRANTS[@]})) && say "Leaderboard (pseudonyms only, may be posted): $OUT/leaderboard.md and leaderboard.csv"
    return 0
}
