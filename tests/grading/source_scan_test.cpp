// Forbidden APIs and includes that reach outside the lab.
#include <algorithm>

#include "catch.hpp"
#include "lab_plan.hpp"
#include "source_scan.hpp"
#include "temp_folder.hpp"

namespace {

LabPlan two_part_plan() {
    return make_lab_plan(Manifest::parse("student_files = a.cu b.cu\nparts = one two\n"
                                         "part.two.files = b.cu\npart.two.forbidden = thrust\n"
                                         "forbidden = cublas\nforbidden.reason = no\ncases = c\n"
                                         "case.c.args = --x\ncase.c.visibility = public\ncase.c.points = 1\n",
                                         "m"),
                         "lab");
}

}  // namespace

TEST_CASE("comments are removed, strings and line numbers kept", "[grading][scan]") {
    std::string source = "int a; // cublasSgemm here\n/* cublas\n   more */ int b;\nconst char* s = \"// not a comment\";\n"
                         "auto r = R\"x(/* raw */)x\"; char c = '\"'; // \"\nint d; /* unterminated";
    std::string stripped = strip_comments(source);
    CHECK(stripped.find("cublas") == std::string::npos);
    CHECK(stripped.find("\"// not a comment\"") != std::string::npos);
    CHECK(stripped.find("R\"x(/* raw */)x\"") != std::string::npos);
    CHECK(stripped.find("int b;") != std::string::npos);
    CHECK(stripped.find("int d;") != std::string::npos);
    CHECK(std::count(stripped.begin(), stripped.end(), '\n') == std::count(source.begin(), source.end(), '\n'));
}

TEST_CASE("a forbidden API in code or symbols is found; in a comment it is not", "[grading][scan]") {
    LabPlan plan = two_part_plan();
    std::map<std::string, std::string> sources = {{"a.cu", "// cuBLAS would be faster\nint x;\n"},
                                                  {"b.cu", "#include <thrust/sort.h>\nvoid f() { CUBLASxt(); }\n"}};
    std::vector<ForbiddenMatch> found = find_forbidden(plan, sources, {});
    REQUIRE(found.size() == 2);
    CHECK(found[0].part == "*");
    CHECK(found[0].where == "b.cu:2");
    CHECK(found[1].part == "two");
    CHECK(found[1].where == "b.cu:1");
    // A call the source hides (a macro, say) still shows in the object's symbols.
    std::map<std::string, std::vector<std::string>> symbols = {{"a.cu", {"cublasSgemm_v2", "main"}}};
    std::vector<ForbiddenMatch> in_symbols = find_forbidden(plan, {{"a.cu", "int x;\n"}}, symbols);
    REQUIRE(in_symbols.size() == 1);
    CHECK(in_symbols[0].where == "a.cu (object file)");
}

TEST_CASE("includes that reach outside the lab are refused", "[grading][scan]") {
    std::string source = "#include \"matmul.h\"\n#include <cuda/std/cmath>\n#include \"/work/solutions/lab1/matmul.cu\"\n"
                         "  #  include \"../../solutions/lab1/matmul.cu\"\n#include SNEAKY\n"
                         "asm(\".incbin \\\"/etc/passwd\\\"\");\n// #include \"/commented/out.h\"\n#embed \"x.bin\"\n";
    std::vector<std::string> problems = find_outside_includes("matmul.cu", source);
    REQUIRE(problems.size() == 5);
    CHECK(problems[0].rfind("matmul.cu:3:", 0) == 0);
    CHECK(problems[1].rfind("matmul.cu:4:", 0) == 0);
    CHECK(problems[2].find("macro") != std::string::npos);
    CHECK(problems[3].find(".incbin") != std::string::npos);
    CHECK(problems[4].find("#embed") != std::string::npos);
}

TEST_CASE("what the build read must lie in the lab, common/ or the toolkit", "[grading][scan]") {
    TempFolder box;
    box.write("labs/labT/k.cu", "");
    box.write("labs/labT/k.h", "");
    box.write("common/launcher.cuh", "");
    std::string lab = box / "labs/labT", common = box / "common";
    std::string deps = "build/obj/labs/labT/k.cu.o : labs/labT/k.cu \\\n    labs/labT/k.h common/launcher.cuh \\\n"
                       "    /usr/local/cuda/include/cuda_runtime.h\nlabs/labT/k.h:\ncommon/launcher.cuh:\n";
    CHECK(outside_dependencies("k.cu", deps, box.path(), {lab, common, "/usr/local/cuda"}).empty());
    // A digraph or a split directive reached the reference solution, or a device file.
    std::string forged = deps + "build/obj/labs/labT/k.cu.o: /work/course/solutions/labT/k.cu labs/labT/../../../etc/passwd\n";
    std::vector<std::string> problems = outside_dependencies("k.cu", forged, box.path(), {lab, common, "/usr/local/cuda"});
    REQUIRE(problems.size() == 2);
    CHECK(problems[0] == "k.cu: its build read /work/course/solutions/labT/k.cu, outside the lab: include only the lab's "
                         "headers and system headers");
    CHECK(problems[1].find("labs/labT/../../../etc/passwd") != std::string::npos);
}

