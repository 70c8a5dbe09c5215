// Filing what one sandboxed process left: the grader's record of it (sandbox.tsv, stdout.txt,
// stderr.txt, in RUN) and the outputs the program wrote in its box, into each of its cases'
// evidence folders (run_evidence.hpp reads them). The box is the student's: only plain files
// with plain names are taken, at most kMaxCollectedFiles a case, never through a link.
#pragma once
#include <string>
#include <vector>

constexpr size_t kMaxCollectedFiles = 64;

// Copies BOX/SUB's plain files with plain names (letters, digits, . _ -), by name, at most
// `at_most`, into DEST (made). Nothing when SUB is not the real folder BOX/SUB (a program may
// have put a link there, or in its place a folder above). Returns how many were copied (one the
// grader cannot read is not); throws std::runtime_error when DEST cannot be made.
size_t collect_outputs(const std::string& box, const std::string& sub, const std::string& dest,
                       size_t at_most = kMaxCollectedFiles);

// For each case: EVIDENCE/<case>/FOLDER made afresh, holding RUN's record (what of it there is)
// and the outputs the process wrote under BOX/run-out/<case>. Throws std::invalid_argument for a
// case or folder that is not a plain name, std::runtime_error when a record cannot be copied.
void file_run_evidence(const std::string& box, const std::string& run, const std::string& evidence,
                       const std::string& folder, const std::vector<std::string>& cases);
