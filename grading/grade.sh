#!/usr/bin/env bash
# grading/grade.sh: grades a class of submissions, safely, into a gradebook.
#
#   grading/grade.sh [options] SUBMISSIONS
#
# SUBMISSIONS is a folder with one entry per student: a folder, a .tar.gz (.tgz) or a .zip
# holding the files the student edits (layouts: grading/README.md). Every student x lab is
# built in a fresh work folder from the pristine lab plus only the files its manifest names,
# in the sandbox, several at a time; then every case runs in the sandbox, in three rounds over
# the class: the public untimed cases, several students at a time per GPU; the performance
# cases, each alone on its GPU; the sanitizers and the hidden cases, several at a time again.
# A checker outside the student's process compares its outputs with the reference solution's.
#
# Options:
#   --labs LIST        labs to grade, comma-separated (default: every lab with a manifest)
#   --out DIR          output folder (default: grading-out); an existing one is refused
#                      unless --resume or --regrade is given
#   --jobs N           builds at a time (default: the number of CPUs)
#   --student NAME     grade this student only (their entry's name without .tar.gz/.zip)
#   --resume           keep what an earlier run in --out finished; grade the rest
#   --regrade          grade again what an earlier run in --out graded (for --student: theirs)
#   --sandbox MODE     auto (default), bwrap or rlimits (grading/README.md, "Isolation")
#   --gpus LIST        GPU indices to run on, comma-separated (default: every usable GPU)
#   --similarity F     list pairs of submissions sharing at least this fraction of what they
#                      wrote themselves in summary.txt (default 0.5; all pairs: similarity.csv)
#   --runners N        students run at a time on each GPU (default: a quarter of the CPUs per
#                      GPU, 1 to 4); a timed run always has its GPU to itself
#   --time-limit S     lower every case's time limit to S seconds (trial runs; --resume keeps it)
#   --budget S         seconds of runs each student may use per lab, all cases and sanitizers
#                      together (default: three of the lab's longest runs, each 2 x its time
#                      limit + 10 s); what is left unrun then scores 0, "not run: budget".
#                      A part the time limit stopped on three cases is not run on the
#                      student's later cases of the lab nor under the sanitizers (each scores
#                      0, "not run"), so a part that never ends leaves the budget to the others
#   --build-only       unpack, check and build, but run no case (a check before the GPU night)
#   --leaderboard      also write DIR/leaderboard.md and leaderboard.csv, which may be posted:
#                      each performance part's correct submissions ranked by time, under
#                      pseudonyms; a student with a file NO-LEADERBOARD in the submission is
#                      left off (grading/README.md, "Leaderboard")
#   --slurm            on a Slurm submit host: unpack, check and build here, then run the cases
#                      as a job array, one GPU per task, and make the gradebook in a job that
#                      waits for them (grading/README.md, "Slurm"); with --resume, only what
#                      is not graded yet
#   --slurm-tasks N    tasks of the job array, each grading its share of the students (default 4)
#   --sbatch 'OPTS'    options for sbatch: partition, account, time (--sbatch '-p gpu -t 1:00:00')
#   --task I/N         (the job array's own) grade the I-th of N shares of the students
#   --collect          (the waiting job's own) the gradebook and summary, once all are graded
#   --self-check       (make labN-check's, grading/self-check.sh) grade the public cases only,
#                      without the reference solution: the CPU reference's answers stand for
#                      its outputs (the driver's --reference-outputs), and the performance
#                      parts are compared with the reference's times committed for this GPU
#                      model (labs/LAB/sample/reference-times/), if any; no class pages
#   --reference-times  (instructor, on a GPU; no SUBMISSIONS) time the reference solution's
#                      public performance cases three times, as a grading run does, on the
#                      first GPU (--gpus), and keep their results.tsv files in
#                      labs/LAB/sample/reference-times/MODEL/ for make labN-check; commit them
#   --help             this text
#
# Output (grading/README.md, "Output"): DIR/gradebook.csv, DIR/summary.txt, DIR/class-report.md
# (instructor only, with its figures in DIR/class-report/) and, per student,
# DIR/students/NAME/feedback.md and results.json (Gradescope's format).
# Exit status: 0 done; 2 bad usage; 3 done, but no GPU was usable so no case ran; 1 the
# grading itself failed (a message says why; --resume picks up where it stopped).
set -uo pipefail
umask 077

GRADING_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$GRADING_DIR/.." && pwd)
SANDBOX=$GRADING_DIR/sandbox.sh
for part in common pool progress submissions uids bubblewrap isolation gpus workfolders builds reference runs scoring slurm classreport leaderboard; do
    # shellcheck source=/dev/null
    source "$GRADING_DIR/lib/$part.sh"
done
# shellcheck source=../mk/manifest.sh
source "$REPO/mk/manifest.sh"

