// Catch2 2.x (Debian 12) or 3.x (Ubuntu 24.04, the GPU machines), whichever is installed.
#pragma once
#if __has_include(<catch2/catch_test_macros.hpp>)
#include <catch2/catch_approx.hpp>
#include <catch2/catch_session.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#define LAB_CATCH2_V3 1
#elif __has_include(<catch2/catch.hpp>)
#include <catch2/catch.hpp>
#else
#error "Catch2 is not installed: sudo apt-get install catch2 (README.md, Prerequisites)"
#endif
