// JSON printer for the IR: a tiny writer (objects, arrays, escaped strings) and one
// function per IR struct. Field order is fixed, so output is byte-for-byte reproducible.
#include "compose/ir/json.h"

#include <cstdio>

#include "compose/expr/parser.h"
#include "compose/ir/backends.h"

namespace peppher::ir {
namespace {

class Json {
 public:
  std::string take() { return std::move(out_) + "\n"; }

  void begin_object() { open('{'); }
  void end_object() { close('}'); }
  void begin_array() { open('['); }
  void end_array() { close(']'); }
  void key(const std::string& k) {
    comma();
    newline();
    quote(k);
    out_ += ": ";
    after_key_ = true;
  }
  void str(const std::string& v) {
    value_prefix();
    quote(v);
  }
  void num(long long v) {
    value_prefix();
    out_ += std::to_string(v);
  }
  void boolean(bool v) {
    value_prefix();
    out_ += v ? "true" : "false";
  }
  void null() {
    value_prefix();
    out_ += "null";
  }

  void field(const std::string& k, const std::string& v) {
    key(k);
    str(v);
  }
  void field(const std::string& k, const char* v) {
    key(k);
    str(v);
  }
  void field(const std::string& k, bool v) {
    key(k);
    boolean(v);
  }
  void field(const std::string& k, int v) {
    key(k);
    num(v);
  }

 private:
  void open(char c) {
    value_prefix();
    out_ += c;
    first_.push_back(true);
  }
  void close(char c) {
    bool empty = first_.back();
    first_.pop_back();
    if (!empty) newline();
    out_ += c;
  }
  void value_prefix() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (first_.empty()) return;
    comma();
    newline();
  }
  void comma() {
    if (first_.empty()) return;
    if (!first_.back()) out_ += ',';
    first_.back() = false;
  }
  void newline() {
    out_ += '\n';
    out_.append(2 * first_.size(), ' ');
  }
  void quote(const std::string& s) {
    out_ += '"';
    for (unsigned char c : s) {
      switch (c) {
        case '"':
          out_ += "\\\"";
          break;
        case '\\':
          out_ += "\\\\";
          break;
        case '\n':
          out_ += "\\n";
          break;
        case '\t':
          out_ += "\\t";
          break;
        case '\r':
          out_ += "\\r";
          break;
        default:
          if (c < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out_ += buf;
          } else {
            out_ += static_cast<char>(c);
          }
      }
    }
    out_ += '"';
  }