usage() { sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

parse_options() {
    LAB_LIST="" OUT="" JOBS=$(nproc) ONLY_STUDENT="" MODE=new SANDBOX_REQUEST=auto GPU_LIST="" TIME_LIMIT_CAP=""
    SUBMISSIONS="" BUILD_ONLY=no RUNNERS_PER_GPU="" SIMILARITY=0.5 BUDGET="" LEADERBOARD=no
    SLURM=none SLURM_TASKS=4 SBATCH_OPTIONS=() TASK_INDEX=0 TASK_COUNT=1 SELF_CHECK=no REFERENCE_TIMES=no
    while (($#)); do
        case $1 in
            --help) usage; exit 0 ;;
            --labs) LAB_LIST=${2-}; shift 2 ;;
            --out) OUT=${2-}; shift 2 ;;
            --jobs) JOBS=${2-}; shift 2 ;;
            --student) ONLY_STUDENT=${2-}; shift 2 ;;
            --resume) [[ $MODE == regrade ]] && usage_error "--resume and --regrade exclude each other"; MODE=resume; shift ;;
            --regrade) [[ $MODE == resume ]] && usage_error "--resume and --regrade exclude each other"; MODE=regrade; shift ;;
            --sandbox) SANDBOX_REQUEST=${2-}; shift 2 ;;
            --gpus) GPU_LIST=${2-}; shift 2 ;;
            --runners) RUNNERS_PER_GPU=${2-}; shift 2 ;;
            --similarity) SIMILARITY=${2-}; shift 2 ;;
            --time-limit) TIME_LIMIT_CAP=${2-}; shift 2 ;;
            --budget) BUDGET=${2-}; shift 2 ;;
            --build-only) BUILD_ONLY=yes; shift ;;
            --leaderboard) LEADERBOARD=yes; shift ;;
            --slurm) SLURM=submit; shift ;;
            --slurm-tasks) SLURM_TASKS=${2-}; shift 2 ;;
            --sbatch) read -ra SBATCH_OPTIONS <<<"${2-}"; shift 2 ;;
            --task) SLURM=task; TASK_INDEX=${2-}; TASK_INDEX=${TASK_INDEX%%/*}; TASK_COUNT=""; [[ ${2-} == */* ]] && TASK_COUNT=${2#*/}; shift 2 ;;
            --collect) SLURM=collect; shift ;;
            --self-check) SELF_CHECK=yes; shift ;;
            --reference-times) REFERENCE_TIMES=yes; shift ;;
            -*) usage_error "unknown option '$1'" ;;
            *) [[ -n $SUBMISSIONS ]] && usage_error "one SUBMISSIONS folder only, not also '$1'"; SUBMISSIONS=$1; shift ;;
        esac
    done
    if [[ $REFERENCE_TIMES == yes ]]; then
        # Nothing is graded: a private output folder for the builds, removed at the end.
        [[ -z $SUBMISSIONS && -z $OUT ]] || usage_error "--reference-times takes no SUBMISSIONS and no --out"
        SUBMISSIONS=$(mktemp -d) OUT=$SUBMISSIONS/out
        trap 'rm -rf -- "$SUBMISSIONS"' EXIT
    fi
    [[ -n $SUBMISSIONS ]] || usage_error "no SUBMISSIONS folder given"
    [[ -d $SUBMISSIONS ]] || usage_error "SUBMISSIONS '$SUBMISSIONS' is not a folder"
    SUBMISSIONS=$(realpath -e "$SUBMISSIONS")
    [[ $JOBS =~ ^[1-9][0-9]*$ ]] || usage_error "--jobs must be a positive whole number, not '$JOBS'"
    ((JOBS > 64)) && JOBS=64
    [[ $SANDBOX_REQUEST =~ ^(auto|bwrap|rlimits)$ ]] || usage_error "--sandbox must be auto, bwrap or rlimits"
    [[ -z $TIME_LIMIT_CAP || ($TIME_LIMIT_CAP =~ ^[0-9]+(\.[0-9]+)?$ && ! $TIME_LIMIT_CAP =~ ^0+(\.0+)?$) ]] ||
        usage_error "--time-limit must be a number of seconds above 0"
    [[ -z $BUDGET || $BUDGET =~ ^[1-9][0-9]*$ ]] || usage_error "--budget must be a whole number of seconds, 1 or more"
    [[ $SLURM_TASKS =~ ^[1-9][0-9]{0,3}$ ]] || usage_error "--slurm-tasks must be a whole number from 1 to 9999"
    if [[ $SLURM == task ]]; then
        [[ $TASK_COUNT =~ ^[1-9][0-9]*$ && $TASK_INDEX =~ ^[0-9]+$ ]] && ((TASK_INDEX < TASK_COUNT)) ||
            usage_error "--task must be I/N with 0 <= I < N"
    fi
    # The tasks and the collection work in a folder --slurm made.
    [[ $SLURM == task || $SLURM == collect ]] && MODE=resume
    [[ $SLURM == submit ]] && require_sbatch  # before any folder is made
    [[ -z $GPU_LIST || $GPU_LIST =~ ^[0-9]+(,[0-9]+)*$ ]] || usage_error "--gpus must be indices like 0,1"
    [[ -z $RUNNERS_PER_GPU || $RUNNERS_PER_GPU =~ ^[1-9][0-9]?$ ]] || usage_error "--runners must be a whole number from 1 to 99"
    [[ $SIMILARITY =~ ^(0(\.[0-9]+)?|1(\.0*)?)$ ]] || usage_error "--similarity must be a fraction from 0 to 1"
    [[ $SELF_CHECK == yes && $SLURM != none ]] && usage_error "--self-check grades here, not through Slurm"
    OUT=${OUT:-$REPO/grading-out}
}

