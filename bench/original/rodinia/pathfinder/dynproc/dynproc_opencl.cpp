// PathFinder's OpenCL variant: a host function that launches Rodinia's dynproc_kernel
// (opencl/pathfinder/kernels.cl, as written) once on the worker's queue with the arguments and
// sizes the suite's host code (opencl/pathfinder/main.cpp, OpenCL.cpp) gives it: HALO 1, the
// border pyramid_height * HALO, two local int arrays of the work-group size, a 1-D launch of
// rows * cols work-items in groups of the kernel's largest work-group size that divides it.
#include "rd_opencl.h"

extern struct starpu_opencl_program dynproc_program;  // kernels.cl, built for every device
extern cl_kernel dynproc_k;                           // dynproc_kernel on this worker's device
extern cl_command_queue dynproc_queue;                // this worker's queue

void dynproc_opencl(cl_mem wall, int wall_size, cl_mem src, int src_size, cl_mem dst, int dst_size,
                    cl_mem debug, int debug_size, int cols, int rows, int start_step, int iteration,
                    int pyramid_height) {
  (void)wall_size;
  (void)src_size;
  (void)dst_size;
  (void)debug_size;
  const char* v = "dynproc_opencl";
  int halo = 1, border = pyramid_height * halo;
  size_t global = static_cast<size_t>(rows) * static_cast<size_t>(cols);
  size_t local = rd_work_group_size(dynproc_k, global, v);
  RD_ARG(v, dynproc_k, 0, iteration);
  RD_ARG(v, dynproc_k, 1, wall);
  RD_ARG(v, dynproc_k, 2, src);
  RD_ARG(v, dynproc_k, 3, dst);
  RD_ARG(v, dynproc_k, 4, cols);
  RD_ARG(v, dynproc_k, 5, rows);
  RD_ARG(v, dynproc_k, 6, start_step);
  RD_ARG(v, dynproc_k, 7, border);
  RD_ARG(v, dynproc_k, 8, halo);
  rd_check(clSetKernelArg(dynproc_k, 9, sizeof(cl_int) * local, nullptr), v, "prev");
  rd_check(clSetKernelArg(dynproc_k, 10, sizeof(cl_int) * local, nullptr), v, "result");
  RD_ARG(v, dynproc_k, 11, debug);
  rd_check(clEnqueueNDRangeKernel(dynproc_queue, dynproc_k, 1, nullptr, &global, &local, 0, nullptr,
                                  nullptr),
           v, "clEnqueueNDRangeKernel");
}