  std::string out_;
  std::vector<bool> first_;
  bool after_key_ = false;
};

void loc(Json& j, const SourceLoc& l) {
  j.key("loc");
  j.str(l.file + ":" + std::to_string(l.line) + ":" + std::to_string(l.col));
}

void expression_object(Json& j, const Expression& e) {
  j.begin_object();
  j.field("text", e.text);
  j.field("cpp", e.ast ? expr::to_cpp(*e.ast) : std::string());
  loc(j, e.loc);
  j.end_object();
}

void expression(Json& j, const std::string& k, const Expression& e) {
  j.key(k);
  expression_object(j, e);
}

// "from": where a light-form node's facts came from (nothing for an XML descriptor's).
void origins(Json& j, const std::map<std::string, std::string>& from) {
  if (from.empty()) return;
  j.key("from");
  j.begin_object();
  for (const auto& [fact, origin] : from) j.field(fact, origin);
  j.end_object();
}

void strings(Json& j, const std::string& k, const std::vector<std::string>& v) {
  j.key(k);
  j.begin_array();
  for (const std::string& s : v) j.str(s);
  j.end_array();
}

void compiler(Json& j, const std::string& k, const CompilerStep& c) {
  j.key(k);
  j.begin_object();
  j.field("type", c.type);
  j.field("name", c.name);
  j.field("version", c.version);
  j.field("flags", c.flags);
  j.field("output", c.output);
  j.end_object();
}

void source_files(Json& j, const std::vector<SourceFile>& files) {
  j.key("sources");
  j.begin_array();
  for (const SourceFile& f : files) {
    j.begin_object();
    j.field("name", f.name);
    j.field("path", f.path);
    j.field("language", f.language);
    if (!f.version.empty()) j.field("version", f.version);
    if (!f.kernel.empty()) j.field("kernel", f.kernel);
    if (!f.opencl_program.empty()) j.field("starpu_opencl_program", f.opencl_program);
    if (!f.cl_kernel.empty()) j.field("cl_kernel", f.cl_kernel);
    if (!f.cl_command_queue.empty()) j.field("cl_command_queue", f.cl_command_queue);
    for (const auto& [key, sizes] :
         {std::pair{"globalSize", &f.global_size}, std::pair{"localSize", &f.local_size}}) {
      if (sizes->empty()) continue;
      j.key(key);
      j.begin_array();
      for (const Expression& e : *sizes) expression_object(j, e);
      j.end_array();
    }
    compiler(j, "compiler", f.compiler);
    loc(j, f.loc);
    j.end_object();
  }
  j.end_array();
}

void required(Json& j, const std::vector<RequiredInterface>& reqs) {
  j.key("requiredInterfaces");
  j.begin_array();
  for (const RequiredInterface& r : reqs) {
    j.begin_object();
    j.field("name", r.name);
    j.field("xmlFile", r.resolved);
    loc(j, r.loc);
    j.end_object();
  }
  j.end_array();
}

void parameter(Json& j, const Parameter& p) {
  j.begin_object();
  j.field("name", p.name);
  j.field("type", p.type);
  j.field("accessMode", to_string(p.access_mode));
  j.field("kind", to_string(p.kind));
  j.field("elemType", p.elem_type);
  j.field("const", p.is_const);
  if (p.num_elements) expression(j, "numElements", *p.num_elements);
  if (p.desc_row_width) expression(j, "descRowWidth", *p.desc_row_width);
  if (p.partition.kind != PartitionKind::None) {
    j.key("partition");
    j.begin_object();
    j.field("kind", to_string(p.partition.kind));
    const PartitionKind k = p.partition.kind;
    if (k == PartitionKind::Blocks || k == PartitionKind::Blocks2D || k == PartitionKind::GridRows)
      expression(j, "block", p.partition.block);
    if (k == PartitionKind::Blocks2D || k == PartitionKind::GridCols)
      expression(j, "blockCols", p.partition.block_cols);
    j.end_object();
  }
  if (p.halo) expression(j, "halo", *p.halo);
  if (!p.block_first.empty()) j.field("blockFirst", p.block_first);
  if (p.reduction != ir::ReductionOp::None) j.field("reduction", ir::to_string(p.reduction));
  if (p.csr.present()) {
    j.key("csr");
    j.begin_object();
    j.field("nrows", p.csr.nrows);
    j.field("first", p.csr.first);
    j.field("rowOffsets", p.csr.row_offsets);
    j.field("colIndices", p.csr.col_indices);
    j.end_object();
  }
  if (p.range) j.field("range", p.range->lo + ".." + p.range->hi);
  origins(j, p.from);
  loc(j, p.loc);
  j.end_object();
}

void variant(Json& j, const Options& options, const Interface& i, const Variant& v) {
  j.begin_object();
  j.field("name", v.name);
  j.field("backend", to_string(v.backend));
  j.field("enabled", !v.disabled && backend_enabled(options, i, v.backend));
  j.field("disabled", v.disabled);
  j.field("descriptor", v.descriptor_file);
  source_files(j, v.sources);
  required(j, v.required);
  j.key("constraints");
  j.begin_array();
  for (const Constraint& c : v.constraints) {
    j.begin_object();
    j.field("name", c.name);
    j.field("parameterConstraint", c.parameter_constraint);
    expression(j, "expr", c.expr);
    j.end_object();
  }
  j.end_array();
  j.key("tunables");
  j.begin_array();
  for (const Tunable& t : v.tunables) {
    j.begin_object();
    j.field("name", t.name);
    j.field("type", t.type);
    strings(j, "values", t.values);
    j.end_object();
  }
  j.end_array();
  if (!v.prediction_function.empty()) j.field("predictionFunction", v.prediction_function);
  if (!v.specializes.empty()) j.field("specializes", v.specializes);
  if (v.priority != 0) j.field("priority", v.priority);
  origins(j, v.from);
  loc(j, v.loc);
  j.end_object();
}

void interface(Json& j, const Application& app, const Options& options, const Interface& i) {
  j.begin_object();
  j.field("name", i.name);
  j.field("descriptor", i.descriptor_file);
  j.field("impPath", i.imp_path);
  j.field("generic", i.generic);
  strings(j, "templateTypes", i.template_types);
  j.field("perfModel", to_string(effective_perf_model(app, options, i)));
  for (Backend b : codelet_groups())
    j.field(info(b).disable_switch, i.*info(b).disabled_by_interface);
  if (!i.description.empty()) j.field("description", i.description);
  j.key("parameters");
  j.begin_array();
  for (const Parameter& p : i.parameters) parameter(j, p);
  j.end_array();
  j.key("variants");
  j.begin_array();
  for (const Variant& v : i.variants) variant(j, options, i, v);
  j.end_array();
  loc(j, i.loc);
  j.end_object();
}

}  // namespace

std::string to_json(const Application& app, const Options& options) {
  Json j;
  j.begin_object();
  j.key("main");
  j.begin_object();
  j.field("name", app.name);
  j.field("descriptor", app.descriptor_file);
  j.field("target", to_string(app.target));
  source_files(j, app.sources);
  compiler(j, "link", app.link);
  required(j, app.required);
  j.key("composition");
  j.begin_object();
  j.field("scheduler", app.composition.scheduler);
  j.field("optimizationGoal", app.composition.optimization_goal);
  j.field("perfModel", to_string(app.composition.perf_model));
  j.end_object();
  if (app.platform) {
    j.key("platform");
    j.begin_object();
    j.field("name", app.platform->name);
    for (const auto& [k, v] : app.platform->properties) j.field(k, v);
    j.end_object();
  }
  loc(j, app.loc);
  j.end_object();
  j.key("options");
  j.begin_object();
  strings(j, "disableImpls", options.disable_impls);
  strings(j, "disableXMLFiles", options.disable_xml_files);
  for (Backend b : codelet_groups())
    j.field(info(b).disable_switch, options.*info(b).disabled_by_option);
  j.field("perfModel", to_string(options.perf_model));
  j.field("wrapperFilesExt", options.wrapper_files_ext);
  j.end_object();
  j.key("interfaces");
  j.begin_array();
  for (const Interface& i : app.interfaces) interface(j, app, options, i);
  j.end_array();
  j.end_object();
  return j.take();
}

}  // namespace peppher::ir
