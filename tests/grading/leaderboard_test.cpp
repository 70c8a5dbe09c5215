// The leaderboard: only parts correct on every case are ranked, fastest first, under their
// pseudonyms; students without one (opted out) are left off; the reference is a line among
// them; nothing names a student.
#include "catch.hpp"
#include "leaderboard.hpp"

namespace {

LabPlan plan() {
    return make_lab_plan(Manifest::parse("title = Test lab\nstudent_files = k.cu\nparts = one two\n"
                                         "cases = small perf\ncase.small.args = --n 3\ncase.small.visibility = public\n"
                                         "case.small.points = 1\ncase.perf.args = --n 99\ncase.perf.visibility = hidden\n"
                                         "case.perf.points = 2\nperf.cases = perf\nperf.points = 1\nperf.full_ratio = 1.2\nperf.zero_ratio = 10\n"
                                         "part.one.perf.points = 0\n",
                                         "m"),
                         "labT");
}

// A student whose part two passes both cases (unless `wrong_on`), timed at `ms` on perf
// against a reference of `reference_ms`.
StudentLab student(const std::string& name, double ms, const std::string& wrong_on = "", double reference_ms = 2) {
    LabScore s;
    s.lab = "labT";
    s.state = "graded";
    for (const char* case_name : {"small", "perf"})
        for (const char* part : {"one", "two"}) {
            ScoreItem c;
            c.kind = "correctness";
            c.part = part;
            c.case_name = case_name;
            c.passed = !(std::string(part) == "two" && wrong_on == case_name);
            s.items.push_back(c);
        }
    ScoreItem p;
    p.kind = "performance";
    p.part = "two";
    p.case_name = "perf";
    bool correct = wrong_on != "perf";
    p.student_ms = correct ? ms : 0;
    p.reference_ms = correct ? reference_ms : 0;
    p.ratio = correct ? ms / reference_ms : 0;
    s.items.push_back(p);
    return {name, s};
}

}  // namespace

TEST_CASE("leaderboard: correct parts ranked by time, under pseudonyms, the reference among them", "[grading][leaderboard]") {
    std::map<std::string, LabPlan> plans;
    plans.emplace("labT", plan());
    std::map<std::string, std::vector<StudentLab>> students;
    students["labT"] = {student("ann", 3), student("bob", 1.5), student("cid", 0.5, "small"), student("dee", 2.5),
                        student("eve", 1.5), student("fay", 0.4, "perf"), student("gus", 0.1)};
    // gus opted out: no pseudonym.
    std::map<std::string, std::string> pseudonyms = {{"ann", "anon-a"}, {"bob", "anon-b"}, {"cid", "anon-c"},
                                                      {"dee", "anon-d"}, {"eve", "anon-e"}, {"fay", "anon-f"}};
    std::vector<Leaderboard> boards = leaderboards({"labT"}, plans, students, pseudonyms);
    // Part one has no performance points: no board.
    REQUIRE(boards.size() == 1);
    const Leaderboard& b = boards[0];
    CHECK(b.part == "two");
    CHECK(b.case_name == "perf");
    CHECK(b.reference_ms == 2);
    // cid failed the small case and fay the perf case: neither is ranked, however fast.
    REQUIRE(b.entries.size() == 4);
    CHECK(b.entries[0].name == "anon-b");
    CHECK(b.entries[0].rank == 1);
    CHECK(b.entries[1].name == "anon-e");
    CHECK(b.entries[1].rank == 1);  // the same time, the same rank
    CHECK(b.entries[2].name == "anon-d");
    CHECK(b.entries[2].rank == 3);
    CHECK(b.entries[2].ratio == Approx(1.25));
    CHECK(b.entries[3].name == "anon-a");

    LeaderboardPage page;
    page.titles["labT"] = "Test lab";
    page.opted_out = 1;
    std::string md = leaderboard_markdown(boards, page);
    CHECK(md.find("## labT: Test lab\n\n### two, case perf\n\n| rank | who | ms | x reference |\n|---:|---|---:|---:|\n"
                  "| 1 | anon-b | 1.5 | 0.75x |\n| 1 | anon-e | 1.5 | 0.75x |\n| | **the reference solution** | 2 | 1x |\n"
                  "| 3 | anon-d | 2.5 | 1.25x |\n| 4 | anon-a | 3 | 1.50x |\n") != std::string::npos);
    CHECK(md.find("1 student asked to be left off") != std::string::npos);
    std::string csv = leaderboard_csv(boards);
    CHECK(csv == "lab,part,case,rank,name,time_ms,ratio\nlabT,two,perf,,reference,2,1\nlabT,two,perf,1,anon-b,1.5,0.75\n"
                 "labT,two,perf,1,anon-e,1.5,0.75\nlabT,two,perf,3,anon-d,2.5,1.25\nlabT,two,perf,4,anon-a,3,1.5\n");
    for (const char* name : {"ann", "bob", "cid", "dee", "eve", "fay", "gus"}) {
        CHECK(md.find(std::string(" ") + name + " ") == std::string::npos);
        CHECK(csv.find(std::string(",") + name + ",") == std::string::npos);
    }
}

TEST_CASE("leaderboard: a lab that did not run, a time below the bound, no one correct", "[grading][leaderboard]") {
    StudentLab built = student("ann", 1);
    built.score.state = "not-run";
    CHECK_FALSE(ranked_on(built.score, "two", "perf"));
    StudentLab forged = student("bob", 1);
    forged.score.items.back().ratio = 0;  // below the physical bound: scoring gives no ratio
    CHECK_FALSE(ranked_on(forged.score, "two", "perf"));
    CHECK(ranked_on(student("cid", 1).score, "two", "perf"));
    CHECK_FALSE(ranked_on(student("cid", 1).score, "one", "perf"));  // no performance item

    std::map<std::string, LabPlan> plans;
    plans.emplace("labT", plan());
    std::map<std::string, std::vector<StudentLab>> students;
    students["labT"] = {student("dee", 1, "small", 2)};
    std::vector<Leaderboard> boards = leaderboards({"labT"}, plans, students, {{"dee", "anon-d"}});
    REQUIRE(boards.size() == 1);
    CHECK(boards[0].entries.empty());
    std::string md = leaderboard_markdown(boards, LeaderboardPage{});
    CHECK(md.find("No submission is ranked here.") != std::string::npos);
    CHECK(md.find("| | **the reference solution** | 2 | 1x |") != std::string::npos);  // dee's correct run timed it
}
