// The pathfinder_row component's declaration, from which compose -generateCompFiles made the
// descriptors and variant skeletons: dst[c] = wall(row, c) + min(src[c-1], src[c], src[c+1]).
#pragma once
#include <peppher/runtime.h>

void pathfinder_row(const peppher::Matrix<int>& wall, const peppher::Vector<int>& src,
                    peppher::Vector<int>& dst, int row);
