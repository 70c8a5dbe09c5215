// Catch2 2.x (Debian 12) or 3.x (Ubuntu 24.04, the GPU machines), whichever is installed,
// with the few names that differ between them made the same.
// A guard, not #pragma once: the build includes its precompiled copy first (the Makefile's
// CATCH_PCH), and the guard makes this file's own #include a no-op after it.
#ifndef LAB_TESTS_CATCH_HPP
#define LAB_TESTS_CATCH_HPP
#if __has_include(<catch2/catch_test_macros.hpp>)
#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
using Catch::Approx;
#define LAB_CONTAINS(text) Catch::Matchers::ContainsSubstring(text)
#elif __has_include(<catch2/catch.hpp>)
#include <catch2/catch.hpp>
#define LAB_CONTAINS(text) Catch::Matchers::Contains(text)
#else
#error "Catch2 is not installed: sudo apt-get install catch2 (README.md, Prerequisites)"
#endif
#endif  // LAB_TESTS_CATCH_HPP
