// Static checks on a student's files, before and after the build:
//   - forbidden APIs (labs/MANIFEST.md, `forbidden` and `part.<part>.forbidden`): an extended,
//     case-insensitive regular expression searched in each file with its comments removed, in
//     the symbol names its object file defines or uses (`nm -P` output, demangled), and in the
//     paths of the headers its translation unit included (the preprocessed file's line markers,
//     which no alias or macro changes: `namespace x = cooperative_groups;` still includes
//     cooperative_groups.h) beyond those the pristine starter includes;
//   - forbidden constructs (`part.<part>.forbidden_ptx`): an extended regular expression
//     searched in the PTX the compiler made of the file (`ld.volatile`, `atom.global.max`),
//     whatever the source's spelling;
//   - includes that reach outside the lab (an absolute or `..` path, a computed #include,
//     #embed, .incbin): the build must not read the grader's files.
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

#include "lab_plan.hpp"

// Comments become blanks (line breaks are kept, so line numbers stay right); string and
// character literals are kept, so `dlopen("libcublas.so")` still matches.
std::string strip_comments(const std::string& source);


struct ForbiddenMatch {
    std::string part;   // "*": the lab-wide pattern, which zeroes every part
    std::string where;  // "matmul.cu:12" or "matmul.cu (object file)"
    std::string text;   // the line or the symbol, cleaned
};

// What the compiler made of a student file, after the build.
struct CompiledFile {
    std::vector<std::string> headers;  // every header its translation unit included (included_headers)
    std::string ptx;                   // its PTX; empty for a host-only file
};

// The files named by the line markers of a preprocessed translation unit (`# 12 "path" 1 3`),
// each once, in order of first appearance; compiler pseudo-files (`<built-in>`) left out.
std::vector<std::string> included_headers(const std::string& preprocessed);

// `sources`, `symbols` and `compiled` are keyed by student file name; a file absent from
// `symbols` or `compiled` (not built yet) is checked in what there is. A header in
// `starter_headers` (what the pristine starter files include) is never a match.
std::vector<ForbiddenMatch> find_forbidden(const LabPlan& plan, const std::map<std::string, std::string>& sources,
                                           const std::map<std::string, std::vector<std::string>>& symbols,
                                           const std::map<std::string, CompiledFile>& compiled = {},
                                           const std::set<std::string>& starter_headers = {});

// One sentence per offending line, "matmul.cu:3: #include \"/etc/passwd\" reaches outside the lab".
std::vector<std::string> find_outside_includes(const std::string& file_name, const std::string& source);

// What the build itself read, which no spelling of a source can hide (a digraph `%:include`, a
// directive split by a line continuation, a macro): the files a student file's compilation
// depended on, from the compiler's own list (make's format, `-MMD`), must all lie in one of
// `allowed_dirs` (the box's copy of the lab and of common/). Relative paths are the box's.
// One sentence per file outside them.
std::vector<std::string> outside_dependencies(const std::string& file_name, const std::string& dependencies,
                                              const std::string& box, const std::vector<std::string>& allowed_dirs);

// True when the preprocessed text holds an assembler `.incbin` (which reads a file at build
// time) in a string literal, also one made of adjacent literals (".inc" "bin").
bool has_incbin(const std::string& preprocessed);

void write_forbidden(const std::string& path, const std::vector<ForbiddenMatch>& matches);
std::vector<ForbiddenMatch> read_forbidden(const std::string& path);  // throws FormatError when absent
