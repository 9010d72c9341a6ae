// x = factor * x, n elements: a light-form component of the comps/ folder, found by
// `compose prog/main.cpp --components comps` (main.cpp includes no header of it).
#pragma once
#include <peppher/annotate.h>

void vscale(float* x PEPPHER_SIZE(n), int n, float factor);
