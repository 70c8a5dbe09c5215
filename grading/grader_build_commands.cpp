// The grader's commands around a student's build (grader_commands.hpp): the includes checked
// before it reads them, the starter's headers, and after it, in one process (check-build), what
// the build read, the lab's forbidden APIs and constructs, and the objects' symbols.
#include <cstdio>
#include <set>
#include <sstream>
#include <vector>

#include "fail.hpp"
#include "grader_commands.hpp"
#include "source_scan.hpp"
#include "symbol_check.hpp"

namespace {

std::map<std::string, std::string> read_sources(const LabPlan& plan, const std::string& dir) {
    std::map<std::string, std::string> sources;
    for (const std::string& file : plan.student_files)
        if (exists(dir + "/" + file)) sources[file] = read_file(dir + "/" + file);
    return sources;
}

// The symbols of a student file's object, `nm -P` output that grade.sh wrote as DIR/<file>.nmp.
std::vector<ObjectSymbol> student_symbols(const std::string& dir, const std::string& file) {
    std::string path = dir + "/" + file + ".nmp";
    if (!exists(path)) fail(exit_code::io_error, "missing symbol list " + path);
    return parse_nm(read_file(path, 64 << 20));
}

// What the compiler read for each student file (its -MMD list) must lie in the box's lab, its
// common/ or an --allow folder (the CUDA toolkit), and the preprocessed file must hold no
// assembler .incbin: the problems, one a line.
std::vector<std::string> build_read_problems(const LabPlan& plan, const ArgParser& args) {
    std::string box = args.text("box");
    std::vector<std::string> allowed = {box + "/labs/" + plan.lab, box + "/common"};
    for (const std::string& dir : split_words(args.text("allow"))) allowed.push_back(dir);
    std::vector<std::string> problems;
    for (const std::string& file : plan.student_files) {
        std::string deps = box + "/build/obj/labs/" + plan.lab + "/" + file + ".d";
        std::string pre = box + "/build/pre/labs/" + plan.lab + "/" + file + ".ii";
        if (!exists(deps) || !exists(pre)) {
            problems.push_back(file + ": the build left no record of what it read");
            continue;
        }
        for (const std::string& p : outside_dependencies(file, read_file(deps), box, allowed)) problems.push_back(p);
        if (has_incbin(read_file(pre, 256 << 20)))
            problems.push_back(file + ": an assembler .incbin reads a file at build time, which is not allowed");
    }
    return problems;
}

// The lab's forbidden APIs in the student files, in the names their objects use (--symbols), in
// the headers their translation units included beyond the starter's and their constructs in
// the PTX (--compiled), written to --out (forbidden.tsv); whether a match zeroes every part.
bool forbidden_zeroes_the_lab(const LabPlan& plan, const ArgParser& args) {
    std::map<std::string, std::vector<std::string>> symbols;
    if (!args.text("symbols").empty())
        for (const std::string& file : plan.student_files)
            for (const ObjectSymbol& s : student_symbols(args.text("symbols"), file)) symbols[file].push_back(demangle(s.name));
    std::map<std::string, CompiledFile> compiled;
    if (!args.text("compiled").empty())
        for (const std::string& file : plan.student_files) {
            std::string pre = args.text("compiled") + "/pre/labs/" + plan.lab + "/" + file + ".ii";
            std::string ptx = args.text("compiled") + "/ptx/labs/" + plan.lab + "/" + file + ".ptx";
            if (!exists(pre)) fail(exit_code::io_error, "missing preprocessed file " + pre);
            // A rule matched in nothing would pass every submission: the PTX must be there.
            bool cuda_file = file.size() > 3 && file.compare(file.size() - 3, 3, ".cu") == 0;
            if (plan.has_construct_rules() && cuda_file && !exists(ptx))
                fail(exit_code::io_error, "missing PTX " + ptx + " (the lab has construct rules)");
            compiled[file] = CompiledFile{included_headers(read_file(pre, 256 << 20)), read_file(ptx, 256 << 20)};
        }
    std::set<std::string> starter_headers;
    std::istringstream starter(read_file(args.text("starter-headers"), 16 << 20));
    for (std::string line; std::getline(starter, line);)
        if (!line.empty()) starter_headers.insert(line);
    std::vector<ForbiddenMatch> found =
        find_forbidden(plan, read_sources(plan, args.text("sources")), symbols, compiled, starter_headers);
    write_forbidden(args.text("out"), found);
    for (const ForbiddenMatch& m : found)
        if (m.part == "*") return true;
    return false;
}

// What the student objects use and define (symbol_check.hpp), against the trusted objects'
// symbols (--trusted) and the pristine starter's (--starter): the problems, each naming its symbol.
std::vector<std::string> symbol_problems(const LabPlan& plan, const ArgParser& args) {
    auto symbols_of = [&](const char* option) {
        std::string path = args.text(option);
        if (!exists(path)) fail(exit_code::io_error, "missing " + path);
        return parse_nm(read_file(path, 256 << 20));
    };
    TrustedSymbols against{symbols_of("trusted"), symbols_of("starter")};
    std::vector<std::string> problems;
    for (const std::string& file : plan.student_files)
        for (const std::string& p : check_student_symbols(file, student_symbols(args.text("symbols"), file), against, plan.allowed_symbols))
            problems.push_back(p);
    return problems;
}

}  // namespace

