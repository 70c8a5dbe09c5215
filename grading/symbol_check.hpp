// What a student's object file may use and define, checked from its symbols (nm -P), after the
// build; no spelling of the source can hide a call from it (split strings, macros, dlsym).
//   - every symbol it uses (undefined in it) must be on the allowlist: the course's base list
//     (the C++ runtime, the standard library's string and exceptions, basic libc and math, the
//     CUDA runtime's launch machinery and error calls, the launcher's interface) and the lab's
//     own `allowed_symbols` (manifest). Not on it: dlopen, dlsym, system, exec*, fork,
//     posix_spawn, file and process APIs, CUDA events and streams, and the trusted driver's own
//     functions (its CPU reference, its timers);
//   - it must not replace code the trusted objects rely on. It may not define a symbol the
//     trusted objects define (except the same inline function from a shared header, weak in
//     both, which the link resolves to the trusted copy, which comes first); nor one they call
//     that the starter file does not define (the starter's definitions are the lab's interface:
//     anything else they call comes from a library, a timer or the C++ runtime, say); nor any
//     unmangled (C) name, which could stand in for a C library or CUDA function; nor a strong
//     function of the standard library (its templates' instances, weak, are fine).
#pragma once
#include <string>
#include <vector>

struct ObjectSymbol {
    std::string name;  // as in the object: mangled
    char type = '?';   // nm's letter: U undefined; T D B R ... global; W V w v weak; u unique; lower case local
    bool undefined() const { return type == 'U'; }
    // Weak, or unique global (the static data of an inline template): the same entity from a
    // shared header, of which the link keeps one.
    bool weak() const { return type == 'W' || type == 'V' || type == 'w' || type == 'v' || type == 'u'; }
    // Visible to the link: global or weak (local symbols cannot collide).
    bool linked() const { return !undefined() && (weak() || (type >= 'A' && type <= 'Z')); }
};

// The lines of `nm -P` output ("name type [value size]").
std::vector<ObjectSymbol> parse_nm(const std::string& nm_posix_output);
std::string demangle(const std::string& name);

// The course's base allowlist, regular expressions (ECMAScript) over demangled names, each
// matching a whole name.
const std::vector<std::string>& base_allowed_symbols();

// What a student object is checked against: the symbols of the trusted objects (defined and
// used) and those the pristine starter files define.
struct TrustedSymbols {
    std::vector<ObjectSymbol> trusted;
    std::vector<ObjectSymbol> starter;
};

// One sentence per problem of the student file `file_name`, naming the symbol.
std::vector<std::string> check_student_symbols(const std::string& file_name, const std::vector<ObjectSymbol>& student,
                                               const TrustedSymbols& against,
                                               const std::vector<std::string>& lab_allowed);
