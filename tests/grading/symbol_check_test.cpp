// What a student object may use and define, from its symbols (grading/symbol_check.hpp). The
// names are the real mangled ones a lab-1 build produces, or the C names of the libraries.
#include "catch.hpp"
#include "symbol_check.hpp"

namespace {

// The trusted objects: the driver's main, its CPU reference, an inline timer helper from a
// shared header (weak), and what the driver calls: the student's rung (the interface), a CUDA
// event call and the C++ clock.
const char* const trusted_nm = "driver.cpp.o:\n"
                               "main T 30 48\n"
                               "_Z16matmul_referenceRK13MatmulProblem T 100 2f0\n"
                               "_Z6medianSt6vectorIfSaIfEE W 0 90\n"
                               "_Z12matmul_naiveRK13MatmulProblemiR8Launcher U\n"
                               "cudaEventElapsedTime U\n"
                               "_ZNSt6chrono3_V212steady_clock3nowEv U\n";
// The starter defines the rung the driver calls.
const char* const starter_nm = "matmul_naive_starter.o:\n_Z12matmul_naiveRK13MatmulProblemiR8Launcher T 0 7c\n";

std::vector<std::string> check(const std::string& student_nm, const std::vector<std::string>& lab_allowed = {}) {
    TrustedSymbols against{parse_nm(trusted_nm), parse_nm(starter_nm)};
    return check_student_symbols("matmul.cu", parse_nm(student_nm), against, lab_allowed);
}

bool mentions(const std::vector<std::string>& problems, const std::string& text) {
    for (const std::string& p : problems)
        if (p.find(text) != std::string::npos) return true;
    return false;
}

}  // namespace

TEST_CASE("nm -P output is read line by line, file headers skipped", "[grading][symbols]") {
    std::vector<ObjectSymbol> symbols = parse_nm(trusted_nm);
    REQUIRE(symbols.size() == 6);
    CHECK(symbols[0].name == "main");
    CHECK(symbols[0].linked());
    CHECK_FALSE(symbols[0].weak());
    CHECK(symbols[2].weak());
    CHECK(symbols[3].undefined());
    CHECK_FALSE(symbols[3].linked());
    CHECK_FALSE(parse_nm("_ZL6helperv t 0 10\n")[0].linked());  // local: cannot collide
    CHECK(demangle("_Z6medianSt6vectorIfSaIfEE") == "median(std::vector<float, std::allocator<float> >)");
}

TEST_CASE("a student object like the solution's passes", "[grading][symbols]") {
    std::string solution = "matmul.cu.o:\n"
                           "_Z12matmul_naiveRK13MatmulProblemiR8Launcher T 1240 7c\n"
                           "_Z12naive_kernelPKfS0_Pfiii T b40 153\n"
                           "_ZL20__nv_static_handlev t 0 10\n"
                           "DW.ref.__gxx_personality_v0 V 0 8\n"
                           "_Z6medianSt6vectorIfSaIfEE W 0 90\n"  // the same header inline: the link keeps the trusted copy
                           "cudaLaunchKernel U\n__cudaRegisterFunction U\nmemcpy U\n_Znwm U\n_ZdlPvm U\n"
                           "__fprintf_chk U\n__memcpy_chk U\n"  // _FORTIFY_SOURCE, on by default on Ubuntu
                           "_Z19check_launch_limitsRK14cudaDevicePropRK15KernelResourcesRK12LaunchConfig U\n";
    CHECK(check(solution) == std::vector<std::string>{});
}

TEST_CASE("a call to what the lab does not allow is refused, naming the symbol", "[grading][symbols]") {
    // dlopen/dlsym reach cuBLAS by strings no source scan sees; the reference and the driver's
    // timers are trusted code; events are not in lab 1.
    std::string attacker = "dlopen U\ndlsym U\nsystem U\nfork U\nexecve U\nposix_spawn U\ncudaEventRecord U\n"
                           "_Z16matmul_referenceRK13MatmulProblem U\ndlsym U\n";
    std::vector<std::string> problems = check(attacker);
    CHECK(problems.size() == 8);  // each once
    for (const char* name : {"dlopen", "dlsym", "system", "fork", "execve", "posix_spawn", "cudaEventRecord",
                             "matmul_reference(MatmulProblem const&)"})
        CHECK(mentions(problems, "matmul.cu uses " + std::string(name) + ", which this lab does not allow"));
    // What the manifest's allowed_symbols adds is allowed.
    CHECK(check("cudaEventRecord U\ncudaEventCreate U\n", {"cudaEvent(Record|Create)"}).empty());
}

TEST_CASE("a definition that replaces trusted code is refused", "[grading][symbols]") {
    SECTION("a strong definition of the driver's inline median, by its mangled name") {
        CHECK(mentions(check("_Z6medianSt6vectorIfSaIfEE T 0 10\n"),
                       "defines median(std::vector<float, std::allocator<float> >), which belongs to the trusted driver"));
    }
    SECTION("the driver's main or its reference") {
        CHECK(check("main T 0 10\n").size() == 1);
        CHECK(check("_Z16matmul_referenceRK13MatmulProblem W 0 10\n").size() == 1);
    }
    SECTION("a function the driver calls from a library, weak or strong") {
        CHECK(mentions(check("_ZNSt6chrono3_V212steady_clock3nowEv W 0 10\n"),
                       "which the trusted driver calls and the starter file does not define"));
        CHECK(mentions(check("cudaEventElapsedTime T 0 10\n"), "defines cudaEventElapsedTime"));
    }
    SECTION("a strong function of the standard library; its templates' instances (weak) are fine") {
        CHECK(mentions(check("_ZSt9terminatev T 0 10\n"), "defines std::terminate(), a function of the standard library"));
        CHECK(check("_ZNSt6vectorIdSaIdEE17_M_realloc_insertIJRKdEEEvN9__gnu_cxx17__normal_iteratorIPdS1_EEDpOT_ W 0 10\n")
                  .empty());
        CHECK(mentions(check("_ZNSt6vectorIdSaIdEE17_M_realloc_insertIJRKdEEEvN9__gnu_cxx17__normal_iteratorIPdS1_EEDpOT_ T 0 10\n"),
                       "a function of the standard library"));
    }
    SECTION("any C name, which could stand in for a library function the driver reaches indirectly") {
        CHECK(mentions(check("clock_gettime T 0 10\n"), "defines clock_gettime, a C name"));
        CHECK(mentions(check("cuLaunchKernel W 0 10\n"), "defines cuLaunchKernel, a C name"));
    }
}
