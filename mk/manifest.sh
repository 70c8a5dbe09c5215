# Shell access to a lab's manifest: `manifest_get LAB KEY` prints the value (empty when absent).
# Source this file; it needs to run from the repository root, like make.
manifest_get() {
    local key=${2//./\\.}
    sed -n "s/^[[:space:]]*${key}[[:space:]]*=[[:space:]]*//p" "labs/$1/manifest" | sed 's/[[:space:]]*$//'
}