// Before the build: each include of a student file that reaches outside the lab; exit 1 if any.
int cmd_scan_includes(ArgParser& args, int argc, char** argv) {
    lab_options(args);
    args.option("sources", "DIR", "", "the folder holding the student files");
    args.parse(argc, argv);
    LabPlan plan = plan_from(args);
    int found = 0;
    for (const auto& [file, text] : read_sources(plan, args.text("sources")))
        for (const std::string& problem : find_outside_includes(file, text)) {
            std::printf("%s\n", problem.c_str());
            ++found;
        }
    return found ? 1 : 0;
}

// The headers a preprocessed file included, one a line (grade.sh: what the starter includes).
int cmd_headers(ArgParser& args, int argc, char** argv) {
    args.option("preprocessed", "FILES", "", "preprocessed files (.ii), blank-separated");
    args.parse(argc, argv);
    for (const std::string& file : split_words(args.text("preprocessed"))) {
        if (!exists(file)) fail(exit_code::io_error, "missing preprocessed file " + file);
        for (const std::string& header : included_headers(read_file(file, 256 << 20))) std::printf("%s\n", header.c_str());
    }
    return 0;
}

// After the build, its three checks, each when its inputs are named, in this order: what the
// build read (--box), the forbidden APIs (--out), the objects' symbols (--trusted). Prints the
// problems of the first that finds some, one a line, and exits 1: the build cannot be graded. A
// forbidden API that zeroes every part ends the checks, exit 0: the lab scores zero, reported at
// its source line with the manifest's reason, and there is nothing more to check.
int cmd_check_build(ArgParser& args, int argc, char** argv) {
    lab_options(args);
    args.option("box", "DIR", "", "the student's built work folder: check what the build read");
    args.option("allow", "DIRS", "", "further folders the build may read, blank-separated (the CUDA toolkit)");
    args.option("out", "FILE", "", "the forbidden.tsv to write: look for the lab's forbidden APIs and constructs");
    args.option("sources", "DIR", "", "the folder holding the student files");
    args.option("symbols", "DIR", "", "a folder holding <file>.nmp, the `nm -P` output of each student object");
    args.option("compiled", "DIR", "",
                "the build folder: pre/labs/LAB/<file>.ii (preprocessed) and ptx/labs/LAB/<file>.ptx of each student file");
    args.option("starter-headers", "FILE", "", "the headers the pristine starter files include, one a line");
    args.option("trusted", "FILE", "", "`nm -P` of the trusted objects: check the student objects' symbols");
    args.option("starter", "FILE", "", "`nm -P` of the objects of the pristine starter files");
    args.parse(argc, argv);
    const LabPlan plan = plan_from(args);
    std::vector<std::string> problems;
    if (!args.text("box").empty()) problems = build_read_problems(plan, args);
    if (problems.empty() && !args.text("out").empty() && forbidden_zeroes_the_lab(plan, args)) return 0;
    if (problems.empty() && !args.text("trusted").empty()) problems = symbol_problems(plan, args);
    for (const std::string& p : problems) std::printf("%s\n", p.c_str());
    return problems.empty() ? 0 : 1;
}
