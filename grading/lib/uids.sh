# Sandbox uids (root only): a block of 1000 unprivileged uids that no other grading run on
# this machine holds at the same time. After each command a sandbox kills every process of
# its uid, so two runs sharing uids would kill each other's builds and cases. Sourced by
# grade.sh and by the sandbox tests.

# reserve_sandbox_uids [BASE]: takes the first free block (BASE only, when given) and keeps
# it, through a lock, for as long as this shell lives. Sets SANDBOX_UID_BASE; fails when none
# is free.
reserve_sandbox_uids() {
    # The locks live where only root may create files (/run), never in a world-writable
    # folder like /run/lock or /tmp, where a sandboxed program could create them first and
    # keep every later grading run from starting.
    local requested=${1-} lock_dir=/run base candidates=()
    [[ -d $lock_dir && -w $lock_dir && ! -k $lock_dir && $(stat -c %u "$lock_dir") == 0 ]] ||
        { echo "reserve_sandbox_uids: $lock_dir is not a folder only root writes to" >&2; return 1; }
    if [[ -n $requested ]]; then
        candidates=("$requested")
    else
        # 39 blocks below the subordinate uids that /etc/subuid hands out from 100000: make test
        # on a 16-CPU GPU machine grades a dozen classes at once (the handouts' make labN-check
        # among them), and 9 blocks ran out there.
        for ((base = 61000; base < 100000; base += 1000)); do candidates+=("$base"); done
    fi
    for base in "${candidates[@]}"; do
        exec {SANDBOX_UID_LOCK}>>"$lock_dir/grading-sandbox-uids-$base.lock" || continue
        if flock -n "$SANDBOX_UID_LOCK"; then
            SANDBOX_UID_BASE=$base
            return 0
        fi
        exec {SANDBOX_UID_LOCK}>&-
    done
    return 1
}
