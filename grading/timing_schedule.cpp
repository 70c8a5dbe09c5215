#include "timing_schedule.hpp"

#include <fstream>

#include "atomic_file.hpp"
#include "result_files.hpp"

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
