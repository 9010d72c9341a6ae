/* A host-side OpenCL variant (C) given a launch size: it launches its kernels itself. */
// PEPPHER_GLOBAL_SIZE(n)
#include <starpu.h>
void vdec_opencl(cl_mem x, int n) {
  (void)x;
  (void)n;
}
