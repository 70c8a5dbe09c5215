// Lab 1 interface between the trusted driver (lab1.cu) and the file you edit
// (matmul.cu). Do not change this file: the grader builds your matmul.cu against the
// original.
//
// Every rung computes C = A * B for row-major float matrices on the GPU:
//     A is M x K, B is K x N, C is M x N, element (row, col) of A at A[row * K + col].
// Any M, N, K >= 1 must work, including sizes that are not multiples of the tile.
//
// Kernel signatures, block shapes and helper functions are yours to choose; only these host
// functions are fixed. A rung launches its kernels through `launch` instead of <<< >>>:
//     launch(kernel, grid, block, dynamic_shared_bytes, kernel arguments...);
// The launcher refuses a configuration that breaks a limit of this GPU, with the limit's
// name and value. A rung that launches nothing is reported as "not implemented".
#pragma once
#include "launcher.cuh"

struct MatmulProblem {
    const float* A;  // device memory, M x K
    const float* B;  // device memory, K x N
    float* C;        // device memory, M x N; its old contents are garbage, overwrite them
    int M, N, K;
};

// Rung 1: one thread per element of C, a tile x tile block of threads.
void matmul_naive(const MatmulProblem& p, int tile, Launcher& launch);
// Rung 2: shared-memory tiles, the tile size a template parameter chosen at run time.
void matmul_tiled(const MatmulProblem& p, int tile, Launcher& launch);
// Rung 3: the same tiles in dynamically allocated shared memory, `depth` tiles of K staged per
// barrier (--depth, default 8).
void matmul_dynamic(const MatmulProblem& p, int tile, int depth, Launcher& launch);
// Rung 4: 32 x 16 blocks, each thread computes C[i][j] and C[i + 16][j] of a 32 x 32 tile.
void matmul_coarse2(const MatmulProblem& p, Launcher& launch);
// Rung 5: register blocking, each thread computes a small block of C held in registers.
void matmul_regblock(const MatmulProblem& p, Launcher& launch);
