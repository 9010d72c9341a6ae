// x[i] = first + i * step, n elements: a second light-form component of comps/.
#pragma once
#include <peppher/annotate.h>

void vfill(float* x PEPPHER_WRITE PEPPHER_SIZE(n), int n, float first, float step);
