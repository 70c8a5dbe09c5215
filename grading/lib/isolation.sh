# Chooses the sandbox for this machine (grading/sandbox.sh) and says plainly what it is.
# Sourced by grade.sh, which sets AFFINITY_GUARD, the guard every sandboxed command runs under
# (probed with the sandbox). Sets ISOLATION (bwrap or rlimits), SANDBOX_UID_BASE (empty when the
# sandbox runs as the grader's own user), SANDBOX_NAMESPACES (yes/no) and ISOLATION_TEXT.
#
# Order of preference: bubblewrap, then rlimits. As root, the sandbox drops to unprivileged
# uids SANDBOX_UID_BASE + slot (GRADE_SANDBOX_UID, default 61000; "off" keeps root, which is
# unsafe and only for machines where those uids cannot reach the GPU): the process limit does
# not hold for root, and file permissions are what keeps a program out of the grader's files
# when bubblewrap is missing. Each choice is probed with a real command, and with the GPU when
# there is one, before it is used.

# Runs a probe command in the candidate sandbox; succeeds when it ran and exited 0.
probe_sandbox() {
    local isolation=$1 uid=$2 namespaces=$3 gpu=$4 box=$BOXES/.probe
    rm -rf -- "$box" && mkdir -p -- "$box" && cp -- "$GRADER" "$box/grader"
    [[ -n $uid ]] && chown -R "$uid:$uid" "$box"
    local options=(--isolation "$isolation" --box "$box" --status "$RUN_DIR/probe.tsv" --stdout "$RUN_DIR/probe.out"
                   --stderr "$RUN_DIR/probe.out" --wall 60 --guard "$AFFINITY_GUARD")
    [[ -n $uid ]] && options+=(--uid "$uid")
    [[ $namespaces == yes ]] && options+=(--namespaces)
    local command=(/bin/true)
    if [[ $gpu == yes ]]; then
        options+=(--gpu --env "CUDA_VISIBLE_DEVICES=${GPU_IDS[0]}")
        command=(./grader gpus)
    fi
    "$SANDBOX" "${options[@]}" -- "${command[@]}" >/dev/null 2>&1 || return 1
    local worked=no
    [[ $(field_of "$RUN_DIR/probe.tsv" outcome) == exited && $(field_of "$RUN_DIR/probe.tsv" exit) == 0 ]] && worked=yes
    rm -rf -- "$box"
    [[ $worked == yes ]]
}

# Sets SANDBOX_UID_BASE and SANDBOX_USER_TEXT.
choose_sandbox_user() {
    SANDBOX_UID_BASE=""
    local uid_note="as the grader's own user (not root): the program can read what this user can read"
    if ((EUID == 0)); then
        local base=${GRADE_SANDBOX_UID-}
        if [[ $base == off ]]; then
            uid_note="AS ROOT (GRADE_SANDBOX_UID=off): the process limit does not hold and nothing is hidden by permissions"
        elif [[ -n $base && ! $base =~ ^[1-9][0-9]*$ ]]; then
            die "GRADE_SANDBOX_UID must be a uid other than 0, or off" 2
        elif ! reserve_sandbox_uids "$base"; then
            die "every block of sandbox uids${base:+ from $base} is held by another grading run on this machine; wait for it, or set GRADE_SANDBOX_UID" 2
        elif base=$SANDBOX_UID_BASE && { ! command -v setpriv >/dev/null || ! setpriv --reuid="$base" --regid="$base" --clear-groups true 2>/dev/null; }; then
            die "running as root, but setpriv (util-linux) cannot switch to the sandbox uid $base: install util-linux, or run as an ordinary user" 2
        else
            SANDBOX_UID_BASE=$base
            uid_note="as unprivileged uids from $base, one per concurrent sandbox"
        fi
    fi
    SANDBOX_USER_TEXT=$uid_note
}

# Where the boxes (the work folders sandboxed commands run in) live: in the output folder when
# the sandbox user can reach it, else in a fresh folder under /tmp, removed after the run.
# Sets BOXES.
choose_box_root() {
    BOXES=$OUT/boxes
    mkdir -p -- "$BOXES"
    [[ -z $SANDBOX_UID_BASE ]] && return 0
    chmod 711 -- "$OUT" "$BOXES"
    setpriv --reuid="$SANDBOX_UID_BASE" --regid="$SANDBOX_UID_BASE" --clear-groups test -x "$BOXES" 2>/dev/null && return 0
    chmod 700 -- "$OUT"
    rm -rf -- "$BOXES"
    BOXES=$(mktemp -d "${TMPDIR:-/tmp}/grading-boxes.XXXXXX") || die "cannot make a folder for the sandboxes"
    chmod 711 -- "$BOXES"
    TEMPORARY_BOXES=$BOXES
}

