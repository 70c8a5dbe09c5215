# A pool of workers for grade.sh: run_pool WORKERS FUNCTION ITEM... calls FUNCTION SLOT ITEM
# NUMBER for every item, WORKERS at a time; SLOT (0 .. WORKERS-1) says which worker runs it, so
# each worker can have its own sandbox uid or its own GPU; NUMBER (1, 2, ...) is the item's
# place in the list, so each item can have a sandbox uid of its own. Items are taken in order as workers
# free up, so one slow item does not hold back the others. Sourced, not run.

run_pool() {
    local workers=$1 function=$2 slot queue
    shift 2
    (($#)) || return 0
    queue=$(mktemp -d "$RUN_DIR/queue.XXXXXX")
    printf '%s\n' "$@" >"$queue/items"
    echo 0 >"$queue/taken"
    local pids=()
    for ((slot = 0; slot < workers && slot < $#; slot++)); do
        (
            local item
            local taken
            while taken=$(take_item "$queue"); do "$function" "$slot" "${taken#* }" "${taken%% *}"; done
        ) &
        pids+=($!)
    done
    wait "${pids[@]}"
    rm -rf -- "$queue"
}

# Prints "NUMBER ITEM" for the next untaken item of the queue; fails when none is left.
take_item() {
    local queue=$1 lock taken item
    exec {lock}>"$queue/lock"
    flock "$lock"
    taken=$(<"$queue/taken")
    item=$(sed -n "$((taken + 1))p" "$queue/items")
    echo $((taken + 1)) >"$queue/taken"
    exec {lock}>&-
    [[ -n $item ]] && printf '%s %s\n' $((taken + 1)) "$item"
}
