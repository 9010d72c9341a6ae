// atax in the light form, y = A^T (A x) in two steps (tmp = A x, then y = A^T tmp; the
// caller zeroes y and tmp, both accumulated into). Its OpenCL variant is host-side:
// atax/atax_opencl.cpp launches the two kernels of atax/atax_opencl.cl itself.
#pragma once
#include <peppher/annotate.h>

// (clang-format would write nx* ny, a pointer declaration to it.)
// clang-format off
void atax(const float* A PEPPHER_SIZE(nx * ny) PEPPHER_ROW_WIDTH(ny),
          const float* x PEPPHER_SIZE(ny), float* y PEPPHER_SIZE(ny), float* tmp PEPPHER_SIZE(nx),
          int nx, int ny);
// clang-format on
