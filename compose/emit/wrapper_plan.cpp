// Plans one interface's wrapper (see wrapper_plan.h): buffers, packing, codelet slots, and
// for partitioned interfaces the split of each operand and each by-value parameter's value
// per block, with the diagnostics that explain why a call cannot be split.
#include "compose/emit/wrapper_plan.h"

#include <filesystem>

#include "compose/emit/predicate_plan.h"

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
  int in_codelet = 0;
  for (const ir::Variant* v : variants) {
    bool c_linkage = !v->sources.empty() && is_c_compiler(v->sources.front().compiler.name);
    VariantSlot s;
    s.variant = v;
    s.slot = v->training_only ? -1 : in_codelet++;
    s.c_linkage = c_linkage;
    slots.push_back(std::move(s));
  }
  if (in_codelet > STARPU_MAXIMPLEMENTATIONS) {
    std::string names;
    for (const VariantSlot& s : slots) names += (names.empty() ? "'" : ", '") + s.variant->name + "'";
    diags.error(iface.loc, "interface '" + iface.name + "' has " + std::to_string(in_codelet) +
                               " enabled " + backend_label + " variants (" + names +
                               "), but this StarPU allows at most " +
                               std::to_string(STARPU_MAXIMPLEMENTATIONS) +
                               " per backend; disable some with -disableImpls");
  }
  return slots;
}

std::string as_block(const ir::Expression& e) { return "static_cast<long long>(" + e.text + ")"; }

