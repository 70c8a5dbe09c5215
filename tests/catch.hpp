// Catch2 2.x (Debian 12) or 3.x (Ubuntu 24.04, the GPU machines), whichever is installed,
// with the few names that differ between them made the same.
#pragma once
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
