// The sgemm and sgemm_tiles components in the light form (docs/FORMAT.md): these declarations
// are their interfaces, the files in sgemm/ and sgemm_tiles/ their variants (sgemm_cublas.cu is
// a further CUDA variant). Every variant has the shape constraint the declarations give.
// sgemm.xml and sgemm_tiles.xml beside this header describe the same interfaces in the XML
// form; compose checks that the two agree.
#pragma once
#include <peppher/runtime.h>

// C = A * B (row-major; A is m x k, B is k x n, C is m x n).
void sgemm(const peppher::Matrix<float>& A, const peppher::Matrix<float>& B,
           peppher::Matrix<float>& C PEPPHER_WRITE)
    PEPPHER_CONSTRAINT(A.rows == C.rows && A.cols == B.rows && B.cols == C.cols);

// C = A * B as a grid of tasks: C in tiles of at most tile x tile elements, A in row blocks of
// at most tile rows, B in column blocks of at most tile columns; the task of tile (i, j) gets
// A's row block i and B's column block j.
void sgemm_tiles(const peppher::Matrix<float>& A PEPPHER_PARTITION(tile, *),
                 const peppher::Matrix<float>& B PEPPHER_PARTITION(*, tile),
                 peppher::Matrix<float>& C PEPPHER_WRITE PEPPHER_PARTITION(tile, tile), int tile)
    PEPPHER_CONSTRAINT(A.rows == C.rows && A.cols == B.rows && B.cols == C.cols);
