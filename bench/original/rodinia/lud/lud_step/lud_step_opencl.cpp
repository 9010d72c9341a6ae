// LUD's OpenCL variant: a host function that launches Rodinia's three LUD kernels
// (opencl/lud/lud_kernel.cl, as written) for one step on the worker's queue, with the
// arguments, local arrays and sizes of the suite's host loop (opencl/lud/ocl/lud.cpp):
// lud_diagonal on one group of BLOCK_SIZE, lud_perimeter on groups of 2 * BLOCK_SIZE,
// lud_internal on BLOCK_SIZE x BLOCK_SIZE groups, the last two skipped when empty (at the
// last offset, where only the diagonal is left, as after the suite's loop).
#include "rd_opencl.h"

#define BLOCK_SIZE 16

extern struct starpu_opencl_program lud_program;  // lud_kernel.cl, built for every device
extern cl_kernel lud_diagonal_k;                  // lud_diagonal on this worker's device
extern cl_command_queue lud_queue;                // this worker's queue

void lud_step_opencl(cl_mem d_m, int m_size, int matrix_dim, int offset) {
  (void)m_size;
  const char* v = "lud_step_opencl";
  static cl_kernel perimeter = nullptr, internal = nullptr;  // one OpenCL device here
  if (!perimeter) {
    perimeter = rd_kernel(&lud_program, "lud_perimeter", v);
    internal = rd_kernel(&lud_program, "lud_internal", v);
  }
  const size_t block = sizeof(float) * BLOCK_SIZE * BLOCK_SIZE;
  cl_kernel diagnal = lud_diagonal_k;
  int i = offset;
  RD_ARG(v, diagnal, 0, d_m);
  rd_check(clSetKernelArg(diagnal, 1, block, nullptr), v, "shadow");
  RD_ARG(v, diagnal, 2, matrix_dim);
  RD_ARG(v, diagnal, 3, i);
  size_t global_work1[3] = {BLOCK_SIZE, 1, 1};
  size_t local_work1[3] = {BLOCK_SIZE, 1, 1};
  rd_check(clEnqueueNDRangeKernel(lud_queue, diagnal, 2, nullptr, global_work1, local_work1, 0,
                                  nullptr, nullptr),
           v, "lud_diagonal");
  if (i >= matrix_dim - BLOCK_SIZE) return;

  RD_ARG(v, perimeter, 0, d_m);
  for (cl_uint a = 1; a <= 3; a++)
    rd_check(clSetKernelArg(perimeter, a, block, nullptr), v, "peri");
  RD_ARG(v, perimeter, 4, matrix_dim);
  RD_ARG(v, perimeter, 5, i);
  size_t global_work2[3] = {
      static_cast<size_t>(BLOCK_SIZE * 2 * ((matrix_dim - i) / BLOCK_SIZE - 1)), 1, 1};
  size_t local_work2[3] = {BLOCK_SIZE * 2, 1, 1};
  if (global_work2[0] > 0)
    rd_check(clEnqueueNDRangeKernel(lud_queue, perimeter, 2, nullptr, global_work2, local_work2, 0,
                                    nullptr, nullptr),
             v, "lud_perimeter");

  RD_ARG(v, internal, 0, d_m);
  for (cl_uint a = 1; a <= 2; a++) rd_check(clSetKernelArg(internal, a, block, nullptr), v, "peri");
  RD_ARG(v, internal, 3, matrix_dim);
  RD_ARG(v, internal, 4, i);
  const size_t n = static_cast<size_t>(BLOCK_SIZE * ((matrix_dim - i) / BLOCK_SIZE - 1));
  size_t global_work3[3] = {n, n, 1};
  size_t local_work3[3] = {BLOCK_SIZE, BLOCK_SIZE, 1};
  if (global_work3[0] > 0)
    rd_check(clEnqueueNDRangeKernel(lud_queue, internal, 2, nullptr, global_work3, local_work3, 0,
                                    nullptr, nullptr),
             v, "lud_internal");
}
