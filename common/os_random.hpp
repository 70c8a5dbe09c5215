// Secrets the driver draws while none of the student's code can run: each timed run's input
// seed and whether that run's output is kept for the check (common/part_loop.cpp). They come
// from the operating system's random source, so nothing in the process (no seed, no state of
// a generator) lets a part work out what the next one will be.
#pragma once
#include <cstdint>

// 64 random bits from the kernel (getrandom; std::random_device where that fails).
uint64_t os_random_bits();
// Uniform in [0, n) for n > 0, without the bias of a plain modulo.
uint64_t os_random_below(uint64_t n);
// A run's input seed: uniform in [0, 2^62), the range --seed and --data-seed take, so the
// grader's reference replays it with --data-seed.
uint64_t fresh_input_seed();
