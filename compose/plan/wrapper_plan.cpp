// Plans one interface's wrapper (see wrapper_plan.h): buffers, packing, codelet slots, and
// for partitioned interfaces the split of each operand and each by-value parameter's value
// per block, with the diagnostics that explain why a call cannot be split.
#include "compose/plan/wrapper_plan.h"

#include <starpu_config.h>  // STARPU_MAXIMPLEMENTATIONS of the StarPU we generate for

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "compose/ir/toolchain.h"
#include "compose/plan/partition_plan.h"
#include "compose/plan/predicate_plan.h"

namespace peppher::plan {
namespace {

OperandKind operand_kind(const ir::Parameter& p) {
  switch (p.kind) {
    case ir::ParamKind::ScalarValue:
    case ir::ParamKind::StructValue:
      return OperandKind::Value;
    case ir::ParamKind::RawPointer:
      return p.desc_row_width ? OperandKind::RawMatrix : OperandKind::RawVector;
    case ir::ParamKind::Vector:
      return OperandKind::Vector;
    case ir::ParamKind::Matrix:
      return OperandKind::Matrix;
    case ir::ParamKind::ScalarContainer:
      return OperandKind::ScalarContainer;
    case ir::ParamKind::Reference:
      return OperandKind::Reference;
  }
  return OperandKind::Value;
}

// Assigns codelet slots to `variants`, reporting when StarPU has too few.
std::vector<VariantSlot> assign_slots(const ir::Interface& iface,
                                      const std::vector<const ir::Variant*>& variants,
                                      const char* backend_label, diag::Diagnostics& diags) {
  std::vector<VariantSlot> slots;
  int in_codelet = 0;
  for (const ir::Variant* v : variants) {
    const bool c_linkage =
        !v->sources.empty() &&
        ir::compiles_as_c(ir::variant_compiler(*v, v->sources.front()), v->sources.front().path);
    VariantSlot s;
    s.variant = v;
    s.slot = v->training_only ? -1 : in_codelet++;
    s.c_linkage = c_linkage;
    slots.push_back(std::move(s));
  }
  if (in_codelet > STARPU_MAXIMPLEMENTATIONS) {
    std::string names;
    for (const VariantSlot& s : slots) {
      names += (names.empty() ? "'" : ", '") + s.variant->name + "'";
    }
    diags.error(iface.loc, "interface '" + iface.name + "' has " + std::to_string(in_codelet) +
                               " enabled " + backend_label + " variants (" + names +
                               "), but this StarPU allows at most " +
                               std::to_string(STARPU_MAXIMPLEMENTATIONS) +
                               " per backend; disable some with -disableImpls");
  }
  return slots;
}

// A generic variant must be a C++ (or CUDA) function template; an OpenCL kernel gets the
// type as a macro, so it must be one word (`uint`, not `unsigned int`).
void check_generic_variants(const WrapperPlan& plan, diag::Diagnostics& diags) {
  const ir::Interface& iface = *plan.iface;
  if (iface.template_args.empty()) return;
  for (ir::Backend b : ir::codelet_groups()) {
    if (ir::info(b).code == ir::VariantCode::Kernel) continue;  // gets the type as a macro
    for (const VariantSlot& s : plan.slots_of(b)) {
      if (!s.c_linkage) continue;
      diags.error(s.variant->loc, "implementation '" + s.variant->name +
                                      "' of generic interface '" + iface.name +
                                      "' is compiled by a C compiler; a generic "
                                      "variant is a C++ function template (use g++ or nvcc)");
    }
  }
  const std::vector<VariantSlot>& kernels = plan.slots_of(ir::Backend::OpenCl);
  if (kernels.empty()) return;
  for (const std::string& type : iface.template_args) {
    if (type.find(' ') == std::string::npos) continue;
    diags.error(kernels.front().variant->loc,
                "OpenCL variant '" + kernels.front().variant->name + "' gets the type '" + type +
                    "' as a macro (-D" + iface.template_types.front() +
                    "=...), which must be one word: instantiate with the OpenCL spelling "
                    "(uint, ulong, ...)");
  }
}

}  // namespace

namespace {

// A parameter C can declare: a by-value or pointer type spelled without references,
// namespaces or templates.
bool is_c_parameter(const ir::Parameter& p) {
  if (p.kind != ir::ParamKind::ScalarValue && p.kind != ir::ParamKind::StructValue &&
      p.kind != ir::ParamKind::RawPointer) {
    return false;
  }
  return p.type.find_first_of("&:<") == std::string::npos;
}

// A peppher::Vector or Matrix whose element type C can spell, or a parameter C can declare:
// C code can pass it, a container as the runtime's C handle (peppher/c_api.h).
bool is_c_or_c_container(const ir::Parameter& p) {
  if (p.kind != ir::ParamKind::Vector && p.kind != ir::ParamKind::Matrix) return is_c_parameter(p);
  return p.elem_type.find_first_of("&:<") == std::string::npos;
}

}  // namespace

HeaderLanguage header_language(const ir::Interface& iface) {
  HeaderLanguage lang = iface.template_args.empty() ? HeaderLanguage::C : HeaderLanguage::Cxx11;
  for (const ir::Parameter& p : iface.parameters) {
    if (p.kind == ir::ParamKind::Vector || p.kind == ir::ParamKind::Matrix ||
        p.kind == ir::ParamKind::ScalarContainer) {
      return HeaderLanguage::Cxx17;
    }
    if (!is_c_parameter(p)) lang = HeaderLanguage::Cxx11;
  }
  return lang;
}

namespace {

// Calls run on the calling thread: every buffer a raw pointer, a sequential CPU variant, and
// no --mpi (there StarPU-MPI decides which rank runs each task, and every rank gets the
// results).
void plan_inline(const ir::Application& app, const ir::Options& options, WrapperPlan& plan) {
  bool all_raw = plan.nbuffers() > 0 && !plan.partitioned && !ir::uses_mpi(app, options);
  for (const Operand& o : plan.operands) {
    if (o.kind == OperandKind::Vector || o.kind == OperandKind::Matrix ||
        o.kind == OperandKind::ScalarContainer) {
      all_raw = false;
    }
  }
  bool sequential_cpu = false;
  for (const std::vector<VariantSlot>& group : plan.slots) {
    for (const VariantSlot& s : group)
      sequential_cpu = sequential_cpu || ir::sequential_host(s.variant->backend);
  }
  plan.inline_calls = all_raw && sequential_cpu;
  bool predictions = false;
  for (const ir::Variant* v : plan.selection.variants) {
    predictions = predictions || !v->prediction_function.empty();
  }
  plan.inline_costs = plan.inline_calls && plan.selection.trained != nullptr && !predictions;
  bool all_containers = plan.nbuffers() > 0 && !plan.partitioned && !ir::uses_mpi(app, options);
  for (const Operand& o : plan.operands) {
    if (plan.is_buffer(o) && o.kind != OperandKind::Vector && o.kind != OperandKind::Matrix &&
        o.kind != OperandKind::ScalarContainer) {
      all_containers = false;
    }
  }
  bool host_variant = false, team_variant = false;
  for (const std::vector<VariantSlot>& group : plan.slots) {
    for (const VariantSlot& s : group) {
      host_variant = host_variant || ir::sequential_host(s.variant->backend) ||
                     ir::info(s.variant->backend).parallel;
      team_variant = team_variant || (s.slot >= 0 && ir::info(s.variant->backend).parallel);
    }
  }
  // Raw-pointer operands too: their data is home whenever nothing is in flight (each call
  // waits for its task and brings it back), so a host variant the model picks runs here.
  plan.host_calls = (all_containers || all_raw) && host_variant;
  plan.host_calls_raw = plan.host_calls && all_raw;
  // On raw pointers the inline path already runs a chosen sequential variant: only an OpenMP
  // one is left to run here.
  plan.chosen_on_host = plan.host_calls && (!plan.host_calls_raw || team_variant);
}

// How the entry wrapper uses the performance model (see WrapperPlan). While the history model
// has not measured every variant for a call's data size, the entry wrapper chooses
// (docs/SELECTION.md); partitioned calls are placed by their split.
void plan_model_use(WrapperPlan& plan) {
  plan.history_model = plan.perf_model != ir::PerfModel::None && !plan.selection.cost_model;
  plan.calibrates = plan.perf_model == ir::PerfModel::History && !plan.selection.cost_model &&
                    !plan.selection.static_dispatch && !plan.partitioned;
  // A regression model (a*n^b, a*n^b+c): where StarPU's regression cannot predict a call
  // yet, the entry wrapper chooses the variant to measure, or extrapolates the fitted law.
  plan.regresses = (plan.perf_model == ir::PerfModel::Regression ||
                    plan.perf_model == ir::PerfModel::NLRegression) &&
                   !plan.selection.cost_model && !plan.selection.static_dispatch &&
                   !plan.partitioned;
  plan.needs_placement = plan.selection.static_dispatch || plan.calibrates || plan.regresses ||
                         (plan.forkjoin && !plan.partitioned);
  plan.uses_model = plan.history_model || plan.selection.cost_model;
  // Merge's rule (peppher::Specificity): with no model the entry wrapper picks the most
  // specific variant itself.
  plan.needs_placement = plan.needs_placement || plan.selection.specific;
  plan.model_decides_inline =
      (plan.perf_model != ir::PerfModel::None || plan.selection.cost_model) && !plan.inline_costs;
}

// What the sources say (facts/): a function found extern "C" or in a namespace is declared
// and called so by its wrapper, a kernel's __local arguments are passed where it takes them.
void apply_source_facts(const facts::VariantFacts& found, WrapperPlan& w) {
  for (std::vector<VariantSlot>& slots : w.slots) {
    for (VariantSlot& s : slots) {
      const ir::Variant& v = *s.variant;
      // A function as found: a variant's, or a host-side OpenCL variant's (not a kernel).
      const bool function = ir::info(v.backend).code != ir::VariantCode::Kernel || s.host_side;
      auto f = found.functions.find(v.base_name.empty() ? v.name : v.base_name);
      if (function && f != found.functions.end()) {
        s.c_linkage = s.c_linkage || f->second.c_linkage;
        s.scope = f->second.scope;
      }
      auto it = found.local_args.find(s.variant);  // a kernel's __local arguments
      if (it == found.local_args.end()) continue;
      for (const facts::LocalPlacement& l : it->second) {  // in parameter order
        place_local_arg(s.kernel_args, *l.arg, l.index, l.elem_bytes);
      }
    }
  }
}

}  // namespace

namespace {

// The interface whose header needs C++17 (it takes PEPPHER containers), or null.
const ir::Interface* container_interface(const ir::Application& app) {
  const auto needs = std::find_if(
      app.interfaces.begin(), app.interfaces.end(),
      [](const ir::Interface& i) { return header_language(i) == HeaderLanguage::Cxx17; });
  return needs == app.interfaces.end() ? nullptr : &*needs;
}

// `flags` with an older -std=c++NN (gnu++NN) raised to 17: the flags, the word replaced
// ("" when none was) and the word that replaces it.
struct RaisedStandard {
  std::string flags, old, raised;
};
RaisedStandard raise_standard(const std::string& given) {
  std::istringstream in(given);
  std::string flags, old, raised;
  for (std::string w; in >> w;) {
    for (const char* prefix : {"-std=c++", "-std=gnu++", "--std=c++", "--std=gnu++"}) {
      const std::string p = prefix;
      const std::string version = w.compare(0, p.size(), p) == 0 ? w.substr(p.size()) : "";
      for (const char* older : {"98", "03", "0x", "11", "1y", "14"}) {
        if (version == older) {
          old = w;
          w = raised = p + "17";
        }
      }
    }
    flags += (flags.empty() ? "" : " ") + w;
  }
  return {old.empty() ? given : flags, old, raised};
}

}  // namespace

std::vector<std::string> main_source_flags(const ir::Application& app, diag::Diagnostics& diag) {
  std::vector<std::string> out;
  const ir::Interface* needs = container_interface(app);
  for (const ir::SourceFile& s : app.sources) {
    out.push_back(s.compiler.flags);
    if (needs == nullptr || ir::is_c_compiler(ir::main_source_compiler(app, s))) continue;
    const RaisedStandard r = raise_standard(s.compiler.flags);
    if (r.old.empty()) continue;
    out.back() = r.flags;
    diag.warning(s.loc, "'" + s.name + "' is compiled with " + r.raised + " instead of " + r.old +
                            ": interface '" + needs->name +
                            "' takes PEPPHER containers (peppher::Vector, Matrix, Scalar), "
                            "which need C++17");
  }
  return out;
}

std::string tunable_defines(const ir::Variant& v) {
  std::string out;
  for (const ir::Tunable& t : v.tunables) {
    if (t.values.size() == 1) out += (out.empty() ? "-D" : " -D") + t.name + "=" + t.values.front();
  }
  return out;
}

// A C++ type as OpenCL C spells it in one word: build options are split at blanks, so
// `-DT=unsigned int` would be two options. OpenCL's `long` is 64 bits like C++'s `long long`.
std::string opencl_type(const std::string& type) {
  static const std::pair<const char*, const char*> kOneWord[] = {
      {"unsigned char", "uchar"},
      {"signed char", "char"},
      {"unsigned short", "ushort"},
      {"unsigned short int", "ushort"},
      {"short int", "short"},
      {"unsigned int", "uint"},
      {"unsigned", "uint"},
      {"signed int", "int"},
      {"signed", "int"},
      {"long long", "long"},
      {"long long int", "long"},
      {"unsigned long long", "ulong"},
      {"unsigned long long int", "ulong"},
      {"long int", "long"},
      {"unsigned long", "ulong"},
      {"unsigned long int", "ulong"},
      {"std::int32_t", "int"},
      {"std::uint32_t", "uint"},
      {"std::int64_t", "long"},
      {"std::uint64_t", "ulong"},
      {"int32_t", "int"},
      {"uint32_t", "uint"},
      {"int64_t", "long"},
      {"uint64_t", "ulong"},
      {"std::size_t", "ulong"},
      {"size_t", "ulong"}};
  std::string words;  // blanks collapsed
  for (size_t i = 0; i < type.size(); ++i) {
    if (type[i] == ' ' || type[i] == '\t') {
      if (!words.empty() && words.back() != ' ') words += ' ';
    } else {
      words += type[i];
    }
  }
  while (!words.empty() && words.back() == ' ') words.pop_back();
  for (const auto& [cpp, cl] : kOneWord) {
    if (words == cpp) return cl;
  }
  for (char& c : words) c = c == ' ' ? '_' : c;  // no OpenCL type has a blank: fails to build
  return words;
}

std::string opencl_build_options(const ir::Interface& iface, const ir::Variant& v) {
  std::string out = tunable_defines(v);
  for (size_t k = 0; k < iface.template_args.size() && k < iface.template_types.size(); ++k) {
    out += (out.empty() ? "-D" : " -D") + iface.template_types[k] + "=" +
           opencl_type(iface.template_args[k]);
  }
  // The kernel file's <peppher:flags> (-cl-fast-relaxed-math, -DWIDTH=16) are OpenCL
  // compiler options: check/ keeps quotes, backslashes and `$` out of every flag word,
  // so the words pass as they are, one blank apart.
  if (const ir::SourceFile* src = ir::program_source(v)) {
    std::istringstream words(src->compiler.flags);
    for (std::string w; words >> w;) out += (out.empty() ? "" : " ") + w;
  }
  return out;
}

std::string include_spelling(const std::string& header, const std::string& from_dir) {
  namespace fs = std::filesystem;
  const fs::path abs = fs::absolute(header).lexically_normal();
  for (const std::string system : {"/usr/include/", "/usr/local/include/"}) {
    const std::string s = abs.generic_string();
    if (s.rfind(system, 0) == 0) return "<" + s.substr(system.size()) + ">";
  }
  const fs::path rel = abs.lexically_relative(fs::absolute(from_dir).lexically_normal());
  return "\"" + (rel.empty() ? abs : rel).generic_string() + "\"";
}

std::string user_header_include(const ir::Interface& iface, const std::string& output_dir) {
  return iface.header_file.empty() ? "" : include_spelling(iface.header_file, output_dir);
}

std::string relative_to(const std::string& path, const std::string& dir) {
  return std::filesystem::absolute(path).lexically_normal().lexically_relative(dir).string();
}

int WrapperPlan::nbuffers() const {
  int n = 0;
  for (const Operand& o : operands) n += (is_buffer(o) ? 1 : 0) + (o.halo != nullptr ? 2 : 0);
  return n;
}

std::vector<BufferUse> WrapperPlan::buffers_in_order() const {
  std::vector<BufferUse> uses(static_cast<std::size_t>(nbuffers()));
  for (const Operand& o : operands) {
    if (is_buffer(o)) uses.at(static_cast<std::size_t>(o.buffer)) = {&o, BufferRole::Parameter};
    if (o.halo == nullptr) continue;
    uses.at(static_cast<std::size_t>(o.halo_buffer)) = {&o, BufferRole::HaloBefore};
    uses.at(static_cast<std::size_t>(o.halo_buffer) + 1) = {&o, BufferRole::HaloAfter};
  }
  return uses;
}

WrapperPlan plan_wrapper(const ir::Application& app, const ir::Options& options,
                         const facts::SourceFacts& facts, const ir::Interface& iface,
                         diag::Diagnostics& diags) {
  WrapperPlan plan;
  plan.iface = &iface;
  plan.perf_model = ir::effective_perf_model(app, options, iface);
  plan.output_dir = ir::output_dir(app, options);
  plan.user_header = user_header_include(iface, plan.output_dir);

  int next_buffer = 0;
  bool has_raw = false;
  for (const ir::Parameter& p : iface.parameters) {
    Operand o;
    o.param = &p;
    o.kind = operand_kind(p);
    if (o.kind != OperandKind::Value) {
      o.buffer = next_buffer++;
      o.mode = p.access_mode;
    }
    if (o.kind == OperandKind::Reference) has_raw = true;
    if (o.kind == OperandKind::RawVector || o.kind == OperandKind::RawMatrix) {
      has_raw = true;
      if (p.num_elements) o.count = &*p.num_elements;
      if (p.desc_row_width) o.row_width = &*p.desc_row_width;
    }
    plan.operands.push_back(std::move(o));
  }
  plan.synchronous = has_raw || next_buffer == 0;
  // A halo operand's task also reads two small buffers: the neighbours' boundary rows
  // (after the parameters' buffers, so their indices do not move).
  for (Operand& o : plan.operands) {
    const ir::Parameter& p = *o.param;
    if (!p.halo || p.partition.kind == ir::PartitionKind::None || ir::is_grid(p.partition.kind) ||
        (o.kind != OperandKind::Vector && o.kind != OperandKind::Matrix))
      continue;  // check/ reported it
    o.halo = &*p.halo;
    o.halo_buffer = next_buffer;
    next_buffer += 2;
  }
  plan.header_language = header_language(iface);
  plan.c_entry = plan.header_language == HeaderLanguage::C &&
                 (ir::has_c_callers(app, options) || facts.c_declared.count(iface.name) != 0);
  plan.c_containers =
      plan.header_language == HeaderLanguage::Cxx17 && iface.template_args.empty() &&
      ir::has_c_callers(app, options) &&
      std::all_of(iface.parameters.begin(), iface.parameters.end(), is_c_or_c_container);

  std::array<std::vector<const ir::Variant*>, ir::kBackendCount> groups;
  for (const ir::Variant* v : ir::enabled_variants(options, iface)) {
    groups[ir::index(ir::info(v->backend).codelet_group)].push_back(v);
    if (ir::info(v->backend).parallel) plan.forkjoin = true;
  }
  plan_partition(iface, plan, diags);
  for (ir::Backend b : ir::codelet_groups()) {
    plan.slots_of(b) = assign_slots(iface, groups[ir::index(b)], ir::info(b).slots_label, diags);
  }
  for (VariantSlot& s : plan.slots_of(ir::Backend::OpenCl)) {
    if (const ir::SourceFile* program = ir::program_source(*s.variant)) {
      s.kernel_path = relative_to(program->path, plan.output_dir);
    }
    s.build_options = opencl_build_options(iface, *s.variant);
    if (const ir::SourceFile* host = ir::host_side_source(*s.variant)) {
      // The host function takes what a kernel would: buffers (cl_mem), extents, values.
      s.host_side = true;
      s.kernel_args = kernel_args(iface, *host);
      s.c_linkage = ir::compiles_as_c(ir::variant_compiler(*s.variant, *host), host->path);
    } else if (const ir::SourceFile* src = ir::kernel_source(*s.variant)) {
      s.kernel_args = kernel_args(iface, *src);
    }
  }
  check_launch_rows(iface, plan, diags);
  check_generic_variants(plan, diags);
  plan_predicates(app, options, plan);
  plan_selection(app, options, plan, diags);
  plan_inline(app, options, plan);
  plan_model_use(plan);
  apply_source_facts(facts.variants, plan);
  return plan;
}

}  // namespace peppher::plan
