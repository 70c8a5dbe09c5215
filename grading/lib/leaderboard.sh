# The leaderboard an instructor can post (grade.sh --leaderboard; grading/leaderboard.hpp):
# OUT/leaderboard.md and leaderboard.csv. Students appear under a pseudonym, a salted hash of
# their name; the salt is drawn once per output folder and kept in OUT/.grader/leaderboard-salt
# (load_secrets), so a regrade or --resume keeps every pseudonym, and no one without it can
# tell whose a pseudonym is. A student with a file named NO-LEADERBOARD in the submission is
# left off. Sourced by grade.sh.

# Whether student ID asked to be left off: a file (or folder) named NO-LEADERBOARD, in any case,
# with or without an extension (NO-LEADERBOARD.txt, as Notepad saves it), anywhere in the
# unpacked submission: at its top or in a lab's folder, as the layouts allow.
off_leaderboard() {
    [[ -n $(find "$OUT/students/$1/submission" \( -iname NO-LEADERBOARD -o -iname 'NO-LEADERBOARD.*' \) -print -quit 2>/dev/null) ]]
}

# "anon-" and the first 10 hex digits of sha256 over the salt and the student's name.
leaderboard_pseudonym() {
    printf 'anon-%s\n' "$(printf '%s\n%s\n' "$LEADERBOARD_SALT" "$1" | sha256sum | cut -c1-10)"
}

# The options of `grader report` for student ID: its pseudonym, or that it is left off (the
# feedback says which); none without --leaderboard.
leaderboard_report_options() {
    LEADERBOARD_OPTIONS=()
    [[ $LEADERBOARD == yes ]] || return 0
    if off_leaderboard "$1"; then
        LEADERBOARD_OPTIONS=(--off-leaderboard)
    else
        LEADERBOARD_OPTIONS=(--pseudonym "$(leaderboard_pseudonym "$1")")
    fi
}

# The leaderboard's options of `grader class-pages` (LEADERBOARD_ENTRANTS): --entrants FILE, every
# student graded in OUT who takes part, under a pseudonym; the names behind the pseudonyms are
# that file, OUT/.grader/leaderboard-pseudonyms.tsv, for the instructor. Without --leaderboard,
# none, and an earlier run's leaderboard is removed: it would no longer match the gradebook.
leaderboard_entrants() {
    LEADERBOARD_ENTRANTS=()
    if [[ $LEADERBOARD != yes ]]; then
        rm -f -- "$OUT/leaderboard.md" "$OUT/leaderboard.csv"
        return 0
    fi
    local entrants=$PRIVATE/leaderboard-pseudonyms.tsv folder id
    : >"$entrants"
    for folder in "$OUT"/students/*/; do
        [[ -d $folder ]] || continue  # no student at all: the pattern itself
        id=$(basename "$folder")
        off_leaderboard "$id" || printf '%s\t%s\n' "$id" "$(leaderboard_pseudonym "$id")" >>"$entrants"
    done
    LEADERBOARD_ENTRANTS=(--entrants "$entrants")
}
