// The first `?` split of an interface whose model is a model of functions (prediction
// functions, a trained table): sized from the model at the first call (Call::size_from_models),
// not after a first call in equal blocks. The equal blocks would run once, then the
// model-sized ones replace them: a gather between the two calls, and device buffers of a new
// size allocated by the second call (bench/sim: 175 us of simulated cudaMalloc on the first
// model-sized call; docs/PARTITIONING.md).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "call/call_parts.h"
#include "peppher/detail/distributed.h"
#include "peppher/partitioned_call.h"

namespace peppher::detail {
namespace {

// Stand-ins for data in a task that is only predicted, never submitted: registered with no
// home and no memory (StarPU's home node -1), of the real data's interface and extents, which
// is what a model of functions reads. Unregistered when the stand-ins go.
class StandIns {
 public:
  StandIns() = default;
  StandIns(const StandIns&) = delete;
  StandIns& operator=(const StandIns&) = delete;
  ~StandIns() {
    for (starpu_data_handle_t h : handles_) starpu_data_unregister_no_coherency(h);
  }
  // @p rows rows (a vector: elements) of data shaped as @p shape.
  starpu_data_handle_t of(const Shape& shape, std::size_t rows) {
    starpu_data_handle_t h = nullptr;
    switch (shape.layout) {
      case Layout::Vector:
        starpu_vector_data_register(&h, -1, 0, static_cast<std::uint32_t>(rows), shape.elem_size);
        break;
      case Layout::Matrix:
        starpu_matrix_data_register(&h, -1, 0, static_cast<std::uint32_t>(shape.ld),
                                    static_cast<std::uint32_t>(shape.nx),
                                    static_cast<std::uint32_t>(rows), shape.elem_size);
        break;
      case Layout::Variable:
        starpu_variable_data_register(&h, -1, 0, shape.elem_size);
        break;
    }
    handles_.push_back(h);
    return h;
  }

 private:
  std::vector<starpu_data_handle_t> handles_;
};

// The shape of raw `?` memory: @p row_width 0 is a vector, else a row-major matrix.
Shape raw_shape(const Operand& op) {
  Shape s;
  s.elem_size = op.elem_size;
  if (op.row_width == 0) {
    s.layout = Layout::Vector;
  } else {
    s.layout = Layout::Matrix;
    s.nx = op.row_width;
    s.ld = op.row_width;
  }
  return s;
}

}  // namespace

bool Call::size_from_models() {
  settle();
  if (!sizing_pending_) return false;
  sizing_pending_ = false;
  const auto nbuffers = static_cast<std::size_t>(codelet_->nbuffers);
  if (nbuffers > STARPU_NMAXBUFS || auto_workers_.empty()) return false;
  for (int w : auto_workers_)
    if (w < 0) return false;
  // Block 0 of the equal split and the whole, as remember_equal_block asks them once the
  // first equal block is submitted: the same by-value arguments (block 0's, where the call
  // has any), every operand a stand-in of its extents.
  StandIns stand_ins;
  starpu_task block, whole;
  starpu_task_init(&block);
  starpu_task_init(&whole);
  for (starpu_task* t : {&block, &whole}) {
    t->cl = codelet_;
    t->cl_arg = args(0);
    t->cl_arg_size = t->cl_arg != nullptr ? args_size_ : 0;
  }
  const std::size_t n = auto_extent_;
  bool known = true;
  for (const Operand& op : ops_) {
    starpu_data_handle_t mine = nullptr, all = nullptr;
    if (op.auto_split) {
      const Shape shape = op.container != nullptr ? op.container->shape() : raw_shape(op);
      mine = stand_ins.of(shape, auto_split_.sizes[0]);
      all = stand_ins.of(shape, n);
    } else if (op.kind == OperandKind::Container || op.kind == OperandKind::ContainerReduce) {
      const Shape& shape = op.container->shape();
      mine = all = stand_ins.of(shape, shape.layout == Layout::Matrix ? shape.ny : shape.nx);
    } else if ((op.kind == OperandKind::Raw || op.kind == OperandKind::RawCached) &&
               op.handle != nullptr) {
      mine = all = op.handle;  // registered when the operand was added
    } else {
      known = false;  // a split of another kind: not a `?` call's operand
      break;
    }
    STARPU_TASK_SET_HANDLE(&block, mine, op.index);
    STARPU_TASK_SET_HANDLE(&whole, all, op.index);
  }
  const SplitState equal = auto_split_;
  if (known) auto_->remember(n, auto_workers_, codelet_->model, &block, equal.sizes.size(), &whole);
  for (starpu_task* t : {&block, &whole}) {
    t->cl_arg = nullptr;  // the call's (make_args)
    starpu_task_clean(t);
  }
  if (!known) return false;
  first_sizing_ = true;
  choose_auto_split(n, equal.sizes.size(), auto_workers_, 0);
  first_sizing_ = false;
  if (!auto_split_.modelled) {  // another interface on the containers is still calibrating
    auto_split_ = equal;
    return false;
  }
  // The model-sized split replaces the equal one: new blocks, new arguments (the caller
  // makes them again).
  for (void*& a : args_)
    if (a != nullptr) std::free(static_cast<char*>(a) - kTaskBytes);
  args_.clear();
  nblocks_ = 0;
  for (Operand& op : ops_)
    if (op.auto_split) {
      op.sizes.clear();
      op.offsets.clear();
    }
  apply_auto_split();
  return true;
}

}  // namespace peppher::detail
