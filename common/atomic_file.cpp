#include "atomic_file.hpp"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <stdexcept>

namespace {

// A name no other writer uses: this process's id, and a count within it (its threads).
std::string partial_name(const std::string& path) {
    static std::atomic<unsigned long> written{0};
    return path + ".partial." + std::to_string(getpid()) + "." + std::to_string(written++);
}

}  // namespace

AtomicFile::AtomicFile(std::string path)
    : path_(std::move(path)), partial_(partial_name(path_)), out_(partial_, std::ios::binary | std::ios::trunc) {
    if (!out_) throw std::runtime_error("cannot write " + partial_);
}

AtomicFile::~AtomicFile() {
    if (committed_) return;
    out_.close();
    std::remove(partial_.c_str());
}

void AtomicFile::commit() {
    if (!out_.flush()) throw std::runtime_error("cannot write " + partial_);
    out_.close();
    if (std::rename(partial_.c_str(), path_.c_str()) != 0) throw std::runtime_error("cannot write " + path_);
    committed_ = true;
}

void write_file_atomically(const std::string& path, const std::string& text) {
    AtomicFile file(path);
    file.stream() << text;
    file.commit();
}
