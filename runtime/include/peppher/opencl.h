// What generated OpenCL backend wrappers use: a kernel file loaded and built once per
// runtime session for every OpenCL device, and a launch helper that sets arguments, turns
// partition blocks (a buffer plus an offset) into kernel buffers, enqueues the kernel and
// waits for it. OpenCL errors become peppher::Error naming the interface, variant, kernel
// (and argument), with the error decoded; the backend wrapper records them for the caller
// (detail/variant_errors.h), never aborts.
#pragma once

#include <starpu.h>

#include <atomic>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "peppher/detail/shared_cores.h"
#include "peppher/error.h"
#include "peppher/init.h"

// StarPU's header pins OpenCL 1.0 (CL_TARGET_OPENCL_VERSION 100), which hides the OpenCL
// 1.1 sub-buffer call every ICD loader exports; declared here with the standard's types
// (cl_buffer_create_type is a cl_uint), compatible with cl.h's own declaration.
// NOLINTNEXTLINE(readability-identifier-naming): OpenCL's name
extern "C" CL_API_ENTRY cl_mem CL_API_CALL clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags,
                                                             cl_uint create_type,
                                                             const void* create_info,
                                                             cl_int* errcode_ret);

namespace peppher {

/// @brief How a composed program names one kernel file: `name` (e.g. "scale_opencl.cl") is
///        looked up at run time, and `build_path` (where compose saw the file) is the last
///        resort; see locate_kernel_file.
struct KernelFile {
  const char* name;
  const char* build_path;
};

/// @brief The kernel file @p file's path, searched in this order: each folder of
///        `$PEPPHER_KERNEL_PATH` (':'-separated), `<exe dir>/<exe name>-kernels/` (what the
///        generated Makefile and peppher.cmake build next to the program),
///        `<exe dir>/../share/<exe name>/kernels/` (what peppher_install_composition installs),
///        then `file.build_path`. Throws peppher::Error listing the places tried.
std::string locate_kernel_file(const KernelFile& file);

/// @brief The name of OpenCL error code @p err ("CL_INVALID_ARG_SIZE"), or "OpenCL error N".
std::string opencl_error_name(cl_int err);

/// @brief An OpenCL source file, built for every OpenCL device once in each runtime session
///        and unloaded at shutdown: in the background from init() on when build_at_init()
///        registered it (generated wrappers do, for every OpenCL variant), else at first use.
///        A failed build prints its error (file, device, OpenCL error name, build log) once
///        per session, and get() throws it.
/// @attention get() is thread-safe; a build takes seconds with pocl (less once pocl's cache
///            holds it), and get() waits while one is in progress.
class OpenClProgram {
 public:
  /// @brief The program in @p path, built with @p build_options (e.g. a tunable variant's
  ///        "-DBLOCK=32"; null for none).
  explicit OpenClProgram(const char* path, const char* build_options = nullptr);

  /// @brief The program in the kernel file @p file, found by locate_kernel_file when first
  ///        loaded (so a build tree can move, and a program be installed). Its
  ///        `#include "..."` headers are searched next to the file found, then next to
  ///        `file.build_path`.
  explicit OpenClProgram(KernelFile file, const char* build_options = nullptr);

  ~OpenClProgram();
  OpenClProgram(const OpenClProgram&) = delete;
  OpenClProgram& operator=(const OpenClProgram&) = delete;

  /// @brief Asks every later init() to build this program in the background, on a thread of
  ///        its own, so that the first call finds it built (or waits only for the rest of its
  ///        build). A build error is reported by the get() of the call that needs it, as
  ///        without this. Returns true (for a namespace-scope initializer).
  bool build_at_init();

  /// @brief The loaded program; builds it if this runtime session has not yet (beside the
  ///        background build when that is under way: the first to finish is kept). Entry
  ///        wrappers call it before submitting, so workers never compile. Throws
  ///        peppher::Error when the file cannot be found or built.
  starpu_opencl_program* get() {
    if (loaded_.load(std::memory_order_acquire)) return &program_;
    if (starpu_opencl_worker_get_count() == 0) return &program_;  // nothing to build for
    load();
    return &program_;
  }

  /// @brief True once this session's build succeeded (and until shutdown).
  bool ready() const noexcept { return loaded_.load(std::memory_order_acquire); }

