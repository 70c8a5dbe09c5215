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

# Fills STUDENT_IDS (in order), ENTRY_OF[id] and CONFLICT_OF[id] (the other entries that map
# to the same student: both are then refused, since neither can be chosen safely).
collect_submissions() {
    declare -gA ENTRY_OF=() CONFLICT_OF=()
    declare -ga STUDENT_IDS=()
    local entry name id
    for entry in "$SUBMISSIONS"/*; do
        [[ -e $entry || -L $entry ]] || continue
        name=${entry##*/}
        id=$(student_id "$name" "$([[ -d $entry && ! -L $entry ]] && echo no || echo yes)")
        if [[ -n ${ENTRY_OF[$id]-} ]]; then
            CONFLICT_OF[$id]+="${CONFLICT_OF[$id]:+, }$name"
            continue
        fi
        ENTRY_OF[$id]=$entry
        STUDENT_IDS+=("$id")
    done
}

# A member name that leaves the folder it is unpacked into.
leaves_folder() {
    local name=$1 part
    [[ $name == /* ]] && return 0
    local IFS=/
    for part in $name; do [[ $part == .. ]] && return 0; done
    return 1
}

too_large() {
    local files=$1 bytes=$2
    if ((files > MAX_SUBMISSION_FILES)); then echo "the submission holds $files files (at most $MAX_SUBMISSION_FILES)"; return 0; fi
    if ((bytes > MAX_SUBMISSION_BYTES)); then echo "the submission holds $((bytes >> 20)) MB (at most $((MAX_SUBMISSION_BYTES >> 20)) MB)"; return 0; fi
    return 1
}

# Checks a listing before anything is unpacked: one member type letter and one name per
# member, in the same order. Prints the first problem and fails.
check_members() {
    local -n member_types=$1 member_names=$2
    local i kind
    for i in "${!member_names[@]}"; do
        if leaves_folder "${member_names[$i]}"; then
            echo "the archive holds a path that leaves its folder: ${member_names[$i]:0:120}"
            return 1
        fi
        case ${member_types[$i]} in
            - | d) ;;
            l) kind="a symbolic link" ;;&
            h) kind="a hard link" ;;&
            l | h) echo "the archive holds $kind, which is not accepted: ${member_names[$i]:0:120}"; return 1 ;;
            *) echo "the archive holds a special file (device, pipe or socket): ${member_names[$i]:0:120}"; return 1 ;;
        esac
    done
}

unpack_tar() {
    local archive=$1 dest=$2 listing members names types sizes=0 line
    if ! listing=$(timeout 60 tar -tzvf "$archive" --quoting-style=escape 2>/dev/null) ||
       ! members=$(timeout 60 tar -tzf "$archive" --quoting-style=escape 2>/dev/null); then
        echo "the file is not a readable .tar.gz archive"
        return 1
    fi
    [[ -z $members ]] && { echo "the archive is empty"; return 1; }
    mapfile -t names <<<"$members"
    types=()
    while IFS= read -r line; do
        types+=("${line:0:1}")
        local size
        size=$(awk '{ print $3 }' <<<"$line")
        [[ $size =~ ^[0-9]+$ ]] && sizes=$((sizes + size))
    done <<<"$listing"
    ((${#types[@]} == ${#names[@]})) || { echo "the archive's member names cannot be read"; return 1; }
    check_members types names || return 1
    too_large "${#names[@]}" "$sizes" && return 1
    if ! timeout 120 tar -xzf "$archive" -C "$dest" --no-same-owner --no-same-permissions 2>/dev/null; then
        echo "the archive could not be unpacked"
        return 1
    fi
}

unpack_zip() {
    local archive=$1 dest=$2 info count names types line
    if ! command -v unzip >/dev/null || ! command -v zipinfo >/dev/null; then
        echo "this grading machine cannot open .zip files: install unzip (apt-get install unzip), then grade again with --regrade --student"
        return 1
    fi
    info=$(timeout 60 zipinfo "$archive" 2>&1)
    if grep -q 'number of entries: 0' <<<"$info"; then echo "the archive is empty"; return 1; fi
    count=$(sed -n 's/.*number of entries: \([0-9]*\).*/\1/p' <<<"$info" | head -1)
    if [[ -z $count ]] || ! mapfile -t names < <(timeout 60 unzip -Z1 "$archive" 2>/dev/null); then
        echo "the file is not a readable .zip archive"
        return 1
    fi
    ((${#names[@]} == count)) || { echo "the archive's member names cannot be read"; return 1; }
    types=()
    while IFS= read -r line; do types+=("${line:0:1}"); done < <(sed -n "3,$((count + 2))p" <<<"$info")
    check_members types names || return 1
    local bytes
    bytes=$(timeout 60 unzip -Zt "$archive" 2>/dev/null | sed -n 's/.* \([0-9]*\) bytes uncompressed.*/\1/p')
    too_large "$count" "${bytes:-0}" && return 1
    if ! timeout 120 unzip -q -n "$archive" -d "$dest" >/dev/null 2>&1; then
        echo "the archive could not be unpacked"
        return 1
    fi
}

copy_folder() {
    local source=$1 dest=$2 odd files bytes
    odd=$(find "$source" -mindepth 1 ! -type f ! -type d -print -quit)
    if [[ -n $odd ]]; then
        echo "the folder holds a link or special file, which is not accepted: ${odd#"$source"/}"
        return 1
    fi
    files=$(find "$source" -type f | wc -l)
    ((files == 0)) && { echo "the submission is empty"; return 1; }
    bytes=$(du -sb "$source" | cut -f1)
    too_large "$files" "$bytes" && return 1
    cp -R -- "$source/." "$dest/"
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
    elif [[ -f $entry && ( $name == *.tar.gz || $name == *.tgz ) ]]; then
        unpack_tar "$entry" "$dest" || return 1
    elif [[ -f $entry && $name == *.zip ]]; then
        unpack_zip "$entry" "$dest" || return 1
    else
        echo "'$name' is not a folder, a .tar.gz or a .zip: submit one of those (grading/README.md)"
        return 1
    fi
    # Defence in depth: whatever the listing said, nothing but files and folders stays.
    local odd
    odd=$(find "$dest" -mindepth 1 ! -type f ! -type d -print -quit)
    if [[ -n $odd ]]; then
        rm -rf -- "${dest:?}"/* "$dest"/.[!.]* 2>/dev/null
        echo "the submission holds a link or special file, which is not accepted: ${odd#"$dest"/}"
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

# Finds LAB's files in a submission root. Prints "file<TAB>NAME<TAB>PATH" for each file found
# and "problem<TAB>TEXT" for each one missing, misnamed, doubled or too large.
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
            printf 'problem\t%s appears in more than one place (%s): keep one\n' "$file" "${found[*]}"
        elif ((${#found[@]} == 1)); then
            if (($(stat -c %s "$root/${found[0]}") > MAX_STUDENT_FILE_BYTES)); then
                printf 'problem\t%s is larger than %d KB\n' "$file" $((MAX_STUDENT_FILE_BYTES >> 10))
            else
                printf 'file\t%s\t%s\n' "$file" "$root/${found[0]}"
            fi
        else
            local stem=${file%.*} similar
            similar=$(cd "$root" && find . -maxdepth 4 -type f \( -iname "$file" -o -iname "$stem.*" -o -iname "*$stem*" \) \
                      -printf '%P\n' 2>/dev/null | head -3 | paste -sd, | sed 's/,/, /g')
            if [[ -n $similar ]]; then
                printf 'problem\t%s is missing; found %s instead: the file must be named exactly %s, at the top of the submission or in %s/\n' \
                    "$file" "${similar:0:200}" "$file" "$lab"
            else
                printf 'problem\t%s is missing (expected %s or %s/%s)\n' "$file" "$file" "$lab" "$file"
            fi
        fi
    done
}
