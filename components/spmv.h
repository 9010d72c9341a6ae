// The spmv and spmv_rows components in the light form (docs/FORMAT.md): these declarations are
// their interfaces, the files in spmv/ and spmv_rows/ their variants. PEPPHER_CSR also sizes
// col_indices (nnz, as values) and spmv's row_offsets (nrows + 1). spmv.xml and
// spmv_rows.xml beside this header describe the same interfaces in the XML form; compose
// checks that the two agree.
#pragma once
#include <peppher/annotate.h>

// y = A * x, A an nrows x ncols CSR matrix with nnz entries (values, row_offsets,
// col_indices; row_offsets[0] == 0).
void spmv(int nrows, int nnz,
          const float* values PEPPHER_SIZE(nnz) PEPPHER_CSR(nrows, row_offsets, col_indices),
          const int* row_offsets, const int* col_indices, const float* x PEPPHER_SIZE(ncols),
          int ncols, float* y PEPPHER_WRITE PEPPHER_SIZE(nrows));

// Rows first_row .. first_row + nrows - 1 of y = A * x, A a total_rows x ncols CSR matrix with
// nnz entries; y holds just those rows. Called with first_row = 0 and nrows = total_rows it is
// the whole product, split into one block of rows per worker sized from the history model
// (each block's task gets its first row in first_row and its row count in nrows).
void spmv_rows(int total_rows, int nnz,
               const float* values PEPPHER_SIZE(nnz)
                   PEPPHER_CSR(nrows, row_offsets, col_indices, first_row),
               const int* row_offsets PEPPHER_SIZE(total_rows + 1),
               const int* col_indices, const float* x PEPPHER_SIZE(ncols),
               int ncols, float* y PEPPHER_WRITE PEPPHER_SIZE(nrows) PEPPHER_PARTITION(?),
               int first_row, int nrows) PEPPHER_MODEL(history);
