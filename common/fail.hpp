// One way to stop with a message: every helper and driver reports fatal problems
// through fail(), so the user sees one line that says what went wrong, never a core dump.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <string>

#include "exit_codes.hpp"

[[noreturn]] inline void fail(int code, const std::string& message) {
    std::fflush(stdout);
    std::fprintf(stderr, "error: %s\n", message.c_str());
    std::exit(code);
}