  /// @brief The entry wrapper's step before submitting a call whose codelet is @p cl: get()
  ///        when only OpenCL workers can run @p cl (so a task never waits for its build on
  ///        a worker, inside its measured time; a build error is thrown: a forced call);
  ///        otherwise nothing while the background build is pending or under way (a call
  ///        that runs elsewhere does not wait for it; an OpenCL worker that gets the task
  ///        waits for it), else get(), a build error falling back: once every OpenCL
  ///        variant of @p cl failed to build, @p cl runs on its other variants for the rest
  ///        of the session (a warning says so, once).
  void before_call(const starpu_codelet& cl);

  /// @brief get() when only OpenCL workers can run @p cl, an error left to the worker's get()
  ///        (reported as the variant's exception): for a codelet chosen during submission,
  ///        where nothing may throw.
  void wait_before_task(const starpu_codelet& cl) noexcept;

  /// @brief Set by init() for a program its background build will get to (before_call does
  ///        not wait for it meanwhile); internal.
  void set_queued(bool queued) noexcept { queued_.store(queued); }

 private:
  void load();  // builds unless built or failed this session (opencl_programs.cpp)
  // A build's lock, the signal of its end and this session's build error
  // (opencl_programs.cpp): out of line, so that the sources including this header parse
  // neither <mutex> nor <condition_variable>.
  struct BuildState;

  KernelFile file_;
  const char* options_;
  starpu_opencl_program program_{};
  std::atomic<bool> loaded_{false};
  std::atomic<bool> queued_{false};  // the session's background build has not reached it yet
  std::atomic<int> builds_{0};       // builds under way (on the builder, calls, workers)
  std::unique_ptr<BuildState> build_;
};

/// @brief One kernel launch on the calling OpenCL worker's device and queue; or, for a
///        host-side variant that launches its kernels itself, the buffers, kernel and queue
///        it is handed.
class OpenClLaunch {
 public:
  /// @brief The kernel @p kernel of @p program on this worker's device (none when
  ///        @p kernel is null: a host-side variant naming no kernel); @p who is
  ///        "interface/variant". Throws peppher::Error when the kernel cannot be loaded.
  OpenClLaunch(OpenClProgram& program, const char* kernel, const char* who)
      : who_(who),
        kernel_name_(kernel != nullptr ? kernel : ""),
        devid_(starpu_worker_get_devid(starpu_worker_get_id_check())),
        running_(devid_) {
    starpu_opencl_get_queue(devid_, &queue_);
    if (kernel == nullptr) return;
    // Not starpu_opencl_load_kernel: it aborts the process on an unknown kernel name.
    cl_int err = CL_SUCCESS;
    kernel_ = clCreateKernel(built(program)->programs[devid_], kernel, &err);
    check(err, "loading the kernel");
  }
  ~OpenClLaunch() {
    for (const Temporary& t : temporaries_) clReleaseMemObject(t.mem);
    if (kernel_ != nullptr) clReleaseKernel(kernel_);
  }

  /// @brief This worker's kernel (null without one) and command queue: what a host-side
  ///        variant's cl_kernel and cl_command_queue variables hold during its call.
  cl_kernel kernel() const { return kernel_; }
  cl_command_queue queue() const { return queue_; }

  /// @brief After a host-side variant returned: waits for everything it enqueued on the
  ///        queue, then copies written blocks back (see buffer()).
  void finish() {
    check(clFinish(queue_), "waiting for the variant's commands");
    copy_back();
  }
  OpenClLaunch(const OpenClLaunch&) = delete;
  OpenClLaunch& operator=(const OpenClLaunch&) = delete;

  /// @brief Sets the next kernel argument (a cl_mem or a by-value scalar) named @p name
  ///        (the operand, or its extent: "x_size"). Throws peppher::Error naming its index.
  template <typename T>
  void arg(const T& value, const char* name) {
    const cl_int err = clSetKernelArg(kernel_, next_arg_, sizeof(T), &value);
    if (err != CL_SUCCESS) {
      const std::string what = "setting argument " + std::to_string(next_arg_) + " ('" + name +
                               "', " + std::to_string(sizeof(T)) + " bytes)";
      check(err, what.c_str());
    }
    ++next_arg_;
  }

