/* bench/original/rodinia: what the host-side OpenCL variants share. Each launches the suite's
   kernels on the worker's queue as the suite's host code does; a failed OpenCL call ends the
   program with a message naming the variant, the call and the OpenCL error code. */
#ifndef RD_OPENCL_H
#define RD_OPENCL_H

#include <starpu.h>
#include <stdio.h>
#include <stdlib.h>

static inline void rd_check(cl_int err, const char* variant, const char* what) {
  if (err == CL_SUCCESS) return;
  fprintf(stderr, "%s: %s: OpenCL error %d\n", variant, what, (int)err);
  abort();
}

/* Argument `i` of kernel `k`: the variable `v` (a cl_mem, int or float). */
#define RD_ARG(variant, k, i, v) \
  rd_check(clSetKernelArg((k), (i), sizeof(v), &(v)), (variant), "clSetKernelArg " #v)

/* Kernel `name` of `program`, built for the calling worker's device; release it when done. */
static inline cl_kernel rd_kernel(const struct starpu_opencl_program* program, const char* name,
                                  const char* variant) {
  cl_int err = CL_SUCCESS;
  const int devid = starpu_worker_get_devid(starpu_worker_get_id());
  cl_kernel k = clCreateKernel(program->programs[devid], name, &err);
  rd_check(err, variant, name);
  return k;
}

/* The work-group size Rodinia's OpenCL helper (opencl/pathfinder/OpenCL.cpp, createKernel)
   picks: the kernel's CL_KERNEL_WORK_GROUP_SIZE on this device, or the global size when that
   is smaller, else the largest size not above it that divides the global size. */
static inline size_t rd_work_group_size(cl_kernel k, size_t global, const char* variant) {
  size_t max = 0;
  cl_device_id device;
  starpu_opencl_get_device(starpu_worker_get_devid(starpu_worker_get_id()), &device);
  rd_check(clGetKernelWorkGroupInfo(k, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof max, &max, NULL),
           variant, "clGetKernelWorkGroupInfo");
  if (max == 0 || max > global) return global;
  size_t n = max;
  while (global % n != 0) n--;
  return n;
}

#endif
