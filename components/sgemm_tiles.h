// The sgemm_tiles component in the light form (docs/FORMAT.md): this declaration is its
// interface, the files in sgemm_tiles/ its variants. Every variant has the shape constraint the
// declaration gives. sgemm_tiles.xml beside this header describes the same interface in the XML
// form; compose checks that the two agree.
#pragma once
#include <peppher/runtime.h>

// C = A * B as a grid of tasks: C in tiles of at most tile x tile elements, A in row blocks of
// at most tile rows, B in column blocks of at most tile columns; the task of tile (i, j) gets
// A's row block i and B's column block j.
void sgemm_tiles(const peppher::Matrix<float>& A PEPPHER_PARTITION(tile, *),
                 const peppher::Matrix<float>& B PEPPHER_PARTITION(*, tile),
                 peppher::Matrix<float>& C PEPPHER_WRITE PEPPHER_PARTITION(tile, tile), int tile)
    PEPPHER_CONSTRAINT(A.rows == C.rows && A.cols == B.rows && B.cols == C.cols);
