/* bench/original: what the host-side OpenCL variants share. Each launches the suite's kernels
   on the worker's queue as the suite's host code does (the same kernels, argument order,
   work-group sizes, and global sizes rounded up to whole work-groups); a failed OpenCL call
   ends the program with a message naming the variant, the call and the OpenCL error code. */
#ifndef PB_OPENCL_H
#define PB_OPENCL_H

/* OpenCL 1.2 for clEnqueueFillBuffer (StarPU's header asks for 1.0 unless told). */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <starpu.h>
#include <stdio.h>
#include <stdlib.h>

static inline void pb_check(cl_int err, const char* variant, const char* what) {
  if (err == CL_SUCCESS) return;
  fprintf(stderr, "%s: %s: OpenCL error %d\n", variant, what, (int)err);
  abort();
}

/* Kernel `name` of `program`, built for the calling worker's device; release it when done. */
static inline cl_kernel pb_kernel(const struct starpu_opencl_program* program, const char* name,
                                  const char* variant) {
  cl_int err = CL_SUCCESS;
  const int devid = starpu_worker_get_devid(starpu_worker_get_id());
  cl_kernel k = clCreateKernel(program->programs[devid], name, &err);
  pb_check(err, variant, name);
  return k;
}

/* Argument `i` of kernel `k`: the variable `v` (a cl_mem, int or float). */
#define PB_ARG(variant, k, i, v) \
  pb_check(clSetKernelArg((k), (i), sizeof(v), &(v)), (variant), "clSetKernelArg " #v)

/* Enqueues `k` over `dims` dimensions of n[d] work-items each, rounded up to a multiple of the
   work-group size local[d]. */
static inline void pb_launch(cl_command_queue queue, cl_kernel k, cl_uint dims, const int* n,
                             const size_t* local, const char* variant) {
  size_t global[3];
  for (cl_uint d = 0; d < dims; ++d)
    global[d] = ((size_t)n[d] + local[d] - 1) / local[d] * local[d];
  pb_check(clEnqueueNDRangeKernel(queue, k, dims, NULL, global, local, 0, NULL, NULL), variant,
           "clEnqueueNDRangeKernel");
}

/* Fills the first `count` floats of `buffer` with zeros. */
static inline void pb_zero(cl_command_queue queue, cl_mem buffer, int count, const char* variant) {
  const float zero = 0.0f;
  pb_check(clEnqueueFillBuffer(queue, buffer, &zero, sizeof zero, 0, sizeof(float) * (size_t)count,
                               0, NULL, NULL),
           variant, "clEnqueueFillBuffer");
}

#endif
