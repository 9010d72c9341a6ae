// The lud components' declarations, from which compose -generateCompFiles made the descriptors
// and variant skeletons: one step of Rodinia's blocked LU decomposition (16 x 16 blocks, no
// pivoting) at diagonal block `offset`: the diagonal block, its perimeter, the trailing matrix.
#pragma once
#include <peppher/runtime.h>

void lud_diagonal(peppher::Matrix<float>& a, int offset);
void lud_perimeter(peppher::Matrix<float>& a, int offset);
void lud_internal(peppher::Matrix<float>& a, int offset);
