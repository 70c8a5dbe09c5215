#include "ptxas_report.hpp"

#include <cxxabi.h>

#include <cctype>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>
#include <sstream>

namespace {

std::string trim(const std::string& s) {
    size_t b = s.find_first_not_of(" \t\r"), e = s.find_last_not_of(" \t\r");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

bool starts_with(const std::string& s, const std::string& prefix) { return s.compare(0, prefix.size(), prefix) == 0; }

// '.' belongs to a word so that an opcode (ld.shared.f32) or a directive (.shared) never reads as
// the name of an array called `shared`; PTX names themselves hold no '.'.
bool is_identifier_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.';
}

// The words of a line of PTX: names, and registers (r1 of %r1) and opcodes, which is harmless.
std::vector<std::string> identifiers(const std::string& line) {
    std::vector<std::string> words;
    std::string word;
    for (char c : line) {
        if (is_identifier_char(c)) {
            word += c;
        } else if (!word.empty()) {
            words.push_back(word);
            word.clear();
        }
    }
    if (!word.empty()) words.push_back(word);
    return words;
}

// Whether `line` declares a function: "[.visible|.weak|.extern] .entry NAME(" or ".func
// [(return value)] NAME(". Sets its name and whether it is a kernel.
bool declared_function(const std::string& line, std::string& name, bool& kernel) {
    size_t at = std::string::npos;
    for (const char* keyword : {".entry", ".func"}) {
        size_t k = line.find(keyword);
        size_t end = k + std::char_traits<char>::length(keyword);
        if (k != std::string::npos && (k == 0 || line[k - 1] == ' ' || line[k - 1] == '\t') &&
            end < line.size() && (line[end] == ' ' || line[end] == '\t')) {
            at = end;
            kernel = keyword[1] == 'e';
            break;
        }
    }
    if (at == std::string::npos) return false;
    std::string rest = trim(line.substr(at));
    if (!rest.empty() && rest[0] == '(') {  // a device function's return value
        size_t close = rest.find(')');
        rest = close == std::string::npos ? "" : trim(rest.substr(close + 1));
    }
    std::vector<std::string> words = identifiers(rest);
    if (words.empty()) return false;
    name = words.front();
    return true;
}

// A function of the PTX (a kernel, .entry, or a device function, .func): what its body reaches.
struct PtxFunction {
    std::string symbol;
    bool is_kernel = false;
    int launch_bound = 0;
    std::set<std::string> references;  // identifiers of its body
};

// The functions the PTX defines, in order, and its `extern __shared__` arrays.
struct PtxModule {
    std::vector<PtxFunction> functions;
    std::set<std::string> extern_shared;
};

PtxModule parse_ptx(const std::string& ptx) {
    PtxModule module;
    std::istringstream in(ptx);
    std::string raw;
    std::unique_ptr<PtxFunction> current;  // between its declaration and the end of its body
    int depth = 0;                          // braces open in the current body
    bool in_body = false;
    while (std::getline(in, raw)) {
        std::string line = trim(raw.substr(0, raw.find("//")));
        if (line.empty()) continue;
        if (!current) {
            if (starts_with(line, ".extern .shared")) {  // .extern .shared .align 16 .b8 NAME[];
                std::vector<std::string> words = identifiers(line.substr(0, line.find('[')));
                if (!words.empty()) module.extern_shared.insert(words.back());
                continue;
            }
            std::string name;
            bool kernel = false;
            if (!declared_function(line, name, kernel)) continue;
            current = std::make_unique<PtxFunction>();
            current->symbol = name;
            current->is_kernel = kernel;
            in_body = false;
            depth = 0;
            if (line.back() == ';') current.reset();  // a prototype, no body
            continue;
        }
        if (!in_body) {
            if (line == "{") {
                in_body = true;
                depth = 1;
            } else if (line.back() == ';') {
                current.reset();  // the prototype's parameters ended without a body
            } else if (starts_with(line, ".maxntid") || starts_with(line, ".reqntid")) {
                int threads = 1;
                for (const std::string& w : identifiers(line.substr(8))) threads *= std::atoi(w.c_str());
                current->launch_bound = threads;
            }
            continue;
        }
        for (char c : line) depth += c == '{' ? 1 : c == '}' ? -1 : 0;
        if (depth <= 0) {
            module.functions.push_back(std::move(*current));
            current.reset();
            continue;
        }
        for (std::string& w : identifiers(line)) current->references.insert(std::move(w));
    }
    return module;
}

// Whether `f`, or a device function it calls (at any depth), reaches an extern shared array.
bool reaches_dynamic_shared(const PtxModule& module, const PtxFunction& f) {
    std::map<std::string, const PtxFunction*> by_symbol;
    for (const PtxFunction& g : module.functions) by_symbol[g.symbol] = &g;
    std::set<std::string> seen{f.symbol};
    std::vector<const PtxFunction*> todo{&f};
    while (!todo.empty()) {
        const PtxFunction* g = todo.back();
        todo.pop_back();
        for (const std::string& ref : g->references) {
            if (module.extern_shared.count(ref)) return true;
            auto callee = by_symbol.find(ref);
            if (callee != by_symbol.end() && !callee->second->is_kernel && seen.insert(ref).second)
                todo.push_back(callee->second);
        }
    }
    return false;
}

// The number written just before `unit` in `line` ("48 bytes spill stores"), 0 when absent.
int number_before(const std::string& line, const std::string& unit) {
    size_t at = line.find(" " + unit);
    if (at == std::string::npos) return 0;
    size_t start = at;
    while (start > 0 && std::isdigit(static_cast<unsigned char>(line[start - 1]))) --start;
    return start == at ? 0 : std::atoi(line.substr(start, at - start).c_str());
}

// The text after `marker` in `line` up to `end` (or to the end of the line), empty when absent.
std::string text_after(const std::string& line, const std::string& marker, char end) {
    size_t at = line.find(marker);
    if (at == std::string::npos) return "";
    at += marker.size();
    return line.substr(at, line.find(end, at) - at);
}

struct PtxasFacts {
    bool compiled = false;
    int registers = 0, stack = 0, spill_stores = 0, spill_loads = 0;
    std::size_t shared = 0;
};

// ptxas -v: "Compiling entry function 'SYM' for 'sm_75'", then "Function properties for SYM" and
// its "N bytes stack frame, N bytes spill stores, N bytes spill loads", then "Used N registers,
// ..., N bytes smem, ..." for the entry being compiled. Device functions have properties too.
std::map<std::string, PtxasFacts> parse_ptxas(const std::string& report) {
    std::map<std::string, PtxasFacts> facts;
    std::istringstream in(report);
    std::string line, entry, properties_of;
    while (std::getline(in, line)) {
        if (std::string sym = text_after(line, "Compiling entry function '", '\''); !sym.empty()) {
            entry = sym;
            facts[entry].compiled = true;
        } else if (std::string of = text_after(line, "Function properties for ", ' '); !of.empty()) {
            properties_of = trim(of);
        } else if (line.find("bytes stack frame") != std::string::npos && !properties_of.empty()) {
            PtxasFacts& f = facts[properties_of];
            f.stack = number_before(line, "bytes stack frame");
            f.spill_stores = number_before(line, "bytes spill stores");
            f.spill_loads = number_before(line, "bytes spill loads");
        } else if (line.find("Used ") != std::string::npos && line.find(" registers") != std::string::npos &&
                   !entry.empty()) {
            PtxasFacts& f = facts[entry];
            f.registers = number_before(line, "registers");
            f.shared = std::size_t(number_before(line, "bytes smem"));
        }
    }
    return facts;
}

}  // namespace