# Probes the sandboxes, best first. Sets ISOLATION, SANDBOX_NAMESPACES, ISOLATION_TEXT and
# KEEPS_NOTHING: yes where no process of a student can keep anything for its next one (bubblewrap,
# or sandbox uids whose files in the shared temporary folders are removed after each run), which
# a second timing on the first one's inputs needs (runs.sh, time_again).
choose_isolation() {
    local request=$1 have_gpu=$2 why_not_bwrap="" uid_note=$SANDBOX_USER_TEXT
    SANDBOX_NAMESPACES=no
    local probe_uid=$SANDBOX_UID_BASE
    if [[ $request == auto || $request == bwrap ]]; then
        if ! command -v bwrap >/dev/null; then
            why_not_bwrap="bubblewrap is not installed"
        elif ! probe_sandbox bwrap "$probe_uid" no no; then
            why_not_bwrap="bubblewrap is installed but cannot create its namespaces here: $(tail -1 "$RUN_DIR/probe.out" 2>/dev/null)"
        elif [[ $have_gpu == yes ]] && ! probe_sandbox bwrap "$probe_uid" no yes; then
            why_not_bwrap="bubblewrap works but the GPU cannot be reached inside it: $(tail -1 "$RUN_DIR/probe.out" 2>/dev/null)"
        else
            ISOLATION=bwrap KEEPS_NOTHING=yes
            SANDBOX_BWRAP_SIZE=$(bwrap_knows_size)
            export SANDBOX_BWRAP_SIZE
            ISOLATION_TEXT="bubblewrap: read-only system, private /tmp, no network, own PID and IPC namespaces, only the work folder writable, the grader's folders hidden; $uid_note; limits on wall clock, processes, file size and CPU time"
            return 0
        fi
        [[ $request == bwrap ]] && die "--sandbox bwrap: $why_not_bwrap" 2
        # Without bubblewrap a student's program could read what the grader's user can read
        # (and, as the grader's own user, much more): never fall back to that silently.
        die "$why_not_bwrap: install it (sudo apt-get install bubblewrap), or grade with --sandbox rlimits to accept weaker isolation (grading/README.md, \"Isolation\")" 2
    fi
    ISOLATION=rlimits KEEPS_NOTHING=no
    [[ -n $SANDBOX_UID_BASE ]] && KEEPS_NOTHING=yes
    if ((EUID == 0)) && command -v unshare >/dev/null && unshare --net --ipc --pid --fork --mount --mount-proc true 2>/dev/null &&
       probe_sandbox rlimits "$probe_uid" yes "$have_gpu"; then
        SANDBOX_NAMESPACES=yes
    elif ! probe_sandbox rlimits "$probe_uid" no "$have_gpu"; then
        die "the sandbox cannot run a program on this machine ($(tail -1 "$RUN_DIR/probe.out" 2>/dev/null)); with a GPU, check that uid ${probe_uid:-$EUID} may open /dev/nvidia*" 1
    fi
    local private="no network, own IPC and PID namespaces (private network, IPC and PID namespaces)"
    [[ $SANDBOX_NAMESPACES == no ]] && private="NETWORK REACHABLE and other processes visible (no namespaces available)"
    ISOLATION_TEXT="WEAKER ISOLATION, chosen with --sandbox rlimits: $uid_note; $private; private TMPDIR; limits on wall clock, processes, file size and CPU time; the system is protected by file permissions, not made read-only"
}

# Arguments for sandbox.sh common to every sandboxed command of worker SLOT.
sandbox_options() {
    local slot=$1
    # Every command under the affinity guard (grading/affinity_guard.cpp): no thread of it widens
    # its CPU set, so a CPU part stays on the --threads CPUs the driver pins it to.
    SANDBOX_ARGS=(--isolation "$ISOLATION" --guard "$AFFINITY_GUARD")
    [[ -n $SANDBOX_UID_BASE ]] && SANDBOX_ARGS+=(--uid $((SANDBOX_UID_BASE + slot)))
    [[ $SANDBOX_NAMESPACES == yes ]] && SANDBOX_ARGS+=(--namespaces)
    local path
    for path in "${HIDDEN_PATHS[@]}"; do SANDBOX_ARGS+=(--hide "$path"); done
}

# The box belongs to the sandbox user while a command runs in it, and to the grader between.
lend_box() { [[ -n $SANDBOX_UID_BASE ]] && chown -R -h "$((SANDBOX_UID_BASE + $2)):$((SANDBOX_UID_BASE + $2))" -- "$1"; return 0; }
take_back_box() { [[ -n $SANDBOX_UID_BASE ]] && chown -R -h "$EUID:$EUID" -- "$1"; chmod 700 -- "$1"; return 0; }

# The python3 that opens archives inside the sandbox (grading/unpack.py): the first that runs
# there as the sandbox user (one under the grader's home may be hidden from it). Sets PYTHON.
choose_python() {
    local candidate box=$BOXES/.probe
    for candidate in /usr/bin/python3 "$(command -v python3 2>/dev/null)"; do
        [[ -n $candidate && -x $candidate ]] || continue
        rm -rf -- "$box" && mkdir -p -- "$box"
        sandbox_options 0
        lend_box "$box" 0
        "$SANDBOX" "${SANDBOX_ARGS[@]}" --box "$box" --status "$RUN_DIR/probe.tsv" --wall 60 -- \
            "$candidate" -I -c 'import tarfile, zipfile' >/dev/null 2>&1
        rm -rf -- "$box"
        if [[ $(field_of "$RUN_DIR/probe.tsv" outcome) == exited && $(field_of "$RUN_DIR/probe.tsv" exit) == 0 ]]; then
            PYTHON=$candidate
            return 0
        fi
    done
    die "no python3 runs in the sandbox here, and grading/unpack.py needs one to open .tar.gz and .zip submissions: install python3 (apt-get install python3)" 2
}
