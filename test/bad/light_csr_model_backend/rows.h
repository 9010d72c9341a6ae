// A light-form CSR component: PEPPHER_CSR with two names, a performance model compose does
// not know, a constraint on every variant that names no parameter; its variants (rows/)
// misuse PEPPHER_BACKEND.
#include <peppher/annotate.h>
void rows(int nrows, const float* values PEPPHER_SIZE(nnz) PEPPHER_CSR(nrows, offsets),
          const int* offsets PEPPHER_SIZE(nrows + 1), int nnz,
          float* y PEPPHER_WRITE PEPPHER_SIZE(nrows)) PEPPHER_MODEL(histroy)
    PEPPHER_CONSTRAINT(nrow > 0);
