// The bfs components (light form, docs/FORMAT.md): these declarations are their interfaces (every
// access mode the default), bfs_expand/ and bfs_update/ hold their variants. One level of Rodinia's
// level-synchronous BFS over a CSR graph, in two phases (expand the frontier, then commit the newly
// reached nodes and raise `changed`).
#pragma once
#include <peppher/runtime.h>

void bfs_expand(const peppher::Vector<int>& row_start, const peppher::Vector<int>& edges,
                peppher::Vector<int>& frontier, const peppher::Vector<int>& visited,
                peppher::Vector<int>& cost, peppher::Vector<int>& updating);
void bfs_update(peppher::Vector<int>& frontier, peppher::Vector<int>& visited,
                peppher::Vector<int>& updating, peppher::Scalar<int>& changed);
