// A light-form CSR interface whose XML descriptor beside it (rows.xml) names another row count
// and sets a history model; the sizes PEPPHER_CSR implies for offsets (nrows + 1) and cols
// (nnz, as values) are the descriptor's (no conflict, blanks aside).
#include <peppher/annotate.h>
void rows(int nrows, int nnz,
          const float* values PEPPHER_SIZE(nnz) PEPPHER_CSR(nrows, offsets, cols),
          const int* offsets, const int* cols, float* y PEPPHER_WRITE PEPPHER_SIZE(nrows));
