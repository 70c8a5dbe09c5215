# The GPUs a run uses (GPU_IDS, GPU_NAME, or NO_GPU_REASON when none is usable), and how the
# feedback and the committed reference times name them. Sourced by grade.sh.

# GRADE_ASSUME_GPU=N (for the grader's own tests, tests/scripts/grading-*.sh): take the
# machine to have N GPUs (1 to 9) without asking CUDA, so a test lab whose driver runs on the
# CPU can be graded end to end, on several "GPUs" too. Never set it for a real grading: the
# feedback would say so.
gpu_assumed() { [[ ${GRADE_ASSUME_GPU:-0} =~ ^[1-9]$ ]]; }

find_gpus() {
    GPU_IDS=() GPU_NAME="" NO_GPU_REASON=""
    local answer count
    if gpu_assumed; then
        count=$GRADE_ASSUME_GPU GPU_NAME="no GPU (GRADE_ASSUME_GPU=$GRADE_ASSUME_GPU: a test of the grader)"
    elif ! answer=$("$GRADER" gpus 2>&1); then
        NO_GPU_REASON=$answer
        return
    else
        count=${answer%%$'\t'*} GPU_NAME=${answer#*$'\t'}
    fi
    if [[ -n $GPU_LIST ]]; then
        IFS=, read -ra GPU_IDS <<<"$GPU_LIST"
        local g
        for g in "${GPU_IDS[@]}"; do ((g < count)) || usage_error "--gpus: this machine has $count GPU(s), no GPU $g"; done
        [[ $(printf '%s\n' "${GPU_IDS[@]}" | sort | uniq -d) == "" ]] || usage_error "--gpus names a GPU twice: $GPU_LIST"
    else
        local g
        for ((g = 0; g < count; g++)); do GPU_IDS+=("$g"); done
    fi
    plan_cpus
}

# The GPU the cases ran on, in words, or why none did (nothing in a Slurm collection, which
# ran none).
gpu_in_words() {
    [[ $SLURM == collect ]] || printf '%s\n' "${GPU_NAME:-"no GPU (${NO_GPU_REASON-})"}"
}

# gpu_model_folder NAME: the folder name of a GPU model ("NVIDIA H200" -> NVIDIA-H200).
gpu_model_folder() { local name=${1//[^A-Za-z0-9._-]/-}; echo "${name:-none}"; }
