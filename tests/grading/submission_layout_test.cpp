// Which entry of the submissions folder is whose, and where a lab's files lie in a submission
// (grading/submission_layout.hpp). grading-submissions.sh and grading-attacks.sh grade such
// submissions end to end.
#include <fcntl.h>
#include <sys/stat.h>

#include <unistd.h>

#include <ctime>
#include <filesystem>

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

TEST_CASE("a submission folder with a link, a special file, a control character, no file or too much is refused",
          "[grading][submissions]") {
    TempFolder dir;
    const SubmissionLimits limits{3, 100};
    dir.write("ok/labs/lab1/matmul.cu", std::string(40, 'x'));
    dir.write("ok/notes.txt", "n");
    CHECK(submission_folder_problem(dir / "ok", limits, "folder").empty());
    const std::string odd = "the folder holds a link, a special file or a name with a control character, which is not accepted: ";

    dir.write("linked/labs/x", "x");
    REQUIRE(symlink("/etc/passwd", (dir / "linked/labs/matmul.cu").c_str()) == 0);
    CHECK(submission_folder_problem(dir / "linked", limits, "folder") == odd + "labs/matmul.cu");
    dir.write("fifo/a", "a");
    REQUIRE(mkfifo((dir / "fifo/pipe").c_str(), 0600) == 0);
    CHECK(submission_folder_problem(dir / "fifo", limits, "submission") ==
          "the submission holds a link, a special file or a name with a control character, which is not accepted: pipe");
    dir.write("named/a\nrecord=forged", "a");
    CHECK(submission_folder_problem(dir / "named", limits, "folder") == odd + "a\\x0arecord=forged");

    std::filesystem::create_directories(dir / "empty/labs/lab1");
    CHECK(submission_folder_problem(dir / "empty", limits, "folder") == "the submission is empty");
    for (const char* name : {"many/a", "many/b", "many/c", "many/d/e"}) dir.write(name, "x");
    CHECK(submission_folder_problem(dir / "many", limits, "folder") == "the submission holds 4 files (at most 3)");
    dir.write("large/a", std::string(3 << 20, 'x'));
    CHECK(submission_folder_problem(dir / "large", {3, 2 << 20}, "folder") == "the submission holds 3 MB (at most 2 MB)");
}

TEST_CASE("a submission wrapped in one folder is looked up inside it, unless that folder is labs/ or a lab's",
          "[grading][submissions]") {
    TempFolder dir;
    dir.write("zipped/work/matmul.cu", "w");
    dir.write("zipped/__MACOSX/._work", "litter");
    dir.write("zipped/.DS_Store", "litter");
    CHECK(submission_root(dir / "zipped") == dir / "zipped/work");
    CHECK(find_lab_files(dir / "zipped", "lab1", {"matmul.cu"}, {}, 1 << 20).paths ==
          std::vector<std::string>{dir / "zipped/work/matmul.cu"});
    dir.write("labs-only/labs/lab1/matmul.cu", "l");
    CHECK(submission_root(dir / "labs-only") == dir / "labs-only");
    dir.write("lab-only/lab1/matmul.cu", "l");
    CHECK(submission_root(dir / "lab-only") == dir / "lab-only");
    dir.write("two/a/matmul.cu", "a");
    dir.write("two/b.txt", "b");
    CHECK(submission_root(dir / "two") == dir / "two");
    dir.write("file-only/matmul.cu", "f");
    CHECK(submission_root(dir / "file-only") == dir / "file-only");
}
