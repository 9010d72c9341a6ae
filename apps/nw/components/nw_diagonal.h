// The nw_diagonal component (light form, docs/FORMAT.md): this declaration is its interface,
// the files in nw_diagonal/ its variants. Needleman-Wunsch scores of every 16 x 16 block on
// block anti-diagonal `diag` of score, from the similarities in ref and the gap penalty.
#pragma once
#include <peppher/runtime.h>

void nw_diagonal(peppher::Matrix<int>& score, const peppher::Matrix<int>& ref, int diag,
                 int penalty);
