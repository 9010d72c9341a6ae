// The light form's saxpy component: the interface is this declaration; its variants are
// the files named after it in saxpy/ (saxpy_cpu.cpp, saxpy_openmp.cpp, saxpy_opencl.cl).
#pragma once
#include <peppher/annotate.h>

void saxpy(float a, const float* x PEPPHER_SIZE(n), float* y PEPPHER_SIZE(n), int n);
