// The cfd_copy component's declaration, from which compose -generateCompFiles made the
// descriptors and variant skeletons: dst = src, element by element (each iteration of the
// solver keeps the state it started from in old_variables).
#pragma once
#include <peppher/runtime.h>

void cfd_copy(const peppher::Vector<float>& src, peppher::Vector<float>& dst);
