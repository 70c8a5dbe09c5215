#!/usr/bin/env bash
# The grader's shape, which keeps it readable (issue 43): grading/lib/*.sh never calls a
# function that only grading/grade.sh defines (grade.sh sources the lib files; a lib file calls
# only its own functions and theirs), and no two of grading/*.cpp/*.hpp depend on each other
# through their includes (a file and its header count as one: run_evidence.cpp including
# sanitizer_log.hpp while sanitizer_log.cpp includes run_evidence.hpp is a cycle). Each check
# is first shown to find a planted fault. And build/bin/grader's commands are the one table of
# grading/grader_main.cpp: every command function of a stage file (grading/grader_*_commands.cpp)
# is in it, and the file stays short (at most 400 lines: the commands live in their stages).
# Cheap: no build, no GPU.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/scripts/lib/checks.sh
work=$(mktemp -d /tmp/grading-structure-test.XXXXXX)
trap 'rm -rf -- "$work"' EXIT

# The functions a bash file defines, one a line.
functions_of() { grep -ohE '^[A-Za-z_][A-Za-z0-9_]*\(\)' "$@" | tr -d '()' | sort -u; }

# lib_calls_into_main GRADING: "FILE:LINE: NAME" for each call a lib file makes to a function
# that GRADING/grade.sh defines and no lib file does (comment lines aside).
lib_calls_into_main() {
    local grading=$1 name
    while read -r name; do
        grep -nwH -- "$name" "$grading"/lib/*.sh | grep -vE '^[^:]+:[0-9]+:[[:space:]]*#' | sed "s/\$/  <- $name/"
    done < <(comm -23 <(functions_of "$grading/grade.sh") <(functions_of "$grading"/lib/*.sh))
}

# include_cycles GRADING: each cycle among GRADING's C++ files, by their quoted includes of one
# another, a file and its header taken as one unit ("a -> b -> a"); nothing when there is none.
include_cycles() {
    python3 - "$1" <<'EOF'
import glob, os, re, sys
folder = sys.argv[1]
unit = lambda path: os.path.splitext(os.path.basename(path))[0]
edges = {}
for path in glob.glob(folder + "/*.cpp") + glob.glob(folder + "/*.hpp"):
    with open(path, encoding="utf-8", errors="replace") as f:
        for name in re.findall(r'^\s*#\s*include\s+"([^"]+)"', f.read(), re.M):
            if os.path.exists(os.path.join(folder, name)) and unit(name) != unit(path):
                edges.setdefault(unit(path), set()).add(unit(name))
state, found = {}, set()
def visit(node, path):
    state[node] = "open"
    for nxt in sorted(edges.get(node, ())):
        if state.get(nxt) == "open":
            cycle = path[path.index(nxt):]
            start = cycle.index(min(cycle))
            found.add(" -> ".join(cycle[start:] + cycle[:start] + [min(cycle)]))
        elif nxt not in state:
            visit(nxt, path + [nxt])
    state[node] = "done"
for node in sorted(edges):
    if node not in state:
        visit(node, [node])
print("\n".join(sorted(found)))
EOF
}

# none_from WHAT COMMAND...: the command prints nothing (else what it printed is shown).
none_from() {
    local said
    said=$("${@:2}")
    [[ -z $said ]] || { sed 's/^/      /' <<<"$said"; return 1; }
}
# found_by TEXT COMMAND...: the command's output holds TEXT.
found_by() {
    local said
    said=$("${@:2}")
    [[ $said == *"$1"* ]] || { echo "      wanted '$1', got: $said"; return 1; }
}

# Planted faults: a lib file calling grade.sh's own function, and two units including each other.
mkdir -p "$work/grading/lib"
printf 'main_only() { :; }\nshared() { :; }\n' >"$work/grading/grade.sh"
printf 'shared() { :; }\n# main_only, in a comment, is no call\nhelper() { main_only; }\n' >"$work/grading/lib/part.sh"
printf '#include "b.hpp"\n' >"$work/grading/a.cpp"
printf '#pragma once\n' >"$work/grading/a.hpp"
printf '#pragma once\n#include <string>\n' >"$work/grading/b.hpp"
check "a planted clean tree has no include cycle" none_from cycles include_cycles "$work/grading"
printf '#include "b.hpp"\n#include "a.hpp"\n' >"$work/grading/b.cpp"
check "a lib file calling a function only grade.sh defines is found" found_by "lib/part.sh:3:" lib_calls_into_main "$work/grading"
check "... and only there (not in a comment, not a shared name)" found_by "<- main_only" lib_calls_into_main "$work/grading"
check "a.cpp -> b.hpp while b.cpp -> a.hpp is found as a cycle" found_by "a -> b -> a" include_cycles "$work/grading"

# commands_outside_the_table GRADING: each command function a stage file defines that
# GRADING/grader_main.cpp's table does not name.
commands_outside_the_table() {
    local name
    for name in $(grep -ohE '^int cmd_[a-z_]+\(' "$1"/grader_*_commands.cpp | sed 's/^int //; s/($//'); do
        grep -qE "[ ,]$name\}" "$1/grader_main.cpp" || echo "$name"
    done
}
mkdir -p "$work/table"
printf 'int cmd_one(ArgParser& args, int argc, char** argv) {\nint cmd_two(ArgParser& args, int argc, char** argv) {\n' \
    >"$work/table/grader_stage_commands.cpp"
printf '        {"one", "One.", cmd_one}};\n' >"$work/table/grader_main.cpp"
check "a command function left out of the table is found" found_by cmd_two commands_outside_the_table "$work/table"

check "grading/lib/*.sh calls no function that only grading/grade.sh defines" none_from calls lib_calls_into_main grading
check "grading/*.cpp/*.hpp include one another in no cycle" none_from cycles include_cycles grading
check "every command of grading/grader_*_commands.cpp is in grader_main.cpp's table" none_from commands \
    commands_outside_the_table grading
check "grading/grader_main.cpp is at most 400 lines ($(wc -l <grading/grader_main.cpp))" test "$(wc -l <grading/grader_main.cpp)" -le 400
finish
