// The CPUs of a grading run's timed runs and of the work beside them (grading/cpu_sets.hpp).
#include "catch.hpp"
#include "cpu_sets.hpp"

TEST_CASE("a machine with 8 or more CPUs a GPU keeps a quarter for the work beside timed runs", "[grading][cpus]") {
    CpuSets one = cpu_sets(16, 1);  // the lent H100 or H200
    REQUIRE(one.timed == std::vector<std::string>{"0-11"});
    CHECK(one.beside == "12-15");
    CpuSets two = cpu_sets(32, 2);
    REQUIRE(two.timed == std::vector<std::string>{"0-11", "12-23"});
    CHECK(two.beside == "24-31");
    CpuSets eight = cpu_sets(8, 1);
    REQUIRE(eight.timed == std::vector<std::string>{"0-5"});
    CHECK(eight.beside == "6-7");
}

TEST_CASE("with fewer CPUs a GPU, the timed runs share out every CPU and none is kept", "[grading][cpus]") {
    CpuSets laptop = cpu_sets(4, 1);
    REQUIRE(laptop.timed == std::vector<std::string>{"0-3"});
    CHECK(laptop.beside.empty());
    CpuSets crowded = cpu_sets(12, 2);
    REQUIRE(crowded.timed == std::vector<std::string>{"0-5", "6-11"});
    CHECK(crowded.beside.empty());
    // More GPUs than CPUs: no slice at all (the timed runs are not pinned).
    CpuSets starved = cpu_sets(2, 4);
    REQUIRE(starved.timed.size() == 4);
    CHECK(starved.timed[0].empty());
    CHECK(cpu_sets(16, 0).timed.empty());
}

TEST_CASE("a GPU has a quarter of its CPUs as runners of the untimed rounds, 1 to 4", "[grading][cpus]") {
    CHECK(cpu_sets(16, 1).runners == 4);   // the lent H100 or H200
    CHECK(cpu_sets(64, 1).runners == 4);   // no more: each sanitizer run would only slow down
    CHECK(cpu_sets(32, 2).runners == 4);
    CHECK(cpu_sets(12, 2).runners == 1);
    CHECK(cpu_sets(4, 1).runners == 1);    // a laptop
    CHECK(cpu_sets(2, 4).runners == 1);    // never none
}
