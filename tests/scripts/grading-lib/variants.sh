# Planted-bug variants (grading/variants/<lab>/<variant>/, grading/FORMATS.md): each is the
# reference solution with a small patch, or the solution or the starter as they are. Sourced
# by the grading tests from the repository root, after mk/manifest.sh.

# variant_labs: the labs that have variants.
variant_labs() {
    local folder
    for folder in grading/variants/*/; do
        [[ -f labs/$(basename "$folder")/manifest ]] && basename "$folder"
    done
}

# variant_names LAB: its variants, one a line.
variant_names() {
    local folder
    for folder in "grading/variants/$1"/*/; do [[ -f $folder/expect ]] && basename "$folder"; done
}

# make_variant LAB VARIANT DEST: the variant's student files into the folder DEST. A patch that
# no longer applies exactly (no fuzz, no offset beyond what patch allows silently) fails loudly.
make_variant() {
    local lab=$1 variant=$2 dest=$3 folder=grading/variants/$1/$2 file source
    source=$(manifest_value "$folder/expect" source)
    mkdir -p -- "$dest"
    for file in $(manifest_get "$lab" student_files); do
        case $source in
            starter) cp -- "labs/$lab/$file" "$dest/$file" ;;
            solution | "") cp -- "solutions/$lab/$file" "$dest/$file" ;;
            *) echo "$folder/expect: source must be solution or starter, not '$source'" >&2; return 1 ;;
        esac || return 1
    done
    [[ -z $source ]] || return 0
    if [[ ! -f $folder/patch ]]; then
        echo "$folder has neither a patch nor a source in its expect file" >&2
        return 1
    fi
    if ! patch --quiet --batch --fuzz=0 -p1 -d "$dest" <"$folder/patch" >"$dest/.patch.log" 2>&1; then
        echo "the patch of $lab variant $variant no longer applies to solutions/$lab: $(head -3 "$dest/.patch.log")" >&2
        echo "(update $folder/patch: diff -u against the current solution)" >&2
        return 1
    fi
    rm -f -- "$dest/.patch.log" "$dest"/*.orig
}
