// The pathfinder_row component (light form, docs/FORMAT.md): this declaration is its
// interface, the files in pathfinder_row/ its variants.
// dst[c] = wall(row, c) + min(src[c-1], src[c], src[c+1]).
#pragma once
#include <peppher/runtime.h>

void pathfinder_row(const peppher::Matrix<int>& wall, const peppher::Vector<int>& src,
                    peppher::Vector<int>& dst PEPPHER_WRITE, int row);
