// Writing a file so that a reader never sees half of it: the bytes go to a partial file of this
// writer's own beside PATH (PATH.partial.PID.N), which commit() renames to PATH. Two writers of
// one PATH at once (two Slurm tasks of a grading writing its plan) each commit whole, the later
// winning. A file that is never committed is removed.
#pragma once
#include <fstream>
#include <string>

class AtomicFile {
public:
    explicit AtomicFile(std::string path);  // throws std::runtime_error when it cannot be written
    ~AtomicFile();
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    std::ostream& stream() { return out_; }
    void commit();  // throws std::runtime_error when a write or the rename failed

private:
    std::string path_, partial_;
    std::ofstream out_;
    bool committed_ = false;
};

// The whole of `text` into `path`, atomically. Throws std::runtime_error.
void write_file_atomically(const std::string& path, const std::string& text);
