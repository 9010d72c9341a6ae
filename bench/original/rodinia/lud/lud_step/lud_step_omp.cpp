// LUD's OpenMP variant: one step of Rodinia's lud_omp (openmp/lud/omp/lud_omp.c): its
// lud_diagonal_omp, read from the suite's file, then the perimeter and interior loop nests of
// its offset loop (inline in lud_omp there, so copied here as written, with their pragmas);
// compiled without -fopenmp it is the sequential variant (lud_step_seq.cpp includes this file).
#include <peppher/runtime.h>

#ifndef LUD_VARIANT
#define LUD_VARIANT lud_step_omp
#endif
// The suite's file, its functions renamed per variant (both variants include it) and its
// lud_omp (a whole decomposition, not used here) given the thread count it reads.
#define lud_diagonal_omp LUD_SUITE(lud_diagonal)
#define lud_omp LUD_SUITE(lud_whole)
#define omp_num_threads LUD_SUITE(threads)
#define LUD_SUITE(name) LUD_SUITE2(LUD_VARIANT, name)
#define LUD_SUITE2(variant, name) LUD_SUITE3(variant, name)
#define LUD_SUITE3(variant, name) variant##_##name
extern "C" {
int omp_num_threads = 1;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wunused-variable"
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include "lud_omp.c"
#pragma GCC diagnostic pop
}

void LUD_VARIANT(peppher::Vector<float>& m, int matrix_dim, int offset) {
  float* a = m.data();
  int size = matrix_dim;
  int chunk_idx, size_inter, chunks_in_inter_row, chunks_per_inter;

  // lu factorization of left-top corner block diagonal matrix
  lud_diagonal_omp(a, size, offset);
  if (offset >= size - BS) return;  // the last step: the diagonal block alone, as in lud_omp

  size_inter = size - offset - BS;
  chunks_in_inter_row = size_inter / BS;

  // calculate perimeter block matrices (lud_omp's loop, as written)
#pragma omp parallel for default(none) private(chunk_idx) \
    shared(size, chunks_per_inter, chunks_in_inter_row, offset, a)
  for (chunk_idx = 0; chunk_idx < chunks_in_inter_row; chunk_idx++) {
    int i, j, k, i_global, j_global, i_here, j_here;
    float sum;
    float temp[BS * BS] __attribute__((aligned(64)));

    for (i = 0; i < BS; i++) {
#pragma omp simd
      for (j = 0; j < BS; j++) {
        temp[i * BS + j] = a[size * (i + offset) + offset + j];
      }
    }
    i_global = offset;
    j_global = offset;

    // processing top perimeter
    j_global += BS * (chunk_idx + 1);
    for (j = 0; j < BS; j++) {
      for (i = 0; i < BS; i++) {
        sum = 0.f;
        for (k = 0; k < i; k++) {
          sum += temp[BS * i + k] * BB((i_global + k), (j_global + j));
        }
        i_here = i_global + i;
        j_here = j_global + j;
        BB(i_here, j_here) = BB(i_here, j_here) - sum;
      }
    }

    // processing left perimeter
    j_global = offset;
    i_global += BS * (chunk_idx + 1);
    for (i = 0; i < BS; i++) {
      for (j = 0; j < BS; j++) {
        sum = 0.f;
        for (k = 0; k < j; k++) {
          sum += BB((i_global + i), (j_global + k)) * temp[BS * k + j];
        }
        i_here = i_global + i;
        j_here = j_global + j;
        a[size * i_here + j_here] =
            (a[size * i_here + j_here] - sum) / a[size * (offset + j) + offset + j];
      }
    }
  }

  // update interior block matrices (lud_omp's loop, as written)
  chunks_per_inter = chunks_in_inter_row * chunks_in_inter_row;

#pragma omp parallel for schedule(auto) default(none) private(chunk_idx) \
    shared(size, chunks_per_inter, chunks_in_inter_row, offset, a)
  for (chunk_idx = 0; chunk_idx < chunks_per_inter; chunk_idx++) {
    int i, j, k, i_global, j_global;
    float temp_top[BS * BS] __attribute__((aligned(64)));
    float temp_left[BS * BS] __attribute__((aligned(64)));
    float sum[BS] __attribute__((aligned(64))) = {0.f};

    i_global = offset + BS * (1 + chunk_idx / chunks_in_inter_row);
    j_global = offset + BS * (1 + chunk_idx % chunks_in_inter_row);

    for (i = 0; i < BS; i++) {
#pragma omp simd
      for (j = 0; j < BS; j++) {
        temp_top[i * BS + j] = a[size * (i + offset) + j + j_global];
        temp_left[i * BS + j] = a[size * (i + i_global) + offset + j];
      }
    }

    for (i = 0; i < BS; i++) {
      for (k = 0; k < BS; k++) {
#pragma omp simd
        for (j = 0; j < BS; j++) {
          sum[j] += temp_left[BS * i + k] * temp_top[BS * k + j];
        }
      }
#pragma omp simd
      for (j = 0; j < BS; j++) {
        BB((i + i_global), (j + j_global)) -= sum[j];
        sum[j] = 0.f;
      }
    }
  }
}
