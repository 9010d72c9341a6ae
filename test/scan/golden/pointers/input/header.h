// Raw pointers: const and not, __restrict, size_t lengths, documented directions,
// output-like names, unnamed parameters, and a length nothing names.
#pragma once
#include <stddef.h>

/// y = a * x + y.
void axpy(float a, const float *x, float *__restrict y, size_t n);

/// Copies a histogram.
/// \param[in] src the counts
/// \param[out] counts where they go
void copy_counts(int *src, int *counts, int nbins);

void sum_rows(const double *matrix, int nrows, int ncols, double *out);

void spmv(int nrows, int nnz, const float *values, const int *row_ptr, const int *col_idx,
          const float *x, float *y);

void unnamed(const float *, float *, int);

void mystery(const float *a, float *b);