TEST_CASE(".incbin is found in string literals, also split ones", "[grading][scan]") {
    CHECK(has_incbin("asm(\".incbin \\\"/etc/passwd\\\"\");"));
    CHECK(has_incbin("asm(\".section .rodata\\n.inc\" \"bin \\\"x\\\"\");"));
    CHECK(has_incbin("asm(\".inc\"\n      \"BIN x\");"));
    CHECK_FALSE(has_incbin("int incbin = 1; const char* s = \"an .inc\"; const char* t = \"bin\";"));
    CHECK_FALSE(has_incbin("char q = '\"'; const char* s = \".inc\";  int bin;"));
}

TEST_CASE("the headers a translation unit included are read from its line markers", "[grading][scan]") {
    std::string preprocessed = "# 1 \"labs/lab/a.cu\"\n# 1 \"<built-in>\" 1\n# 1 \"<command-line>\" 1\n"
                               "# 1 \"/usr/local/cuda/include/cooperative_groups.h\" 1 3\nint x;\n"
                               "#line 40 \"/usr/local/cuda/include/cooperative_groups/reduce.h\"\n"
                               "# 7 \"labs/lab/a.cu\" 2\n";
    CHECK(included_headers(preprocessed) == std::vector<std::string>{"labs/lab/a.cu", "/usr/local/cuda/include/cooperative_groups.h",
                                                                     "/usr/local/cuda/include/cooperative_groups/reduce.h"});
}

TEST_CASE("a forbidden library reached under another name is found by the header it includes", "[grading][scan]") {
    LabPlan plan = make_lab_plan(Manifest::parse("student_files = a.cu\nparts = max\n"
                                                 "forbidden = cooperative_groups/reduce|cg::reduce\ncases = c\n"
                                                 "case.c.args = --x\ncase.c.visibility = public\ncase.c.points = 1\n",
                                                 "m"),
                                 "lab");
    // `namespace x = cooperative_groups;` and a call through x:: name nothing the pattern knows.
    std::map<std::string, std::string> sources = {{"a.cu", "namespace x = cooperative_groups;\nint m = x::reduce(t, v, op);\n"}};
    CHECK(find_forbidden(plan, sources, {}).empty());
    CompiledFile compiled{{"labs/lab/a.cu", "/usr/local/cuda/include/cooperative_groups.h",
                           "/usr/local/cuda/include/cooperative_groups/reduce.h"},
                          ""};
    std::vector<ForbiddenMatch> found = find_forbidden(plan, sources, {}, {{"a.cu", compiled}});
    REQUIRE(found.size() == 1);
    CHECK(found[0].part == "*");
    CHECK(found[0].where == "a.cu (includes /usr/local/cuda/include/cooperative_groups/reduce.h)");
    // A header the pristine starter includes too is the lab's own business, never a match.
    CHECK(find_forbidden(plan, sources, {}, {{"a.cu", compiled}}, {"/usr/local/cuda/include/cooperative_groups/reduce.h"}).empty());
}

TEST_CASE("a construct rule matches the compiled code, whatever the source's spelling", "[grading][scan]") {
    LabPlan plan = make_lab_plan(Manifest::parse("student_files = a.cu\nparts = fw diameter\n"
                                                 "part.diameter.forbidden_ptx = (atom|red)\\.[a-z0-9.]*max\n"
                                                 "part.diameter.forbidden.reason = reduce in shared memory\ncases = c\n"
                                                 "case.c.args = --x\ncase.c.visibility = public\ncase.c.points = 1\n",
                                                 "m"),
                                 "lab");
    std::map<std::string, std::string> sources = {{"a.cu", "cuda::atomic_ref<int, cuda::thread_scope_device> r(*m);\nr.fetch_max(v);\n"}};
    std::string ptx = ".visible .entry diameter(\n\tld.global.u32 %r1, [%rd1];\n\tatom.relaxed.gpu.global.max.s32 %r2, [%rd2], %r1;\n";
    std::vector<ForbiddenMatch> found = find_forbidden(plan, sources, {}, {{"a.cu", CompiledFile{{}, ptx}}});
    REQUIRE(found.size() == 1);
    CHECK(found[0].part == "diameter");
    CHECK(found[0].where == "a.cu (compiled code, PTX line 3)");
    CHECK(found[0].text == "atom.relaxed.gpu.global.max.s32 %r2, [%rd2], %r1;");
    CHECK(find_forbidden(plan, sources, {}, {{"a.cu", CompiledFile{{}, "\tatom.global.add.u32 %r2, [%rd2], %r1;\n"}}}).empty());
}
