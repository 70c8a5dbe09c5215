#include "run_group.hpp"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>

#include "atomic_file.hpp"
#include "cases_file.hpp"
#include "run_evidence.hpp"
#include "run_files.hpp"
#include "args.hpp"  // join_list

namespace fs = std::filesystem;

void remove_tree(const std::string& path) {
    std::error_code error;
    fs::remove_all(path, error);
    if (!error) return;
    // A program that ran as the grader's own user may have taken the permissions off a folder.
    for (auto it = fs::recursive_directory_iterator(path, fs::directory_options::skip_permission_denied, error);
         !error && it != fs::recursive_directory_iterator(); it.increment(error))
        if (it->is_directory(error) && !it->is_symlink(error)) ::chmod(it->path().c_str(), 0700);
    ::chmod(path.c_str(), 0700);
    error.clear();
    fs::remove_all(path, error);
    if (error) throw std::runtime_error("cannot remove " + path + ": " + error.message());
}

void copy_tree(const std::string& from, const std::string& to) {
    std::error_code error;
    fs::create_directory(to, from, error);  // with FROM's mode
    if (error) throw std::runtime_error("cannot make " + to + ": " + error.message());
    for (const fs::directory_entry& entry : fs::directory_iterator(from, error)) {
        const fs::path target = fs::path(to) / entry.path().filename();
        const fs::file_status status = entry.symlink_status(error);
        if (fs::is_symlink(status))
            fs::copy_symlink(entry.path(), target, error);
        else if (fs::is_directory(status))
            copy_tree(entry.path().string(), target.string());
        else if (fs::is_regular_file(status))
            fs::copy_file(entry.path(), target, error);  // with its mode
        if (error) throw std::runtime_error("cannot copy " + entry.path().string() + ": " + error.message());
    }
    if (error) throw std::runtime_error("cannot read " + from + ": " + error.message());
}

