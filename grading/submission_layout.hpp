// Which entry of the submissions folder is whose, and where a lab's files lie in a submission
// (grading/README.md, "Submissions"): the grader's rules, which grading/lib/submissions.sh and
// workfolders.sh act on (unpacking, copying). Every name here is a student's: what these
// return is data, never a command.
#pragma once
#include <cstdint>
#include <set>
#include <string>
#include <vector>

// The student's name from an entry's name: a file's extension dropped (.tar.gz as one), every
// character other than letters, digits and . _ @ + - replaced by _ (it names folders and CSV
// rows), and "_" put before a name that would be hidden or empty. A folder keeps its whole
// name: "jane.doe" is a name, not an extension.
std::string student_id(const std::string& entry_name, bool is_folder);

// An entry of the submissions folder and when the student last changed it: a file's own time,
// or the newest of a folder's and of everything in it (editing a file does not change its
// folder's time). Links are not followed.
struct SubmissionEntry {
    std::string name;
    bool is_folder = false;
    int64_t changed_ns = 0;
};

// The entries of FOLDER, hidden ones (.DS_Store) left out, by name. Throws when it cannot be read.
std::vector<SubmissionEntry> read_submission_entries(const std::string& folder);

// Each student's entry: where several map to one student (alice/ beside alice.tgz), the newest
// is graded and the note names the ones ignored; when the newest cannot be told (equal times)
// none is, and `conflict` lists them all.
struct StudentEntry {
    std::string id;
    std::string entry;     // the entry's name (with a conflict, the first)
    std::string note;      // for the feedback, or ""
    std::string conflict;  // the entries' names, or ""
};
// In the order of their first entries.
std::vector<StudentEntry> choose_entries(const std::vector<SubmissionEntry>& entries);

// What makes a submission folder (a student's folder before it is copied, or an archive once
// unpacked) unusable, in one sentence naming it as `what` ("folder", "submission"), or "": an
// entry that is no plain file or folder (a link), a name holding a control character (a line
// break could forge a line of the grader's lists), no file at all, more files or bytes than
// the limits. Nothing is followed or opened.
struct SubmissionLimits {
    uintmax_t max_files = 0, max_bytes = 0;
};
std::string submission_folder_problem(const std::string& folder, const SubmissionLimits& limits, const std::string& what);

// The folder the layouts are looked up in: FOLDER, or the one folder it holds when it holds
// nothing else (zipping a folder wraps it so), unless that one is labs/ or a lab's folder.
// macOS litter (__MACOSX, .DS_Store, ._*) is ignored.
std::string submission_root(const std::string& folder);

// Where each of a lab's files is in an unpacked submission (its submission_root): labs/LAB/FILE, LAB/FILE,
// or FILE at the top unless another lab graded in the same run has a file of that name
// (`shared_names`). Either every file is found, once and at most `max_bytes` long, or
// `problems` says, one line a file, what is missing (naming up to three files of a similar
// name), doubled or too large.
constexpr uintmax_t kMaxStudentFileBytes = 1 << 20;  // a file the student edits, at most
struct LabFiles {
    std::vector<std::string> paths;  // one per file, in the order asked, when no problem
    std::vector<std::string> problems;
};
LabFiles find_lab_files(const std::string& submission, const std::string& lab, const std::vector<std::string>& names,
                        const std::set<std::string>& shared_names, uintmax_t max_bytes);
