// The helpers the grader's commands share (grader_commands.hpp).
#include "grader_commands.hpp"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "atomic_file.hpp"
#include "fail.hpp"
#include "manifest.hpp"
#include "table.hpp"  // format_general
#include "untrusted_text.hpp"

std::string read_file(const std::string& path, size_t max_bytes) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return "";
    std::string text;
    std::vector<char> chunk(1 << 16);
    while (text.size() < max_bytes) {
        in.read(chunk.data(), std::streamsize(std::min(chunk.size(), max_bytes - text.size())));
        if (in.gcount() <= 0) break;
        text.append(chunk.data(), size_t(in.gcount()));
    }
    return text;
}

void write_file(const std::string& path, const std::string& text) {
    try {
        write_file_atomically(path, text);
    } catch (const std::runtime_error& error) {
        fail(exit_code::io_error, error.what());
    }
}

bool exists(const std::string& path) {
    struct stat info {};
    return stat(path.c_str(), &info) == 0;
}

namespace {

LabPlan load_plan(const std::string& manifest, const std::string& lab) {
    return make_lab_plan(Manifest::load(manifest), lab);  // a ManifestError: bad usage (grader_main.cpp)
}

}  // namespace

void lab_options(ArgParser& args) {
    args.option("plan", "FILE", "",
                "the lab's plan in this grading run (grader plan --write): its lab, manifests, seeds, time-limit cap and wall "
                "margin, which the options below then need not repeat");
    args.option("lab", "LAB", "", "the lab (a folder of --manifests)");
    args.option("manifests", "DIR", "labs", "where the labs' folders are");
    args.option("grading-seed", "S", "0", "the grading run's seed, from which every graded case's seed is derived (0: none)");
}

std::optional<PlanFile> plan_file_of(const ArgParser& args) {
    if (args.text("plan").empty()) return std::nullopt;
    static std::map<std::string, PlanFile> read;  // a command asks more than once
    auto it = read.find(args.text("plan"));
    if (it == read.end()) it = read.emplace(args.text("plan"), read_plan_file(args.text("plan"))).first;
    if (!args.text("lab").empty() && args.text("lab") != it->second.lab)
        fail(exit_code::bad_usage, "--lab " + args.text("lab") + ": the plan " + args.text("plan") + " is of " + it->second.lab);
    return it->second;
}

unsigned long long grading_seed_of(const ArgParser& args) {
    return static_cast<unsigned long long>(args.integer("grading-seed", 0, 1ll << 62));
}

LabPlan plan_from(const ArgParser& args) {
    const std::optional<PlanFile> file = plan_file_of(args);
    std::string lab = file ? file->lab : args.text("lab");
    if (lab.empty()) fail(exit_code::bad_usage, "--lab is required");
    LabPlan plan = load_plan((file ? file->manifests : args.text("manifests")) + "/" + lab + "/manifest", lab);
    plan.grading_seed = file ? file->grading_seed : grading_seed_of(args);
    return plan;
}

std::map<std::string, LabPlan> load_plans(const std::string& manifests, const std::vector<std::string>& labs) {
    std::map<std::string, LabPlan> plans;
    for (const std::string& lab : labs) plans.emplace(lab, load_plan(manifests + "/" + lab + "/manifest", lab));
    return plans;
}

void wall_options(ArgParser& args) {
    args.option("time-limit", "S", "0", "a cap on every case's time limit (grade.sh --time-limit; 0: none)");
    args.option("margin", "S", format_general(WallRules{}.margin),
                "seconds a process gets beyond its cases' limits (GRADE_WALL_MARGIN)");
}

WallRules wall_rules_from(const ArgParser& args) {
    if (auto plan = plan_file_of(args)) return WallRules{plan->time_limit, plan->margin};
    return WallRules{args.number("time-limit", 0, 1e6), args.number("margin", 0, 1e6)};
}

unsigned long long sample_seed_of(const ArgParser& args, const std::string& option) {
    if (auto plan = plan_file_of(args)) return plan->sample_seed;
    return static_cast<unsigned long long>(args.integer(option, 0, 1ll << 62));
}

ArgParser verb_parser(const std::string& command, int argc, char** argv, const std::map<std::string, std::string>& verbs,
                      std::string& verb) {
    verb = argc > 1 ? argv[1] : "";
    if (!verbs.count(verb)) {
        std::string names;
        for (const auto& [name, help] : verbs) names += " " + name;
        fail(exit_code::bad_usage, "grader " + command + ": unknown verb '" + verb + "'; verbs:" + names);
    }
    return ArgParser("grader " + command + " " + verb, verbs.at(verb));
}

std::vector<std::string> student_folders(const std::string& dir) {
    std::vector<std::string> names;
    if (DIR* d = opendir(dir.c_str())) {
        while (dirent* e = readdir(d)) {
            std::string name = e->d_name;
            struct stat info {};
            if (name[0] != '.' && stat((dir + "/" + name).c_str(), &info) == 0 && S_ISDIR(info.st_mode)) names.push_back(name);
        }
        closedir(d);
    }
    std::sort(names.begin(), names.end());
    return names;
}

StudentReport load_report(const std::string& student, const std::string& dir, const std::vector<std::string>& labs,
                          const std::map<std::string, LabPlan>& plans) {
    StudentReport report;
    report.student = student;
    // notes.txt (written by grade.sh): about the submission as a whole, one a line.
    std::istringstream notes(read_file(dir + "/notes.txt", 64 << 10));
    for (std::string line; std::getline(notes, line);)
        if (!line.empty()) report.notes.push_back(clean_line(line, 300));
    for (const std::string& lab : labs) {
        std::string path = dir + "/" + lab + "/score.tsv";
        report.labs.push_back(exists(path) ? read_lab_score(path) : not_graded(plans.at(lab)));
    }
    return report;
}