std::string trimmed(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

Operand* value_operand(std::vector<Operand>& operands, const std::string& name) {
  for (Operand& o : operands)
    if (o.kind == OperandKind::Value && o.param->name == name) return &o;
  return nullptr;
}

// A partitioned interface: how each buffer splits and what each by-value parameter holds
// per block (see BlockValue). Reports what makes the call impossible to split.
// The by-value parameter X of numElements="X*W" (or "W*X") where descRowWidth is "W".
Operand* row_count_operand(std::vector<Operand>& operands, const ir::Parameter& p) {
  const std::string n = p.num_elements->text;
  const std::string width = trimmed(p.desc_row_width->text);
  const size_t star = n.find('*');
  if (star == std::string::npos || n.find('*', star + 1) != std::string::npos) return nullptr;
  const std::string left = trimmed(n.substr(0, star)), right = trimmed(n.substr(star + 1));
  if (right == width) return value_operand(operands, left);
  if (left == width) return value_operand(operands, right);
  return nullptr;
}

void plan_partition(const ir::Interface& iface, WrapperPlan& plan, diag::Diagnostics& diags) {
  const Operand* leader = nullptr;  // first partitioned operand: its blocks are the call's
  bool fixed = false, two_d = false, one_d = false;
  for (Operand& o : plan.operands) {
    const ir::Parameter& p = *o.param;
    switch (p.partition.kind) {
      case ir::PartitionKind::None: continue;
      case ir::PartitionKind::Blocks:
        o.split = SplitKind::Blocks;
        o.block = as_block(p.partition.block);
        fixed = one_d = true;
        break;
      case ir::PartitionKind::Blocks2D:
        o.split = SplitKind::Blocks2D;
        o.block = as_block(p.partition.block);
        o.block_cols = as_block(p.partition.block_cols);
        fixed = two_d = true;
        break;
      case ir::PartitionKind::Auto:
        o.split = SplitKind::Auto;
        plan.auto_split = one_d = true;
        break;
    }
    if (leader == nullptr) leader = &o;
    if (o.split == SplitKind::Blocks2D && o.kind == OperandKind::RawMatrix) {
      diags.error(p.partition.loc, "2-D partition of '" + p.name + "' in interface '" + iface.name +
                                       "': a block of a raw pointer with descRowWidth would need "
                                       "its own leading dimension, which a pointer cannot carry; "
                                       "partition it in row blocks (partition=\"rows\"), or pass "
                                       "a peppher::Matrix");
    } else if (o.split == SplitKind::Blocks2D && o.kind != OperandKind::Matrix) {
      diags.error(p.partition.loc, "2-D partition of '" + p.name + "' needs a peppher::Matrix");
    }
  }
  if (leader == nullptr) return;
  plan.partitioned = true;
  if (two_d && one_d) {
    diags.error(leader->param->partition.loc,
                "interface '" + iface.name + "' mixes 1-D and 2-D partitions; every partitioned "
                "operand of a call must split into the same blocks, so use 'a,b' on all of them "
                "or on none");
  }
  if (fixed && plan.auto_split) {
    diags.error(leader->param->partition.loc,
                "interface '" + iface.name + "' mixes '?' with fixed block sizes; the composer "
                "sizes '?' blocks per worker, so use '?' on every partitioned operand or on none");
  }

  // Operands that are not split are shared whole by all block tasks: only reads can be.
  for (const Operand& o : plan.operands) {
    if (!plan.is_buffer(o) || o.split != SplitKind::None) continue;
    if (o.param->access_mode == ir::AccessMode::Read) continue;
    diags.error(o.param->loc,
                "parameter '" + o.param->name + "' of interface '" + iface.name + "' is written "
                "(accessMode=\"" + ir::to_string(o.param->access_mode) + "\") but not partitioned, "
                "while '" + leader->param->name + "' is: the call becomes one task per block and "
                "every task would write the whole of '" + o.param->name + "' at once; partition '" +
                o.param->name + "' the same way, or remove the partition of '" +
                leader->param->name + "'");
  }

  // By-value parameters per block: the numElements of a split raw pointer is its block's length.
  for (const Operand& o : plan.operands) {
    if (o.kind != OperandKind::RawVector || o.split == SplitKind::None || !o.param->num_elements)
      continue;
    Operand* n = value_operand(plan.operands, trimmed(o.param->num_elements->text));
    if (n == nullptr) continue;
    n->block_value = BlockValue::BlockSize;
    n->of_buffer = o.buffer;
  }
  // A raw pointer split in row blocks: numElements="rows*width" with descRowWidth="width",
  // so the row count parameter receives the block's rows.
  for (const Operand& o : plan.operands) {
    if (o.kind != OperandKind::RawMatrix || o.split == SplitKind::None ||
        o.split == SplitKind::Blocks2D || !o.param->num_elements || !o.param->desc_row_width) {
      continue;
    }
    Operand* rows = row_count_operand(plan.operands, *o.param);
    if (rows == nullptr) {
      diags.error(o.param->partition.loc,
                  "partition of '" + o.param->name + "' in interface '" + iface.name + "': its "
                  "row blocks need a row-count parameter, so write numElements as "
                  "\"rows*" + trimmed(o.param->desc_row_width->text) + "\" (a by-value parameter "
                  "times descRowWidth); it is \"" + o.param->num_elements->text + "\"");
      continue;
    }
    rows->block_value = BlockValue::BlockSize;
    rows->of_buffer = o.buffer;
  }
  // CSR operands: csr_first gets the block's first row, csr_nrows the block's row count.
  for (const Operand& o : plan.operands) {
    const ir::Csr& csr = o.param->csr;
    if (!csr.present() || leader->split == SplitKind::Blocks2D) continue;
    if (Operand* first = value_operand(plan.operands, csr.first)) {
      first->block_value = BlockValue::BlockOffset;
      first->of_buffer = leader->buffer;
    } else if (o.split == SplitKind::None) {
      diags.error(o.param->loc,
                  "CSR operand '" + o.param->name + "' of interface '" + iface.name +
                  "' is shared whole by a partitioned call but names no csr_first parameter, so "
                  "every block's task would compute the first rows; add a by-value parameter for "
                  "the first row and name it in csr_first");
    }
    Operand* rows = value_operand(plan.operands, csr.nrows);
    if (rows != nullptr && rows->block_value == BlockValue::Same) {
      rows->block_value = BlockValue::BlockSize;
      rows->of_buffer = leader->buffer;
    }
  }
  // A parameter that becomes a block's length cannot also size an operand shared whole.
  for (const Operand& o : plan.operands) {
    if (o.split != SplitKind::None || !o.param->num_elements || !plan.is_buffer(o)) continue;
    const Operand* n = value_operand(plan.operands, trimmed(o.param->num_elements->text));
    if (n != nullptr && n->block_value == BlockValue::BlockSize) {
      diags.error(o.param->loc,
                  "parameter '" + n->param->name + "' of interface '" + iface.name +
                  "' is both the length of a partitioned operand (each block's task receives "
                  "its block's length in it) and the numElements of '" + o.param->name +
                  "', which is shared whole; give '" + o.param->name + "' its own length "
                  "parameter");
    }
  }
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

std::string tunable_defines(const ir::Variant& v) {
  std::string out;
  for (const ir::Tunable& t : v.tunables) {
    if (t.values.size() == 1) out += (out.empty() ? "-D" : " -D") + t.name + "=" + t.values.front();
  }
  return out;
}

std::string opencl_build_options(const ir::Interface& iface, const ir::Variant& v) {
  std::string out = tunable_defines(v);
  for (size_t k = 0; k < iface.template_args.size() && k < iface.template_types.size(); ++k) {
    out += (out.empty() ? "-D" : " -D") + iface.template_types[k] + "=" + iface.template_args[k];
  }
  return out;
}

// A generic variant must be a C++ (or CUDA) function template; an OpenCL kernel gets the
// type as a macro, so it must be one word (`uint`, not `unsigned int`).
void check_generic_variants(const WrapperPlan& plan, diag::Diagnostics& diags) {
  const ir::Interface& iface = *plan.iface;
  if (iface.template_args.empty()) return;
  for (const auto* group : {&plan.cpu_like, &plan.cuda}) {
    for (const VariantSlot& s : *group) {
      if (!s.c_linkage) continue;
      diags.error(s.variant->loc, "implementation '" + s.variant->name + "' of generic interface '" +
                                      iface.name + "' is compiled by a C compiler; a generic "
                                      "variant is a C++ function template (use g++ or nvcc)");
    }
  }
  if (plan.opencl.empty()) return;
  for (const std::string& type : iface.template_args) {
    if (type.find(' ') == std::string::npos) continue;
    diags.error(plan.opencl.front().variant->loc,
                "OpenCL variant '" + plan.opencl.front().variant->name + "' gets the type '" + type +
                    "' as a macro (-D" + iface.template_types.front() +
                    "=...), which must be one word: instantiate with the OpenCL spelling "
                    "(uint, ulong, ...)");
  }
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
  plan_partition(iface, plan, diags);
  plan.cpu_like = assign_slots(iface, cpu_like, "CPU/OPENMP", diags);
  plan.cuda = assign_slots(iface, cuda, "CUDA", diags);
  plan.opencl = assign_slots(iface, opencl, "OPENCL", diags);
  check_generic_variants(plan, diags);
  plan_predicates(app, plan);
  plan_selection(app, plan, diags);
  return plan;
}

}  // namespace peppher::emit
