// What generated OpenCL backend wrappers use: a kernel file loaded and built once per
// runtime session for every OpenCL device, and a launch helper that sets arguments,
// enqueues the kernel and waits for it, reporting OpenCL errors by variant name.
#pragma once

#include <starpu.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

#include "peppher/error.h"
#include "peppher/init.h"

namespace peppher {

/// @brief An OpenCL source file, built for every OpenCL device on first use in each runtime
///        session and unloaded at shutdown.
/// @attention get() is thread-safe; the first call of a session compiles (seconds with pocl).
class OpenClProgram {
 public:
  explicit OpenClProgram(const char* path) : path_(path) {}

  /// @brief The loaded program; loads it if this runtime session has not yet. Entry
  ///        wrappers call it before submitting, so workers never compile.
  starpu_opencl_program* get() {
    if (loaded_.load(std::memory_order_acquire)) return &program_;
    if (starpu_opencl_worker_get_count() == 0) return &program_;  // nothing to build for
    std::lock_guard<std::mutex> lock(mutex_);
    if (!loaded_.load(std::memory_order_relaxed)) {
      int ret = starpu_opencl_load_opencl_from_file(path_, &program_, nullptr);
      if (ret != 0) {
        throw Error(std::string("cannot load OpenCL kernels from ") + path_ + " (error " +
                    std::to_string(ret) + ")");
      }
      loaded_.store(true, std::memory_order_release);
      add_shutdown_hook([this] {
        starpu_opencl_unload_opencl(&program_);
        loaded_.store(false, std::memory_order_release);
      });
    }
    return &program_;
  }

 private:
  const char* path_;
  starpu_opencl_program program_{};
  std::atomic<bool> loaded_{false};
  std::mutex mutex_;
};

/// @brief One kernel launch on the calling OpenCL worker's device and queue.
class OpenClLaunch {
 public:
  OpenClLaunch(OpenClProgram& program, const char* kernel, const char* who) : who_(who) {
    int devid = starpu_worker_get_devid(starpu_worker_get_id_check());
    check(starpu_opencl_load_kernel(&kernel_, &queue_, program.get(), kernel, devid),
          "loading kernel");
  }
  ~OpenClLaunch() { starpu_opencl_release_kernel(kernel_); }
  OpenClLaunch(const OpenClLaunch&) = delete;
  OpenClLaunch& operator=(const OpenClLaunch&) = delete;

  /// @brief Sets the next kernel argument (a cl_mem or a by-value scalar).
  template <typename T>
  void arg(const T& value) {
    check(clSetKernelArg(kernel_, next_arg_, sizeof(T), &value), "setting an argument");
    ++next_arg_;
  }

  /// @brief Enqueues the kernel over @p global work-items (@p local per group, 0: the
  ///        implementation chooses) and waits for it.
  void run(size_t global, size_t local) {
    if (global == 0) return;
    if (local != 0 && global % local != 0) global = (global / local + 1) * local;
    cl_event event;
    check(clEnqueueNDRangeKernel(queue_, kernel_, 1, nullptr, &global,
                                 local != 0 ? &local : nullptr, 0, nullptr, &event),
          "enqueueing");
    check(clWaitForEvents(1, &event), "waiting");
    starpu_opencl_collect_stats(event);
    clReleaseEvent(event);
  }

 private:
  void check(cl_int err, const char* what) const {
    if (err == CL_SUCCESS) return;
    std::fprintf(stderr, "peppher: %s: OpenCL error %d while %s\n", who_, err, what);
    std::abort();  // runs on a worker thread: no way to report back to the caller
  }

  const char* who_;
  cl_kernel kernel_{};
  cl_command_queue queue_{};
  cl_uint next_arg_ = 0;
};

}  // namespace peppher
