// Static checks on a student's files, before and after the build:
//   - forbidden APIs (labs/MANIFEST.md, `forbidden` and `part.<part>.forbidden`): an extended,
//     case-insensitive regular expression searched in each file with its comments removed,
//     and in the symbol names its object file defines or uses (`nm -P` output, demangled);
//   - includes that reach outside the lab (an absolute or `..` path, a computed #include,
//     #embed, .incbin): the build must not read the grader's files.
#pragma once
#include <map>
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

// `sources` and `symbols` are keyed by student file name; a file absent from `symbols` (not
// built yet) is checked in its source only.
std::vector<ForbiddenMatch> find_forbidden(const LabPlan& plan, const std::map<std::string, std::string>& sources,
                                           const std::map<std::string, std::vector<std::string>>& symbols);

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
