// The files a driver writes with --out DIR, read by the grader's checker. They are the
// only channel from a run to the gradebook: what the program prints never counts.
//
//   DIR/results.tsv   one line per record: tab-separated key=value fields, written and
//                     flushed as each part finishes, so a crash keeps what came before.
//   DIR/<name>.out    one output array: the line "labout 1 <dtype> <count> <has_bound>",
//                     then <count> raw little-endian values of <dtype> (f32, f64, i32,
//                     u32), then, when has_bound is 1, <count> f64 error bounds: how far
//                     this output may lie from the exact answer, derived by the trusted
//                     driver from the arithmetic (only the reference run's bounds are used).
//                     has_bound 2 (a sampled reference, where it is smaller; a student's
//                     checked timed run as the grader keeps it, its bounds NaN): a u64 k,
//                     then k records of a u64 position, the value and the f64 bound; the
//                     other elements read as NaN, value and bound (not compared).
//
// Formats are described for people in grading/FORMATS.md.
#pragma once
#include <cstdint>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

enum class DType { f32, f64, i32, u32 };

struct OutputArray {
    DType dtype = DType::f64;
    std::vector<double> values;
    std::vector<double> bound;  // empty when the file carries none
};

struct FormatError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

const char* dtype_name(DType dtype);  // "f32", as in the file header

// Writes atomically (common/atomic_file.hpp), with the bounds when `array.bound` is not
// empty (sparse when few are not NaN). Throws std::runtime_error.
void write_output_array(const std::string& path, const OutputArray& array);
// Writes, sparse (has_bound 2) and atomically, the elements at `positions` (each above the
// last, below `count`) of an output of `count` elements, with no bound (NaN): the grader keeps a
// student's checked timed run so, reduced to the positions it compares
// (grading/checked_positions.hpp). Throws std::runtime_error. sparse_output_bytes: the size of
// such a file of k elements.
void write_sparse_output(const std::string& path, DType dtype, uint64_t count, const std::vector<uint64_t>& positions,
                         const std::vector<double>& values);
uint64_t sparse_output_bytes(DType dtype, uint64_t count, uint64_t k);
// Throws FormatError on a missing, truncated or malformed file, one whose size disagrees
// with its header, or anything but a regular file (a FIFO would block the reader).
OutputArray read_output_array(const std::string& path);

using Record = std::map<std::string, std::string>;

class ResultsWriter {
public:
    explicit ResultsWriter(const std::string& path);  // truncates; throws on failure
    ~ResultsWriter();
    ResultsWriter(const ResultsWriter&) = delete;
    ResultsWriter& operator=(const ResultsWriter&) = delete;
    void write(const Record& record);  // one line, flushed at once

private:
    std::FILE* file_ = nullptr;
};

std::vector<Record> read_results(const std::string& path);  // throws FormatError
std::string record_line(const Record& record);              // one line of that format, with its \n

// Tabs, line breaks and backslashes inside values are escaped as \t, \n, \\.
std::string escape_field(const std::string& text);
std::string unescape_field(const std::string& text);
