# The shell reader of the manifest format (labs/MANIFEST.md): `key = value` lines, '#' comment
# lines. make (mk/manifest.mk), make dist (mk/dist.sh), the sweeps and reports, the grader's
# work folders and the tests all read manifests through these functions; the C++ reader is
# common/manifest.cpp. Source this file from the repository root.

# manifest_value FILE KEY: the value of KEY in FILE (empty when absent), blanks trimmed.
manifest_value() {
    local key=${2//./\\.}
    sed -n "s/^[[:space:]]*${key}[[:space:]]*=[[:space:]]*//p" "$1" | sed 's/[[:space:]]*$//'
}

# manifest_get LAB KEY: the value of KEY in labs/LAB/manifest.
manifest_get() { manifest_value "labs/$1/manifest" "$2"; }

# manifest_make_vars LAB...: every key of each lab's manifest as a make assignment,
# `manifest.LAB.KEY := VALUE`, the value as manifest_value reads it, with make's $ and #
# escaped (mk/manifest.mk includes them).
manifest_make_vars() {
    local lab
    for lab in "$@"; do
        awk -v lab="$lab" 'match($0, /^[[:space:]]*[A-Za-z0-9._-]+[[:space:]]*=/) {
            key = substr($0, 1, RLENGTH - 1); gsub(/[[:space:]]/, "", key)
            value = substr($0, RLENGTH + 1); sub(/^[[:space:]]+/, "", value); sub(/[[:space:]]+$/, "", value)
            gsub(/\$/, "$$", value); gsub(/#/, "\\#", value)
            print "manifest." lab "." key " := " value
        }' "labs/$lab/manifest" || return 1
    done
}

# manifest_keys FILE PREFIX: the keys that start with PREFIX, in the order of the file.
manifest_keys() {
    sed -n 's/^[[:space:]]*\([A-Za-z0-9._-]*\)[[:space:]]*=.*/\1/p' "$1" | grep -F -- "$2" | grep -E "^${2//./\\.}" || true
}

# manifest_hidden_cases FILE: the names of its hidden cases, one a line.
manifest_hidden_cases() {
    sed -n 's/^[[:space:]]*case\.\([A-Za-z0-9_-]*\)\.visibility[[:space:]]*=[[:space:]]*hidden[[:space:]]*$/\1/p' "$1"
}

# manifest_public FILE: FILE without its hidden cases, as students may see it: their
# case.<name>.* lines go, their names leave `cases` and `perf.cases`, and a hidden
# sanitize.case is dropped.
manifest_public() {
    local hidden
    hidden=$(manifest_hidden_cases "$1")
    awk -v hidden=" $(echo $hidden) " '
        function is_hidden(word) { return index(hidden, " " word " ") > 0 }
        /^[[:space:]]*case\./ {
            name = $0; sub(/^[[:space:]]*case\./, "", name); sub(/\..*/, "", name)
            if (is_hidden(name)) next
        }
        /^[[:space:]]*(cases|perf\.cases)[[:space:]]*=/ {
            key = $0; sub(/=.*/, "= ", key)
            value = $0; sub(/^[^=]*=/, "", value)
            n = split(value, words, /[[:space:]]+/); kept = ""
            for (i = 1; i <= n; i++) if (words[i] != "" && !is_hidden(words[i])) kept = kept (kept == "" ? "" : " ") words[i]
            print key kept; next
        }
        /^[[:space:]]*sanitize\.case[[:space:]]*=/ {
            value = $0; sub(/^[^=]*=[[:space:]]*/, "", value); sub(/[[:space:]]*$/, "", value)
            if (is_hidden(value)) next
        }
        { print }
    ' "$1"
}
