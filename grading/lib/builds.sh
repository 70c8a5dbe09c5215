# Student builds: `make <lab>-build` in the student's work folder, inside the sandbox, many at
# a time (--jobs). Then its checks: what it read, the forbidden APIs of the sources and of the
# object files' symbols, the symbols themselves. Sourced by grade.sh.

BUILD_WALL=${GRADE_BUILD_SECONDS:-600}

# build_one SLOT "STUDENT<TAB>LAB": the pool's worker function.
build_one() {
    local slot=$1 student lab
    IFS=$'\t' read -r student lab <<<"$2"
    local dir=$OUT/students/$student/$lab box=$BOXES/$student/$lab
    local started=$EPOCHREALTIME goals=("$lab-graded" "grading-preprocess-$lab")
    # The PTX only for a lab with construct rules (grader plan): nvcc once more per student.
    [[ ${LAB_NEEDS_PTX[$lab]-} == yes ]] && goals+=("grading-ptx-$lab")
    sandbox_options "$slot"
    lend_box "$box" "$slot"
    "$SANDBOX" "${SANDBOX_ARGS[@]}" --box "$box" --status "$dir/build/sandbox.tsv" --stdout "$dir/build/log.txt" \
        --stderr "$dir/build/log.txt" --wall "$BUILD_WALL" --nproc 256 --fsize $((1 << 30)) -- \
        make --no-print-directory BUILD=build CUDA_ARCH="$CUDA_ARCH" "${goals[@]}"
    take_back_box "$box"
    add_time build "$(seconds_since "$started")"
    local outcome exit_code binary=$box/build/bin/$lab-graded
    outcome=$(field_of "$dir/build/sandbox.tsv" outcome)
    exit_code=$(field_of "$dir/build/sandbox.tsv" exit)
    if [[ $outcome == timeout ]]; then
        echo timeout >"$dir/build/status"
    elif [[ $outcome != exited || $exit_code != 0 || ! -f $binary || -L $binary ]]; then
        echo failed >"$dir/build/status"
    else
        echo ok >"$dir/build/status"
        check_build "$student" "$lab" || echo failed >"$dir/build/status"
        # What only the build and its scans read: every run copies the box afresh (grader run-group),
        # and the objects are most of it (17 MB of a lab's 18).
        rm -rf -- "$box/build/obj" "$box/build/pre" "$box/build/ptx"
    fi
    log "build $student $lab: $(<"$dir/build/status")"
}

# After a build, its checks, in one grader process (check-build). What the build read (the
# compiler's own list, and .incbin in the preprocessed files) must lie in the lab, common/ or the
# CUDA toolkit: no spelling of an include reaches the grader's files. Then the manifest's
# forbidden patterns, in the sources, in the names their objects use (listed here with nm -P,
# for this scan and the symbol check) and in the headers their translation units included
# beyond the starter's; the parts' construct rules in their PTX. A forbidden API zeroes the lab
# and is reported at its source line, with the manifest's reason; there is nothing more to
# check. Otherwise what each object uses and defines must be what the lab allows, and nothing
# that replaces trusted code (grading/symbol_check.hpp), which catches what no source pattern
# can (a name built at run time for dlsym, a trusted symbol redefined). A problem makes the
# submission one that cannot be graded, with the reason (problems.txt).
check_build() {
    local student=$1 lab=$2 file problems listed=yes missing=""
    local dir=$OUT/students/$student/$lab box=$BOXES/$student/$lab
    mkdir -p -- "$dir/symbols"
    for file in ${LAB_FILES[$lab]}; do
        local object=$box/build/obj/labs/$lab/$file.o
        if [[ ! -f $object || -L $object ]]; then
            listed=no missing="the object file of $file is missing after the build"
            break
        fi
        nm -P -- "$object" >"$dir/symbols/$file.nmp" 2>>"$dir/build/log.txt" || { listed=no; break; }
    done
    # Without every object's symbols, only what the build read is checked: the build failed.
    local checks=(--box "$box" --allow "$(dirname "$(dirname "$(realpath -e "$NVCC")")")")
    [[ $listed == yes ]] && checks+=(--out "$dir/forbidden.tsv" --sources "$box/labs/$lab" --symbols "$dir/symbols"
        --compiled "$box/build" --starter-headers "${TEMPLATE[$lab]}.starter.headers"
        --trusted "${TEMPLATE[$lab]}.nm" --starter "${TEMPLATE[$lab]}.starter.nm")
    problems=$("$GRADER" check-build --plan "$PLAN_DIR/$lab.tsv" "${checks[@]}")
    case $? in
        0) ;;
        1) printf '%s\n' "$problems" >"$dir/problems.txt"; return 1 ;;
        *) die "grader check-build failed on $dir" ;;
    esac
    [[ -n $missing ]] && echo "$missing" >>"$dir/build/log.txt"
    [[ $listed == yes ]]
}
