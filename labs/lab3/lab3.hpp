// Lab 3 as the shared driver core sees it (common/lab_case.hpp): its driver's main() and its
// GPU tests run the same lab.
#pragma once
#include "lab_case.hpp"

LabInfo lab3();

// --block: a power of two from 1 to 64 (the handout's experiment: 8, 16, 32). The driver
// refuses any other value, and the tests try every value it accepts.
bool lab3_block_accepted(long long block);
// The ints the driver gives the diameter's partial maxima (DiameterBuffers::partial_capacity):
// one per block of block x block threads with one element each, ceil(n * n / (block * block)),
// so that a diameter written as the handout describes it fits at every accepted block.
size_t diameter_partial_capacity(int n, int block);
