// When grade.sh times the reference solution on a GPU (grading/lib/runs.sh, reference_timed_on):
// before the GPU's first timed student, again after every `every` students, and once more after
// the round's last when a student was timed since, so that each student is compared with the
// GPU as it was around them (scoring.cpp takes the median of the timings). The number of
// students timed since the last timing passes between runners in a file, under runs.sh's lock
// (`grader timing before-student|after-round`).
#pragma once
#include <string>
#include <vector>

// The timings made on a GPU so far, by name (t1, t2, ...) in FOLDER: runs.sh makes each as .t<N>
// and renames it once whole, so a half-made one is never listed (nor are the committed times a
// self-check reads, labs/LAB/sample/reference-times/MODEL/, half-made). Scoring takes their
// median; the schedule asks whether there is one yet.
std::vector<std::string> made_reference_timings(const std::string& folder);

// Before a student's timed runs: whether to time the reference first (none is made yet, or
// `every` students were timed since the last); counts the student either way.
bool timing_due_before_student(long long& since, bool none_made, long long every);

// Once the round of timed runs ended: whether a last timing is due (a student was timed since
// the last one); the count starts again either way.
bool timing_due_after_round(long long& since);

// The count kept in FILE: 0 when it does not exist yet. Throws FormatError when it is not a count.
long long read_timing_count(const std::string& path);
void write_timing_count(const std::string& path, long long since);