# The output folder: made new, or reused only when asked and only if the grader made it.
prepare_output_folder() {
    local marker=.grading-output
    if [[ -e $OUT || -L $OUT ]]; then
        [[ -d $OUT && ! -L $OUT && -f $OUT/$marker ]] ||
            usage_error "'$OUT' exists and is not a grading output folder: choose another --out"
        [[ $MODE != new ]] || usage_error "'$OUT' holds an earlier grading: add --resume to finish it, or --regrade to grade again"
    elif [[ $SLURM == task || $SLURM == collect ]]; then
        usage_error "'$OUT' does not exist: --task and --collect work in the output folder of a run with --slurm"
    else
        mkdir -p -- "$OUT" || usage_error "cannot make '$OUT'"
        echo "Made by grading/grade.sh; grading/README.md describes what is here." >"$OUT/$marker"
    fi
    OUT=$(realpath -e "$OUT")
    exec {OUT_LOCK}>"$OUT/.lock"
    if [[ $SLURM == task ]]; then
        # The tasks of one job array share the folder (each grades its own students); the run
        # that submitted them may still be on its way out.
        flock -s -w 300 "$OUT_LOCK" || usage_error "another grading run is using '$OUT'"
    else
        local wait=(-n)
        [[ $SLURM == collect ]] && wait=(-w 300)
        flock -x "${wait[@]}" "$OUT_LOCK" || usage_error "another grading run is using '$OUT'"
    fi
    PRIVATE=$OUT/.grader
    mkdir -p -- "$PRIVATE" "$OUT/students"
    chmod 700 -- "$PRIVATE"
    chmod 700 -- "$OUT"
    LOG_FILE=$OUT/grading.log
    # What belongs to this run alone (GPU locks, timings, probes, progress): concurrent tasks
    # of a job array each have their own GPU 0.
    RUN_ID=$(date +%Y%m%d-%H%M%S)-$$$([[ $SLURM == task ]] && echo "-task$TASK_INDEX")
    RUN_DIR=$PRIVATE/runs/$RUN_ID
    mkdir -p -- "$RUN_DIR"
}

