// The part-table helpers every lab's driver and tests look its parts up with
// (common/part_table.hpp), on a made-up table: the names in the table's order, the entry itself
// by its whole name, and a name not in the table ending the program with bad usage and a message
// that lists the names there are.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include "catch.hpp"
#include "exit_codes.hpp"
#include "part_table.hpp"

namespace {

struct Rung {
    const char* name;
    int depth;
};

const std::vector<Rung> rungs = {{"naive", 1}, {"tiled", 2}, {"tiled_wide", 3}};

// How part_named(rungs, name) ends in a child process, which it may stop: the exit status and
// what the child wrote to stderr (exit 0 and nothing when it found the part).
struct Ending {
    int status = -1;
    std::string stderr_text;
};

Ending look_up_in_child(const std::string& name) {
    int pipe_ends[2];
    REQUIRE(pipe(pipe_ends) == 0);
    std::fflush(nullptr);  // nothing buffered is written twice
    pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        close(pipe_ends[0]);
        dup2(pipe_ends[1], 2);
        part_named(rungs, name);
        _exit(0);
    }
    close(pipe_ends[1]);
    Ending ending;
    char buffer[256];
    ssize_t got = 0;
    while ((got = read(pipe_ends[0], buffer, sizeof buffer)) > 0) ending.stderr_text.append(buffer, size_t(got));
    close(pipe_ends[0]);
    int status = 0;
    REQUIRE(waitpid(child, &status, 0) == child);
    REQUIRE(WIFEXITED(status));
    ending.status = WEXITSTATUS(status);
    return ending;
}

}  // namespace

TEST_CASE("a part table's names, in the table's order", "[part-table]") {
    CHECK(part_names(rungs) == std::vector<std::string>{"naive", "tiled", "tiled_wide"});
    CHECK(part_names(std::vector<Rung>{}).empty());
}

TEST_CASE("a part is found by its whole name, as the table's own entry", "[part-table]") {
    CHECK(&part_named(rungs, "naive") == &rungs[0]);
    CHECK(&part_named(rungs, "tiled") == &rungs[1]);  // not tiled_wide, which it begins
    CHECK(part_named(rungs, "tiled_wide").depth == 3);
    Ending found = look_up_in_child("tiled");
    CHECK(found.status == 0);
    CHECK(found.stderr_text.empty());
}

TEST_CASE("a name not in the table stops with bad usage and the names there are", "[part-table]") {
    const std::vector<std::string> strangers = {"tile", "Naive", "", "tiled_wide2"};
    for (const std::string& name : strangers) {
        INFO("name '" << name << "'");
        Ending ending = look_up_in_child(name);
        CHECK(ending.status == exit_code::bad_usage);
        CHECK(ending.stderr_text == "error: no part named '" + name + "' (parts: naive, tiled, tiled_wide)\n");
    }
}
