/* Launches add, then doubled, from the program and on the queue it is handed. */
#include <starpu.h>

extern struct starpu_opencl_program twice_program;
extern cl_command_queue twice_queue;

static void launch(const char* name, cl_mem v, int n, const float* bias) {
  const int devid = starpu_worker_get_devid(starpu_worker_get_id());
  cl_int err = CL_SUCCESS;
  cl_kernel k = clCreateKernel(twice_program.programs[devid], name, &err);
  size_t global = (size_t)n;
  if (err != CL_SUCCESS) return;
  clSetKernelArg(k, 0, sizeof(cl_mem), &v);
  clSetKernelArg(k, 1, sizeof(int), &n);
  if (bias != NULL) clSetKernelArg(k, 2, sizeof(float), bias);
  clEnqueueNDRangeKernel(twice_queue, k, 1, NULL, &global, NULL, 0, NULL, NULL);
  clReleaseKernel(k);
}

void twice_opencl(cl_mem v, int v_size, float bias) {
  launch("add", v, v_size, &bias);
  launch("doubled", v, v_size, NULL);
}