std::vector<CompiledKernel> read_compiled_kernels(const std::string& ptx, const std::string& ptxas_report) {
    const PtxModule module = parse_ptx(ptx);
    const std::map<std::string, PtxasFacts> facts = parse_ptxas(ptxas_report);
    std::vector<CompiledKernel> kernels;
    for (const PtxFunction& f : module.functions) {
        if (!f.is_kernel) continue;
        auto it = facts.find(f.symbol);
        if (it == facts.end() || !it->second.compiled)
            throw PtxasReportError("the ptxas report does not mention the kernel " + f.symbol +
                                   " of the PTX: it is not the report of this PTX");
        CompiledKernel k;
        k.symbol = f.symbol;
        k.name = kernel_name(f.symbol);
        k.registers = it->second.registers;
        k.static_shared_bytes = it->second.shared;
        k.stack_frame_bytes = it->second.stack;
        k.spill_store_bytes = it->second.spill_stores;
        k.spill_load_bytes = it->second.spill_loads;
        k.launch_bound = f.launch_bound;
        k.uses_dynamic_shared = reaches_dynamic_shared(module, f);
        kernels.push_back(k);
    }
    return kernels;
}

std::string kernel_name(const std::string& symbol) {
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> demangled(abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status),
                                                     std::free);
    if (status != 0 || !demangled) return symbol;  // extern "C", or not a C++ name
    std::string d = demangled.get();
    // The parameter list: the parenthesis that closes the name, matched backwards.
    if (!d.empty() && d.back() == ')') {
        int depth = 0;
        for (size_t i = d.size(); i-- > 0;) {
            depth += d[i] == ')' ? 1 : d[i] == '(' ? -1 : 0;
            if (depth == 0) {
                d.erase(i);
                break;
            }
        }
    }
    // The return type (templates only): what comes before the last blank outside <> and ().
    int depth = 0;
    size_t name_start = 0;
    for (size_t i = 0; i < d.size(); ++i) {
        char c = d[i];
        depth += (c == '<' || c == '(') ? 1 : (c == '>' || c == ')') ? -1 : 0;
        if (c == ' ' && depth == 0) name_start = i + 1;
    }
    d.erase(0, name_start);
    for (const std::string& noise : {std::string("(anonymous namespace)::"), std::string(", ")}) {
        for (size_t at; (at = d.find(noise)) != std::string::npos;) d.replace(at, noise.size(), noise == ", " ? "," : "");
    }
    return d;
}
