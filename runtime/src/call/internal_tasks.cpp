// The tasks a call makes itself beside its blocks' tasks: halo copies (each block's
// boundary rows into small data of their own, where the block is, CPU or device) and a
// reduction's start and fold tasks (on a Scalar, Vector or Matrix, CPU codelets).
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

#include "call/call_parts.h"
#include "devices/devices.h"
#include "peppher/detail/distributed.h"

namespace peppher::detail {
namespace {

// A halo piece's copy task: the first (or last) rows (elements) of a block into the small
// data of that boundary (buffers: the block, read; the piece, written), on the memory node
// of the worker that runs it, CPU or device (halo_copy_where places it where the block
// is), so a block on a device sends only its boundary rows over the bus.
struct HaloCopy {
  std::uint32_t first;  // the block's first row (element) copied
  std::uint32_t matrix;
};

void halo_copy_cpu(void* buffers[], void* cl_arg) {
  const auto* a = static_cast<const HaloCopy*>(cl_arg);
  if (a->matrix != 0) {
    const std::size_t elem = STARPU_MATRIX_GET_ELEMSIZE(buffers[0]);
    const std::size_t bytes = STARPU_MATRIX_GET_NX(buffers[1]) * elem;
    const auto* src = reinterpret_cast<const unsigned char*>(STARPU_MATRIX_GET_PTR(buffers[0]));
    auto* dst = reinterpret_cast<unsigned char*>(STARPU_MATRIX_GET_PTR(buffers[1]));
    const std::size_t src_ld = STARPU_MATRIX_GET_LD(buffers[0]) * elem;
    const std::size_t dst_ld = STARPU_MATRIX_GET_LD(buffers[1]) * elem;
    for (std::size_t r = 0; r < STARPU_MATRIX_GET_NY(buffers[1]); ++r)
      std::memcpy(dst + r * dst_ld, src + (a->first + r) * src_ld, bytes);
  } else {
    const std::size_t elem = STARPU_VECTOR_GET_ELEMSIZE(buffers[0]);
    std::memcpy(
        reinterpret_cast<void*>(STARPU_VECTOR_GET_PTR(buffers[1])),
        reinterpret_cast<const unsigned char*>(STARPU_VECTOR_GET_PTR(buffers[0])) + a->first * elem,
        STARPU_VECTOR_GET_NX(buffers[1]) * elem);
  }
}

#ifndef STARPU_SIMGRID
// The same copy on an OpenCL or CUDA worker, inside its device's memory: `rows` rows of
// `row_bytes` from a device handle plus offset to another (a Vector's piece: one row).
struct HaloRegion {
  std::uintptr_t src = 0, dst = 0;
  std::size_t src_offset = 0, dst_offset = 0, row_bytes = 0, rows = 1, src_pitch = 0, dst_pitch = 0;
};

[[maybe_unused]] HaloRegion halo_region(void* buffers[], const HaloCopy& a) {
  HaloRegion r;
  if (a.matrix != 0) {
    const std::size_t elem = STARPU_MATRIX_GET_ELEMSIZE(buffers[0]);
    r.src = STARPU_MATRIX_GET_DEV_HANDLE(buffers[0]);
    r.dst = STARPU_MATRIX_GET_DEV_HANDLE(buffers[1]);
    r.src_pitch = STARPU_MATRIX_GET_LD(buffers[0]) * elem;
    r.dst_pitch = STARPU_MATRIX_GET_LD(buffers[1]) * elem;
    r.src_offset = STARPU_MATRIX_GET_OFFSET(buffers[0]) + a.first * r.src_pitch;
    r.dst_offset = STARPU_MATRIX_GET_OFFSET(buffers[1]);
    r.row_bytes = STARPU_MATRIX_GET_NX(buffers[1]) * elem;
    r.rows = STARPU_MATRIX_GET_NY(buffers[1]);
  } else {
    const std::size_t elem = STARPU_VECTOR_GET_ELEMSIZE(buffers[0]);
    r.src = STARPU_VECTOR_GET_DEV_HANDLE(buffers[0]);
    r.dst = STARPU_VECTOR_GET_DEV_HANDLE(buffers[1]);
    r.src_offset = STARPU_VECTOR_GET_OFFSET(buffers[0]) + a.first * elem;
    r.dst_offset = STARPU_VECTOR_GET_OFFSET(buffers[1]);
    r.row_bytes = STARPU_VECTOR_GET_NX(buffers[1]) * elem;
  }
  return r;
}

#ifdef STARPU_USE_OPENCL
// On the worker's command queue, a copy per row (a halo has few), waited for.
void halo_copy_opencl(void* buffers[], void* cl_arg) {
  const HaloRegion r = halo_region(buffers, *static_cast<const HaloCopy*>(cl_arg));
  cl_command_queue queue = nullptr;
  starpu_opencl_get_current_queue(&queue);
  cl_int err = CL_SUCCESS;
  for (std::size_t k = 0; k < r.rows && err == CL_SUCCESS; ++k)
    err = clEnqueueCopyBuffer(queue, reinterpret_cast<cl_mem>(r.src),
                              reinterpret_cast<cl_mem>(r.dst), r.src_offset + k * r.src_pitch,
                              r.dst_offset + k * r.dst_pitch, r.row_bytes, 0, nullptr, nullptr);
  if (err == CL_SUCCESS) err = clFinish(queue);
  if (err != CL_SUCCESS) STARPU_OPENCL_REPORT_ERROR(err);
}
#endif

#ifdef STARPU_USE_CUDA
// StarPU's synchronous device-to-device copy (no stream), a row at a time.
void halo_copy_cuda(void* buffers[], void* cl_arg) {
  const HaloRegion r = halo_region(buffers, *static_cast<const HaloCopy*>(cl_arg));
  const unsigned node = starpu_worker_get_local_memory_node();
  for (std::size_t k = 0; k < r.rows; ++k)
    starpu_cuda_copy_async_sync(reinterpret_cast<void*>(r.src + r.src_offset + k * r.src_pitch),
                                node,
                                reinterpret_cast<void*>(r.dst + r.dst_offset + k * r.dst_pitch),
                                node, r.row_bytes, nullptr, cudaMemcpyDeviceToDevice);
}
#endif

// Whether @p handle has a valid copy on the memory node of worker @p w.
bool valid_for_worker(starpu_data_handle_t handle, unsigned w) {
  int valid = 0;
  starpu_data_query_status(handle, static_cast<int>(starpu_worker_get_memory_node(w)), nullptr,
                           &valid, nullptr);
  return valid != 0;
}

// Where a halo copy may run: on a worker whose memory holds its block (the copy's
// dependencies are done when StarPU asks, so the block is where its last writer left it),
// or, when no worker's memory does (the block only in main memory and no CPU worker), on
// any worker. So a block on a device is never brought back whole for its boundary rows.
int halo_copy_where(unsigned worker, starpu_task* task, unsigned) {
  const unsigned nworkers = starpu_worker_get_count();
  if (worker >= nworkers) return 0;  // a combined worker: the copy is sequential
  starpu_data_handle_t block = STARPU_TASK_GET_HANDLE(task, 0);
  if (valid_for_worker(block, worker)) return 1;
  for (unsigned w = 0; w < nworkers; ++w)
    if (valid_for_worker(block, w)) return 0;
  return 1;
}
#endif

// A codelet of the runtime's own tasks: one CPU function, @p nbuffers operands, the first
// accessed as @p first and the others as @p rest.
starpu_codelet cpu_codelet(starpu_cpu_func_t f, const char* name, int nbuffers,
                           starpu_data_access_mode first, starpu_data_access_mode rest) {
  starpu_codelet cl{};
  cl.where = STARPU_CPU;
  cl.cpu_funcs[0] = f;
  cl.cpu_funcs_name[0] = name;
  cl.nbuffers = nbuffers;
  cl.modes[0] = first;
  for (int i = 1; i < nbuffers; ++i) cl.modes[i] = rest;
  cl.name = name;
#ifdef STARPU_SIMGRID
  // Simulated: StarPU replaces a task by a sleep its performance model gives, and asserts on
  // a codelet without one; these small copies have none, so they run as they are, in no
  // simulated time.
  cl.flags |= STARPU_CODELET_SIMGRID_EXECUTE;
#endif
  return cl;
}

// The halo copy on every kind of worker (under SimGrid on CPUs only: simulated device
// memory holds no data to copy).
starpu_codelet make_halo_codelet() {
  starpu_codelet cl = cpu_codelet(halo_copy_cpu, "peppher_halo_copy", 2, STARPU_R, STARPU_W);
#ifndef STARPU_SIMGRID
#ifdef STARPU_USE_OPENCL
  cl.where |= STARPU_OPENCL;
  cl.opencl_funcs[0] = halo_copy_opencl;
#endif
#ifdef STARPU_USE_CUDA
  cl.where |= STARPU_CUDA;
  cl.cuda_funcs[0] = halo_copy_cuda;
#endif
  cl.can_execute = halo_copy_where;
#endif
  return cl;
}
starpu_codelet g_halo_codelet = make_halo_codelet();

// The elements of a reduction's operand or partial (a variable, vector or matrix buffer of
// task buffer @p i): `rows` rows of `cols` elements, `ld` elements apart.
struct ReductionElements {
  unsigned char* ptr = nullptr;
  std::size_t cols = 1, rows = 1, ld = 1;
};

ReductionElements reduction_elements(void* buffers[], int i) {
  ReductionElements e;
  switch (starpu_data_get_interface_id(STARPU_TASK_GET_HANDLE(starpu_task_get_current(), i))) {
    case STARPU_MATRIX_INTERFACE_ID:
      e.ptr = reinterpret_cast<unsigned char*>(STARPU_MATRIX_GET_PTR(buffers[i]));
      e.cols = STARPU_MATRIX_GET_NX(buffers[i]);
      e.rows = STARPU_MATRIX_GET_NY(buffers[i]);
      e.ld = STARPU_MATRIX_GET_LD(buffers[i]);
      break;
    case STARPU_VECTOR_INTERFACE_ID:
      e.ptr = reinterpret_cast<unsigned char*>(STARPU_VECTOR_GET_PTR(buffers[i]));
      e.cols = e.ld = STARPU_VECTOR_GET_NX(buffers[i]);
      break;
    default:  // a Scalar's variable
      e.ptr = reinterpret_cast<unsigned char*>(STARPU_VARIABLE_GET_PTR(buffers[i]));
      break;
  }
  return e;
}

// A reduction's start (Call::add_reduction): the operator's identity (the ReductionOps in
// cl_arg) into every element of one block's partial (buffer 0, written).
void reduction_start_cpu(void* buffers[], void* cl_arg) {
  const auto* ops = static_cast<const ReductionOps*>(cl_arg);
  const ReductionElements p = reduction_elements(buffers, 0);
  for (std::size_t r = 0; r < p.rows; ++r)
    for (std::size_t c = 0; c < p.cols; ++c)
      std::memcpy(p.ptr + (r * p.ld + c) * ops->elem_size, ops->identity, ops->elem_size);
}

// A reduction's fold: the operand (buffer 0, read-write) op= each partial (buffers 1.., read)
// in buffer order, which is block order, element by element (row by row: a Matrix operand's
// rows are ld apart, a partial's packed).
void reduction_fold_cpu(void* buffers[], void* cl_arg) {
  const auto* ops = static_cast<const ReductionOps*>(cl_arg);
  const int n = STARPU_TASK_GET_NBUFFERS(starpu_task_get_current());
  const ReductionElements acc = reduction_elements(buffers, 0);
  for (int i = 1; i < n; ++i) {
    const ReductionElements p = reduction_elements(buffers, i);
    for (std::size_t r = 0; r < acc.rows; ++r)
      ops->fold(acc.ptr + r * acc.ld * ops->elem_size, p.ptr + r * p.ld * ops->elem_size, acc.cols);
  }
}

starpu_codelet g_reduction_start =
    cpu_codelet(reduction_start_cpu, "peppher_reduction_start", 1, STARPU_W, STARPU_W);

// Fold codelets by partial count: g_reduction_folds[k] folds k partials (1 .. NMAXBUFS - 1),
// so that StarPU-MPI reads every buffer's mode from the codelet; more blocks take several
// folds, chained on the Scalar in block order.
constexpr int kMaxFold = STARPU_NMAXBUFS - 1;
std::array<starpu_codelet, STARPU_NMAXBUFS> make_reduction_folds() {
  std::array<starpu_codelet, STARPU_NMAXBUFS> all{};
  for (int k = 1; k <= kMaxFold; ++k) {
    all[static_cast<std::size_t>(k)] =
        cpu_codelet(reduction_fold_cpu, "peppher_reduction_fold", k + 1, STARPU_RW, STARPU_R);
  }
  return all;
}
std::array<starpu_codelet, STARPU_NMAXBUFS> g_reduction_folds = make_reduction_folds();

// The argument block of a task the call makes itself (a halo copy, a reduction's start or
// fold): a malloc'd copy of @p arg, which StarPU frees with the task. Without memory the
// task is destroyed before the exception leaves.
template <typename Arg>
void set_task_arg(starpu_task* task, const Arg& arg) {
  static_assert(std::is_trivially_copyable_v<Arg>, "StarPU frees the copy with free()");
  void* a = std::malloc(sizeof(Arg));
  if (a == nullptr) {
    task->destroy = 0;
    starpu_task_destroy(task);
    throw std::bad_alloc();
  }
  std::memcpy(a, &arg, sizeof(Arg));
  task->cl_arg = a;
  task->cl_arg_size = sizeof(Arg);
  task->cl_arg_free = 1;
}

}  // namespace

bool reduces_in_place(const Operand& op, std::size_t nblocks) {
  return op.kind == OperandKind::ContainerReduce && nblocks == 1 && distributed() == nullptr &&
         (op.reduction.op == Reduction::Min || op.reduction.op == Reduction::Max);
}

// A task the call makes itself (a halo copy, a reduction's start or fold), through the
// distributed layer when there is one: it runs on the owner of the data it writes.
void Call::submit_internal(starpu_task* task) {
  Distributed* layer = distributed();
  wake_workers();  // paused while the runtime was idle (devices/devices.h)
  const int ret = layer != nullptr ? layer->submit(task) : starpu_task_submit(task);
  task_submitted();  // CPU workers blocked beside a busy OpenCL device poll (devices/devices.h)
  if (ret < 0) {
    task->destroy = 0;
    starpu_task_destroy(task);  // frees its argument block too
    throw submit_error(iface_, ret);
  }
  submitted_ = true;
}

void Call::submit_reduction_starts() {
  for (const Operand& op : ops_) {
    if (op.kind != OperandKind::ContainerReduce || reduces_in_place(op, blocks())) continue;
    for (starpu_data_handle_t partial : op.blocks) {
      starpu_task* task = starpu_task_create();
      task->cl = &g_reduction_start;
      task->handles[0] = partial;
      set_task_arg(task, op.reduction);
      submit_internal(task);
    }
  }
}

void Call::submit_reduction_folds() {
  for (const Operand& op : ops_) {
    if (op.kind != OperandKind::ContainerReduce || reduces_in_place(op, blocks())) continue;
    for (std::size_t first = 0; first < op.blocks.size(); first += kMaxFold) {
      const std::size_t k = std::min<std::size_t>(kMaxFold, op.blocks.size() - first);
      starpu_task* task = starpu_task_create();
      task->cl = &g_reduction_folds[k];
      task->handles[0] = op.handle;
      for (std::size_t i = 0; i < k; ++i) task->handles[i + 1] = op.blocks[first + i];
      set_task_arg(task, op.reduction);
      submit_internal(task);
    }
  }
}

void Call::submit_halo_copies() {
  for (const Operand& op : ops_) {
    if (op.halo_index < 0 || op.halo == 0) continue;
    const bool matrix = op.container->shape().layout == Layout::Matrix;
    for (std::size_t b = 0; b < op.blocks.size(); ++b) {
      const std::size_t size = op.sizes[b];
      const std::pair<starpu_data_handle_t, std::size_t> pieces[2] = {
          {op.halo_first[b], 0}, {op.halo_last[b], size - op.halo}};
      for (const auto& [piece, first] : pieces) {
        if (piece == nullptr) continue;
        starpu_task* task = starpu_task_create();
        task->cl = &g_halo_codelet;
        task->handles[0] = op.blocks[b];
        task->handles[1] = piece;
        HaloCopy arg{};
        arg.first = static_cast<std::uint32_t>(first);
        arg.matrix = matrix ? 1 : 0;
        set_task_arg(task, arg);
        submit_internal(task);  // on the block's owner (it writes the piece, which lives there)
      }
    }
  }
}

}  // namespace peppher::detail
