# Counting a uid's tasks (processes and threads) from /proc, without ps. Sourced by
# grading/sandbox.sh and by the tests that check nothing outlives a sandbox. Each runs one
# process (stat) and counts in bash: the sandbox asks after every run.

# Every task of uid $1, zombies included: RLIMIT_NPROC counts them all.
tasks_of_uid() {
    local count=0 uid
    while read -r uid; do [[ $uid == "$1" ]] && count=$((count + 1)); done < <(stat -c %u /proc/[0-9]*/task/* 2>/dev/null)
    echo "$count"
}

# The live ones only: a zombie (a dead process its parent has not reaped yet, such as
# bubblewrap's init left to PID 1) holds nothing, and waiting for it would wait for nothing.
live_tasks_of_uid() {
    local count=0 uid task key state
    while read -r uid task; do
        [[ $uid == "$1" ]] || continue
        state=""
        while read -r key state _; do [[ $key == State: ]] && break; state=""; done 2>/dev/null <"$task/status"
        [[ -n $state && $state != Z ]] && count=$((count + 1))
    done < <(stat -c '%u %n' /proc/[0-9]*/task/* 2>/dev/null)
    echo "$count"
}
