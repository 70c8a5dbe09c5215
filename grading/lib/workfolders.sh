# Work folders: every student x lab is built in a fresh copy of the pristine lab (a
# "template") plus only the files the manifest names. The template holds the trusted objects
# (the driver's sources and common/) already compiled, so a student build compiles only the
# student's files and links. Sourced by grade.sh.

# The pristine sources a lab's build reads, relative to the repository: the build system,
# common/ (with its shared CPU references, common/reference/) and the lab's folder without
# its student files, with the data in its subfolders (lab3's graphs/, which its cases read).
template_sources() {
    local lab=$1 file
    (cd "$REPO" && for file in Makefile mk/*.mk mk/*.sh common/* common/*/* "labs/$lab"/* "labs/$lab"/*/*; do
        [[ -f $file ]] || continue
        [[ " ${LAB_FILES[$lab]} " == *" ${file##*/} "* && $file == labs/$lab/* ]] && continue
        printf '%s\n' "$file"
    done)
}

# Where the starter files of LAB are, from the repository root: labs/LAB in the instructor's
# copy; in the student tarball, whose labs/LAB holds the student's work, the pristine copies
# make dist keeps in grading/starters/LAB (the symbol check and the header scan compare a
# submission with the starter).
starter_folder() {
    if [[ -d $REPO/grading/starters/$1 ]]; then echo grading/starters/$1; else echo labs/$1; fi
}

# for_labs_side_by_side FUNCTION LAB...: FUNCTION LAB (make_template, make_reference_binary) for
# every lab at once in the background, then once more for each in turn, which finds the work
# done (or does it again and stops the run with its message) and sets what it sets in this
# shell. The labs compile independently, and a lab's heaviest file compiles on one CPU: eight
# labs' trusted objects took 98 s one after another on an H200, 43 of them lab 6's.
for_labs_side_by_side() {
    local function=$1 lab pids=()
    shift
    if (($# > 1)); then
        for lab in "$@"; do "$function" "$lab" & pids+=($!); done
        wait "${pids[@]}"
    fi
    for lab in "$@"; do "$function" "$lab"; done
}

# Builds (once; cached by the content of its sources and the compilers) the template of LAB
# and sets TEMPLATE[LAB] to its folder. GRADE_TEMPLATE_CACHE=DIR (a folder only the grader
# writes) keeps the templates across runs too, under the same key: the grading tests, which
# run grade.sh many times on the same lab, compile its trusted objects once.
make_template() { with_lock "$PRIVATE/template-$1.lock" build_template "$1"; }
build_template() {
    local lab=$1 key sources folder
    mapfile -t sources < <(template_sources "$lab")
    local starters=(${LAB_FILES[$lab]})
    # The key: the compilers, the sources, and this file's recipe (a cached template made by an
    # older recipe is not reused).
    local recipe
    recipe=$(sha256sum <"${BASH_SOURCE[0]}") || die "cannot read ${BASH_SOURCE[0]}"
    key=$(cd "$REPO" && content_key "$CUDA_ARCH $($NVCC --version | tail -1) $(${CXX:-g++} --version | head -1) $recipe" \
        "${sources[@]}" "${starters[@]/#/$(starter_folder "$lab")/}")
    folder=$PRIVATE/templates/$lab-$key
    TEMPLATE[$lab]=$folder
    template_complete "$folder" && return 0
    if [[ -n ${GRADE_TEMPLATE_CACHE-} ]]; then
        mkdir -p -- "$GRADE_TEMPLATE_CACHE" || die "cannot make the template cache $GRADE_TEMPLATE_CACHE"
        with_lock "$GRADE_TEMPLATE_CACHE/$lab-$key.lock" template_through_cache "$lab" "$folder" "$GRADE_TEMPLATE_CACHE/$lab-$key" "${sources[@]}"
    else
        compile_template "$lab" "$folder" "${sources[@]}"
    fi
}
template_complete() { [[ -d $1 && -f $1.nm && -f $1.starter.nm && -f $1.starter.headers ]]; }
# template_through_cache LAB FOLDER CACHED SOURCES...: FOLDER (and its three lists beside it)
# copied from CACHED, which is compiled first where missing.
template_through_cache() {
    local lab=$1 folder=$2 cached=$3 suffix
    shift 3
    if template_complete "$cached"; then
        say "  the trusted objects of $lab: kept from an earlier run"
        mkdir -p -- "${folder%/*}" || die "cannot make ${folder%/*}"
        for suffix in "" .nm .starter.nm .starter.headers; do
            cp -a -- "$cached$suffix" "$folder$suffix" || die "cannot copy the template of $lab from $cached"
        done
        return 0
    fi
    compile_template "$lab" "$folder" "$@"
    rm -rf -- "$cached" "$cached.partial" "$cached".*.partial
    # The folder last: the entry is complete once it is there (template_complete).
    for suffix in .nm .starter.nm .starter.headers ""; do
        cp -a -- "$folder$suffix" "$cached$suffix.partial" && mv -- "$cached$suffix.partial" "$cached$suffix" ||
            die "cannot keep the template of $lab in $GRADE_TEMPLATE_CACHE"
    done
}
# seed_objects LAB FOLDER: the trusted objects of LAB that this repository's own build compiled
# with the very command FOLDER's make would run (the Makefile keeps it beside each object, .cmd),
# copied there with their dependency lists and their times: make then compiles only what changed
# since. On an H200, compiling the eight labs' took 112 s of a make test after a clean build. A
# build folder outside the repository may be another copy's (the grading tests'): nothing is
# taken from it.
seed_objects() {
    local lab=$1 folder=$2 line object
    [[ $BUILD == "$REPO"/* ]] || return 0
    mkdir -p -- "$folder/build/obj" || die "cannot make $folder/build/obj"
    while IFS= read -r line; do
        object=${line##* -o build/obj/}
        [[ $object == *.o && $object != */../* && -f $BUILD/obj/$object.cmd && -f $BUILD/obj/${object%.o}.d ]] || continue
        [[ $(<"$BUILD/obj/$object.cmd") == "$line" ]] || continue
        (cd "$BUILD/obj" && cp -p --parents -- "$object" "${object%.o}.d" "$folder/build/obj/") ||
            die "cannot copy $BUILD/obj/$object into the template of $lab"
    done < <(make -n -B -C "$folder" --no-print-directory BUILD=build CUDA_ARCH="$CUDA_ARCH" "grading-trusted-objects-$lab" 2>/dev/null |
        grep -v '^printf' | grep -- ' -c .* -o build/obj/')
}

# compile_template LAB FOLDER SOURCES...: the template, compiled from the sources.
compile_template() {
    local lab=$1 folder=$2 sources
    shift 2
    sources=("$@")
    local partial=$folder.partial
    rm -rf -- "$partial" && mkdir -p -- "$partial"
    (cd "$REPO" && cp -p --parents -- "${sources[@]}" "$partial/") || die "cannot copy the sources of $lab"
    # The student's process can read its box: the manifest there names no hidden case.
    manifest_public "$REPO/labs/$lab/manifest" >"$partial/labs/$lab/manifest" || die "cannot copy the manifest of $lab"
    seed_objects "$lab" "$partial"
    say "  compiling the trusted objects of $lab (driver and common/) once"
    if ! make -C "$partial" --no-print-directory -j "$JOBS" BUILD=build CUDA_ARCH="$CUDA_ARCH" \
            "grading-trusted-objects-$lab" >"$partial.log" 2>&1; then
        die "the pristine $lab does not build: see $partial.log"
    fi
    # What the trusted objects define and use, and what the starter files define (the lab's
    # interface): a student object may replace none of the first but these (symbol_check.hpp).
    find "$partial/build/obj" -name '*.o' -exec nm -P {} + >"$folder.nm" 2>/dev/null ||
        die "cannot list the symbols of the trusted objects of $lab"
    local file objects=()
    for file in ${LAB_FILES[$lab]}; do
        cp -- "$REPO/$(starter_folder "$lab")/$file" "$partial/labs/$lab/$file" || die "cannot copy the starter $file of $lab"
        objects+=("build/obj/labs/$lab/$file.o")
    done
    make -C "$partial" --no-print-directory BUILD=build CUDA_ARCH="$CUDA_ARCH" "${objects[@]}" "grading-preprocess-$lab" \
        >>"$partial.log" 2>&1 &&
        (cd "$partial" && nm -P -- "${objects[@]}") >"$folder.starter.nm" 2>>"$partial.log" ||
        die "the starter files of $lab do not build: see $partial.log"
    # The headers the starter includes: a student's file including more is checked against the
    # forbidden patterns by their paths (grading/source_scan.hpp).
    "$GRADER" headers --preprocessed "$(for file in ${LAB_FILES[$lab]}; do printf '%s ' "$partial/build/pre/labs/$lab/$file.ii"; done)" \
        >"$folder.starter.headers" || die "cannot list the headers the starter files of $lab include"
    for file in ${LAB_FILES[$lab]}; do
        rm -f -- "$partial/labs/$lab/$file" "$partial/build/obj/labs/$lab/$file".* "$partial/build/pre/labs/$lab/$file".*
    done
    mv -- "$partial" "$folder"
}

# The reference solution of LAB, built once from the template and solutions/LAB (trusted, not
# sandboxed). Sets REFERENCE_BIN[LAB] and REFERENCE_KEY[LAB] (which names its cached outputs).
# GRADE_TEMPLATE_CACHE keeps the binary too, under the same key: the grading tests build each
# lab's once (make test's eight took 17 s of an H200's every time).
make_reference_binary() { with_lock "$PRIVATE/reference-build-$1.lock" build_reference_binary "$1"; }
build_reference_binary() {
    local lab=$1 file solution_files=() key folder
    # A self-check has no solution: the driver with the starter, run with --reference-outputs
    # (REFERENCE_ARGS), never runs a part; it writes the CPU reference's answers.
    local solution_folder=solutions/$lab
    [[ ${SELF_CHECK:-no} == yes ]] && solution_folder=$(starter_folder "$lab")
    for file in ${LAB_FILES[$lab]}; do
        [[ -f $REPO/$solution_folder/$file ]] || die "the reference solution solutions/$lab/$file is missing"
        solution_files+=("$solution_folder/$file")
    done
    key=$(cd "$REPO" && content_key "${TEMPLATE[$lab]##*/}" "${solution_files[@]}")
    folder=$PRIVATE/reference-build/$lab-$key
    REFERENCE_KEY[$lab]=$key
    REFERENCE_BIN[$lab]=$folder/build/bin/$lab-student
    [[ -x ${REFERENCE_BIN[$lab]} ]] && return 0
    local cached=${GRADE_TEMPLATE_CACHE:+$GRADE_TEMPLATE_CACHE/reference-$lab-$key}
    if [[ -n $cached && -x $cached ]]; then
        say "  the reference solution of $lab: kept from an earlier run"
        mkdir -p -- "${REFERENCE_BIN[$lab]%/*}" && cp -p -- "$cached" "${REFERENCE_BIN[$lab]}" && return 0
    fi
    rm -rf -- "$folder" && mkdir -p -- "${folder%/*}" && cp -a -- "${TEMPLATE[$lab]}" "$folder"
    for file in ${LAB_FILES[$lab]}; do cp -- "$REPO/$solution_folder/$file" "$folder/labs/$lab/$file"; done
    if ! make -C "$folder" --no-print-directory BUILD=build CUDA_ARCH="$CUDA_ARCH" "$lab-build" >"$folder.log" 2>&1; then
        die "the reference solution of $lab does not build: see $folder.log"
    fi
    if [[ -n $cached ]]; then
        mkdir -p -- "$GRADE_TEMPLATE_CACHE" && cp -p -- "${REFERENCE_BIN[$lab]}" "$cached.$$.partial" &&
            mv -- "$cached.$$.partial" "$cached" || die "cannot keep the reference binary of $lab in $GRADE_TEMPLATE_CACHE"
    fi
}

# Makes the student's folder for LAB: problems.txt when a file is missing or misnamed,
# otherwise work/ (the box: template + the student's files). Returns 1 when there is
# nothing to build.
prepare_lab_folder() {
    local student=$1 lab=$2 root=$3 student_problem=$4
    local dir=$OUT/students/$student/$lab
    rm -rf -- "$dir" "${BOXES:?}/$student/$lab" && mkdir -p -- "$dir/build" "$BOXES/$student" && chmod 711 -- "$BOXES/$student"
    if [[ -n $student_problem ]]; then
        printf '%s\n' "$student_problem" >"$dir/problems.txt"
        return 1
    fi
    # Where the lab's files are is the grader's rule (grader lab-files, grading/submission_layout.hpp).
    local listing=$dir/lab-files found=() files=(${LAB_FILES[$lab]})
    "$GRADER" lab-files --plan "$PLAN_DIR/$lab.tsv" --root "$root" --shared "${SHARED_FILE_NAMES[$lab]}" >"$listing"
    case $? in
        0) mapfile -d '' -t found <"$listing" && rm -f -- "$listing" ;;
        1) mv -- "$listing" "$dir/problems.txt"; return 1 ;;
        *) die "grader lab-files failed on $dir" ;;
    esac
    ((${#found[@]} == ${#files[@]})) || die "grader lab-files listed ${#found[@]} files of ${#files[@]} in $dir"
    local box=$BOXES/$student/$lab i
    cp -a -- "${TEMPLATE[$lab]}" "$box" && chmod 700 -- "$box"
    for i in "${!files[@]}"; do
        # Only from inside the student's submission, and every copy checked.
        if [[ $(realpath -e -- "${found[i]}" 2>/dev/null) != "$(realpath -e -- "$root")"/* ]] ||
            ! cp -- "${found[i]}" "$box/labs/$lab/${files[i]}"; then
            printf '%s could not be taken from the submission\n' "${files[i]}" >"$dir/problems.txt"
            rm -rf -- "$box"
            return 1
        fi
    done
    # A copy for the similarity report (grader class-summary), in the instructor's folder only.
    mkdir -p -- "$dir/files"
    for i in "${!files[@]}"; do cp -- "$box/labs/$lab/${files[i]}" "$dir/files/"; done
    # Includes that reach outside the lab would let the build read the grader's files.
    "$GRADER" scan-includes --plan "$PLAN_DIR/$lab.tsv" --sources "$box/labs/$lab" >"$dir/problems.txt"
    case $? in
        0) rm -f -- "$dir/problems.txt" ;;
        1) rm -rf -- "$box"; return 1 ;;
        *) die "grader scan-includes failed on $dir" ;;
    esac
    return 0
}
