#include "os_random.hpp"

#include <sys/random.h>

#include <cstdint>
#include <random>

uint64_t os_random_bits() {
    uint64_t bits = 0;
    if (getrandom(&bits, sizeof bits, 0) == ssize_t(sizeof bits)) return bits;
    std::random_device device;  // a kernel without getrandom, or a filter that refuses it
    return (uint64_t(device()) << 32) ^ uint64_t(device());
}

uint64_t os_random_below(uint64_t n) {
    if (n <= 1) return 0;
    // Bits drawn past the largest multiple of n are drawn again (fewer than one draw in two).
    const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    for (;;) {
        uint64_t bits = os_random_bits();
        if (bits < limit) return bits % n;
    }
}

uint64_t fresh_input_seed() { return os_random_bits() >> 2; }
