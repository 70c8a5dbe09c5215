# Submissions: whose each is, and unpacking them safely. Sourced by grade.sh. The accepted
# layouts are in grading/README.md ("Submissions"); which entry is whose and where a lab's files
# lie are the grader's rules (grading/submission_layout.hpp). Every problem becomes one clear
# line in that student's feedback; none stops the run.

MAX_SUBMISSION_BYTES=$((50 << 20))
MAX_SUBMISSION_FILES=2000

# Fills STUDENT_IDS (in order), ENTRY_OF[id] (a path), NOTE_OF[id] and CONFLICT_OF[id]: which
# entry is whose is the grader's rule (grader submissions, grading/submission_layout.hpp): the
# newest of a student's entries is graded, and none when the newest cannot be told.
collect_submissions() {
    declare -gA ENTRY_OF=() CONFLICT_OF=() NOTE_OF=()
    declare -ga STUDENT_IDS=()
    local list=$RUN_DIR/submissions id entry note conflict
    "$GRADER" submissions --dir "$SUBMISSIONS" >"$list" || die "cannot list the submissions in $SUBMISSIONS"
    while IFS= read -r -d '' id && IFS= read -r -d '' entry && IFS= read -r -d '' note && IFS= read -r -d '' conflict; do
        STUDENT_IDS+=("$id")
        ENTRY_OF[$id]=$SUBMISSIONS/$entry
        [[ -z $note ]] || NOTE_OF[$id]=$note
        [[ -z $conflict ]] || CONFLICT_OF[$id]=$conflict
    done <"$list"
}

# check_submission FOLDER WHAT: what makes FOLDER unusable, printed (exit 1): a link, a special
# file or a control character in a name, no file, too many files or bytes (grader
# check-submission, grading/submission_layout.hpp; nothing in it is followed or opened).
check_submission() {
    "$GRADER" check-submission --dir "$1" --what "$2" --max-files "$MAX_SUBMISSION_FILES" --max-bytes "$MAX_SUBMISSION_BYTES"
    case $? in 0) return 0 ;; 1) return 1 ;; *) die "grader check-submission failed on $1" ;; esac
}

# unpack_archive ARCHIVE DEST: grading/unpack.py, inside the sandbox, in a box of its own, under
# a file-size and a wall-clock limit; it counts what it writes (never what the archive claims)
# and refuses links, special files, escaping or control-character names and bombs.
unpack_archive() {
    local archive=$1 dest=$2 box=$BOXES/.unpack extension
    case $archive in *.zip) extension=zip ;; *) extension=tar.gz ;; esac
    rm -rf -- "$box" "$box.tsv" "$box.out" && mkdir -p -- "$box/out"
    cp -- "$archive" "$box/archive.$extension" && cp -- "$GRADING_DIR/unpack.py" "$box/" ||
        die "cannot copy $archive into the unpacking box"
    sandbox_options 0
    lend_box "$box" 0
    "$SANDBOX" "${SANDBOX_ARGS[@]}" --box "$box" --status "$box.tsv" --stdout "$box.out" --stderr "$box.out" \
        --wall 120 --nproc 16 --fsize "$MAX_SUBMISSION_BYTES" -- \
        "$PYTHON" -I unpack.py "archive.$extension" out "$MAX_SUBMISSION_FILES" "$MAX_SUBMISSION_BYTES"
    take_back_box "$box"
    local outcome exit_code
    outcome=$(field_of "$box.tsv" outcome) exit_code=$(field_of "$box.tsv" exit)
    if [[ $outcome == exited && $exit_code == 0 ]]; then
        rmdir -- "$dest" && mv -- "$box/out" "$dest"
        rm -rf -- "$box" "$box.tsv" "$box.out"
        return 0
    fi
    case $outcome/$exit_code in
        exited/1) head -1 "$box.out" | cut -c1-300 ;;
        output-limit/*) echo "a file of the submission is larger than $((MAX_SUBMISSION_BYTES >> 20)) MB" ;;
        timeout/*) echo "the archive took more than 120 s to unpack" ;;
        *) echo "the archive could not be unpacked ($outcome, exit $exit_code)" ;;
    esac
    rm -rf -- "$box" "$box.tsv" "$box.out"
    return 1
}

# Unpacks the student's entry into DEST (an empty folder). Prints one problem and fails when
# the submission cannot be used at all.
unpack_submission() {
    local entry=$1 dest=$2 name=${1##*/}
    if [[ -L $entry ]]; then
        echo "the submission '$name' is a symbolic link, which is not accepted"
        return 1
    fi
    if [[ -d $entry ]]; then
        check_submission "$entry" folder || return 1
        cp -R -- "$entry/." "$dest/" || { echo "the folder could not be copied"; return 1; }
    elif [[ -f $entry && ( $name == *.tar.gz || $name == *.tgz || $name == *.zip ) ]]; then
        unpack_archive "$entry" "$dest" || return 1
    else
        echo "'$name' is not a folder, a .tar.gz or a .zip: submit one of those (grading/README.md)"
        return 1
    fi
    # Defence in depth: whatever unpacked it, nothing but plain files and folders with plain
    # names stays.
    if ! check_submission "$dest" submission; then
        rm -rf -- "${dest:?}"/* "$dest"/.[!.]* 2>/dev/null
        return 1
    fi
    chmod -R u+rwX "$dest"
}