# The grader's own tools, built in the repository's build folder like everything else.
build_tools() {
    BUILD=${BUILD:-build}
    [[ $BUILD == /* ]] || BUILD=$REPO/$BUILD
    GRADER=$BUILD/bin/grader
    # Every sandboxed command, and the reference's runs, under it (grading/affinity_guard.cpp).
    AFFINITY_GUARD=$BUILD/bin/affinity-guard
    # What every driver process the grader starts is told, the reference's and the students':
    # see every launch through CUPTI, and stop where it cannot (common/launch_trace.hpp); a
    # student's self-check traces them where the student's toolkit has CUPTI.
    DRIVER_ARGS=(--launch-trace required)
    [[ $SELF_CHECK == yes ]] && DRIVER_ARGS=(--launch-trace auto)
    if [[ $SLURM == task || $SLURM == collect ]]; then
        [[ -x $GRADER && -x $AFFINITY_GUARD ]] || die "$GRADER is missing: the run with --slurm builds it"  # no build races
    else
        # On --jobs CPUs: a student's first make labN-check compiles the whole grader.
        make -s -C "$REPO" -j "$JOBS" BUILD="$BUILD" "$GRADER" "$AFFINITY_GUARD" >"$PRIVATE/tools.log" 2>&1 ||
            die "cannot build the grader: see $PRIVATE/tools.log"
    fi
    NVCC=$(make -s -C "$REPO" --no-print-directory grading-print-nvcc 2>/dev/null)
    CUDA_ARCH=$(make -s -C "$REPO" --no-print-directory grading-print-arch 2>/dev/null)
    [[ -n $NVCC && -n $CUDA_ARCH ]] || die "cannot find nvcc or the CUDA architectures (make grading-print-arch)"
    # The sandboxed builds and mk/sanitize.sh find nvcc and compute-sanitizer on PATH.
    [[ :$PATH: == *":${NVCC%/*}:"* ]] || export PATH=$PATH:${NVCC%/*}
    SANITIZER=$(command -v compute-sanitizer || true)
    [[ -z $SANITIZER && -x ${NVCC%/*}/compute-sanitizer ]] && SANITIZER=${NVCC%/*}/compute-sanitizer
}

# The grading run's secrets, drawn when it starts and kept in the private folder for --resume
# and for a Slurm job array's tasks: GRADING_SEED, from which every graded case's seed is
# derived (no graded input can be known before grading starts), and SAMPLE_SEED, the positions
# at which the reference outputs of students' checked timed runs are compared (never passed to
# a student's process). With --leaderboard, LEADERBOARD_SALT too, from which the pseudonyms are
# made (grading/lib/leaderboard.sh): drawn once for the output folder, so they stay the same.
draw_secret() {
    local file=$PRIVATE/$1
    if [[ ! -s $file ]]; then
        (set -o noclobber && od -An -N8 -tu8 /dev/urandom | awk '{ printf "%d\n", $1 % 4611686018427387903 + 1 }' >"$file") 2>/dev/null
    fi
    [[ $(<"$file") =~ ^[1-9][0-9]*$ ]] || die "cannot keep the grading run's $1 in $file"
    cat -- "$file"
}
load_secrets() {
    GRADING_SEED=$(draw_secret grading-seed) || exit 1
    SAMPLE_SEED=$(draw_secret sample-seed) || exit 1
    if [[ $LEADERBOARD == yes ]]; then LEADERBOARD_SALT=$(draw_secret leaderboard-salt) || exit 1; fi
}

# The time-limit cap and the wall margin of this run (TIME_LIMIT_CAP, WALL_MARGIN): the command
# line's --time-limit and GRADE_WALL_MARGIN, else, when it resumes an earlier run (--resume, a
# Slurm task or its collection), those of that run's plans, so that every student of a class is
# graded with the same; else none, and the grader's (grading/run_ledger.hpp, WallRules).
keep_planned_limits() {
    local earlier=$PLAN_DIR/${LABS[0]}.tsv cap
    WALL_MARGIN=${GRADE_WALL_MARGIN-}
    if [[ $MODE == resume && -f $earlier ]]; then
        cap=$(field_of "$earlier" time_limit)
        [[ -n $TIME_LIMIT_CAP || $cap == 0 ]] || TIME_LIMIT_CAP=$cap
        [[ -n $WALL_MARGIN ]] || WALL_MARGIN=$(field_of "$earlier" margin)
    fi
}

# Every lab's plan, from its manifest through `grader plan` (which checks the manifest). A case's
# arguments and time limit in this run are the grader's to write (grader run-group, reference.sh).
declare -A LAB_FILES=() LAB_CASES=() LAB_PERF_CASES=() LAB_NEEDS_PTX=()
declare -A SANITIZE_CASE=() SHARED_FILE_NAMES=() LAB_TITLE=() REFERENCE_DIR=()
# The cases of each round by kind (LAB/public-untimed, public-timed, hidden-untimed,
# hidden-timed) and what a student x lab runs in each (LAB/ROUND: "UNTIMED TIMED" processes):
# grading/round_plan.hpp.
declare -A ROUND_CASES=() ROUND_WORK=()
# The manifests every grader command reads: the labs' own, or in a self-check their public
# form (manifest_public, as the student tarball ships them), so that no hidden case is graded.
# Each lab's plan in this run (PLAN_DIR/LAB.tsv, grading/plan_file.hpp) is written here, once,
# and every later grader command of the lab reads it (--plan): its manifests, the seeds of the run, the
# time-limit cap and the wall margin.
load_lab_plans() {
    local lab kind a b c d plan
    MANIFESTS=$REPO/labs PLAN_DIR=$PRIVATE/plan
    mkdir -p -- "$PLAN_DIR" || die "cannot make $PLAN_DIR"
    if [[ -z $LAB_LIST ]]; then
        LABS=()
        for lab in "$REPO"/labs/*/manifest; do [[ -f $lab ]] && LABS+=("$(basename "$(dirname "$lab")")"); done
    else
        IFS=, read -ra LABS <<<"$LAB_LIST"
    fi
    ((${#LABS[@]})) || usage_error "no lab to grade"
    keep_planned_limits
    for lab in "${LABS[@]}"; do
        [[ $lab =~ ^[A-Za-z0-9._-]+$ && -f $REPO/labs/$lab/manifest ]] || usage_error "no lab '$lab' (labs/$lab/manifest)"
        if [[ $SELF_CHECK == yes ]]; then
            MANIFESTS=$PRIVATE/manifests
            mkdir -p -- "$MANIFESTS/$lab" && manifest_public "$REPO/labs/$lab/manifest" >"$MANIFESTS/$lab/manifest" ||
                die "cannot copy the manifest of $lab"
        fi
        plan=$("$GRADER" plan --manifests "$MANIFESTS" --lab "$lab" --grading-seed "$GRADING_SEED" --sample-seed "$SAMPLE_SEED" \
            ${TIME_LIMIT_CAP:+--time-limit "$TIME_LIMIT_CAP"} ${WALL_MARGIN:+--margin "$WALL_MARGIN"} --write "$PLAN_DIR/$lab.tsv" \
            $([[ -n $SANITIZER ]] || echo --no-sanitizer) 2>&1) ||
            die "labs/$lab/manifest: $plan" 2
        LAB_CASES[$lab]="" SANITIZE_CASE[$lab]=""
        while IFS=$'\t' read -r kind a b c d _; do
            case $kind in
                title) LAB_TITLE[$lab]=$a ;;
                files) LAB_FILES[$lab]=$a ;;
                perf) LAB_PERF_CASES[$lab]=$a ;;
                ptx) LAB_NEEDS_PTX[$lab]=$a ;;
                case) LAB_CASES[$lab]+="${LAB_CASES[$lab]:+ }$a" ;;
                sanitize) SANITIZE_CASE[$lab]=$a ;;
                round) ROUND_CASES[$lab/$a]=$b ;;
                work) ROUND_WORK[$lab/$a]="$b $c" ;;
            esac
        done <<<"$plan"
    done
    # A file name two labs share must sit in its lab's folder in a submission.
    local other file
    for lab in "${LABS[@]}"; do
        SHARED_FILE_NAMES[$lab]=""
        for other in "${LABS[@]}"; do
            [[ $other == "$lab" ]] && continue
            for file in ${LAB_FILES[$lab]}; do
                [[ " ${LAB_FILES[$other]} " == *" $file "* ]] && SHARED_FILE_NAMES[$lab]+=" $file"
            done
        done
    done
}

