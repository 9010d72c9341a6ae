// The cfd_copy component (light form, docs/FORMAT.md): this declaration is its interface, cfd_copy/
// holds its variants. dst = src, element by element (each iteration of the solver keeps the state
// it started from in old_variables).
#pragma once
#include <peppher/runtime.h>

void cfd_copy(const peppher::Vector<float>& src, peppher::Vector<float>& dst PEPPHER_WRITE);
