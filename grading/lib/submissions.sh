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

too_large() {
    local files=$1 bytes=$2
    if ((files > MAX_SUBMISSION_FILES)); then echo "the submission holds $files files (at most $MAX_SUBMISSION_FILES)"; return 0; fi
    if ((bytes > MAX_SUBMISSION_BYTES)); then echo "the submission holds $((bytes >> 20)) MB (at most $((MAX_SUBMISSION_BYTES >> 20)) MB)"; return 0; fi
    return 1
}

# The first name under FOLDER that is no plain file or folder, or that holds a control
# character (a line break in a name could forge a line of the lists below).
odd_entry() {
    local odd
    odd=$(find "$1" -mindepth 1 \( ! -type f ! -type d -o -name '*[[:cntrl:]]*' \) -print -quit)
    [[ -n $odd ]] && printf '%q\n' "${odd#"$1"/}" | cut -c1-120
}

copy_folder() {
    local source=$1 dest=$2 odd files bytes
    odd=$(odd_entry "$source")
    if [[ -n $odd ]]; then
        echo "the folder holds a link, a special file or a name with a control character, which is not accepted: $odd"
        return 1
    fi
    files=$(find "$source" -type f | wc -l)
    ((files == 0)) && { echo "the submission is empty"; return 1; }
    bytes=$(du -sb "$source" | cut -f1)
    too_large "$files" "$bytes" && return 1
    cp -R -- "$source/." "$dest/" || { echo "the folder could not be copied"; return 1; }
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
        copy_folder "$entry" "$dest" || return 1
    elif [[ -f $entry && ( $name == *.tar.gz || $name == *.tgz || $name == *.zip ) ]]; then
        unpack_archive "$entry" "$dest" || return 1
    else
        echo "'$name' is not a folder, a .tar.gz or a .zip: submit one of those (grading/README.md)"
        return 1
    fi
    # Defence in depth: whatever unpacked it, nothing but plain files and folders with plain
    # names stays.
    local odd
    odd=$(odd_entry "$dest")
    if [[ -n $odd ]]; then
        rm -rf -- "${dest:?}"/* "$dest"/.[!.]* 2>/dev/null
        echo "the submission holds a link, a special file or a name with a control character, which is not accepted: $odd"
        return 1
    fi
    chmod -R u+rwX "$dest"
}

# The folder the layouts are looked up in: the unpacked submission, or the one folder it
# holds when it holds nothing else (zipping a folder wraps it so). macOS litter is ignored.
submission_root() {
    local root=$1 entries=() entry
    for entry in "$root"/* "$root"/.[!.]*; do
        [[ -e $entry ]] || continue
        case ${entry##*/} in __MACOSX | .DS_Store | ._*) continue ;; esac
        entries+=("$entry")
    done
    if ((${#entries[@]} == 1)) && [[ -d ${entries[0]} ]]; then
        case ${entries[0]##*/} in labs | lab[0-9]*) ;; *) root=${entries[0]} ;; esac
    fi
    printf '%s\n' "$root"
}