namespace {

// Everything under PATH, PATH included, owned by UID (its links themselves, never what they name).
void lend(const std::string& path, const std::optional<int>& uid) {
    if (!uid) return;
    auto chown_one = [&](const fs::path& p) {
        if (::lchown(p.c_str(), uid_t(*uid), gid_t(*uid)) != 0)
            throw std::runtime_error("cannot lend " + p.string() + " to uid " + std::to_string(*uid) + ": " + std::strerror(errno));
    };
    chown_one(path);
    std::error_code error;
    if (!fs::is_directory(fs::symlink_status(path, error))) return;
    for (auto it = fs::recursive_directory_iterator(path, error); !error && it != fs::recursive_directory_iterator();
         it.increment(error))
        chown_one(it->path());
    if (error) throw std::runtime_error("cannot lend " + path + ": " + error.message());
}

// Runs ARGV (argv[0] found on PATH), its stdout and stderr those of this process; its exit status.
int run_command(const std::vector<std::string>& argv) {
    std::vector<char*> pointers;
    for (const std::string& word : argv) pointers.push_back(const_cast<char*>(word.c_str()));
    pointers.push_back(nullptr);
    std::fflush(nullptr);
    pid_t child = ::fork();
    if (child < 0) throw std::runtime_error(std::string("cannot start a process: ") + std::strerror(errno));
    if (child == 0) {
        ::execvp(pointers[0], pointers.data());
        std::fprintf(stderr, "cannot run %s: %s\n", pointers[0], std::strerror(errno));
        ::_exit(127);
    }
    int status = 0;
    while (::waitpid(child, &status, 0) < 0)
        if (errno != EINTR) throw std::runtime_error(std::string("cannot wait for a process: ") + std::strerror(errno));
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// A log kept to its last 64 KB: enough for the feedback, small for a class.
void trim_log(const std::string& path) {
    constexpr std::uintmax_t keep = 65536;
    std::error_code error;
    const std::uintmax_t size = fs::file_size(path, error);
    if (error || size <= keep) return;
    std::ifstream in(path, std::ios::binary);
    in.seekg(std::streamoff(size - keep));
    std::string tail(keep, '\0');
    in.read(tail.data(), std::streamsize(keep));
    tail.resize(size_t(in.gcount()));
    write_file_atomically(path, tail);
}

void append(std::vector<std::string>& command, std::initializer_list<std::string> words) {
    command.insert(command.end(), words.begin(), words.end());
}

// A folder and those above it, as mkdir -p.
void make_folders(const std::string& path) {
    std::error_code error;
    fs::create_directories(path, error);
    if (error) throw std::runtime_error("cannot make " + path + ": " + error.message());
}

// "STUDENT/LAB" of the student x lab's folder .../STUDENT/LAB.
std::string student_lab_of(const std::string& dir) {
    const fs::path path(dir);
    return (path.parent_path().filename() / path.filename()).string();
}

class Group {
public:
    Group(const RunGroupSetup& setup, std::vector<std::string>& log)
        : s_(setup), log_(log), box_(setup.built + ".run"), parts_(setup.plan.part_names()),
          student_lab_(student_lab_of(setup.dir)), who_(student_lab_) {
        if (size_t slash = who_.rfind('/'); slash != std::string::npos) who_[slash] = ' ';
        std::error_code error;
        if (fs::exists(s_.ledger_path, error)) {
            ledger_ = read_ledger(s_.ledger_path);
        } else {
            ledger_.budget = s_.budget > 0 ? s_.budget : default_budget(s_.plan, s_.rules);
        }
    }

    void sanitize(const std::string& script);
    void run_cases(const std::vector<std::string>& cases, bool hidden);
    void time_again(const std::vector<std::string>& pairs, bool hidden);

    RunGroupEnd end() {
        if (gpu_short_) return RunGroupEnd::gpu_short;
        write_file_atomically(s_.ledger_path, ledger_text(ledger_));
        return gpu_suspect_ ? RunGroupEnd::gpu_suspect : RunGroupEnd::done;
    }

private:
    enum class Kind { batch, part, second_timing };
    bool run_batch(Kind kind, const std::string& folder, const std::vector<std::string>& pairs, bool hidden);
    void fresh_box(bool hidden);
    std::vector<std::string> sandbox_command(const std::string& status, const std::string& out, const std::string& err,
                                             long long wall) const;
    void after_run(const std::string& sandbox_tsv, const std::string& what, bool spent, const std::string& sanitizer_log);
    void not_run(const std::vector<std::string>& folders, const std::string& reason);
    std::string log_names(const std::vector<std::string>& folders) const;
    std::vector<std::string> driver_command() const;

    const RunGroupSetup& s_;
    std::vector<std::string>& log_;
    const std::string box_;
    const std::vector<std::string> parts_;
    const std::string student_lab_;  // "STUDENT/LAB", and
    std::string who_;                // "STUDENT LAB", for the log
    RunLedger ledger_;
    bool gpu_short_ = false, gpu_suspect_ = false;
};

// A fresh copy of the built work folder for one process, lent to the sandbox uid: nothing a
// process leaves in its folder reaches the next one (a hidden case's arguments, say). A process
// of hidden cases also finds the lab's hidden data (grading/hidden/LAB/, named by the hidden
// cases' arguments), which no other run, the student tarball or the sandbox's public files hold.
void Group::fresh_box(bool hidden) {
    remove_tree(box_);
    copy_tree(s_.built, box_);
    make_folders(box_ + "/run-out");
    if (hidden && !s_.hidden_data.empty() && fs::is_directory(s_.hidden_data)) {
        make_folders(box_ + "/grading/hidden");
        copy_tree(s_.hidden_data, box_ + "/grading/hidden/" + s_.plan.lab);
    }
    lend(box_, s_.uid);
}

// The graded driver's command line, the same for every process of a case (cases_file.hpp).
std::vector<std::string> Group::driver_command() const {
    std::vector<std::string> command{"./build/bin/" + s_.plan.lab + "-graded"};
    command.insert(command.end(), s_.driver_args.begin(), s_.driver_args.end());
    append(command, {"--cases", "cases.txt", "--out", "run-out"});
    return command;
}

std::vector<std::string> Group::sandbox_command(const std::string& status, const std::string& out, const std::string& err,
                                                long long wall) const {
    std::vector<std::string> command = s_.sandbox;
    append(command, {"--box", box_, "--status", status, "--stdout", out, "--stderr", err, "--wall", std::to_string(wall),
                     "--fsize", std::to_string(s_.output_limit), "--gpu", "--env", "CUDA_VISIBLE_DEVICES=" + s_.gpu});
    return command;
}

// The run's seconds spent (not a second timing's), how it ended in the log, and whether its
// end says the GPU may have been short while the runners shared it (run_evidence.hpp): a
// classmate's program may have held it, so the group runs again with the GPU to itself.
void Group::after_run(const std::string& sandbox_tsv, const std::string& what, bool spent, const std::string& sanitizer_log) {
    const SandboxOutcome outcome = read_sandbox_outcome(sandbox_tsv);
    if (spent) spend(ledger_, outcome.seconds);
    log_.push_back(what + ": " + (outcome.present ? outcome.outcome + " " + std::to_string(outcome.exit_code) : "no record"));
    if (gpu_may_have_been_short(outcome, s_.shared, sanitizer_log)) gpu_short_ = true;
    if (may_have_taken_the_gpu_down(outcome)) gpu_suspect_ = true;
}

std::string Group::log_names(const std::vector<std::string>& folders) const {
    std::string names;
    for (const std::string& folder : folders) names += (names.empty() ? "" : " ") + student_lab_ + "/" + folder;
    return names;
}

// FOLDER/not-run.txt for each folder under the student x lab's: why it has no run.
void Group::not_run(const std::vector<std::string>& folders, const std::string& reason) {
    for (const std::string& folder : folders) {
        make_folders(s_.dir + "/" + folder);
        write_file_atomically(s_.dir + "/" + folder + "/not-run.txt", reason + "\n");
    }
}

// One sandboxed process running PAIRS (CASE/PART); the evidence of each case goes to
// runs/CASE/FOLDER. False, running nothing, when the budget is spent.
bool Group::run_batch(Kind kind, const std::string& folder, const std::vector<std::string>& pairs, bool hidden) {
    const CasesFile cases = make_cases_file(s_.plan, s_.rules, CasesUse::graded, pairs);
    const long long wanted = kind == Kind::part ? process_wall(case_time_limit(*s_.plan.find_case(cases.cases.at(0)), s_.rules), s_.rules)
                                                : batch_wall_of(s_.plan, s_.rules, cases.cases);
    // A second timing is the grader's choice: the ledger neither limits it nor spends it.
    const bool budgeted = spent_from_budget(kind == Kind::second_timing ? kSecondTiming : "batch");
    const std::optional<long long> wall = budgeted ? wall_within_budget(ledger_, wanted) : wanted;
    if (!wall) return false;
    fresh_box(hidden);
    write_cases_file(box_ + "/cases.txt", cases.lines);
    lend(box_ + "/cases.txt", s_.uid);
    const std::string what = kind == Kind::batch ? "batch " + folder.substr(folder.find('-') + 1) + " of " + who_ +
                                                       " (" + join_list(cases.cases, " ") + ")"
                             : kind == Kind::part ? "run " + who_ + " " + cases.cases.at(0) + " " + folder
                                                  : "second timing of " + who_ + " (" + join_list(pairs, " ") + ")";
    const std::string run = s_.dir + "/runs/." + folder;
    remove_tree(run);
    make_folders(run);
    std::vector<std::string> command =
        sandbox_command(run + "/sandbox.tsv", run + "/stdout.txt", run + "/stderr.txt", *wall);
    append(command, {"--nproc", "128"});
    if (!s_.cpus.empty()) append(command, {"--cpus", s_.cpus});
    command.push_back("--");
    for (const std::string& word : driver_command()) command.push_back(word);
    run_command(command);
    after_run(run + "/sandbox.tsv", what, budgeted, "");
    trim_log(run + "/stdout.txt");
    trim_log(run + "/stderr.txt");
    // Each case's evidence: the process's end and logs, and the plain files it wrote for the case.
    file_run_evidence(box_, run, s_.dir + "/runs", folder, cases.cases);
    remove_tree(run);
    remove_tree(box_);
    return true;
}

// Every part of CASES, in batches, until each part has a record, its own run, or a not-run.txt
// that says why not (its part retired, the budget spent).
void Group::run_cases(const std::vector<std::string>& cases, bool hidden) {
    std::vector<std::string> pending;
    for (const std::string& case_name : cases) {
        if (!s_.plan.find_case(case_name)) throw std::invalid_argument("no case '" + case_name + "' in " + s_.plan.lab);
        remove_tree(s_.dir + "/runs/" + case_name);  // what an earlier try left (a run again alone)
        for (const std::string& part : parts_) pending.push_back(case_name + "/" + part);
    }
    auto prefixed = [](std::vector<std::string> pairs) {
        for (std::string& pair : pairs) pair = "runs/" + pair;
        return pairs;
    };
    for (int n = 1;; ++n) {
        std::vector<std::string> retired_pairs;
        pending = not_retired(ledger_, pending, retired_pairs);
        for (const std::string& pair : retired_pairs)
            not_run({"runs/" + pair}, retired_reason(ledger_, pair.substr(pair.find('/') + 1)));
        if (!retired_pairs.empty()) log_.push_back("retired: not run: " + log_names(prefixed(retired_pairs)));
        if (pending.empty()) return;
        const std::string batch = batch_folder(n);
        bool ran = run_batch(Kind::batch, batch, pending, hidden);
        if (gpu_short_) return;  // the whole group runs again, with the GPU to itself
        if (ran) {
            // What the batch left without a record: the part it was running when it died, then the rest.
            std::map<std::string, RunEvidence> runs;
            for (const std::string& pair : pending) {
                const std::string case_name = pair.substr(0, pair.find('/'));
                if (!runs.count(case_name)) runs[case_name] = read_run(s_.dir + "/runs/" + case_name + "/" + batch, parts_);
            }
            pending = unrecorded_after_batch(ledger_, pending, runs, parts_);
            if (pending.empty()) return;
            const std::string case_name = pending[0].substr(0, pending[0].find('/')), part = pending[0].substr(case_name.size() + 1);
            ran = run_batch(Kind::part, part, {pending[0]}, hidden);
            if (gpu_short_) return;
            if (ran) {
                const RunEvidence alone = read_run(s_.dir + "/runs/" + pending[0], parts_);
                std::vector<std::string> stopped = stopped_parts(alone, parts_);
                // A part run alone that met its wall clock was stopped too, whatever it recorded.
                if (alone.sandbox.outcome == "timeout") stopped.push_back(part);
                for (const std::string& p : stopped) note_stop(ledger_, p, case_name);
                pending.erase(pending.begin());
            }
        }
        if (!ran) {
            not_run(prefixed(pending), budget_reason(ledger_, s_.plan.lab));
            log_.push_back("budget: " + std::to_string(ledger_.budget) + " s used up; not run: " + log_names(prefixed(pending)));
            return;
        }
    }
}

// The run of `make labN-memcheck` (mk/sanitize.sh, passed as text because the box's own copy
// is the student's to change; sanitizer_log.hpp knows its --error-exitcode), but with exactly
// a graded process's command line (--as-graded): the case's line in cases.txt, --cases and
// --out, so nothing in its arguments tells the program it is being watched. Only the parts not
// retired: a part that never ends would keep the tool from finishing.
void Group::sanitize(const std::string& script) {
    const std::string& case_name = s_.plan.sanitize_case;
    if (case_name.empty()) return;
    make_folders(s_.dir + "/sanitize");
    if (script.empty()) {
        write_file_atomically(s_.dir + "/sanitize/not-run.txt", "compute-sanitizer is not installed on the grading machine\n");
        return;
    }
    for (const std::string& tool : s_.plan.sanitize_tools) {
        const std::string folder = "sanitize/" + tool, evidence = s_.dir + "/" + folder;
        remove_tree(evidence);
        std::vector<std::string> left;
        for (const std::string& part : parts_)
            if (!retired(ledger_, part)) left.push_back(part);
        if (left.empty()) {
            not_run({folder}, none_left_reason(s_.plan.lab));
            continue;
        }
        const std::optional<long long> wall =
            wall_within_budget(ledger_, sanitizer_wall(case_time_limit(*s_.plan.find_case(case_name), s_.rules)));
        if (!wall) {
            not_run({folder}, budget_reason(ledger_, s_.plan.lab));
            log_.push_back("budget: " + std::to_string(ledger_.budget) + " s used up; not run: " + log_names({folder}));
            continue;
        }
        make_folders(evidence);
        fresh_box(false);
        write_cases_file(box_ + "/cases.txt", make_cases_file(s_.plan, s_.rules, CasesUse::graded, {case_name + "/" + join_list(left, ",")}).lines);
        lend(box_ + "/cases.txt", s_.uid);
        const std::string log = evidence + "/log.txt";
        std::vector<std::string> command = sandbox_command(evidence + "/sandbox.tsv", log, log, *wall);
        // The tool's threads share one process: its CPU time may run ahead of the wall clock.
        append(command, {"--cpu", std::to_string(4 * *wall), "--nproc", "256", "--", "bash", "-c", script, "mk/sanitize.sh",
                         "--as-graded", tool});
        for (const std::string& word : driver_command()) command.push_back(word);
        run_command(command);
        after_run(evidence + "/sandbox.tsv", "sanitize " + who_ + " " + tool,
                  true, log);
        trim_log(log);
        remove_tree(box_);
        if (gpu_short_) return;
    }
}

void Group::time_again(const std::vector<std::string>& pairs, bool hidden) {
    if (!pairs.empty()) run_batch(Kind::second_timing, kSecondTiming, pairs, hidden);
}

}  // namespace

RunGroupEnd run_group(const RunGroupSetup& setup, const RunGroupWork& work, std::vector<std::string>& log) {
    Group group(setup, log);
    if (work.sanitize) group.sanitize(work.sanitize_script);
    if (!work.cases.empty()) group.run_cases(work.cases, work.hidden);
    group.time_again(work.time_again, work.hidden);
    return group.end();
}
