// Shared by the hand-written (direct/) StarPU versions of the apps: what an expert writes once
// and reuses: starting StarPU like the composed apps do (lws unless STARPU_SCHED says
// otherwise), an OpenCL program per kernel file, a checked 1-D kernel launch, the codelet
// over an app's CPU, OpenMP, CUDA and OpenCL variants, and the buffers as the variants take them.
#pragma once

#include <omp.h>
#include <peppher/detail/starpu_compat.h>  // starpu_free_sized: 1.3 and 1.4
#include <peppher/runtime.h>
#include <starpu.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>

namespace direct {

inline void check_cl(cl_int err, const char* what) {
  if (err == CL_SUCCESS) return;
  std::fprintf(stderr, "OpenCL error %d: %s\n", err, what);
  std::abort();
}

inline void start() {
  starpu_conf conf;
  starpu_conf_init(&conf);
  conf.sched_policy_name = "lws";
  if (starpu_init(&conf) != 0) {
    std::fprintf(stderr, "starpu_init failed\n");
    std::exit(1);
  }
}

/// Loads @p path for every OpenCL device (when there is one).
inline void load_program(starpu_opencl_program* program, const char* path) {
  if (starpu_opencl_worker_get_count() == 0) return;
  if (starpu_opencl_load_opencl_from_file(path, program, nullptr) != 0) {
    std::fprintf(stderr, "cannot load %s\n", path);
    std::exit(1);
  }
}

inline void unload_program(starpu_opencl_program* program) {
  if (starpu_opencl_worker_get_count() != 0) starpu_opencl_unload_opencl(program);
}

/// Sets the kernel's arguments in order (cl_mem handles and scalars alike).
inline void set_args(cl_kernel, cl_uint) {}
template <typename T, typename... Rest>
void set_args(cl_kernel kernel, cl_uint index, const T& value, const Rest&... rest) {
  check_cl(clSetKernelArg(kernel, index, sizeof(T), &value), "clSetKernelArg");
  set_args(kernel, index + 1, rest...);
}

/// Runs @p name of @p program on this worker's device over @p global work-items (@p local per
/// group, 0: the driver chooses) with @p args, and waits for it.
template <typename... Args>
void launch(starpu_opencl_program* program, const char* name, size_t global, size_t local,
            const Args&... args) {
  cl_kernel kernel;
  cl_command_queue queue;
  const int devid = starpu_worker_get_devid(starpu_worker_get_id_check());
  check_cl(starpu_opencl_load_kernel(&kernel, &queue, program, name, devid), "load kernel");
  set_args(kernel, 0, args...);
  if (local != 0 && global % local != 0) global = (global / local + 1) * local;
  cl_event event;
  check_cl(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, local ? &local : nullptr, 0,
                                  nullptr, &event),
           "enqueue");
  check_cl(clWaitForEvents(1, &event), "wait");
  clReleaseEvent(event);
  starpu_opencl_release_kernel(kernel);
}

/// A StarPU vector buffer as the peppher::Vector<T> view the variants take.
template <typename T>
peppher::Vector<T> vector_view(void* buffer) {
  return peppher::Vector<T>::view(reinterpret_cast<T*>(STARPU_VECTOR_GET_PTR(buffer)),
                                  STARPU_VECTOR_GET_NX(buffer));
}

/// A StarPU matrix buffer as the peppher::Matrix<T> view the variants take.
template <typename T>
peppher::Matrix<T> matrix_view(void* buffer) {
  return peppher::Matrix<T>::view(reinterpret_cast<T*>(STARPU_MATRIX_GET_PTR(buffer)),
                                  STARPU_MATRIX_GET_NY(buffer), STARPU_MATRIX_GET_NX(buffer),
                                  STARPU_MATRIX_GET_LD(buffer));
}

/// A vector buffer on an OpenCL device as kernel arguments: its memory object, its length.
inline cl_mem mem(void* buffer) {
  return reinterpret_cast<cl_mem>(STARPU_VECTOR_GET_DEV_HANDLE(buffer));
}
inline int len(void* buffer) {
  return static_cast<int>(STARPU_VECTOR_GET_NX(buffer));
}

/// OPENMP codelet functions run on combined workers; sequential ones on single workers.
inline int can_execute(unsigned workerid, starpu_task*, unsigned nimpl) {
  return workerid < starpu_worker_get_count() || nimpl == 1;
}

/// The OpenMP implementation of a codelet: @p host on the combined worker's threads.
template <void (*host)(void*[], void*)>
void openmp(void* buffers[], void* arg) {
  omp_set_num_threads(starpu_combined_worker_get_size());
  host(buffers, arg);
}

/// A codelet over an app's variants: sequential CPU (implementation 0, single workers), OpenMP
/// (1, combined workers, fork-join), CUDA (nullptr without it), OpenCL; a mode per buffer.
inline starpu_codelet codelet(starpu_cpu_func_t cpu, starpu_cpu_func_t omp, starpu_cuda_func_t cuda,
                              starpu_opencl_func_t ocl,
                              std::initializer_list<starpu_data_access_mode> modes) {
  starpu_codelet cl;
  starpu_codelet_init(&cl);
  cl.type = STARPU_FORKJOIN;
  cl.max_parallelism = INT_MAX;
  cl.can_execute = can_execute;
  cl.cpu_funcs[0] = cpu;
  cl.cpu_funcs[1] = omp;
  cl.cuda_funcs[0] = cuda;
  cl.opencl_funcs[0] = ocl;
  cl.nbuffers = static_cast<int>(modes.size());
  int i = 0;
  for (starpu_data_access_mode m : modes) cl.modes[i++] = m;
  return cl;
}

}  // namespace direct

// The codelet of variants name_cpu, name_openmp and name_cuda, each called by host<variant>
// (a codelet function template that unpacks the buffers and arguments), and OpenCL function ocl.
#ifdef STARPU_USE_CUDA
#define DIRECT_CUDA(host, name) host<name##_cuda>
#else
#define DIRECT_CUDA(host, name) nullptr
#endif
#define DIRECT_CODELET(host, name, ocl, ...)                                                      \
  direct::codelet(host<name##_cpu>, direct::openmp<host<name##_openmp>>, DIRECT_CUDA(host, name), \
                  ocl, {__VA_ARGS__})

namespace direct {}  // namespace direct
