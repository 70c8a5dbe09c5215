#!/usr/bin/env bash
# Runs one untrusted command under limits, and records how it ended.
#
#   grading/sandbox.sh --isolation bwrap|rlimits --box DIR --status FILE [options] -- COMMAND [ARGS...]
#
# The command runs in DIR (its "box", the only place it may write), with a clean environment,
# and these limits whatever the isolation:
#   --wall S       wall-clock seconds, then SIGKILL            (timeout)
#   --cpu S        CPU seconds per process, all its threads    (RLIMIT_CPU; default: the wall
#                  + 5 s, times the CPUs of --cpus when given)
#   --nproc N      processes and threads it may add            (RLIMIT_NPROC)
#   --fsize BYTES  largest file it may write, stdout included  (RLIMIT_FSIZE)
#   --nofile N     open files                                  (RLIMIT_NOFILE)
#   --cpus LIST    the CPUs it may run on (taskset -c: "0-3", "4,5"); its threads inherit them
#   --guard PATH   run the command under this affinity guard (build/bin/affinity-guard,
#                  grading/affinity_guard.cpp): a thread of it may narrow its CPU set, never
#                  widen it, so a CPU part pinned to its --threads CPUs stays on them; grade.sh
#                  gives it to every command, in either isolation
# No address-space limit (RLIMIT_AS): CUDA reserves huge virtual ranges and fails under one.
# Instead the command is the OOM killer's first choice (oom_score_adj 1000).
#
# Isolation:
#   bwrap    bubblewrap: read-only system, new /dev with only the GPU nodes added (--gpu),
#            private /tmp and /dev/shm, no network, own PID/IPC/UTS namespaces (every process
#            dies with the sandbox), the --hide paths replaced by empty folders.
#   rlimits  the limits above and a private TMPDIR in the box; with --namespaces (root only,
#            util-linux unshare) its own network, IPC and PID namespaces with a /proc of its
#            own, so it reaches no network, sees no other process (nor the grader's command
#            lines) and its System V IPC objects vanish with it; with --uid every process of
#            that uid is killed afterwards and its files in /tmp, /var/tmp, /dev/shm and
#            /run/lock (the folders anyone may write to) are removed.
#   --uid U  (root only) run as the unprivileged uid U (setpriv): the process limit does not
#            hold for root, and file permissions keep the grader's files away. The caller
#            gives each concurrent sandbox its own uid and makes the box U's.
#
# --status FILE (outside the box) gets one line of tab-separated key=value fields:
#   outcome=exited|timeout|output-limit|cpu-limit|signal|setup-failed  exit=N  signal=NAME
#   seconds=ELAPSED  wall_limit=S  isolation=...
# The exit status is 0 when the command was run (its fate is in FILE), 2 for bad usage.
set -uo pipefail

usage() { sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
die_usage() { echo "sandbox.sh: $1 (see --help)" >&2; exit 2; }

isolation="" box="" status_file="" stdout_file=/dev/null stderr_file=/dev/null
wall=60 cpu="" nproc=128 fsize=$((64 << 20)) nofile=1024 uid="" gpu=no namespaces=no
hide=() extra_env=() cpus="" guard=""
while (($#)); do
    case $1 in
        --help) usage; exit 0 ;;
        --isolation) isolation=${2-}; shift 2 ;;
        --box) box=${2-}; shift 2 ;;
        --status) status_file=${2-}; shift 2 ;;
        --stdout) stdout_file=${2-}; shift 2 ;;
        --stderr) stderr_file=${2-}; shift 2 ;;
        --wall) wall=${2-}; shift 2 ;;
        --cpu) cpu=${2-}; shift 2 ;;
        --nproc) nproc=${2-}; shift 2 ;;
        --fsize) fsize=${2-}; shift 2 ;;
        --nofile) nofile=${2-}; shift 2 ;;
        --uid) uid=${2-}; shift 2 ;;
        --gpu) gpu=yes; shift ;;
        --namespaces) namespaces=yes; shift ;;
        --hide) hide+=("${2-}"); shift 2 ;;
        --env) extra_env+=("${2-}"); shift 2 ;;
        --cpus) cpus=${2-}; shift 2 ;;
        --guard) guard=${2-}; shift 2 ;;
        --) shift; break ;;
        *) die_usage "unknown option '$1'" ;;
    esac