# What the sandbox hides: the repository (solutions, reference builds), the output folder
# (reference outputs, other students), the submissions, the other boxes, and the grader's
# home unless the compilers live there.
choose_hidden_paths() {
    HIDDEN_PATHS=("$REPO" "$OUT" "$SUBMISSIONS" "$BOXES")
    local home=${HOME:-}
    if [[ -n $home && -d $home && $home != / ]]; then
        local tool keep=no
        for tool in "$NVCC" "$(command -v "${CXX:-g++}")" "$(command -v make)"; do
            [[ $(realpath -e "$tool" 2>/dev/null) == "$home"/* ]] && keep=yes
        done
        [[ $keep == no ]] && HIDDEN_PATHS+=("$home")
    fi
}

# The students this run grades (SELECTED), after removing what --regrade asks to redo. With
# --resume, a lab marked done is kept as it is (prepare_students skips it).
select_students() {
    collect_submissions
    SELECTED=()
    local id number=0
    for id in "${STUDENT_IDS[@]}"; do
        # A task of a job array (--task I/N) grades every N-th student from the I-th.
        ((number++ % TASK_COUNT == TASK_INDEX)) || continue
        [[ -z $ONLY_STUDENT || $id == "$ONLY_STUDENT" ]] && SELECTED+=("$id")
    done
    if [[ -n $ONLY_STUDENT && ${#SELECTED[@]} == 0 ]]; then
        usage_error "no submission for student '$ONLY_STUDENT' in $SUBMISSIONS"
    fi
    if [[ $MODE == regrade ]]; then
        if [[ -n $ONLY_STUDENT ]]; then
            rm -rf -- "${OUT:?}/students/$ONLY_STUDENT"
        else
            rm -rf -- "${OUT:?}/students" && mkdir -p -- "$OUT/students"
        fi
        rm -f -- "$OUT/gradebook.csv" "$OUT/summary.txt" "$OUT/class-report.md" "$OUT/leaderboard.md" "$OUT/leaderboard.csv"
        rm -rf -- "${OUT:?}/class-report"
    fi
}

# Unpacks each selected submission and prepares its lab folders; fills BUILD_ITEMS.
prepare_students() {
    BUILD_ITEMS=() DONE_COUNT=0
    local id lab
    for id in "${SELECTED[@]}"; do
        local student_dir=$OUT/students/$id todo=()
        for lab in "${LABS[@]}"; do
            if [[ $MODE == resume && -f $student_dir/$lab/done ]]; then
                ((DONE_COUNT++))
            else
                todo+=("$lab")
            fi
        done
        ((${#todo[@]})) || continue
        mkdir -p -- "$student_dir"
        rm -rf -- "$student_dir/submission" && mkdir -- "$student_dir/submission"
        local problem=""
        rm -f -- "$student_dir/notes.txt"
        [[ -n ${NOTE_OF[$id]-} ]] && printf '%s\n' "${NOTE_OF[$id]}" >"$student_dir/notes.txt"
        if [[ -n ${CONFLICT_OF[$id]-} ]]; then
            problem="more than one submission has this name (${CONFLICT_OF[$id]}), changed at the same time: keep one"
        else
            problem=$(unpack_submission "${ENTRY_OF[$id]}" "$student_dir/submission")
        fi
        for lab in "${todo[@]}"; do
            if prepare_lab_folder "$id" "$lab" "$student_dir/submission" "$problem"; then
                BUILD_ITEMS+=("$id"$'\t'"$lab")
            else
                log "not built: $id $lab: $(head -1 "$OUT/students/$id/$lab/problems.txt")"
            fi
        done
    done
}

# The built student x labs, to run on the GPU.
built_items() {
    local item student lab
    RUN_ITEMS=()
    for item in "${BUILD_ITEMS[@]}"; do
        IFS=$'\t' read -r student lab <<<"$item"
        [[ $(cat "$OUT/students/$student/$lab/build/status" 2>/dev/null) == ok ]] && RUN_ITEMS+=("$item")
    done
}

# Each lab's reference binary and case outputs need no student's build: they are made in the
# background (OUTPUTS_AHEAD), each lab's as soon as its template is, beside the other templates,
# the unpacking and the builds; run_on_gpus waits for them and finds them made. Made after the
# builds, they held back the checked-run references that round 2 then waited for: make test's
# grading took 391 s on an H100 after a clean build, 335 s with them made ahead.
make_reference_outputs_ahead() {
    [[ $BUILD_ONLY == no && $SLURM == none ]] && ((${#GPU_IDS[@]})) || return 0
    local lab
    for lab in "${LABS[@]}"; do
        # A failure says why here, and again where the run makes them, which stops it.
        (
            since=$EPOCHREALTIME
            make_template "$lab" && make_reference_binary "$lab" && make_case_outputs "$lab" || exit 1
            log "the reference outputs of $lab: ready after $(seconds_since "$since") s"
            add_time "reference outputs, beside the builds" "$(seconds_since "$since")"
        ) &
        OUTPUTS_AHEAD+=($!)
    done
}

run_on_gpus() {
    ((${#OUTPUTS_AHEAD[@]} == 0)) || wait "${OUTPUTS_AHEAD[@]}"
    built_items
    ((${#RUN_ITEMS[@]})) || return 0
    local item student lab
    if [[ $BUILD_ONLY == yes ]] || ((${#GPU_IDS[@]} == 0)); then
        local why="no GPU was usable on the grading machine ($NO_GPU_REASON)"
        [[ $BUILD_ONLY == yes ]] && why="this grading run only built the submissions (--build-only)"
        for item in "${RUN_ITEMS[@]}"; do
            IFS=$'\t' read -r student lab <<<"$item"
            echo "$why" >"$OUT/students/$student/$lab/not-run.txt"
        done
        [[ $BUILD_ONLY == yes ]] || CASES_NOT_RUN=yes
        return 0
    fi
    phase_begin "reference outputs"
    local labs_to_run=()
    local -A seen=()
    for item in "${RUN_ITEMS[@]}"; do
        IFS=$'\t' read -r student lab <<<"$item"
        [[ -n ${seen[$lab]+x} ]] || labs_to_run+=("$lab")
        seen[$lab]=1
    done
    for_labs_side_by_side make_reference_binary "${labs_to_run[@]}"
    for_labs_side_by_side make_case_outputs "${labs_to_run[@]}"
    for lab in "${labs_to_run[@]}"; do
        # (A task's binary was tried in the sandbox by the run that submitted it.)
        [[ $SLURM == task ]] || check_binary_in_sandbox "$lab"
    done
    phase_end "reference outputs"
    # The reference's check on fresh inputs goes on beside round 1, and round 2 waits for it: no
    # run is timed meanwhile (reference.sh, check_reference_on_fresh_inputs).
    (
        phase_begin "the reference on fresh inputs, beside runs 1"
        check_reference_on_fresh_inputs "${labs_to_run[@]}"
        phase_end "the reference on fresh inputs, beside runs 1"
    ) &
    local probes=$! class_references=
    # Untimed runs are mostly CPU work (start-up, the sanitizers' analysis): a few students per
    # GPU at once keep it busy; timed runs have it to themselves (runs.sh, the rounds).
    RUNNERS=${RUNNERS_PER_GPU:-$DEFAULT_RUNNERS}
    say "Running ${#RUN_ITEMS[@]} submission(s) on ${#GPU_IDS[@]} GPU(s) ($GPU_NAME), $RUNNERS at a time per GPU; timed runs alone"
    local work=0 round
    local -A lab_work=()
    for item in "${RUN_ITEMS[@]}"; do
        lab=${item#*$'\t'}
        [[ -n ${lab_work[$lab]+x} ]] ||
            lab_work[$lab]=$(($(round_work "$lab" 1) + $(round_work "$lab" 2) + $(round_work "$lab" 3)))
        work=$((work + lab_work[$lab]))
    done
    progress_start "$work"
    # In round 2 a GPU runs one timed run at a time (with_gpu exclusive). With CPUs kept beside
    # the timed runs, its other runners meanwhile check the outputs of the students it timed
    # before; without, a runner's checks would share the timed run's CPUs, so there is one.
    local timed_workers=${#GPU_IDS[@]}
    [[ -n $BESIDE_CPUS ]] && timed_workers=$((${#GPU_IDS[@]} * RUNNERS))
    local workers=("$((${#GPU_IDS[@]} * RUNNERS))" "$timed_workers" "$((${#GPU_IDS[@]} * RUNNERS))")
    local rounds=(run_public_round run_timed_round run_hidden_round)
    for round in 1 2 3; do
        if ((round == 2)); then
            wait "$probes" || die "the reference solution could not be run on fresh inputs (the reason is above)"
            # Round 1's kept runs that ended before that check drew their positions (runs.sh).
            reduce_kept_runs_left
            wait_for_quiet_machine
        fi
        # The references of the timed runs the students' drivers kept, each run's on inputs of its
        # own, made once nothing is timed any more, beside round 3; each lab's students are scored
        # once their lab's are made (reference.sh, make_class_checked_run_references).
        if ((round == 3)); then
            (
                phase_begin "references of checked runs, beside runs 3"
                make_class_checked_run_references "${labs_to_run[@]}"
                phase_end "references of checked runs, beside runs 3"
            ) &
            class_references=$!
        fi
        phase_begin "runs $round: ${ROUND_NAMES[$round]}"
        progress_round "$round" "${#RUN_ITEMS[@]}"
        run_pool "${workers[$((round - 1))]}" "${rounds[$((round - 1))]}" "${RUN_ITEMS[@]}"
        # The reference timed once more after the students the round timed, then what lost
        # performance points timed a second time (runs.sh).
        if ((round == 2)); then
            final_reference_timings
            run_pool "$timed_workers" run_second_timings "${RUN_ITEMS[@]}"
        fi
        phase_end "runs $round: ${ROUND_NAMES[$round]}"
    done
    wait "$class_references" || die "the references of the checked timed runs could not be made (the reason is above)"
    progress_end
}

# GRADE_QUIET_LOCK=FILE: before the first timed run (round 2's), a shared lock on FILE, which
# whoever else shares the machine holds exclusively while its work would skew the times. make test
# runs its other tests so while this grading's untimed start (builds, reference outputs, round 1)
# goes on beside them (tests/run.sh).
wait_for_quiet_machine() {
    [[ -n ${GRADE_QUIET_LOCK-} ]] || return 0
    say "Waiting for the machine to be quiet before the timed runs (a lock on $GRADE_QUIET_LOCK)"
    flock -s "$GRADE_QUIET_LOCK" true || die "cannot lock GRADE_QUIET_LOCK=$GRADE_QUIET_LOCK"
    log "the machine is quiet: the timed runs begin"
}

# grade.sh --reference-times: the reference solution timed as a grading run times it (time_reference,
# three times, on the timed runs' CPUs) on its public performance cases, into
# labs/LAB/sample/reference-times/MODEL/t1..t3/CASE/out/results.tsv, the driver's own records
# and nothing else (no output), which make labN-check reads as grader score's --timing.
write_reference_times() {
    find_gpus
    ((${#GPU_IDS[@]})) || die "no GPU to time the reference on: $NO_GPU_REASON" 3
    gpu_assumed && die "--reference-times times a real GPU, not GRADE_ASSUME_GPU" 2
    local lab gpu=${GPU_IDS[0]} public t dest partial
    declare -gA TEMPLATE=() REFERENCE_BIN=() REFERENCE_KEY=()
    REFERENCE_ARGS=("${DRIVER_ARGS[@]}")
    for lab in "${LABS[@]}"; do
        public=${ROUND_CASES[$lab/public-timed]}
        [[ -n $public ]] || { say "$lab has no public performance case: nothing to time"; continue; }
        LAB_PERF_CASES[$lab]=$public
        make_template "$lab"
        make_reference_binary "$lab"
        dest=$REPO/labs/$lab/sample/reference-times/$(gpu_model_folder "$GPU_NAME")
        partial=$dest.partial
        rm -rf -- "$partial" && mkdir -p -- "$partial"
        for t in 1 2 3; do
            TIMED_ON=$gpu time_reference "$lab" "$gpu" "$partial/t$t" || die "timing the reference of $lab failed"
        done
        find "$partial" -type f ! -name results.tsv -delete
        rm -rf -- "$dest" && mv -- "$partial" "$dest" && chmod -R a+rX -- "$dest"
        say "$lab: the reference's times on $GPU_NAME are in ${dest#"$REPO"/}/ (commit them)"
    done
}

print_timings() {
    local kind seconds
    {
        echo "Where the time went (seconds):"
        while IFS=$'\t' read -r kind seconds; do printf '  %-44s %8s\n' "$kind" "$seconds"; done <"$RUN_DIR/timings.tsv"
        if compgen -G "$RUN_DIR/worker-times.*.tsv" >/dev/null; then
            echo "  summed over the parallel workers:"
            cat "$RUN_DIR"/worker-times.*.tsv | awk -F'\t' '{ t[$1] += $2; n[$1]++ }
                END { for (k in t) printf "    %-42s %8.1f  (%d items)\n", k, t[k], n[k] }' | sort
        fi
    } | tee "$RUN_DIR/timings.txt" >&2
}

main() {
    parse_options "$@"
    prepare_output_folder
    local started=$EPOCHREALTIME
    say "Grading $SUBMISSIONS into $OUT$([[ $SLURM == task ]] && echo " (task $TASK_INDEX of $TASK_COUNT)")"
    build_tools
    load_secrets
    load_lab_plans
    if [[ $SLURM == collect ]]; then
        collect_class
        return
    fi
    if [[ $REFERENCE_TIMES == yes ]]; then
        write_reference_times
        return
    fi
    if [[ $SLURM == submit ]]; then
        GPU_IDS=()  # the submit host builds; the job array's tasks have the GPUs
    else
        find_gpus
        if ((${#GPU_IDS[@]})); then
            say "GPU: $GPU_NAME (${#GPU_IDS[@]} in use: ${GPU_IDS[*]})"
        else
            say "NO GPU: $NO_GPU_REASON. Submissions are unpacked, checked and built, but no case can run: they score zero until graded again with --resume on a GPU machine."
        fi
    fi
    choose_sandbox_user
    choose_box_root
    [[ $SLURM != none && -n ${TEMPORARY_BOXES-} ]] &&
        die "with --slurm the work folders must lie in the output folder, on the filesystem the nodes share, but the sandbox uids cannot reach it here (a folder above it is closed to them): choose an --out they can traverse"
    [[ -n ${TEMPORARY_BOXES-} && ${GRADE_KEEP_WORK:-0} != 1 ]] && trap 'rm -rf -- "$TEMPORARY_BOXES"' EXIT
    choose_hidden_paths
    # The probes run in $BOXES/.probe as the base uid: the tasks of a Slurm job array take turns.
    with_lock "$PRIVATE/probe.lock" choose_isolation "$SANDBOX_REQUEST" "$( ((${#GPU_IDS[@]} > 0)) && ! gpu_assumed && echo yes || echo no)"
    with_lock "$PRIVATE/probe.lock" choose_python
    say "Sandbox: $ISOLATION_TEXT"
    [[ $KEEPS_NOTHING == yes ]] ||
        say "No second timings: without sandbox uids a program could keep what its first timing computed (grading/README.md, \"Isolation\")"
    [[ $SLURM == task ]] || echo "$ISOLATION_TEXT" >"$OUT/isolation.txt"
    [[ -z $SANITIZER ]] && say "compute-sanitizer is not installed: the sanitizer checks are skipped (no points taken)"

    phase_begin "unpack and prepare"
    select_students
    declare -gA TEMPLATE=() REFERENCE_BIN=() REFERENCE_KEY=()
    OUTPUTS_AHEAD=()
    REFERENCE_ARGS=("${DRIVER_ARGS[@]}")
    [[ $SELF_CHECK == yes ]] && REFERENCE_ARGS+=(--reference-outputs)
    local lab
    make_reference_outputs_ahead
    if ((${#OUTPUTS_AHEAD[@]})); then
        # Compiled by those jobs: this finds each made (or stops the run, saying why).
        for lab in "${LABS[@]}"; do make_template "$lab"; done
    else
        for_labs_side_by_side make_template "${LABS[@]}"
    fi
    if [[ $SLURM == task ]]; then
        built_before  # unpacked and built by the run that submitted this task
    else
        prepare_students
    fi
    phase_end "unpack and prepare"
    say "Students: ${#SELECTED[@]} (labs already done and kept: $DONE_COUNT); builds to run: ${#BUILD_ITEMS[@]}, $JOBS at a time"

    if [[ $SLURM != task ]]; then
        phase_begin "student builds"
        run_pool "$JOBS" build_one "${BUILD_ITEMS[@]}"
        phase_end "student builds"
    fi
    if [[ $SLURM == submit ]]; then
        for lab in "${LABS[@]}"; do make_reference_binary "$lab" && check_binary_in_sandbox "$lab"; done
        submit_jobs
        return
    fi

    CASES_NOT_RUN=no
    run_on_gpus

    phase_begin "scoring and reports"
    score_and_report
    # A task's students are graded; the job that waits for every task makes the gradebook.
    [[ $SLURM == task || $SELF_CHECK == yes ]] || write_class_reports
    phase_end "scoring and reports"

    printf 'total\t%s\n' "$(seconds_since "$started")" >>"$RUN_DIR/timings.tsv"
    print_timings
    [[ $SLURM == task || $SELF_CHECK == yes ]] || write_class_pages
    if [[ $CASES_NOT_RUN == yes ]]; then
        say "NO GPU: the cases of ${#RUN_ITEMS[@]} built submission(s) did not run; grade again with --resume on a GPU machine."
        exit 3
    fi
}

main "$@"
