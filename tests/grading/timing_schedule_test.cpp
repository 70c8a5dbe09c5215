// When the reference is timed on a GPU (grading/timing_schedule.hpp): before the first student,
// after every N, and after the round's last when a student was timed since.
#include "catch.hpp"
#include "result_files.hpp"
#include "temp_folder.hpp"
#include "timing_schedule.hpp"

TEST_CASE("the reference is timed before the first student, after every N, and after the round", "[grading][timing]") {
    long long since = 0;
    std::string due;
    // Eight students a timing: timed before students 1, 9 and 17 of 20.
    for (int student = 1; student <= 20; ++student) due += timing_due_before_student(since, student == 1, 8) ? "T" : ".";
    CHECK(due == "T.......T.......T...");
    CHECK(since == 4);
    CHECK(timing_due_after_round(since));
    CHECK(since == 0);
    CHECK_FALSE(timing_due_after_round(since));  // nobody timed since the last
    // A GPU whose timings were all lost (none made) is timed again before its next student.
    since = 3;
    CHECK(timing_due_before_student(since, true, 8));
    CHECK(since == 1);
}

TEST_CASE("the count passes between runners in a file", "[grading][timing]") {
    TempFolder dir;
    CHECK(read_timing_count(dir / "count") == 0);  // none yet
    write_timing_count(dir / "count", 7);
    CHECK(read_timing_count(dir / "count") == 7);
    dir.write("bad", "seven\n");
    CHECK_THROWS_AS(read_timing_count(dir / "bad"), FormatError);
}

TEST_CASE("only whole timings are made ones: a .t<N> being made is not, nor another name", "[grading][timing]") {
    TempFolder dir;
    CHECK(made_reference_timings(dir / "none").empty());  // no folder yet: none made
    dir.write("gpu0/t2/perf/out/results.tsv", "");
    dir.write("gpu0/t1/perf/out/results.tsv", "");
    dir.write("gpu0/.t3/perf/out/results.tsv", "");  // still being made (runs.sh, time_reference_again)
    dir.write("gpu0/tmp/x", "");
    dir.write("gpu0/.failed", "");
    CHECK(made_reference_timings(dir / "gpu0") == std::vector<std::string>{"t1", "t2"});
}
