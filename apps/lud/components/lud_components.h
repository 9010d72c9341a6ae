// The lud components (light form, docs/FORMAT.md): these declarations are their interfaces (every
// access mode the default), the folders named after them their variants. One step of Rodinia's
// blocked LU decomposition (16 x 16 blocks, no pivoting) at diagonal block `offset`: the diagonal
// block, its perimeter, the trailing matrix.
#pragma once
#include <peppher/runtime.h>

void lud_diagonal(peppher::Matrix<float>& a, int offset);
void lud_perimeter(peppher::Matrix<float>& a, int offset);
void lud_internal(peppher::Matrix<float>& a, int offset);