done
(($#)) || die_usage "no command given after --"
[[ $isolation == bwrap || $isolation == rlimits ]] || die_usage "--isolation must be bwrap or rlimits"
[[ -n $status_file ]] || die_usage "--status FILE is required"
[[ -d $box && ! -L $box ]] || die_usage "--box must be an existing folder, not a link: '$box'"
for number in "$wall" "$nproc" "$fsize" "$nofile" ${cpu:+"$cpu"} ${uid:+"$uid"}; do
    [[ $number =~ ^[0-9]+$ ]] || die_usage "'$number' is not a whole number"
done
[[ -z $cpus || $cpus =~ ^[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*$ ]] || die_usage "--cpus must be a CPU list like 0-3 or 4,5, not '$cpus'"
cpu_count=1  # how many CPUs the run may use: those --cpus names, else it counts as one
if [[ -n $cpus ]]; then
    cpu_count=0
    for range in ${cpus//,/ }; do
        ((10#${range#*-} >= 10#${range%-*})) || die_usage "--cpus: the range $range runs backwards"
        cpu_count=$((cpu_count + 10#${range#*-} - 10#${range%-*} + 1))
    done
fi
[[ -z $uid || $EUID == 0 ]] || die_usage "--uid needs root"
[[ -z $guard || (-f $guard && -x $guard) ]] || die_usage "--guard must name the affinity guard's program, not '$guard'"
[[ $namespaces == no || $EUID == 0 ]] || die_usage "--namespaces needs root"
# The box and the folders to hide (those that exist) as real paths, in one process: bubblewrap
# mounts over the real ones, and this script runs for every run of a class. (-m: one line for
# each, in order, even if one vanished meanwhile.)
hidden=()
for path in "${hide[@]}"; do [[ -e $path ]] && hidden+=("$path"); done
mapfile -d '' -t real < <(realpath -mz -- "$box" "${hidden[@]}")
((${#real[@]} == ${#hidden[@]} + 1)) || die_usage "cannot find the real paths of '$box' ${hidden[*]}"
box=${real[0]} hidden=("${real[@]:1}")
# The CPU time a process may use: what one thread uses in the wall clock, or, on CPUs of its own
# (--cpus: a timed run, which may use them all, as lab 7's OpenMP parts use --threads 4), what
# they all do. A timed run's CPU parts on 4 threads took 30 s of CPU in 9 s under the wall's 30.
cpu=${cpu:-$(((wall + 5) * cpu_count))}

# A fresh private home and temporary folder in the box, the sandbox user's own. An earlier
# command may have left anything there (a link to /etc, say): remove it, never follow it.
# (One rm, mkdir and chown for both: every process this script starts costs each run, and a
# class's grading runs it thousands of times.)
private_folders=("$box/.sandbox-home" "$box/.sandbox-tmp")
rm -rf -- "${private_folders[@]}"
mkdir -- "${private_folders[@]}" || die_usage "cannot make ${private_folders[*]}"
[[ -n $uid ]] && chown -h "$uid:$uid" -- "${private_folders[@]}"
# The guard, from a copy in the fresh private folder, where the command's user can run it under
# either isolation (bubblewrap hides the repository; the sandbox uid may not reach it), whatever
# the grader's umask. It runs before any of the command's code, and the folder is made anew for
# each command.
guarded=()
if [[ -n $guard ]]; then
    install -m 0755 -- "$guard" "$box/.sandbox-tmp/.affinity-guard" || die_usage "cannot copy the affinity guard into $box"
    guarded=("$box/.sandbox-tmp/.affinity-guard")
fi

# The uid's tasks now (RLIMIT_NPROC counts them all): the limit is that many plus what the
# command may add.
here=${BASH_SOURCE[0]%/*}
[[ $here == "${BASH_SOURCE[0]}" ]] && here=.
# shellcheck source=lib/tasks.sh
source "$here/lib/tasks.sh"
# shellcheck source=lib/bubblewrap.sh
source "$here/lib/bubblewrap.sh"
process_limit=$(($(tasks_of_uid "${uid:-$EUID}") + nproc))

environment=(env -i -C "$box" "PATH=$PATH" "HOME=$box/.sandbox-home" "LANG=C.UTF-8" "USER=sandbox" "LOGNAME=sandbox")
# Where the CUDA libraries are found, when the system does not know (cuBLAS, say).
[[ -n ${LD_LIBRARY_PATH-} ]] && environment+=("LD_LIBRARY_PATH=$LD_LIBRARY_PATH")
if [[ $isolation == bwrap ]]; then
    environment+=("TMPDIR=/tmp")
else
    environment+=("TMPDIR=$box/.sandbox-tmp")
fi
environment+=("${extra_env[@]}")

limits=(prlimit "--nproc=$process_limit" "--fsize=$fsize" "--cpu=$cpu" "--nofile=$nofile" --core=0 --)
as_user=()
[[ -n $uid ]] && as_user=(setpriv "--reuid=$uid" "--regid=$uid" --clear-groups --no-new-privs)

case $isolation in
    bwrap)
        jail=(--ro-bind / / --dev /dev --proc /proc --unshare-net --unshare-pid --unshare-ipc --unshare-uts
              --unshare-cgroup-try --hostname sandbox --new-session --die-with-parent)
        # A size for the private /tmp where this bubblewrap knows --size (0.8 and later); the
        # caller may say so once for all its runs (SANDBOX_BWRAP_SIZE=yes|no) instead.
        [[ ${SANDBOX_BWRAP_SIZE-} == yes || ${SANDBOX_BWRAP_SIZE-} == no ]] || SANDBOX_BWRAP_SIZE=$(bwrap_knows_size)
        tmp_size=()
        [[ $SANDBOX_BWRAP_SIZE == yes ]] && tmp_size=(--size $((1 << 30)))
        jail+=("${tmp_size[@]}" --tmpfs /tmp "${tmp_size[@]}" --tmpfs /dev/shm)
        for path in "${hidden[@]}"; do jail+=(--tmpfs "$path"); done
        if [[ $gpu == yes ]]; then
            for node in /dev/nvidia*; do
                [[ -e $node ]] && jail+=(--dev-bind "$node" "$node")
            done
        fi
        jail+=(--bind "$box" "$box" --chdir "$box")
        # bubblewrap reads its options from a pipe (--args, isolated_start), so that its command
        # line, which the sandboxed program can read in /proc, names none of the grader's paths.
        chain=(timeout -s KILL "$wall" "${limits[@]}" "${as_user[@]}" bwrap --args 3 -- "${environment[@]}" "${guarded[@]}" "$@")
        description="bwrap"
        ;;
    rlimits)
        private=()
        # In its own PID namespace the first process ignores signals it has no handler for
        # (SIGXFSZ would not stop a flood): a shell is that first process, the command its child.
        [[ $namespaces == yes ]] &&
            private=(unshare --net --ipc --uts --pid --fork --kill-child --mount --mount-proc -- /bin/sh -c '"$@"; exit $?' sandbox-init)
        chain=(timeout -s KILL "$wall" "${private[@]}" "${limits[@]}" "${as_user[@]}" "${environment[@]}" "${guarded[@]}" "$@")
        description="rlimits${uid:+,uid}${private:+,namespaces}"
        ;;
esac

# A timed run gets its own CPUs: the driver pins a CPU part to the first --threads of them, so a
# student's and the reference's timings use the same cores, and a second GPU's timed run others.
[[ -n $cpus ]] && chain=(taskset -c "$cpus" "${chain[@]}")

# The command gets stdin, stdout and stderr only: no descriptor the grader holds (its locks,
# its log) reaches it. It is also the OOM killer's first choice.
isolated_start() {
    local fd
    for fd in /proc/$BASHPID/fd/*; do
        fd=${fd##*/}
        ((fd > 2)) && eval "exec $fd>&-"
    done
    echo 1000 >/proc/self/oom_score_adj 2>/dev/null
    [[ $isolation == bwrap ]] && exec 3< <(printf '%s\0' "${jail[@]}")
    exec "${chain[@]}"
}
start=$EPOCHREALTIME
if [[ $stdout_file == "$stderr_file" ]]; then
    (isolated_start) </dev/null >"$stdout_file" 2>&1 &
else
    (isolated_start) </dev/null >"$stdout_file" 2>"$stderr_file" &
fi
leader=$!
{ wait "$leader"; } 2>/dev/null
rc=$?
# Counted in microseconds by bash itself (the decimal point is the locale's).
elapsed_us=$((10#${EPOCHREALTIME//[.,]/} - 10#${start//[.,]/}))
printf -v elapsed '%d.%03d' $((elapsed_us / 1000000)) $((elapsed_us % 1000000 / 1000))

# Whatever is left of it: timeout made its own process group; with --uid, every process of
# that uid (a process can leave its group, not its uid).
kill -KILL -- "-$leader" 2>/dev/null
if [[ -n $uid ]]; then
    for _ in 1 2 3 4 5 6 7 8 9 10; do
        setpriv "--reuid=$uid" "--regid=$uid" --clear-groups bash -c 'kill -KILL -1' 2>/dev/null
        (($(live_tasks_of_uid "$uid") == 0)) && break
        sleep 0.2
    done
    if [[ $isolation == rlimits ]]; then
        # What it left in the shared temporary folders (never the box, which may lie in /tmp).
        # The uid can only have made entries there, in folders that anyone may write to, and
        # inside its own: the search goes down those alone, not through every other folder (a
        # busy machine's /tmp may hold many thousands of files: each run searched them all).
        find /tmp /var/tmp /dev/shm /run/lock -xdev -mindepth 1 \( -path "$box" -prune \) -o \( -user "$uid" -prune -print0 \) \
            -o \( -type d ! -perm -0002 -prune \) 2>/dev/null | xargs -0 -r rm -rf -- 2>/dev/null
    fi
fi

# A shell reports a death by signal N as 128 + N; signals end at 64, so 193-255 are exits (255:
# compute-sanitizer's when the program made no CUDA call, reported as "SIG127" before).
signal="" outcome=exited exit_code=$rc
if ((rc > 128 && rc <= 128 + 64)); then
    signal=SIG$(kill -l $((rc - 128)) 2>/dev/null || echo $((rc - 128)))
    case $signal in
        SIGXFSZ) outcome="output-limit" ;;
        SIGXCPU) outcome="cpu-limit" ;;
        *) outcome=signal ;;
    esac
fi
if ((elapsed_us >= 10#$wall * 1000000 - 50000)) && { ((rc == 137)) || ((rc == 124)); }; then
    outcome=timeout
fi
((rc == 125 || rc == 126 || rc == 127)) && [[ $outcome == exited ]] && outcome=setup-failed
printf 'outcome=%s\texit=%s\tsignal=%s\tseconds=%.3f\twall_limit=%s\tisolation=%s\n' \
    "$outcome" "$exit_code" "$signal" "$elapsed" "$wall" "$description" >"$status_file"
exit 0
