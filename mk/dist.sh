#!/usr/bin/env bash
# `make dist`: the student distribution, a tarball of the course as students get it.
#
#   mk/dist.sh TARBALL
#
# It holds the working tree's files (git's tracked and untracked-but-not-ignored files)
# except what students must not see: solutions/, the grader (grading/, which holds the
# planted-bug copies of the solutions, and its tests and make rules), build and grading
# outputs (so no reference output), and, in every lab's manifest, the hidden cases.
set -euo pipefail
cd "$(dirname "$0")/.."
(($# == 1)) || { echo "usage: mk/dist.sh TARBALL" >&2; exit 2; }
tarball=$1
name=$(basename "$tarball" .tar.gz)
staging=$(mktemp -d)
trap 'rm -rf -- "$staging"' EXIT
root=$staging/$name

if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    mapfile -d '' files < <(git ls-files -z --cached --others --exclude-standard)
else
    mapfile -d '' files < <(find . -type f -printf '%P\0')
fi

withheld() {
    case $1 in
        solutions/* | grading/* | tests/grading/* | tests/scripts/grading-* | mk/grading.mk | mk/dist.sh) return 0 ;;
        build/* | dist/* | results/* | grading-out/* | .git/*) return 0 ;;
    esac
    return 1
}

copied=0
for file in "${files[@]}"; do
    [[ -f $file ]] || continue  # deleted from the working tree
    withheld "$file" && continue
    mkdir -p "$root/$(dirname "$file")"
    cp -p -- "$file" "$root/$file"
    copied=$((copied + 1))
done

# Hidden cases leave every manifest: their case.<name>.* lines, and their names in `cases`
# and `perf.cases`; a hidden sanitize.case is dropped (make labN-memcheck then runs the
# default case).
for manifest in "$root"/labs/*/manifest; do
    [[ -f $manifest ]] || continue
    hidden=$(sed -n 's/^[[:space:]]*case\.\([A-Za-z0-9_-]*\)\.visibility[[:space:]]*=[[:space:]]*hidden[[:space:]]*$/\1/p' "$manifest")
    [[ -z $hidden ]] && continue
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
    ' "$manifest" >"$manifest.public"
    mv -- "$manifest.public" "$manifest"
done

# Nothing withheld may have slipped in: no solution, no reference output.
if [[ -e $root/solutions ]] || grep -rlq --binary-files=text '^labout 1 ' "$root" 2>/dev/null; then
    echo "mk/dist.sh: the distribution would hold a solution or a reference output; stopping" >&2
    exit 1
fi

mkdir -p "$(dirname "$tarball")"
tar -czf "$tarball.partial" -C "$staging" "$name"
mv -- "$tarball.partial" "$tarball"
echo "Wrote $tarball: $copied files, without solutions/, the grader or hidden cases."
