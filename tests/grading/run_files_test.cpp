// Filing a sandboxed process's evidence: only plain files with plain names leave a student's
// box, never through a link, at most 64 a case. grading-attacks.sh plants such links end to end.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "catch.hpp"
#include "run_files.hpp"
#include "run_group.hpp"  // copy_tree, remove_tree
#include "temp_folder.hpp"

namespace fs = std::filesystem;

namespace {

std::vector<std::string> names_in(const std::string& folder) {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(folder)) names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

}  // namespace

TEST_CASE("run files: plain files with plain names only, never a link", "[grading][run-files]") {
    TempFolder dir;
    const std::string secret = dir.write("grader/secret.txt", "the grader's\n");
    dir.write("box/run-out/big/results.tsv", "record=part\n");
    dir.write("box/run-out/big/a.out", "a");
    dir.write("box/run-out/big/bad name", "x");
    dir.write("box/run-out/big/sub/inner.out", "x");
    REQUIRE(symlink(secret.c_str(), (dir / "box/run-out/big/stolen.out").c_str()) == 0);
    CHECK(collect_outputs(dir / "box", "run-out/big", dir / "dest") == 2);
    CHECK(names_in(dir / "dest") == std::vector<std::string>{"a.out", "results.tsv"});
    CHECK(read_text(dir / "dest/a.out") == "a");
}

TEST_CASE("run files: nothing from a case folder that is a link, or under a folder that is", "[grading][run-files]") {
    TempFolder dir;
    dir.write("grader/results.tsv", "the grader's\n");
    fs::create_directories(dir / "box/run-out");
    SECTION("the case folder") {
        REQUIRE(symlink((dir / "grader").c_str(), (dir / "box/run-out/big").c_str()) == 0);
    }
    SECTION("run-out itself") {
        fs::remove_all(dir / "box/run-out");
        dir.write("elsewhere/big/results.tsv", "planted\n");
        REQUIRE(symlink((dir / "elsewhere").c_str(), (dir / "box/run-out").c_str()) == 0);
    }
    CHECK(collect_outputs(dir / "box", "run-out/big", dir / "dest") == 0);
    CHECK(names_in(dir / "dest").empty());
}

TEST_CASE("run files: at most 64 files a case", "[grading][run-files]") {
    TempFolder dir;
    for (int i = 0; i < 100; ++i) dir.write("box/run-out/c/f" + std::to_string(1000 + i), "x");
    CHECK(collect_outputs(dir / "box", "run-out/c", dir / "dest") == kMaxCollectedFiles);
    CHECK(names_in(dir / "dest").size() == kMaxCollectedFiles);
}

TEST_CASE("run files: each case gets the process's record and its own outputs, afresh", "[grading][run-files]") {
    TempFolder dir;
    dir.write("run/sandbox.tsv", "outcome=exited\texit=0\n");
    dir.write("run/stdout.txt", "out\n");
    dir.write("run/stderr.txt", "");
    dir.write("box/run-out/small/results.tsv", "small\n");
    dir.write("box/run-out/big/results.tsv", "big\n");
    dir.write("runs/big/batch-1/stale.txt", "from an earlier try");
    file_run_evidence(dir / "box", dir / "run", dir / "runs", "batch-1", {"small", "big"});
    for (const char* c : {"small", "big"}) {
        const std::string at = dir / (std::string("runs/") + c + "/batch-1");
        CHECK(names_in(at) == std::vector<std::string>{"out", "sandbox.tsv", "stderr.txt", "stdout.txt"});
        CHECK(read_text(at + "/out/results.tsv") == std::string(c) + "\n");
    }
    CHECK_THROWS_AS(file_run_evidence(dir / "box", dir / "run", dir / "runs", "batch-1", {"../up"}), std::invalid_argument);
}

TEST_CASE("run files: an output the grader cannot read is left out, the others kept", "[grading][run-files]") {
    TempFolder dir;
    dir.write("box/run-out/c/a.out", "a");
    dir.write("box/run-out/c/b.out", "b");
    fs::permissions(dir / "box/run-out/c/a.out", fs::perms::none);
    // Root reads it anyway: then both are kept.
    const size_t expected = geteuid() == 0 ? 2 : 1;
    CHECK(collect_outputs(dir / "box", "run-out/c", dir / "dest") == expected);
    CHECK(read_text(dir / "dest/b.out") == "b");
}

// A run's copy of the built work folder (run_group.hpp): the driver keeps its mode, a link stays
// a link (never the file it names), and a copy the program left unreadable is still removed.
TEST_CASE("run files: a work folder's copy keeps modes and links, and goes however it was left", "[grading][run-files]") {
    TempFolder dir;
    const std::string secret = dir.write("grader/secret.txt", "the grader's\n");
    const std::string driver = dir.write("built/build/bin/lab1-graded", "#!/bin/sh\n");
    REQUIRE(chmod(driver.c_str(), 0755) == 0);
    REQUIRE(symlink(secret.c_str(), (dir / "built/link").c_str()) == 0);
    copy_tree(dir / "built", dir / "box");
    CHECK((fs::status(dir / "box/build/bin/lab1-graded").permissions() & fs::perms::owner_exec) != fs::perms::none);
    CHECK(fs::is_symlink(fs::symlink_status(dir / "box/link")));
    CHECK(fs::read_symlink(dir / "box/link") == secret);

    dir.write("box/run-out/locked/inner/out", "x");
    REQUIRE(chmod((dir / "box/run-out/locked/inner").c_str(), 0) == 0);
    REQUIRE(chmod((dir / "box/run-out/locked").c_str(), 0) == 0);
    remove_tree(dir / "box");
    CHECK_FALSE(fs::exists(dir / "box"));
    CHECK(read_text(secret) == "the grader's\n");  // the link's target is not touched
    remove_tree(dir / "box");                       // nothing there: fine
}
