#include "symbol_check.hpp"

#include <cxxabi.h>

#include <cstdlib>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "untrusted_text.hpp"

std::vector<ObjectSymbol> parse_nm(const std::string& text) {
    std::vector<ObjectSymbol> symbols;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        std::istringstream fields(line);
        ObjectSymbol s;
        std::string type;
        if (!(fields >> s.name >> type) || type.size() != 1 || s.name.back() == ':') continue;  // "file.o:" headers
        s.type = type[0];
        symbols.push_back(s);
    }
    return symbols;
}

std::string demangle(const std::string& name) {
    int status = 0;
    char* text = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
    std::string result = status == 0 && text ? text : name;
    std::free(text);
    return result;
}

const std::vector<std::string>& base_allowed_symbols() {
    static const std::vector<std::string> allowed = {
        // The C++ runtime: exceptions, guards of function-local statics, new and delete.
        "_Unwind_Resume", "__gxx_personality_v0", "DW\\.ref\\.__gxx_personality_v0",
        "__cxa_(allocate_exception|free_exception|throw|rethrow|begin_catch|end_catch|get_exception_ptr|"
        "guard_acquire|guard_release|guard_abort|atexit|pure_virtual|call_unexpected|bad_cast|bad_typeid)",
        "__dso_handle", "atexit", "__stack_chk_fail", "__assert_fail",
        "operator new(\\[\\])?\\(.*\\)", "operator delete(\\[\\])?\\(.*\\)",
        // The standard library's out-of-line parts a kernel file may need (strings, vectors,
        // exceptions, numerics); not its files, threads or processes.
        "std::(__cxx11::)?basic_string<.*", "std::__throw_[a-z_]+\\(.*\\)", "std::(__cxx11::)?to_string\\(.*\\)",
        "std::(runtime_error|logic_error|invalid_argument|out_of_range|length_error|exception|bad_alloc)::.*",
        "std::__detail::.*", "std::_Hash_bytes\\(.*\\)", "std::chrono::.*now\\(\\)",
        "std::allocator<.*>::~?allocator\\(.*\\)", "std::(__cxx11::)?basic_string<.*>::.*",
        "(typeinfo|typeinfo name|vtable) for .*",
        // libc and libm basics.
        "mem(cpy|move|set|cmp)", "str(len|cmp|ncmp|chr|rchr|str|cpy|ncpy)", "(s|sn|f|v|vs|vsn)?printf", "puts",
        "fputs", "fputc", "putchar", "fwrite", "fflush", "stdout", "stderr", "abort", "exit", "qsort",
        // ... and the checked forms _FORTIFY_SOURCE compiles them to (Ubuntu's compilers do by
        // default), and libstdc++'s assertions (_GLIBCXX_ASSERTIONS).
        "__(memcpy|memmove|memset|strcpy|strncpy|(s|sn|f|v|vs|vsn|vf)?printf)_chk",
        "std::__glibcxx_assert_fail\\(.*\\)",
        "(sqrt|cbrt|exp|exp2|expm1|log|log2|log10|log1p|pow|fabs|floor|ceil|round|trunc|fmod|fmin|fmax|fma|"
        "sin|cos|tan|asin|acos|atan|atan2|sinh|cosh|tanh|erf|erfc|hypot|ldexp|frexp|modf|nan)f?",
        // The CUDA runtime: what a kernel launch compiles to, errors, and the device's limits.
        "__cuda[A-Za-z_]*", "__fatbinwrap.*", "__nv_.*", "cudaLaunchKernel", "cudaGetLastError",
        "cudaPeekAtLastError", "cudaGetErrorString", "cudaGetErrorName", "cudaFuncGetAttributes",
        "cudaFuncSetAttribute", "cudaGetDevice", "cudaGetDeviceProperties(_v2)?", "cudaDeviceGetAttribute",
        "cudaOccupancyMaxActiveBlocksPerMultiprocessor(WithFlags)?", "cudaDeviceSynchronize",
        // The launcher's interface (common/launcher.cuh, common/launch_limits.hpp).
        "check_launch_limits\\(.*\\)", "describe(\\[abi:cxx11\\])?\\(LaunchConfig const&\\)",
    };
    return allowed;
}

namespace {

// Why the student may not define `s`, or "" when it may.
std::string definition_problem(const ObjectSymbol& s, const std::string& demangled,
                               const std::map<std::string, const ObjectSymbol*>& trusted_defined,
                               const std::set<std::string>& trusted_used, const std::set<std::string>& interface) {
    auto same = trusted_defined.find(s.name);
    if (same != trusted_defined.end()) {
        // The same inline function from a shared header is weak on both sides; the link takes
        // the trusted copy, which comes first. A strong definition would replace it.
        if (s.weak() && same->second->weak()) return "";
        return "which belongs to the trusted driver: a submission may not replace it";
    }
    if (interface.count(s.name)) return "";
    if (trusted_used.count(s.name))
        return "which the trusted driver calls and the starter file does not define: a submission may not "
               "replace it";
    // Compiler-made references to exception type information are the only C names a C++
    // object defines.
    bool mangled = s.name.rfind("_Z", 0) == 0 || s.name.rfind("DW.ref.", 0) == 0;
    if (!mangled) return "a C name, which could stand in for a C library or CUDA function: a submission may not define it";
    // The standard library's own functions, strong: only its templates, instantiated from its
    // headers (weak), belong in a student object. (After a template function's return type,
    // the name starts with the namespace.)
    static const std::regex standard("^([^(<]* )?(std|__gnu_cxx|__cxxabiv1)::.*");
    if (!s.weak() && std::regex_match(demangled, standard))
        return "a function of the standard library: a submission may not replace it";
    return "";
}

}  // namespace

std::vector<std::string> check_student_symbols(const std::string& file_name, const std::vector<ObjectSymbol>& student,
                                               const TrustedSymbols& against,
                                               const std::vector<std::string>& lab_allowed) {
    std::vector<std::regex> allowed;
    for (const std::vector<std::string>* list : {&base_allowed_symbols(), &lab_allowed})
        for (const std::string& pattern : *list) allowed.emplace_back(pattern);
    std::map<std::string, const ObjectSymbol*> trusted_defined;
    std::set<std::string> trusted_used, interface;
    for (const ObjectSymbol& s : against.trusted) {
        if (s.linked()) trusted_defined[s.name] = &s;
        if (s.undefined()) trusted_used.insert(s.name);
    }
    for (const ObjectSymbol& s : against.starter)
        if (s.linked()) interface.insert(s.name);

    std::vector<std::string> problems;
    std::set<std::string> reported;
    for (const ObjectSymbol& s : student) {
        std::string name = demangle(s.name);
        std::string problem;
        if (s.undefined()) {
            bool ok = false;
            for (const std::regex& r : allowed) ok = ok || std::regex_match(name, r) || std::regex_match(s.name, r);
            if (!ok)
                problem = " uses " + clean_line(name, 160) +
                          ", which this lab does not allow (the manifest's allowed_symbols and the grader's base list "
                          "say what may be used)";
        } else if (s.linked()) {
            std::string why = definition_problem(s, name, trusted_defined, trusted_used, interface);
            if (!why.empty()) problem = " defines " + clean_line(name, 160) + ", " + why;
        }
        if (!problem.empty() && reported.insert(s.name).second) problems.push_back(file_name + problem);
    }
    return problems;
}
