// Turns a WrapperPlan into the data of templates/wrapper.{h,cpp}.mustache and renders it.
// Every flag a template tests is set here, true or false (rendering is strict).
#include "compose/emit/wrapper_emitter.h"

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "compose/emit/cpp_expr.h"
#include "compose/emit/render.h"
#include "compose/emit/selection_emitter.h"
#include "compose/ir/backends.h"
#include "compose/names/names.h"

namespace peppher::emit {
namespace {

using Data = TemplateData;
using plan::BlockValue;
using plan::Operand;
using plan::OperandKind;
using plan::RuntimePredicate;
using plan::SplitKind;
using plan::VariantSlot;
using plan::WrapperPlan;

// The element type as the variant sees it through a raw pointer (keeps const).
std::string elem_decl(const ir::Parameter& p) {
  return p.is_const ? "const " + p.elem_type : p.elem_type;
}

// Goes into every backend wrapper: the operand's local (value, pointer or view).
Data operand_data(const WrapperPlan& plan, const Operand& o) {
  Data d;
  d.set("name", o.param->name);
  d.set("index", std::to_string(o.buffer));
  d.set("elem", o.param->elem_type);
  d.set("elem_decl", elem_decl(*o.param));
  d.set("is_value", flag(o.kind == OperandKind::Value));
  d.set("is_raw_vector", flag(o.kind == OperandKind::RawVector));
  d.set("is_raw_matrix", flag(o.kind == OperandKind::RawMatrix));
  d.set("is_vector", flag(o.kind == OperandKind::Vector));
  d.set("is_matrix", flag(o.kind == OperandKind::Matrix));
  d.set("is_scalar_container", flag(o.kind == OperandKind::ScalarContainer));
  d.set("is_reference", flag(o.kind == OperandKind::Reference));
  d.set("written", o.param->access_mode == ir::AccessMode::Read ? "false" : "true");
  const std::string& n = o.param->name;
  d.set("count_name", names::element_count(n));
  d.set("size_name", names::vector_size(n));
  d.set("rows_name", names::matrix_rows(n));
  d.set("cols_name", names::matrix_cols(n));
  d.set("ld_name", names::matrix_ld(n));
  // halo="N": the neighbours' boundaries arrive in two more buffers.
  d.set("has_halo", flag(o.halo != nullptr));
  d.set("halo", o.halo != nullptr ? cpp::as_block(plan, o, "halo", *o.halo) : "");
  d.set("halo_before", std::to_string(o.halo_buffer));
  d.set("halo_after", std::to_string(o.halo_buffer + 1));
  // An OpenCL kernel's halo arguments (plan/kernel_args.h): the buffers and their sizes.
  const bool matrix = o.kind == OperandKind::Matrix;
  d.set("halo_before_buffer", names::halo_buffer(n, matrix, 0));
  d.set("halo_after_buffer", names::halo_buffer(n, matrix, 1));
  d.set("halo_before_size", names::halo_size(n, matrix, 0));
  d.set("halo_after_size", names::halo_size(n, matrix, 1));
  return d;
}

// Goes into the entry wrapper and the codelet: one StarPU buffer, and how a partitioned
// call splits it.
Data buffer_data(const WrapperPlan& plan, const Operand& o) {
  Data d = operand_data(plan, o);
  d.set("builder", plan.partitioned ? names::local_call() : names::local_task());
  d.set("split_none", flag(o.split == SplitKind::None));
  d.set("split_blocks", flag(o.split == SplitKind::Blocks));
  d.set("split_2d", flag(o.split == SplitKind::Blocks2D));
  d.set("split_rows", flag(o.split == SplitKind::GridRows));
  d.set("split_cols", flag(o.split == SplitKind::GridCols));
  d.set("split_auto", flag(o.split == SplitKind::Auto));
  d.set("split_reduce", flag(o.split == SplitKind::Reduce));
  d.set("reduction", cpp::reduction(o.param->reduction));
  d.set("block", o.block ? cpp::as_block(plan, o, "partition", *o.block) : "");
  d.set("block_cols", o.block_cols ? cpp::as_block(plan, o, "partition", *o.block_cols) : "");
  d.set("mode", plan.is_buffer(o) ? cpp::starpu_mode(o.mode) : "");
  // A vector's one extent is its length; a raw matrix's are its rows and row width.
  d.set("count", o.count ? cpp::checked_length(plan, o, "numElements", *o.count,
                                               o.kind == OperandKind::RawVector, true)
                         : "");
  d.set("row_width",
        o.row_width ? cpp::checked_length(plan, o, "descRowWidth", *o.row_width, true, false) : "");
  d.set("is_container", flag(o.kind == OperandKind::Vector || o.kind == OperandKind::Matrix ||
                             o.kind == OperandKind::ScalarContainer));
  return d;
}

// The default global size: the element count of the first written operand (else of the
// first operand; a kernel with no operand runs once).
std::string default_global_size(const WrapperPlan& plan) {
  const Operand* first = nullptr;
  for (const Operand& o : plan.operands) {
    if (!plan.is_buffer(o)) continue;
    if (first == nullptr) first = &o;
    if (o.param->access_mode != ir::AccessMode::Read) return names::element_count(o.param->name);
  }
  return first != nullptr ? names::element_count(first->param->name) : "1";
}

// A launch's sizes as OpenClLaunch::run takes them: one value for a 1-D range ("n", or
// `fallback` when the descriptor gives none), else a list, dimension 0 first ("{nj, ni}").
std::string launch_sizes(const WrapperPlan& plan, const char* attr,
                         const std::vector<ir::Expression>& sizes, const ir::Variant& v,
                         const std::string& fallback, bool list) {
  if (!list) return sizes.empty() ? fallback : cpp::launch_expr(plan, attr, sizes.front(), v);
  std::vector<std::string> items;
  for (const ir::Expression& e : sizes) items.push_back(cpp::launch_expr(plan, attr, e, v));
  return "{" + comma_list(items) + "}";
}

// "typename T, typename U": a generic interface's template parameter list.
std::string template_params(const ir::Interface& iface) {
  std::vector<std::string> params;
  for (const std::string& t : iface.template_types) params.push_back("typename " + t);
  return comma_list(params);
}

// The parameter list as written in the descriptor: with the template parameters of a
// generic interface ("T * data, int n"), else the plain one.
std::string generic_params(const ir::Interface& iface) {
  std::vector<std::string> params;
  for (const ir::Parameter& p : iface.parameters) {
    params.push_back((p.generic_type.empty() ? p.type : p.generic_type) + " " + p.name);
  }
  return comma_list(params);
}

Data variant_common(const WrapperPlan& plan, const VariantSlot& s) {
  const ir::Variant& v = *s.variant;
  const ir::Interface& iface = *plan.iface;
  const bool generic = !iface.template_args.empty();
  Data d;
  // A generic variant is a function template defined in its own sources (instantiated by
  // the generated <variant>_instances file): declared as one, called with the arguments.
  d.set("decl_template", generic ? "template <" + template_params(iface) + "> " : "");
  d.set("decl_params", generic_params(iface));
  d.set("callee", (s.scope.empty() ? "" : s.scope + "::") + names::instantiated(v.name, iface));
  d.set("c_linkage", flag(s.c_linkage));
  d.set("in_scope", flag(!s.scope.empty()));
  d.set("scope", s.scope);
  d.set("variant", v.name);
  d.set("wrapper", names::backend_wrapper(v));
  d.set("counter", names::counter(v));
  d.set("backend", ir::to_string(v.backend));
  d.set("slot", std::to_string(s.slot));
  d.set("in_codelet", flag(s.slot >= 0));
  d.set("workers", cpp::worker_count(v.backend));
  d.set("predicates", make_list(s.predicates, [&](const RuntimePredicate& p) {
          Data pd;
          pd.set("label", p.label);
          pd.set("c_label", cpp::c_string(p.label));
          pd.set("in_task", cpp::in_task(plan, p));
          pd.set("in_call", cpp::in_call(plan, p));
          pd.set("in_can_execute", flag(p.in_can_execute));
          return pd;
        }));
  return d;
}

// Goes into can_execute: the slots of one worker kind.
Data can_execute_kind(const WrapperPlan& plan, const char* archtype,
                      const std::vector<VariantSlot>& slots) {
  Data d;
  d.set("archtype", archtype);
  std::vector<VariantSlot> in_codelet;
  for (const VariantSlot& s : slots) {
    if (s.slot >= 0) in_codelet.push_back(s);
  }
  // Whether a sequential CPU variant accepts the task: an OPENMP variant of an unpartitioned
  // interface runs on the largest combined worker, or on one CPU worker only when none does.
  std::vector<std::string> sequential;
  for (const VariantSlot& s : in_codelet) {
    if (!ir::sequential_host(s.variant->backend)) continue;
    std::vector<std::string> terms;
    for (const RuntimePredicate& p : s.predicates)
      if (p.in_can_execute) terms.push_back(cpp::in_task(plan, p));
    std::string all;
    for (const std::string& t : terms) all += (all.empty() ? "" : " && ") + t;
    sequential.push_back(terms.empty() ? "true" : terms.size() == 1 ? all : "(" + all + ")");
  }
  std::string sequential_accepts;
  for (const std::string& t : sequential)
    sequential_accepts += (sequential_accepts.empty() ? "" : " || ") + t;
  d.set("slots", make_list(in_codelet, [&](const VariantSlot& s) {
          Data sd = variant_common(plan, s);
          sd.set("single_only", flag(plan.forkjoin && ir::sequential_host(s.variant->backend)));
          sd.set("all_cores", flag(!plan.partitioned && ir::info(s.variant->backend).parallel));
          sd.set("sequential_accepts", sequential_accepts.empty() ? "false" : sequential_accepts);
          return sd;
        }));
  return d;
}

// A host-side OpenCL variant (the original tool's): the function's parameter list and
// arguments, and the variables its host file names (defined by the wrapper, set for each
// call under a lock: they are the process's, shared by every OpenCL worker).
void host_side_data(const VariantSlot& s, Data& d) {
  const ir::SourceFile* host = ir::host_side_source(*s.variant);
  const ir::SourceFile* kernel = ir::kernel_source(*s.variant);
  d.set("host_side", flag(s.host_side && host != nullptr));
  std::vector<std::string> params, args;
  for (const plan::KernelArg& a : s.kernel_args) {
    params.push_back(a.host_type + " " + a.local);
    args.push_back(a.local);
  }
  d.set("host_params", comma_list(params));
  d.set("host_args", comma_list(args));
  d.set("kernel_or_null", kernel != nullptr ? "\"" + kernel->kernel + "\"" : "nullptr");
  d.set("host_lock", "peppher_host_lock_" + s.variant->name);
  const std::string none;
  const std::string& program = host != nullptr ? host->opencl_program : none;
  const std::string& cl_kernel = host != nullptr ? host->cl_kernel : none;
  const std::string& queue = host != nullptr ? host->cl_command_queue : none;
  d.set("has_globals", flag(!program.empty() || !cl_kernel.empty() || !queue.empty()));
  d.set("has_program_global", flag(!program.empty()));
  d.set("program_global", program);
  d.set("has_kernel_global", flag(!cl_kernel.empty()));
  d.set("kernel_global", cl_kernel);
  d.set("has_queue_global", flag(!queue.empty()));
  d.set("queue_global", queue);
}

Data opencl_variant_data(const WrapperPlan& plan, const VariantSlot& s) {
  const ir::Variant& v = *s.variant;
  Data d = variant_common(plan, s);
  const ir::SourceFile* src = ir::program_source(v);
  // The reader/checker guarantees an OpenCL variant names its kernel; stay total anyway.
  d.set("program", names::opencl_program(v));
  d.set("kernel_name", names::kernel_file(v));
  // Searched at run time by kernel_name (next to the program, where the Makefile and
  // peppher.cmake copy it); this path relative to the output folder is the last resort.
  d.set("kernel_file", s.kernel_path);
  d.set("kernel", src && !src->kernel.empty() ? src->kernel : v.name);
  host_side_data(s, d);
  d.set("has_build_options", flag(!s.build_options.empty()));
  d.set("build_options", cpp::build_options_expr(s.build_options));
  d.set("kernel_args", make_list(s.kernel_args, [&](const plan::KernelArg& a) {
          Data arg;
          arg.set("value", a.local);
          const bool local = a.role == plan::KernelArgRole::Local && a.local_arg != nullptr;
          arg.set("is_local", flag(local));
          arg.set("bytes", local ? cpp::launch_expr(plan, "localArg " + a.local_arg->name + " size",
                                                    a.local_arg->size, v) +
                                       " * " + std::to_string(a.elem_bytes)
                                 : "");
          return arg;
        }));
  // Several dimensions: lists, dimension 0 first; one: the values (a 1-D range).
  static const std::vector<ir::Expression> kNone;
  const std::vector<ir::Expression>& global = src ? src->global_size : kNone;
  const std::vector<ir::Expression>& local = src ? src->local_size : kNone;
  const bool nd = global.size() > 1;
  d.set("global_size", launch_sizes(plan, "globalSize", global, v, default_global_size(plan), nd));
  d.set("local_size", launch_sizes(plan, "localSize", local, v, "0", nd));
  d.set("launch_separator", nd ? ",\n                     " : ", ");  // lists: a line each
  return d;
}

const char* perf_model_type(ir::PerfModel m) {
  switch (m) {
    case ir::PerfModel::History:
      return "STARPU_HISTORY_BASED";
    case ir::PerfModel::Regression:
      return "STARPU_REGRESSION_BASED";
    case ir::PerfModel::NLRegression:
      return "STARPU_NL_REGRESSION_BASED";
    case ir::PerfModel::None:
      break;
  }
  return "STARPU_PERFMODEL_INVALID";
}

// A parameter list: a long one goes one parameter a line, so a declaration stays readable
// (~100 columns).
std::string wrapped_list(const std::vector<std::string>& params) {
  constexpr std::size_t kOneLine = 72;
  const std::string line = comma_list(params);
  if (line.size() <= kOneLine) return line;
  std::string wrapped;
  for (const std::string& p : params) wrapped += (wrapped.empty() ? "\n    " : ",\n    ") + p;
  return wrapped;
}

// Whether C code passes `p` as one of the runtime's C handles (peppher/c_api.h), and which.
const char* c_handle(const ir::Parameter& p) {
  if (p.kind == ir::ParamKind::Vector) return "vector";
  if (p.kind == ir::ParamKind::Matrix) return "matrix";
  return nullptr;
}

// The C entry wrapper's parameters (plan.c_containers): a container as its C handle.
std::string c_parameter_list(const ir::Interface& iface) {
  std::vector<std::string> params;
  for (const ir::Parameter& p : iface.parameters) {
    const char* handle = c_handle(p);
    params.push_back(handle ? std::string("peppher_") + handle + "* " + p.name
                            : p.type + " " + p.name);
  }
  return wrapped_list(params);
}

// What the C entry wrapper passes to the C++ one: the container behind each handle, its
// element size checked (peppher/detail/c_containers.h), the other parameters as given.
std::string c_call_arguments(const ir::Interface& iface) {
  std::vector<std::string> args;
  for (const ir::Parameter& p : iface.parameters) {
    const char* handle = c_handle(p);
    if (handle == nullptr) {
      args.push_back(p.name);
      continue;
    }
    args.push_back(std::string("peppher::detail::c_") + handle + "<" + p.elem_type + ">(" + p.name +
                   ", \"" + p.elem_type + "\", \"" + p.name + "\")");
  }
  std::string out;
  for (const std::string& a : args) out += (out.empty() ? "\n      " : ",\n      ") + a;
  return out;
}

}  // namespace

std::string parameter_list(const ir::Interface& iface) {
  std::vector<std::string> params;
  for (const ir::Parameter& p : iface.parameters) params.push_back(p.type + " " + p.name);
  return wrapped_list(params);
}

void emit_wrapper(const WrapperPlan& plan, const std::string& header, const std::string& source,
                  const TemplateData& composition, output::OutputContext& out) {
  const ir::Interface& iface = *plan.iface;
  Data d;
  d.set("composition", composition);
  d.set("header", header);
  d.set("source", source);
  d.set("descriptor", std::filesystem::path(iface.descriptor_file).filename().string());
  d.set("iface", iface.name);
  d.set("iface_label", ir::display_name(iface));
  d.set("entry_template", iface.template_args.empty() ? "" : "template <>\n");
  d.set("entry_name", names::instantiated(iface.name, iface));

  std::vector<std::string> call_args;
  for (const ir::Parameter& p : iface.parameters) call_args.push_back(p.name);
  d.set("params", parameter_list(iface));
  d.set("call_args", comma_list(call_args));

  Data operands{Data::type::list}, buffers{Data::type::list}, values{Data::type::list};
  for (const Operand& o : plan.operands) {
    operands.push_back(operand_data(plan, o));
    if (plan.is_buffer(o)) {
      buffers.push_back(buffer_data(plan, o));
    } else {
      Data v;
      v.set("type", o.param->elem_type);
      v.set("name", o.param->name);
      v.set("block_same", flag(o.block_value == BlockValue::Same));
      v.set("block_size", flag(o.block_value == BlockValue::BlockSize));
      v.set("block_offset", flag(o.block_value == BlockValue::BlockOffset));
      v.set("of_buffer", std::to_string(o.of_buffer));
      values.push_back(v);
    }
  }
  d.set("operands", operands);
  d.set("buffers", buffers);
  d.set("value_params", values);
  // The paper's context parameters (`range` scalars) key a history model with the data sizes.
  Data context{Data::type::list};
  bool has_context = false;
  for (const Operand& o : plan.operands) {
    if (plan.is_buffer(o) || !o.param->range) continue;
    Data c;
    c.set("name", o.param->name);
    context.push_back(c);
    has_context = true;
  }
  d.set("context_params", context);
  d.set("context_footprint", flag(plan.history_model && has_context));
  d.set("nbuffers", std::to_string(plan.nbuffers()));
  // Goes into the codelet: each buffer's access mode, at its index.
  d.set("buffer_modes", make_list(plan.buffers_in_order(), [](const plan::BufferUse& u) {
          Data m;
          const std::string& name = u.operand->param->name;
          if (u.role == plan::BufferRole::Parameter) {
            m.set("mode", cpp::starpu_mode(u.operand->mode));
            m.set("what", "'" + name + "'");
          } else {
            m.set("mode", "STARPU_R");
            m.set("what", "the rows of '" + name + "' " +
                              (u.role == plan::BufferRole::HaloBefore ? "before" : "after") +
                              " a block (its halo)");
          }
          return m;
        }));

  Data all{Data::type::list};
  for (ir::Backend b : ir::codelet_groups()) {  // cpu_like_variants, cuda_variants, ...
    const bool kernels = ir::info(b).code == ir::VariantCode::Kernel;
    d.set(std::string(ir::info(b).template_key) + "_variants",
          make_list(plan.slots_of(b), [&](const VariantSlot& s) {
            Data v = kernels ? opencl_variant_data(plan, s) : variant_common(plan, s);
            v.set("openmp", flag(ir::info(s.variant->backend).parallel));
            all.push_back(v);
            return v;
          }));
  }
  d.set("variants", all);
  const std::vector<VariantSlot>& opencl = plan.slots_of(ir::Backend::OpenCl);
  d.set("has_opencl", flag(!opencl.empty()));
  d.set("has_host_side_opencl",
        flag(std::any_of(opencl.begin(), opencl.end(),
                         [](const VariantSlot& s) { return s.host_side; })));
  d.set("forkjoin", flag(plan.forkjoin));
  d.set("can_execute", flag(plan.can_execute));
  d.set("has_predicate_helpers", flag(!plan.predicate_helpers.empty()));
  int helper = 0;
  d.set("predicate_helpers", make_list(plan.predicate_helpers, [&](const RuntimePredicate& h) {
          Data hd;
          hd.set("label", h.label);
          hd.set("name", names::predicate_helper(helper++));
          hd.set("params", cpp::helper_parameters(plan, h));
          hd.set("condition", cpp::helper_condition(h));
          return hd;
        }));
  d.set("has_constraints", flag(plan.constraints_in_can_execute));
  Data kinds{Data::type::list};
  for (ir::Backend b : ir::codelet_groups()) {
    if (!plan.slots_of(b).empty())
      kinds.push_back(can_execute_kind(plan, ir::info(b).worker_kind, plan.slots_of(b)));
  }
  d.set("can_execute_kinds", kinds);
  d.set("check_call", flag(plan.check_call));
  d.set("checked_values", make_list(plan.checked_values, [&](const plan::CheckedValue& c) {
          Data cd;
          cd.set("label", c.label);
          cd.set("in_call", cpp::in_call(plan, c.term));
          return cd;
        }));

  add_selection_data(plan, d);
  d.set("has_perf_model", flag(plan.history_model));
  d.set("calibrates", flag(plan.calibrates));
  d.set("regresses", flag(plan.regresses));
  d.set("model_codelets", flag(plan.calibrates || plan.regresses));
  // The entry wrapper's choice while the model learns (peppher/placement.h).
  d.set("model_choice", plan.regresses ? "RegressionChoice" : "CalibratingChoice");
  d.set("model_choice_var", plan.regresses ? "peppher_regression" : "peppher_calibrating");
  d.set("needs_placement", flag(plan.needs_placement));
  d.set("uses_model", flag(plan.uses_model));
  d.set("perf_model_type", perf_model_type(plan.perf_model));
  d.set("perf_model_symbol", names::perf_model_symbol(iface));

  d.set("partitioned", flag(plan.partitioned));
  d.set("auto_split", flag(plan.auto_split));
  // A partitioned call whose variants have run-time constraints chooses its codelet (forced
  // or static dispatch) once the blocks are known: each block must meet the constraints.
  bool constrained = false;
  for (const std::vector<VariantSlot>& group : plan.slots)
    for (const plan::VariantSlot& slot : group) constrained |= !slot.predicates.empty();
  d.set("block_constraints", flag(plan.partitioned && constrained));
  d.set("has_values",
        flag(std::any_of(plan.operands.begin(), plan.operands.end(),
                         [](const Operand& o) { return o.kind == OperandKind::Value; })));
  d.set("synchronous", flag(plan.synchronous));
  d.set("synchronous_flag", plan.synchronous ? "true" : "false");
  d.set("header_c", flag(plan.header_language == plan::HeaderLanguage::C));
  d.set("user_header", plan.user_header);
  d.set("has_user_header", flag(!plan.user_header.empty()));
  d.set("header_cxx11", flag(plan.header_language == plan::HeaderLanguage::Cxx11));
  d.set("header_cxx17", flag(plan.header_language == plan::HeaderLanguage::Cxx17));
  d.set("c_entry", flag(plan.c_entry));
  d.set("c_containers", flag(plan.c_containers));
  d.set("c_block", flag(plan.c_entry || plan.c_containers));  // declarations with C linkage
  if (plan.c_containers) {
    d.set("c_params", c_parameter_list(iface));
    d.set("c_call_args", c_call_arguments(iface));
  }
  d.set("inline_calls", flag(plan.inline_calls));
  d.set("inline_costs", flag(plan.inline_costs));
  d.set("inline_model_decides", plan.model_decides_inline ? "true" : "false");
  Data inline_operands{Data::type::list};
  for (const Operand& o : plan.operands) {
    if (!plan.is_buffer(o)) continue;
    Data od;
    od.set("name", (o.kind == OperandKind::Reference ? "&" : "") + o.param->name);
    // Lengths are checked (peppher::checked_length) before a variant runs inline, as the
    // task path checks them before registering.
    std::string count = o.count ? cpp::checked_length(plan, o, "numElements", *o.count,
                                                      o.kind == OperandKind::RawVector, true)
                                : std::string("0");
    if (o.row_width) {
      count = "(static_cast<void>(" +
              cpp::checked_length(plan, o, "descRowWidth", *o.row_width, true, false) + "), " +
              count + ")";
    }
    od.set("bytes", o.kind == OperandKind::Reference
                        ? "sizeof(" + o.param->elem_type + ")"
                        : count + " * sizeof(" + o.param->elem_type + ")");
    od.set("write", o.param->access_mode == ir::AccessMode::Read ? "false" : "true");
    inline_operands.push_back(od);
  }
  d.set("inline_operands", inline_operands);
  Data inline_variants{Data::type::list};
  size_t index = 0;  // in selector order
  for (const std::vector<VariantSlot>& group : plan.slots) {
    for (const VariantSlot& s : group) {
      const size_t k = index++;
      if (!ir::sequential_host(s.variant->backend) || s.slot < 0) continue;
      Data vd = variant_common(plan, s);
      vd.set("index", std::to_string(k));
      vd.set("call_args", comma_list(call_args));
      inline_variants.push_back(vd);
    }
  }
  d.set("inline_variants", inline_variants);
  d.set("host_calls", flag(plan.host_calls));
  d.set("chosen_on_host", flag(plan.chosen_on_host));
  d.set("host_raw_operands", plan.host_calls_raw ? inline_operands : Data{Data::type::list});
  Data host_variants{Data::type::list};
  index = 0;
  for (const std::vector<VariantSlot>& group : plan.slots) {
    for (const VariantSlot& s : group) {
      const size_t k = index++;
      const bool team = ir::info(s.variant->backend).parallel;
      if (s.slot < 0 || !(team || ir::sequential_host(s.variant->backend))) continue;
      Data vd = variant_common(plan, s);
      vd.set("index", std::to_string(k));
      vd.set("call_args", comma_list(call_args));
      vd.set("team", flag(team));
      host_variants.push_back(vd);
    }
  }
  d.set("host_variants", host_variants);
  // A generic interface's instantiations share one header (emit_generic_header).
  if (iface.template_args.empty()) out.write(header, render_template("wrapper.h", d));
  out.write(source, render_template("wrapper.cpp", d));
}

void emit_generic_header(const std::vector<const WrapperPlan*>& instances,
                         const std::string& header, const TemplateData& composition,
                         output::OutputContext& out) {
  const ir::Interface& first = *instances.front()->iface;
  Data d;
  d.set("composition", composition);
  d.set("descriptor", std::filesystem::path(first.descriptor_file).filename().string());
  d.set("iface", first.name);
  d.set("template_params", template_params(first));
  d.set("first_type", first.template_types.front());
  d.set("needs_runtime", flag(instances.front()->header_language == plan::HeaderLanguage::Cxx17));
  const std::string& user_header = instances.front()->user_header;
  d.set("user_header", user_header);
  d.set("has_user_header", flag(!user_header.empty()));
  std::vector<std::string> unnamed;
  for (const ir::Parameter& p : first.parameters) unnamed.push_back(p.generic_type);
  d.set("unnamed_params", comma_list(unnamed));
  d.set("instances", make_list(instances, [](const WrapperPlan* w) {
          const ir::Interface& i = *w->iface;
          Data inst;
          inst.set("entry_name", names::instantiated(i.name, i));
          inst.set("params", parameter_list(i));
          return inst;
        }));
  out.write(header, render_template("wrapper_generic.h", d));
}

}  // namespace peppher::emit
