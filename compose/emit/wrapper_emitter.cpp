// Turns a WrapperPlan into the data of templates/wrapper.{h,cpp}.mustache and renders it.
// Every flag a template tests is set here, true or false (rendering is strict).
#include "compose/emit/wrapper_emitter.h"

#include <cmath>
#include <cstdio>
#include <filesystem>

#include "compose/emit/names.h"
#include "compose/emit/render.h"

namespace peppher::emit {
namespace {

using Data = TemplateData;

Data flag(bool b) { return b ? Data{Data::type::bool_true} : Data{Data::type::bool_false}; }

std::string join(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : ", ") + p;
  return out;
}

// The element type as the variant sees it through a raw pointer (keeps const).
std::string elem_decl(const ir::Parameter& p) {
  return p.is_const ? "const " + p.elem_type : p.elem_type;
}

// Goes into every backend wrapper: the operand's local (value, pointer or view).
Data operand_data(const Operand& o) {
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
  return d;
}

// Goes into the entry wrapper and the codelet: one StarPU buffer, and how a partitioned
// call splits it.
Data buffer_data(const WrapperPlan& plan, const Operand& o) {
  Data d = operand_data(o);
  d.set("builder", plan.partitioned ? "peppher_call" : "peppher_task");
  d.set("split_none", flag(o.split == SplitKind::None));
  d.set("split_blocks", flag(o.split == SplitKind::Blocks));
  d.set("split_2d", flag(o.split == SplitKind::Blocks2D));
  d.set("split_auto", flag(o.split == SplitKind::Auto));
  d.set("block", o.block);
  d.set("block_cols", o.block_cols);
  d.set("mode", o.starpu_mode);
  d.set("count", o.count);
  d.set("row_width", o.row_width);
  d.set("is_container", flag(o.kind == OperandKind::Vector || o.kind == OperandKind::Matrix ||
                             o.kind == OperandKind::ScalarContainer));
  return d;
}

// The OpenCL kernel's arguments, in the order FORMAT.md gives: operands in parameter
// order, containers followed by their extents.
std::vector<std::string> kernel_args(const WrapperPlan& plan) {
  std::vector<std::string> args;
  for (const Operand& o : plan.operands) {
    const std::string& n = o.param->name;
    args.push_back(n);
    if (o.kind == OperandKind::Vector) args.push_back(n + "_size");
    if (o.kind == OperandKind::Matrix) {
      for (const char* extent : {"_rows", "_cols", "_ld"}) args.push_back(n + extent);
    }
  }
  return args;
}

// The default global size: the element count of the first written operand (else of the
// first operand; a kernel with no operand runs once).
std::string default_global_size(const WrapperPlan& plan) {
  const Operand* first = nullptr;
  for (const Operand& o : plan.operands) {
    if (!plan.is_buffer(o)) continue;
    if (first == nullptr) first = &o;
    if (o.param->access_mode != ir::AccessMode::Read) return o.param->name + "_count";
  }
  return first != nullptr ? first->param->name + "_count" : "1";
}

const ir::SourceFile* kernel_source(const ir::Variant& v) {
  for (const ir::SourceFile& s : v.sources) {
    if (!s.kernel.empty()) return &s;
  }
  return nullptr;
}

std::string size_expr(const std::optional<ir::Expression>& e, const std::string& fallback) {
  return e ? "static_cast<size_t>(" + e->text + ")" : fallback;
}

// C text inside a string literal.
std::string c_string(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

// "typename T, typename U": a generic interface's template parameter list.
std::string template_params(const ir::Interface& iface) {
  std::vector<std::string> params;
  for (const std::string& t : iface.template_types) params.push_back("typename " + t);
  return join(params);
}

// The parameter list as written in the descriptor: with the template parameters of a
// generic interface ("T * data, int n"), else the plain one.
std::string generic_params(const ir::Interface& iface) {
  std::vector<std::string> params;
  for (const ir::Parameter& p : iface.parameters) {
    params.push_back((p.generic_type.empty() ? p.type : p.generic_type) + " " + p.name);
  }
  return join(params);
}

// The template arguments of an instantiation: "<float>", or "" for a plain interface.
std::string template_args(const ir::Interface& iface) {
  if (iface.template_args.empty()) return "";
  return "<" + join(iface.template_args) + ">";
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
  d.set("callee", v.name + template_args(iface));
  d.set("c_linkage", flag(s.c_linkage));
  d.set("variant", v.name);
  d.set("wrapper", names::backend_wrapper(v));
  d.set("counter", names::counter(v));
  d.set("backend", ir::to_string(v.backend));
  d.set("slot", std::to_string(s.slot));
  d.set("in_codelet", flag(s.slot >= 0));
  d.set("workers", s.workers);
  d.set("predicates", make_list(s.predicates, [](const RuntimePredicate& p) {
          Data pd;
          pd.set("label", p.label);
          pd.set("c_label", c_string(p.label));
          pd.set("in_task", p.in_task);
          pd.set("in_call", p.in_call);
          return pd;
        }));
  return d;
}

bool has_predicates(const WrapperPlan& plan) {
  for (const auto* group : {&plan.cpu_like, &plan.cuda, &plan.opencl}) {
    for (const VariantSlot& s : *group) {
      if (!s.predicates.empty()) return true;
    }
  }
  return false;
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
  d.set("slots", make_list(in_codelet, [&](const VariantSlot& s) {
          Data sd = variant_common(plan, s);
          sd.set("single_only", flag(plan.forkjoin && s.variant->backend == ir::Backend::Cpu));
          return sd;
        }));
  return d;
}

Data opencl_variant_data(const WrapperPlan& plan, const VariantSlot& s) {
  const ir::Variant& v = *s.variant;
  Data d = variant_common(plan, s);
  const ir::SourceFile* src = kernel_source(v);
  // The reader/checker guarantees an OpenCL variant names its kernel; stay total anyway.
  d.set("program", names::opencl_program(v));
  // Relative to the output folder; the Makefile defines PEPPHER_OUTPUT_DIR, so the
  // program finds its kernels from any working directory.
  d.set("kernel_file", src ? std::filesystem::absolute(src->path)
                                 .lexically_normal()
                                 .lexically_relative(plan.output_dir)
                                 .string()
                           : "");
  d.set("kernel", src ? src->kernel : v.name);
  std::string options = opencl_build_options(*plan.iface, v);
  d.set("has_build_options", flag(!options.empty()));
  d.set("build_options", options);
  d.set("kernel_args", make_list(kernel_args(plan), [](const std::string& a) {
          Data arg;
          arg.set("value", a);
          return arg;
        }));
  d.set("global_size", size_expr(src ? src->global_size : std::nullopt, default_global_size(plan)));
  d.set("local_size", size_expr(src ? src->local_size : std::nullopt, "0"));
  return d;
}

const char* perf_model_type(ir::PerfModel m) {
  switch (m) {
    case ir::PerfModel::History: return "STARPU_HISTORY_BASED";
    case ir::PerfModel::Regression: return "STARPU_REGRESSION_BASED";
    case ir::PerfModel::NLRegression: return "STARPU_NL_REGRESSION_BASED";
    case ir::PerfModel::None: break;
  }
  return "STARPU_PERFMODEL_INVALID";
}

const char* starpu_where(ir::Backend b) {
  switch (b) {
    case ir::Backend::Cuda: return "STARPU_CUDA";
    case ir::Backend::OpenCl: return "STARPU_OPENCL";
    default: return "STARPU_CPU";
  }
}

std::string join_numbers(const std::vector<long long>& xs) {
  std::vector<std::string> parts;
  for (long long x : xs) parts.push_back(std::to_string(x));
  return join(parts);
}

std::string microseconds(double us) {
  if (std::isnan(us)) return "NAN";
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", us);
  return text;
}

// Goes into the wrapper source: the selector, the single-variant codelets, the entry
// wrapper's choice of codelet, the trained grid, static dispatch and the cost model.
void selection_data(const WrapperPlan& plan, Data& d) {
  const SelectionPlan& sel = plan.selection;
  Data list{Data::type::list};
  Data costs{Data::type::list};
  Data predictions{Data::type::list};
  int index = 0;
  for (const auto* group : {&plan.cpu_like, &plan.cuda, &plan.opencl}) {
    for (const VariantSlot& slot : *group) {
      const ir::Variant& v = *slot.variant;
      std::string accepts = slot.workers + " > 0";
      for (const RuntimePredicate& p : slot.predicates) accepts += " && (" + p.in_call + ")";
      Data item;
      item.set("index", std::to_string(index));
      item.set("variant", v.name);
      item.set("backend", ir::to_string(v.backend));
      item.set("where", starpu_where(v.backend));
      const std::string wrapper = names::backend_wrapper(v);
      item.set("func", v.backend == ir::Backend::Cuda ? "PEPPHER_CUDA_FUNC(" + wrapper + ")" : wrapper);
      item.set("func_name", wrapper);
      item.set("parallel", v.backend == ir::Backend::OpenMp ? "true" : "false");
      item.set("accepts", accepts);
      list.push_back(item);
      std::string expr = "NAN";
      if (!v.prediction_function.empty()) {
        expr = v.prediction_function + "(peppher_task, static_cast<unsigned>(peppher_kind), peppher_nimpl)";
        Data f;
        f.set("name", v.prediction_function);
        f.set("variant", v.name);
        predictions.push_back(f);
      } else if (sel.trained != nullptr) {
        expr = "peppher::trained_cost(peppher_grid, peppher_point, " + std::to_string(index) + ")";
      }
      Data cost;
      cost.set("index", std::to_string(index));
      cost.set("expr", expr);
      cost.set("variant", v.name);
      costs.push_back(cost);
      ++index;
    }
  }
  d.set("selection", list);
  d.set("prediction_functions", predictions);
  d.set("costs", costs);
  d.set("nvariants", std::to_string(index));
  d.set("cuda_base", std::to_string(plan.cpu_like.size()));
  d.set("opencl_base", std::to_string(plan.cpu_like.size() + plan.cuda.size()));

  d.set("has_trained_grid", flag(sel.trained != nullptr));
  d.set("static_dispatch", flag(sel.static_dispatch));
  d.set("cost_model", flag(sel.cost_model));
  d.set("cost_why", sel.trained != nullptr ? "interpolated from the training table"
                                           : "the variants' prediction functions");
  d.set("table_file", std::filesystem::path(sel.table_file).filename().string());
  std::vector<std::string> context_names, cell_params, cell_args;
  Data axes{Data::type::list};
  for (const SelectionAxis& a : sel.axes) {
    context_names.push_back(a.param);
    cell_params.push_back("long long " + a.param);
    cell_args.push_back("static_cast<long long>(" + a.param + ")");
    Data ad;
    ad.set("param", a.param);
    ad.set("in_task", a.in_task);
    ad.set("size", std::to_string(a.values.size()));
    ad.set("values", join_numbers(a.values));
    Data thresholds{Data::type::list};
    for (size_t i = 0; i < a.thresholds.size(); ++i) {
      Data t;
      t.set("value", std::to_string(a.thresholds[i]) + "LL");
      t.set("index", std::to_string(i + 1));
      thresholds.push_back(t);
    }
    ad.set("thresholds", thresholds);
    axes.push_back(ad);
  }
  d.set("axes", axes);
  d.set("dims", std::to_string(sel.axes.size()));
  d.set("context_names", join(context_names));
  d.set("cell_params", join(cell_params));
  d.set("cell_args", join(cell_args));
  Data cells{Data::type::list};
  std::vector<size_t> at(sel.axes.size(), 0);  // the cell's index along each axis
  for (size_t c = 0; c < sel.rankings.size(); ++c) {
    std::vector<std::string> point, us, ranking;
    for (size_t k = 0; k < sel.axes.size(); ++k) {
      point.push_back(sel.axes[k].param + "=" + std::to_string(sel.axes[k].values[at[k]]));
    }
    for (double t : sel.cell_us[c]) us.push_back(microseconds(t));
    for (int k : sel.rankings[c]) ranking.push_back(std::to_string(k));
    while (static_cast<int>(ranking.size()) < index) ranking.push_back("-1");
    Data cell;
    cell.set("point", join(point));
    cell.set("us", join(us));
    cell.set("ranking", join(ranking));
    cells.push_back(cell);
    for (size_t k = sel.axes.size(); k-- > 0;) {  // row-major: the last axis fastest
      if (++at[k] < sel.axes[k].values.size()) break;
      at[k] = 0;
    }
  }
  d.set("cells", cells);
}

}  // namespace

void emit_wrapper(const WrapperPlan& plan, const std::string& header, const std::string& source,
                  output::OutputContext& out) {
  const ir::Interface& iface = *plan.iface;
  Data d;
  d.set("header", header);
  d.set("source", source);
  d.set("descriptor", std::filesystem::path(iface.descriptor_file).filename().string());
  d.set("iface", iface.name);
  d.set("iface_label", names::display_name(iface));
  d.set("entry_template", iface.template_args.empty() ? "" : "template <>\n");
  d.set("entry_name", iface.name + template_args(iface));

  std::vector<std::string> params, call_args;
  for (const ir::Parameter& p : iface.parameters) {
    params.push_back(p.type + " " + p.name);
    call_args.push_back(p.name);
  }
  d.set("params", join(params));
  d.set("call_args", join(call_args));

  Data operands{Data::type::list}, buffers{Data::type::list}, values{Data::type::list};
  for (const Operand& o : plan.operands) {
    operands.push_back(operand_data(o));
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
  d.set("nbuffers", std::to_string(plan.nbuffers()));

  Data all{Data::type::list};
  d.set("cpu_like_variants", make_list(plan.cpu_like, [&](const VariantSlot& s) {
          Data v = variant_common(plan, s);
          v.set("openmp", flag(s.variant->backend == ir::Backend::OpenMp));
          all.push_back(v);
          return v;
        }));
  d.set("cuda_variants", make_list(plan.cuda, [&](const VariantSlot& s) {
          Data v = variant_common(plan, s);
          all.push_back(v);
          return v;
        }));
  d.set("opencl_variants", make_list(plan.opencl, [&](const VariantSlot& s) {
          Data v = opencl_variant_data(plan, s);
          all.push_back(v);
          return v;
        }));
  d.set("variants", all);
  d.set("has_opencl", flag(!plan.opencl.empty()));
  d.set("forkjoin", flag(plan.forkjoin));
  d.set("can_execute", flag(plan.can_execute));
  d.set("has_constraints", flag(has_predicates(plan)));
  Data kinds{Data::type::list};
  if (!plan.cpu_like.empty()) kinds.push_back(can_execute_kind(plan, "STARPU_CPU_WORKER", plan.cpu_like));
  if (!plan.cuda.empty()) kinds.push_back(can_execute_kind(plan, "STARPU_CUDA_WORKER", plan.cuda));
  if (!plan.opencl.empty()) kinds.push_back(can_execute_kind(plan, "STARPU_OPENCL_WORKER", plan.opencl));
  d.set("can_execute_kinds", kinds);
  d.set("check_call", flag(plan.check_call));
  d.set("checked_values", make_list(plan.checked_values, [](const CheckedValue& c) {
          Data cd;
          cd.set("label", c.label);
          cd.set("in_call", c.in_call);
          return cd;
        }));

  selection_data(plan, d);
  const bool history_like = plan.perf_model != ir::PerfModel::None && !plan.selection.cost_model;
  d.set("has_perf_model", flag(history_like));
  d.set("uses_model", flag(history_like || plan.selection.cost_model));
  d.set("perf_model_type", perf_model_type(plan.perf_model));
  d.set("perf_model_symbol", names::perf_model_symbol(iface));

  d.set("partitioned", flag(plan.partitioned));
  d.set("auto_split", flag(plan.auto_split));
  d.set("has_values", flag(plan.nbuffers() < static_cast<int>(plan.operands.size())));
  d.set("synchronous", flag(plan.synchronous));
  d.set("synchronous_flag", plan.synchronous ? "true" : "false");
  // A generic interface's instantiations share one header (emit_generic_header).
  if (iface.template_args.empty()) out.write(header, render_template("wrapper.h", d));
  out.write(source, render_template("wrapper.cpp", d));
}

void emit_generic_header(const std::vector<const ir::Interface*>& instances,
                         const std::string& header, output::OutputContext& out) {
  const ir::Interface& first = *instances.front();
  Data d;
  d.set("descriptor", std::filesystem::path(first.descriptor_file).filename().string());
  d.set("iface", first.name);
  d.set("template_params", template_params(first));
  d.set("first_type", first.template_types.front());
  std::vector<std::string> unnamed;
  for (const ir::Parameter& p : first.parameters) unnamed.push_back(p.generic_type);
  d.set("unnamed_params", join(unnamed));
  d.set("instances", make_list(instances, [](const ir::Interface* i) {
          Data inst;
          inst.set("entry_name", i->name + template_args(*i));
          std::vector<std::string> params;
          for (const ir::Parameter& p : i->parameters) params.push_back(p.type + " " + p.name);
          inst.set("params", join(params));
          return inst;
        }));
  out.write(header, render_template("wrapper_generic.h", d));
}

}  // namespace peppher::emit
