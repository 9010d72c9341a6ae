#include <starpu.h>
extern cl_kernel vinc_k;
extern cl_command_queue vinc_q;
void vinc_opencl(cl_mem v, int n) {
  clSetKernelArg(vinc_k, 0, sizeof(cl_mem), &v);
  clSetKernelArg(vinc_k, 1, sizeof(int), &n);
  size_t global = static_cast<size_t>(n);
  clEnqueueNDRangeKernel(vinc_q, vinc_k, 1, NULL, &global, NULL, 0, NULL, NULL);
}
