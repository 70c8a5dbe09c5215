// A lab's table of parts, looked up one way in every lab. Where a lab's parts differ only in
// the kernel they call and a few facts about it, the lab keeps them in one list, in ladder
// order (lab1's matmul_parts(), lab5's reduce_parts(), ...): each entry a struct whose `name`
// is the part's name in the manifest's `parts` and in --part. The driver runs them from it, its
// LabInfo::parts is their names, and the tests check every entry, so a new rung is one line
// there and one in the manifest.
#pragma once
#include <string>
#include <vector>

#include "args.hpp"
#include "fail.hpp"

// The names of the table's parts, in its order: the lab's LabInfo::parts.
template <class Part>
std::vector<std::string> part_names(const std::vector<Part>& parts) {
    std::vector<std::string> names;
    for (const Part& p : parts) names.push_back(p.name);
    return names;
}

// The part called `name`. A name not in the table stops the program (bad usage) with the names
// there are: the core has already refused an unknown --part, so this is a driver's or a test's
// mistake, said plainly.
template <class Part>
const Part& part_named(const std::vector<Part>& parts, const std::string& name) {
    for (const Part& p : parts)
        if (name == p.name) return p;
    fail(exit_code::bad_usage, "no part named '" + name + "' (parts: " + join_list(part_names(parts), ", ") + ")");
}
