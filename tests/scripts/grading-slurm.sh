#!/usr/bin/env bash
# test: long (it grades classes or runs the handouts: started first)
# grade.sh --slurm on a one-node Slurm cluster that this test starts itself, with the CPU test
# lab (tests/grading/fixtures/labcpu). Debian's slurm-wlm and munge, no systemd: munged,
# slurmctld and slurmd run from a scratch folder on ports of their own, and the node's two
# "GPUs" are declared by hand in gres.conf (Debian's build has no NVML; grading assumes a GPU,
# GRADE_ASSUME_GPU=1, as every grading test without one does).
#   - the class is graded as a job array of two tasks at once, each grading its share of the
#     students, and the job that waits for them makes the gradebook: the same scores as on one
#     machine;
#   - a student left unfinished (as when a task is cancelled): the collecting job says so and
#     writes no gradebook, and --slurm --resume grades that student only;
#   - without sbatch, --slurm says what is missing.
# Needs root (slurmd) and Debian's slurm-wlm and munge (.ci/run installs them).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/scripts/lib/checks.sh
source tests/scripts/grading-lib/labcpu.sh
source tests/scripts/grading-lib/sandbox.sh
BUILD=${BUILD:-build}
[[ $BUILD == /* ]] || BUILD=$PWD/$BUILD
export PATH=$PATH:/usr/sbin
for tool in munged slurmctld slurmd sbatch squeue; do
    command -v "$tool" >/dev/null || { echo "skipped: $tool is not installed (apt-get install slurm-wlm munge)"; exit 77; }
done
((EUID == 0)) || { echo "skipped: slurmd must start as root"; exit 77; }

work=$(mktemp -d /tmp/grading-slurm-test.XXXXXX)
chmod 711 "$work"  # the sandbox uids reach the work folders in the output folder, as on a cluster
cluster=$work/cluster
stop_cluster() {
    local daemon
    for daemon in slurmd slurmctld munged; do [[ -f $cluster/$daemon.pid ]] && kill "$(cat "$cluster/$daemon.pid")" 2>/dev/null; done
    return 0
}
trap 'stop_cluster; [[ ${KEEP:-0} == 1 ]] || rm -rf -- "$work"' EXIT

# The cluster: munge's key and socket, one controller, one node with two GPUs.
mkdir -p "$cluster"/{munge,state,spool} && chmod 700 "$cluster/munge"
head -c 1024 /dev/urandom >"$cluster/munge/key" && chmod 400 "$cluster/munge/key"
munged --force --key-file="$cluster/munge/key" --socket="$cluster/munge/socket" --pid-file="$cluster/munged.pid" \
    --log-file="$cluster/munge/log" --seed-file="$cluster/munge/seed" || { echo "munged did not start"; exit 1; }
host=$(hostname -s) port=$((20000 + RANDOM % 20000))
cat >"$cluster/slurm.conf" <<EOF
ClusterName=gradingtest
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$cluster/munge/socket
StateSaveLocation=$cluster/state
SlurmdSpoolDir=$cluster/spool
SlurmctldPidFile=$cluster/slurmctld.pid
SlurmdPidFile=$cluster/slurmd.pid
SlurmctldLogFile=$cluster/slurmctld.log
SlurmdLogFile=$cluster/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
GresTypes=gpu
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=$host CPUs=$(nproc) Gres=gpu:2 State=UNKNOWN
PartitionName=grading Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
printf 'AutoDetect=off\nNodeName=%s Name=gpu File=/dev/null\nNodeName=%s Name=gpu File=/dev/zero\n' "$host" "$host" >"$cluster/gres.conf"
export SLURM_CONF=$cluster/slurm.conf
slurmctld -f "$SLURM_CONF" && slurmd -f "$SLURM_CONF" -N "$host" || { echo "the Slurm daemons did not start"; exit 1; }
for _ in $(seq 60); do sinfo -h -o %t 2>/dev/null | grep -qx idle && break; sleep 0.5; done
check "the test cluster is up with its node idle" bash -c "sinfo -h -o %t | grep -qx idle"

repo=$work/course subs=$work/submissions out=$work/out fixtures=$PWD/tests/grading/fixtures
make_labcpu_course "$repo"
mkdir -p "$subs"/{good,starter,slow,wrong-b}
cp "$fixtures/labcpu-solution/work.cpp" "$subs/good/"
cp "$fixtures/labcpu/work.cpp" "$subs/starter/"
cp "$fixtures/labcpu-students/slow/work.cpp" "$subs/slow/"
cp "$fixtures/labcpu-students/wrong-b/work.cpp" "$subs/wrong-b/"

# wait_for_jobs: until the jobs grade.sh submitted (its jobs.tsv) have left the queue.
wait_for_jobs() {
    local array collect _
    IFS=$'\t' read -r array collect _ <"$out/.grader/slurm/jobs.tsv" || return 1
    for _ in $(seq 600); do
        [[ -z $(squeue -h -j "$array,$collect" 2>/dev/null) ]] && return 0
        sleep 0.5
    done
    return 1
}
expect_scores() {
    check "good: full marks" test "$(labcpu_points "$out" good)" == 12
    check "starter: nothing" test "$(labcpu_points "$out" starter)" == 0
    check "wrong-b: loses part b only" test "$(labcpu_points "$out" wrong-b)" == 8
    check "slow: on the curve at 3x" test "$(labcpu_points "$out" slow)" == 10.7035
    check "the gradebook lists all four" test "$(($(wc -l <"$out/gradebook.csv") - 1))" == 4
}

grade_labcpu "$repo" "$subs" "$out" --jobs 2 --slurm --slurm-tasks 2 --leaderboard >"$work/submit.txt" 2>&1
status=$?
check "grade.sh --slurm builds and submits (status $status)" test "$status" == 0
((status == 0)) || tail -20 "$work/submit.txt"
check "it says which jobs it submitted" grep -q "^Submitted job array [0-9]* (2 tasks, one GPU each) and job [0-9]*" "$work/submit.txt"
check "the jobs end" wait_for_jobs
for task in 0 1; do
    check "task $task graded its two students" grep -q "^Students: 2 " "$out/.grader/slurm/task-$task.log"
done
check "each task ran as a run of its own (its own GPU locks, timings and progress)" \
    bash -c "grep -h '^Grading ' '$out'/.grader/slurm/task-*.log | wc -l | grep -qx 2 && [[ \$(ls -d '$out'/.grader/runs/*-task* | wc -l) == 2 ]]"
check "the collecting job made the gradebook" grep -q "^Gradebook: " "$out/.grader/slurm/collect.log"
expect_scores
check "every student has feedback" test "$(ls "$out"/students/*/feedback.md | wc -l)" == 4
# --leaderboard reaches the jobs: a task names good's pseudonym in its feedback, the collection
# ranks good under the same one (the salt the submit host drew), and writes the class report.
good_name=$(sed -n 's/.*under the pseudonym \*\*\(anon-[0-9a-f]*\)\*\*.*/\1/p' "$out/students/good/feedback.md")
check "the collection ranks good under the pseudonym its task gave it (${good_name:-none})" \
    grep -q "^labcpu,a,big,[0-9]*,${good_name:-none},1,1\$" "$out/leaderboard.csv"
check "the collection writes the class report, the time line in the tasks' logs" \
    grep -qF "each task's log (.grader/slurm/task-N.log) ends with its own" "$out/class-report.md"

# A task that never finished slow's lab: the collection refuses, and --resume grades slow only.
rm -f -- "$out/students/slow/labcpu/done" "$out/students/slow/labcpu/score.tsv"
touch -d '1 hour ago' "$out/students/good/labcpu/score.tsv"
GRADE_ASSUME_GPU=1 "$repo/grading/grade.sh" --out "$out" --labs labcpu --collect "$subs" >"$work/collect.txt" 2>&1
check "the collection with a student unfinished fails (status $?)" grep -q "1 student x lab(s) not graded (first: slow labcpu)" "$work/collect.txt"
check "... and leaves no gradebook that would look complete" test ! -e "$out/gradebook.csv"
grade_labcpu "$repo" "$subs" "$out" --jobs 2 --slurm --slurm-tasks 2 --resume >"$work/resume.txt" 2>&1
check "--slurm --resume submits again (status $?)" grep -q "^Submitted job array" "$work/resume.txt"
check "... building only what is unfinished" grep -q "labs already done and kept: 3); builds to run: 1," "$work/resume.txt"
check "the jobs end" wait_for_jobs
expect_scores
check "a finished student was not graded again" test -n "$(find "$out/students/good/labcpu/score.tsv" -mmin +30)"

# Without sbatch on PATH (a folder of everything else in /usr/bin).
mkdir -p "$work/bin" && for tool in /usr/bin/*; do [[ ${tool##*/} == sbatch ]] || ln -s "$tool" "$work/bin/"; done
PATH=$work/bin:/usr/local/cuda/bin "$repo/grading/grade.sh" --out "$work/out2" --labs labcpu --slurm "$subs" >"$work/nosbatch.txt" 2>&1
check "without sbatch, --slurm is refused (status $?) and says why" grep -q "needs Slurm's sbatch, which is not on PATH" "$work/nosbatch.txt"
check "... before making any folder" test ! -e "$work/out2"
"$repo/grading/grade.sh" --out "$work/none" --task 0/2 "$subs" >"$work/task.txt" 2>&1
check "a task outside a --slurm run's folder is refused (status $?)" grep -q "work in the output folder of a run with --slurm" "$work/task.txt"
check "... and makes no folder" test ! -e "$work/none"
finish
