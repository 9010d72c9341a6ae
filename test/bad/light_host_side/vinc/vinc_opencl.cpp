// A host-side OpenCL variant without vinc_opencl.cl beside it.
#include <starpu.h>
extern cl_command_queue vinc_queue;
void vinc_opencl(cl_mem x, int n) {
  (void)x;
  (void)n;
}
