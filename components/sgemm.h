// The sgemm component in the light form (docs/FORMAT.md): this declaration is its interface,
// the files in sgemm/ its variants (sgemm_cublas.cu is a further CUDA variant). Every variant
// has the shape constraint the declaration gives. sgemm.xml beside this header describes the
// same interface in the XML form; compose checks that the two agree. sgemm_tiles.h declares
// the same product in 2-D tiles.
#pragma once
#include <peppher/runtime.h>

// C = A * B (row-major; A is m x k, B is k x n, C is m x n).
void sgemm(const peppher::Matrix<float>& A, const peppher::Matrix<float>& B,
           peppher::Matrix<float>& C PEPPHER_WRITE)
    PEPPHER_CONSTRAINT(A.rows == C.rows && A.cols == B.rows && B.cols == C.cols);
