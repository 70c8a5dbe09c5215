#include "timing_schedule.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "atomic_file.hpp"
#include "result_files.hpp"

std::vector<std::string> made_reference_timings(const std::string& folder) {
    std::vector<std::string> made;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
        const std::string name = entry.path().filename().string();
        if (name.size() > 1 && name[0] == 't' && name.find_first_not_of("0123456789", 1) == std::string::npos)
            made.push_back(name);
    }
    std::sort(made.begin(), made.end());
    return made;
}

bool timing_due_before_student(long long& since, bool none_made, long long every) {
    bool due = none_made || since >= every;
    since = (due ? 0 : since) + 1;
    return due;
}

bool timing_due_after_round(long long& since) {
    bool due = since > 0;
    since = 0;
    return due;
}

long long read_timing_count(const std::string& path) {
    std::ifstream in(path);
    if (!in) return 0;
    long long since = -1;
    if (!(in >> since) || since < 0) throw FormatError("the reference timing count " + path + " is not a count");
    return since;
}

void write_timing_count(const std::string& path, long long since) {
    AtomicFile file(path);
    file.stream() << since << '\n';
    file.commit();
}
