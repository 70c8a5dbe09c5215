// The main() of every test binary, for Catch2 2 and 3 alike. Tests that need a GPU are
// tagged [gpu]; tests/run.sh leaves them out, and counts them as skipped, where no GPU is.
#if __has_include(<catch2/catch_test_macros.hpp>)
#include <catch2/catch_session.hpp>
#else
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#endif

int main(int argc, char* argv[]) { return Catch::Session().run(argc, argv); }
