// The nw_diagonal component's declaration, from which compose -generateCompFiles made the
// descriptors and variant skeletons: Needleman-Wunsch scores of every 16 x 16 block on
// block anti-diagonal `diag` of score, from the similarities in ref and the gap penalty.
#pragma once
#include <peppher/runtime.h>

void nw_diagonal(peppher::Matrix<int>& score, const peppher::Matrix<int>& ref, int diag,
                 int penalty);
