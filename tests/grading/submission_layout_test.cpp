// Which entry of the submissions folder is whose, and where a lab's files lie in a submission
// (grading/submission_layout.hpp). grading-submissions.sh and grading-attacks.sh grade such
// submissions end to end.
#include <fcntl.h>
#include <sys/stat.h>

#include <ctime>

#include "catch.hpp"
#include "submission_layout.hpp"
#include "temp_folder.hpp"

namespace {

// Sets PATH's modification time (not following a link) to SECONDS after the epoch.
void set_time(const std::string& path, time_t seconds) {
    struct timespec times[2] = {{seconds, 0}, {seconds, 0}};
    REQUIRE(utimensat(AT_FDCWD, path.c_str(), times, AT_SYMLINK_NOFOLLOW) == 0);
}

}  // namespace

TEST_CASE("a student's name comes from the entry's name", "[grading][submissions]") {
    CHECK(student_id("alice.tar.gz", false) == "alice");
    CHECK(student_id("bob.tgz", false) == "bob");
    CHECK(student_id("cara.zip", false) == "cara");
    CHECK(student_id("jane.doe", true) == "jane.doe");  // a folder keeps its whole name
    CHECK(student_id("jane.doe.zip", false) == "jane.doe");
    CHECK(student_id("max.rar", false) == "max");
    CHECK(student_id("Ann Lee (2).zip", false) == "Ann_Lee__2_");
    CHECK(student_id("zoé", true) == "zo_");  // a UTF-8 character is one _
    CHECK(student_id("a;rm -rf", true) == "a_rm_-rf");
    CHECK(student_id(".hidden", true) == "_.hidden");
    CHECK(student_id("noextension", false) == "noextension");
    CHECK(student_id(".zip", false) == "_.zip");  // no name before the dot: not an extension
}

TEST_CASE("of several entries of one student the newest is graded, and a tie grades none", "[grading][submissions]") {
    TempFolder subs;
    subs.write("pat/matmul.cu", "old");
    subs.write("pat.tgz", "new");
    subs.write("sam/matmul.cu", "a");
    subs.write("sam.zip", "b");
    subs.write("solo.zip", "c");
    subs.write(".DS_Store", "litter");
    set_time(subs / "pat/matmul.cu", 1000);
    set_time(subs / "pat", 900);
    set_time(subs / "pat.tgz", 2000);
    // A folder's time is the newest of its own and everything in it.
    set_time(subs / "sam/matmul.cu", 3000);
    set_time(subs / "sam", 100);
    set_time(subs / "sam.zip", 3000);

    std::vector<SubmissionEntry> entries = read_submission_entries(subs.path());
    REQUIRE(entries.size() == 5);  // .DS_Store is no student
    CHECK(entries[0].name == "pat");
    CHECK(entries[0].is_folder);
    CHECK(entries[0].changed_ns == 1000LL * 1000000000);

    std::vector<StudentEntry> students = choose_entries(entries);
    REQUIRE(students.size() == 3);
    CHECK(students[0].id == "pat");
    CHECK(students[0].entry == "pat.tgz");
    CHECK(students[0].note == "graded pat.tgz, the newest of the entries for this student (pat, pat.tgz); the others were ignored");
    CHECK(students[0].conflict.empty());
    CHECK(students[1].id == "sam");
    CHECK(students[1].conflict == "sam, sam.zip");
    CHECK(students[1].note.empty());
    CHECK(students[2].id == "solo");
    CHECK(students[2].entry == "solo.zip");
    CHECK(students[2].note.empty());
    CHECK_THROWS(read_submission_entries(subs / "none"));
}

TEST_CASE("a lab's files are found in every accepted layout, and every problem is said", "[grading][submissions]") {
    TempFolder root;
    const std::set<std::string> none;
    SECTION("at the top, in LAB/ or in labs/LAB/") {
        for (std::string place : {"matmul.cu", "lab1/matmul.cu", "labs/lab1/matmul.cu"}) {
            TempFolder one;
            one.write(place, "x");
            LabFiles found = find_lab_files(one.path(), "lab1", {"matmul.cu"}, none, 100);
            CHECK(found.problems.empty());
            CHECK(found.paths == std::vector<std::string>{one / place});
        }
    }
    SECTION("a name another lab shares must be in the lab's folder") {
        root.write("common.cu", "x");
        LabFiles found = find_lab_files(root.path(), "lab1", {"common.cu"}, {"common.cu"}, 100);
        CHECK(found.paths.empty());
        CHECK(found.problems == std::vector<std::string>{"common.cu is missing; found common.cu instead: the file must be named exactly "
                                                          "common.cu, at the top of the submission or in lab1/"});
        root.write("lab1/common.cu", "x");
        CHECK(find_lab_files(root.path(), "lab1", {"common.cu"}, {"common.cu"}, 100).paths ==
              std::vector<std::string>{root / "lab1/common.cu"});
    }
    SECTION("doubled, too large, misnamed, missing; no path is given when any is wrong") {
        root.write("a.cu", "x");
        root.write("lab1/a.cu", "x");
        root.write("big.cu", std::string(2048, 'x'));
        root.write("deep/er/Kernel_v2.CU", "x");
        root.write("ok.cu", "x");
        LabFiles found = find_lab_files(root.path(), "lab1", {"a.cu", "big.cu", "kernel.cu", "gone.cu", "ok.cu", "ok.cu"}, none, 1024);
        CHECK(found.paths.empty());
        CHECK(found.problems == std::vector<std::string>{
                                    "a.cu appears in more than one place (lab1/a.cu a.cu): keep one",
                                    "big.cu is larger than 1 KB",
                                    "kernel.cu is missing; found deep/er/Kernel_v2.CU instead: the file must be named exactly "
                                    "kernel.cu, at the top of the submission or in lab1/",
                                    "gone.cu is missing (expected gone.cu or lab1/gone.cu)",
                                    "ok.cu was found twice"});
    }
}
