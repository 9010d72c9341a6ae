// Plans one interface's wrapper (see wrapper_plan.h): buffers, packing, codelet slots.
#include "compose/emit/wrapper_plan.h"

#include <filesystem>

#include <starpu_config.h>  // STARPU_MAXIMPLEMENTATIONS of the StarPU we generate for

namespace peppher::emit {
namespace {

OperandKind operand_kind(const ir::Parameter& p) {
  switch (p.kind) {
    case ir::ParamKind::ScalarValue:
    case ir::ParamKind::StructValue: return OperandKind::Value;
    case ir::ParamKind::RawPointer:
      return p.desc_row_width ? OperandKind::RawMatrix : OperandKind::RawVector;
    case ir::ParamKind::Vector: return OperandKind::Vector;
    case ir::ParamKind::Matrix: return OperandKind::Matrix;
    case ir::ParamKind::ScalarContainer: return OperandKind::ScalarContainer;
    case ir::ParamKind::Reference: return OperandKind::Reference;
  }
  return OperandKind::Value;
}

const char* starpu_mode(ir::AccessMode m) {
  switch (m) {
    case ir::AccessMode::Read: return "STARPU_R";
    case ir::AccessMode::Write: return "STARPU_W";
    case ir::AccessMode::ReadWrite: return "STARPU_RW";
  }
  return "STARPU_RW";
}

// An expression attribute as C++ over the entry wrapper's parameters. The descriptor
// grammar is a subset of C's, so the text is valid C++ as it stands.
std::string as_size(const ir::Expression& e) { return "static_cast<size_t>(" + e.text + ")"; }

// Assigns codelet slots to `variants`, reporting when StarPU has too few.
std::vector<VariantSlot> assign_slots(const ir::Interface& iface,
                                      const std::vector<const ir::Variant*>& variants,
                                      const char* backend_label, diag::Diagnostics& diags) {
  std::vector<VariantSlot> slots;
  for (const ir::Variant* v : variants) {
    bool c_linkage = !v->sources.empty() && is_c_compiler(v->sources.front().compiler.name);
    slots.push_back({v, static_cast<int>(slots.size()), c_linkage});
  }
  if (slots.size() > STARPU_MAXIMPLEMENTATIONS) {
    std::string names;
    for (const VariantSlot& s : slots) names += (names.empty() ? "'" : ", '") + s.variant->name + "'";
    diags.error(iface.loc, "interface '" + iface.name + "' has " + std::to_string(slots.size()) +
                               " enabled " + backend_label + " variants (" + names +
                               "), but this StarPU allows at most " +
                               std::to_string(STARPU_MAXIMPLEMENTATIONS) +
                               " per backend; disable some with -disableImpls");
  }
  return slots;
}

}  // namespace

bool is_c_compiler(const std::string& command) {
  std::string base = std::filesystem::path(command).filename().string();
  for (const char* c : {"gcc", "cc", "clang", "icc", "icx"}) {
    std::string name(c);
    if (base == name || base.rfind(name + "-", 0) == 0) return true;
  }
  return false;
}

std::string output_dir(const ir::Application& app) {
  namespace fs = std::filesystem;
  fs::path dir = app.options.output_dir.empty()
                     ? fs::path(app.descriptor_file).parent_path()
                     : fs::path(app.options.output_dir);
  if (dir.empty()) dir = ".";  // "compose main.xml": the current folder
  return fs::absolute(dir).lexically_normal().string();
}

int WrapperPlan::nbuffers() const {
  int n = 0;
  for (const Operand& o : operands) n += is_buffer(o) ? 1 : 0;
  return n;
}

WrapperPlan plan_wrapper(const ir::Application& app, const ir::Interface& iface,
                         diag::Diagnostics& diags) {
  WrapperPlan plan;
  plan.iface = &iface;
  plan.perf_model = ir::effective_perf_model(app, iface);
  plan.output_dir = output_dir(app);

  int next_buffer = 0;
  bool has_raw = false;
  for (const ir::Parameter& p : iface.parameters) {
    Operand o;
    o.param = &p;
    o.kind = operand_kind(p);
    if (o.kind != OperandKind::Value) {
      o.buffer = next_buffer++;
      o.starpu_mode = starpu_mode(p.access_mode);
    }
    if (o.kind == OperandKind::Reference) has_raw = true;
    if (o.kind == OperandKind::RawVector || o.kind == OperandKind::RawMatrix) {
      has_raw = true;
      if (p.num_elements) o.count = as_size(*p.num_elements);
      if (p.desc_row_width) o.row_width = as_size(*p.desc_row_width);
    }
    plan.operands.push_back(std::move(o));
  }
  plan.synchronous = has_raw || next_buffer == 0;
  if (next_buffer > STARPU_NMAXBUFS) {
    diags.error(iface.loc, "interface '" + iface.name + "' has " + std::to_string(next_buffer) +
                               " pointer or container parameters, but this StarPU allows at most " +
                               std::to_string(STARPU_NMAXBUFS) + " per task");
  }

  std::vector<const ir::Variant*> cpu_like, cuda, opencl;
  for (const ir::Variant* v : ir::enabled_variants(app, iface)) {
    switch (v->backend) {
      case ir::Backend::Cpu:
      case ir::Backend::OpenMp: cpu_like.push_back(v); break;
      case ir::Backend::Cuda: cuda.push_back(v); break;
      case ir::Backend::OpenCl: opencl.push_back(v); break;
    }
    if (v->backend == ir::Backend::OpenMp) plan.forkjoin = true;
  }
  plan.cpu_like = assign_slots(iface, cpu_like, "CPU/OPENMP", diags);
  plan.cuda = assign_slots(iface, cuda, "CUDA", diags);
  plan.opencl = assign_slots(iface, opencl, "OPENCL", diags);
  return plan;
}

}  // namespace peppher::emit
