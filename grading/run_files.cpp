#include "run_files.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "lab_plan.hpp"  // is_plain_file_name

namespace fs = std::filesystem;

namespace {

void copy_into(const fs::path& file, const fs::path& folder) {
    std::error_code error;
    fs::copy_file(file, folder / file.filename(), fs::copy_options::overwrite_existing, error);
    if (error) throw std::runtime_error("cannot copy " + file.string() + ": " + error.message());
}

}  // namespace

size_t collect_outputs(const std::string& box, const std::string& sub, const std::string& dest, size_t at_most) {
    std::error_code error;
    fs::create_directories(dest, error);
    if (error) throw std::runtime_error("cannot make " + dest);
    const fs::path source = fs::path(box) / sub;
    const fs::path real = fs::canonical(source, error);
    if (error || real != fs::canonical(box, error) / sub || error) return 0;
    std::vector<std::string> names;
    for (const fs::directory_entry& entry : fs::directory_iterator(real, error)) {
        const std::string name = entry.path().filename().string();
        std::error_code kind;
        if (is_plain_file_name(name) && !entry.is_symlink(kind) && entry.is_regular_file(kind) && !kind) names.push_back(name);
    }
    std::sort(names.begin(), names.end());
    if (names.size() > at_most) names.resize(at_most);
    // A file the program made unreadable (chmod 000, where it runs as the grader's own user) is
    // left behind, as a missing output: it must not stop the grading of the class.
    size_t copied = 0;
    for (const std::string& name : names) {
        fs::copy_file(real / name, fs::path(dest) / name, fs::copy_options::overwrite_existing, error);
        copied += !error;
    }
    return copied;
}

void file_run_evidence(const std::string& box, const std::string& run, const std::string& evidence,
                       const std::string& folder, const std::vector<std::string>& cases) {
    for (const std::string& case_name : cases) {
        if (!is_plain_file_name(case_name) || !is_plain_file_name(folder)) throw std::invalid_argument("not a plain name: " + case_name + "/" + folder);
        const fs::path into = fs::path(evidence) / case_name / folder;
        std::error_code error;
        fs::remove_all(into, error);
        fs::create_directories(into, error);
        if (error) throw std::runtime_error("cannot make " + into.string());
        for (const char* record : {"sandbox.tsv", "stdout.txt", "stderr.txt"})
            if (fs::exists(fs::path(run) / record)) copy_into(fs::path(run) / record, into);
        collect_outputs(box, "run-out/" + case_name, (into / "out").string());
    }
}
