// Lab 4 interface between the trusted driver (lab4.cu) and the file you edit (stencil.cu).
// Do not change this file: the grader builds your stencil.cu against the original.
//
// Every array lives in device memory, allocated, filled and checked by the driver. Any size
// must work: n = 1, primes, sizes that are not multiples of the block or of 4, images of 1 x 1,
// a single row or column, and every radius from 0 to 8.
//
// A part launches its kernels through `launch` instead of <<< >>>:
//     launch(kernel, grid, block, dynamic_shared_bytes, kernel arguments...);
// It refuses a configuration that breaks a limit of this GPU (a block of more than 1024
// threads, more shared memory than a block may have) with the limit's name and value. A part
// that launches nothing is reported as "not implemented".
#pragma once
#include <cstddef>

#include "launcher.cuh"

// ---- Parts stencil_global and stencil_shared: a student report's vector operation --------------
// A holds n + 4 floats and B receives n:
//
//     B[i] = (A[i]^2 + 2 A[i+1]^2 + A[i+2]^2 - 3 A[i+3]^2 + 5 A[i+4]^2) / 24,   0 <= i < n.
//
// The report writes it centred, B[i] = (A[i-2]^2 + 2 A[i-1]^2 + A[i]^2 - 3 A[i+1]^2 + 5 A[i+2]^2)/24
// for i = 2 .. n+1 of A; here B is numbered from 0, so B[i] is centred on A[i + 2] and reads a
// halo of stencil_halo values on each side of it: A[i .. i+4].
constexpr int stencil_halo = 2;

struct Stencil1D {
    const float* A;  // n + 4 floats
    float* B;        // n floats; garbage (NaN) before every run: write every one
    int n;           // 1 .. 2^29
};
// `block` is --block, the threads per block to launch with (the report's: 256, 512, 1024); how
// many outputs each thread computes is yours to choose.
void stencil_global(const Stencil1D& s, int block, Launcher& launch);  // A read from global memory
void stencil_shared(const Stencil1D& s, int block, Launcher& launch);  // a block's tile of A in shared memory

// ---- Part max: the largest element of B, by a shared-memory reduction -------------------
struct MaxReduction {
    const float* B;   // n floats, mixed signs: the driver's B, new in every run (read only)
    int n;            // 1 .. 2^29
    float* partial;   // scratch of n floats: room for one partial maximum per block
    float* result;    // one float, garbage before every run: the maximum of B, exactly
};
void max_reduce(const MaxReduction& m, int block, Launcher& launch);

// ---- Parts conv_global and conv_shared: a course's convolution with a square filter -----
constexpr int max_radius = 8;
constexpr int max_filter_taps = (2 * max_radius + 1) * (2 * max_radius + 1);

// Called by the driver once per case, untimed, before any part runs: copy the (2r+1) x (2r+1)
// filter (host memory, row-major: filter[(ik + r) * (2r + 1) + (jk + r)], -r <= ik, jk <= r)
// into constant memory, where your convolution kernels read it.
void upload_filter(const float* filter, int radius);

struct Convolution2D {
    const float* in;  // height x width floats, row-major: in[row * width + col]
    float* out;       // the same shape; garbage before every run
    int width, height;  // 1 .. 65536 each, width * height < 2^31
    int radius;         // 0 .. max_radius: the radius upload_filter was given
};
//     out[i][j] = sum over -r <= ik, jk <= r of in[i + ik][j + jk] * filter[ik + r][jk + r]
// where in[][] outside the image counts as 0 (zero padding), so out has the image's shape.
// The block shape is yours to choose.
void conv_global(const Convolution2D& c, Launcher& launch);  // the image read from global memory
void conv_shared(const Convolution2D& c, Launcher& launch);  // a tile plus its halo in shared memory
