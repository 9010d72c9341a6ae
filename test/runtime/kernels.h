// Hand-written StarPU codelets for the runtime tests, each with a CPU and an OpenCL
// implementation, submitted the way generated entry wrappers do (handle_for_task()).
#pragma once

#include <starpu.h>

#include <cstdint>
#include <initializer_list>

namespace peppher_test {

/// The by-value arguments of the test codelets (fill, affine, mat_affine, slow_affine).
struct KernelArgs {
  std::uint32_t a = 0, b = 0;
  unsigned ms = 0;  ///< slow_affine: milliseconds to sleep
};

/// Where a task must run: wherever the scheduler likes, or forced on a worker kind.
enum class Where { Any, Cpu, OpenCl };

/// @brief Id of the first worker of that kind (-1 for Where::Any); throws if none exists.
int worker_for(Where where);
/// @brief True when StarPU started at least one OpenCL worker.
bool has_opencl();
/// @brief Compiles the OpenCL kernels (once per init) and unloads them at shutdown.
void load_kernels();

// Asynchronous tasks on uint32_t data (wrapping arithmetic, identical on CPU and OpenCL).
void fill(starpu_data_handle_t v, std::uint32_t a, std::uint32_t b, Where w);  // W: v[i] = a + b*i
void affine(starpu_data_handle_t v, std::uint32_t a, std::uint32_t b, Where w);  // RW: v = v*a + b
void add(starpu_data_handle_t src, starpu_data_handle_t dst, std::uint32_t c,
         Where w);                                                    // dst = src + c
void sum(starpu_data_handle_t v, starpu_data_handle_t out, Where w);  // R v, W scalar out = sum(v)
void touch(starpu_data_handle_t v, Where w);                          // R only
void mat_affine(starpu_data_handle_t m, std::uint32_t a, std::uint32_t b, Where w);  // RW matrix
/// CPU only: sleeps @p ms milliseconds, then v = v*a + b (to keep tasks pending).
void slow_affine(starpu_data_handle_t v, std::uint32_t a, std::uint32_t b, unsigned ms);

/// A codelet named @p name with one CPU and (or nullptr) one OpenCL implementation, its
/// buffers accessed in @p modes.
starpu_codelet make_codelet(const char* name, starpu_cpu_func_t cpu, starpu_opencl_func_t ocl,
                            std::initializer_list<starpu_data_access_mode> modes);

/// @brief The codelets behind affine() and mat_affine() (one RW buffer, KernelArgs), as
///        copies a test may give a performance model and submit with a PartitionedCall.
starpu_codelet affine_codelet();
starpu_codelet mat_affine_codelet();
/// @brief The codelet behind add() (R src, W dst, KernelArgs::a the constant), as a copy.
starpu_codelet add_codelet();

}  // namespace peppher_test