  /// @brief Sets the next kernel argument, a `__local` pointer named @p name, to @p bytes of
  ///        local memory per work-group (clSetKernelArg with no value). Throws
  ///        peppher::Error naming its index when the device refuses the size.
  void local_arg(size_t bytes, const char* name) {
    const cl_int err = clSetKernelArg(kernel_, next_arg_, bytes, nullptr);
    if (err != CL_SUCCESS) {
      const std::string what = "setting __local argument " + std::to_string(next_arg_) + " ('" +
                               name + "', " + std::to_string(bytes) + " bytes)";
      check(err, what.c_str());
    }
    ++next_arg_;
  }

  /// @brief The buffer a kernel gets for the @p bytes at @p offset in @p mem (a StarPU
  ///        buffer and its offset: non-zero for a block of a partitioned operand). Offset 0:
  ///        @p mem itself; an offset the device aligns (CL_DEVICE_MEM_BASE_ADDR_ALIGN): a
  ///        sub-buffer; otherwise a temporary copy, copied back after run() when @p written.
  cl_mem buffer(cl_mem mem, size_t offset, size_t bytes, bool written);

  /// @brief The kernel buffer of the StarPU vector interface @p iface (see buffer()).
  cl_mem vector_buffer(void* iface, bool written) {
    return buffer(
        reinterpret_cast<cl_mem>(STARPU_VECTOR_GET_DEV_HANDLE(iface)),
        STARPU_VECTOR_GET_OFFSET(iface),
        static_cast<size_t>(STARPU_VECTOR_GET_NX(iface)) * STARPU_VECTOR_GET_ELEMSIZE(iface),
        written);
  }
  /// @brief The kernel buffer of the StarPU matrix interface @p iface: from its first
  ///        element to its last (rows are ld apart), see buffer().
  cl_mem matrix_buffer(void* iface, bool written) {
    const size_t rows = STARPU_MATRIX_GET_NY(iface);
    const size_t span =
        rows == 0 ? 0 : (rows - 1) * STARPU_MATRIX_GET_LD(iface) + STARPU_MATRIX_GET_NX(iface);
    return buffer(reinterpret_cast<cl_mem>(STARPU_MATRIX_GET_DEV_HANDLE(iface)),
                  STARPU_MATRIX_GET_OFFSET(iface), span * STARPU_MATRIX_GET_ELEMSIZE(iface),
                  written);
  }

  /// @brief Enqueues the kernel over a 1-D range of @p global work-items (@p local per
  ///        group; 0: the kernel's reqd_work_group_size when it declares one, else the
  ///        implementation chooses; @p global is rounded up to a multiple of it) and waits.
  void run(size_t global, size_t local) {
    run(std::initializer_list<size_t>{global}, std::initializer_list<size_t>{local});
  }

  /// @brief Enqueues the kernel over an NDRange of 1 to 3 dimensions, dimension 0 first, as
  ///        clEnqueueNDRangeKernel takes them: @p global work-items, @p local per group
  ///        (empty or all 0: the kernel's reqd_work_group_size when it declares one, else
  ///        the implementation chooses). Each global size is rounded up to a multiple of
  ///        its group size, as OpenCL 1.x requires (the kernel checks its bounds). A range
  ///        with no work-item enqueues nothing. Waits for the kernel and copies blocks back.
  void run(std::initializer_list<size_t> global, std::initializer_list<size_t> local);

 private:
  // Copies the temporary block buffers of written operands back into their buffers.
  void copy_back();

  // @p program's build for this session, its error naming this variant.
  starpu_opencl_program* built(OpenClProgram& program) const;

  void check(cl_int err, const char* what) const;

  struct Temporary {
    cl_mem mem;
    cl_mem parent;
    size_t offset;
    size_t bytes;
    bool copy_back;
  };

  cl_device_id device() const;

  // CL_DEVICE_MEM_BASE_ADDR_ALIGN of this worker's device, in bytes.
  size_t base_align() const;

  const char* who_;
  const char* kernel_name_;
  int devid_;
  detail::OpenClTaskScope running_;  // idle CPU workers leave a device on the host's cores
  std::vector<Temporary> temporaries_;
  cl_kernel kernel_{};
  cl_command_queue queue_{};
  cl_uint next_arg_ = 0;
};

}  // namespace peppher
