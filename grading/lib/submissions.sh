# Submissions: find them, unpack them safely, and find each lab's files in them. Sourced by
# grade.sh. The accepted layouts are in grading/README.md ("Submissions"). Every problem
# becomes one clear line in that student's feedback; none stops the run.

MAX_SUBMISSION_BYTES=$((50 << 20))
MAX_SUBMISSION_FILES=2000
MAX_STUDENT_FILE_BYTES=$((1 << 20))

# The student's name from the entry's name: a file's extension dropped (.tar.gz as one), and
# any character other than letters, digits and . _ @ + - replaced by _ (it names folders and
# CSV rows). A folder keeps its whole name: "jane.doe" is a name, not an extension.
student_id() {
    local name=$1 is_file=$2
    if [[ $is_file == yes ]]; then
        case $name in
            *.tar.gz) name=${name%.tar.gz} ;;
            ?*.*) name=${name%.*} ;;
        esac
    fi
    name=${name//[^A-Za-z0-9._@+-]/_}
    [[ $name == .* || -z $name ]] && name="_$name"
    printf '%s\n' "$name"
}

# When did the student last change ENTRY: a file's modification time, or the newest of a
# folder's and everything in it (editing a file does not change its folder's time).
entry_time() {
    if [[ -d $1 && ! -L $1 ]]; then
        find "$1" -printf '%T@\n' 2>/dev/null | sort -n | tail -1
    else
        stat -c %.Y -- "$1" 2>/dev/null || stat -c %Y -- "$1"
    fi
}

# Fills STUDENT_IDS (in order), ENTRY_OF[id], NOTE_OF[id] and CONFLICT_OF[id]. Entries that map
# to the same student (alice/ beside alice.tgz) are resolved by a documented rule: the newest
# is graded, and the feedback names the ones ignored; when the newest cannot be told (equal
# times) none is chosen and CONFLICT_OF lists them.
collect_submissions() {
    declare -gA ENTRY_OF=() CONFLICT_OF=() NOTE_OF=()
    declare -ga STUDENT_IDS=()
    local -A all_of=()
    local entry name id
    for entry in "$SUBMISSIONS"/*; do
        [[ -e $entry || -L $entry ]] || continue
        name=${entry##*/}
        id=$(student_id "$name" "$([[ -d $entry && ! -L $entry ]] && echo no || echo yes)")
        if [[ -z ${ENTRY_OF[$id]-} ]]; then
            ENTRY_OF[$id]=$entry
            STUDENT_IDS+=("$id")
        fi
        all_of[$id]+="$entry"$'\n'
    done
    local newest time best tie names
    for id in "${STUDENT_IDS[@]}"; do
        [[ $(grep -c . <<<"${all_of[$id]}") -gt 1 ]] || continue
        best=-1 tie=no names=""
        while IFS= read -r entry; do
            [[ -n $entry ]] || continue
            names+="${names:+, }${entry##*/}"
            time=$(entry_time "$entry")
            if awk -v a="$time" -v b="$best" 'BEGIN { exit !(a > b) }'; then
                best=$time newest=$entry tie=no
            elif awk -v a="$time" -v b="$best" 'BEGIN { exit !(a == b) }'; then
                tie=yes
            fi
        done <<<"${all_of[$id]}"
        if [[ $tie == yes ]]; then
            CONFLICT_OF[$id]=$names
        else
            ENTRY_OF[$id]=$newest
            NOTE_OF[$id]="graded ${newest##*/}, the newest of the entries for this student ($names); the others were ignored"
        fi
    done
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

# Finds LAB's files in a submission root. Prints, NUL-separated (no name can forge a record),
# "file NAME PATH" for each file found and "problem TEXT -" for each one missing, misnamed,
# doubled or too large.
# SHARED_NAMES holds file names that other labs graded in this run use too: those must be in
# a lab folder, since a file at the top could belong to either.
find_lab_files() {
    local root=$1 lab=$2 shared_names=$3 file
    shift 3
    for file in "$@"; do
        local places=("labs/$lab/$file" "$lab/$file") found=() place
        [[ " $shared_names " == *" $file "* ]] || places+=("$file")
        for place in "${places[@]}"; do
            [[ -f $root/$place ]] && found+=("$place")
        done
        if ((${#found[@]} > 1)); then
            printf 'problem\0%s appears in more than one place (%s): keep one\0-\0' "$file" "${found[*]}"
        elif ((${#found[@]} == 1)); then
            if (($(stat -c %s "$root/${found[0]}") > MAX_STUDENT_FILE_BYTES)); then
                printf 'problem\0%s is larger than %d KB\0-\0' "$file" $((MAX_STUDENT_FILE_BYTES >> 10))
            else
                printf 'file\0%s\0%s\0' "$file" "$root/${found[0]}"
            fi
        else
            local stem=${file%.*} similar
            similar=$(cd "$root" && find . -maxdepth 4 -type f \( -iname "$file" -o -iname "$stem.*" -o -iname "*$stem*" \) \
                      -printf '%P\n' 2>/dev/null | head -3 | paste -sd, | sed 's/,/, /g')
            if [[ -n $similar ]]; then
                printf 'problem\0%s is missing; found %s instead: the file must be named exactly %s, at the top of the submission or in %s/\0-\0' \
                    "$file" "${similar:0:200}" "$file" "$lab"
            else
                printf 'problem\0%s is missing (expected %s or %s/%s)\0-\0' "$file" "$file" "$lab" "$file"
            fi
        fi
    done
}
