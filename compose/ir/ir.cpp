// Small helpers over the IR used by every later stage: enum spellings and the
// "which variants are in effect" queries that combine descriptor switches with options.
#include "compose/ir/ir.h"

#include "compose/ir/backends.h"

namespace peppher::ir {

bool uses_mpi(const Application& app, const Options& options) {
  return options.mpi || app.composition.mpi;
}

const char* to_string(Backend b) {
  return info(b).name;
}

const char* to_string(AccessMode m) {
  switch (m) {
    case AccessMode::Read:
      return "read";
    case AccessMode::Write:
      return "write";
    case AccessMode::ReadWrite:
      return "readwrite";
  }
  return "?";
}

std::string grid_text(const Partition& p) {
  return p.kind == PartitionKind::GridRows ? p.block.text + ",*" : "*," + p.block_cols.text;
}

const char* to_string(ReductionOp r) {
  switch (r) {
    case ReductionOp::None:
      return "none";
    case ReductionOp::Sum:
      return "sum";
    case ReductionOp::Prod:
      return "prod";
    case ReductionOp::Min:
      return "min";
    case ReductionOp::Max:
      return "max";
  }
  return "?";
}

const char* to_string(ParamKind k) {
  switch (k) {
    case ParamKind::ScalarValue:
      return "scalar";
    case ParamKind::StructValue:
      return "struct";
    case ParamKind::RawPointer:
      return "pointer";
    case ParamKind::Vector:
      return "vector";
    case ParamKind::Matrix:
      return "matrix";
    case ParamKind::ScalarContainer:
      return "scalar_container";
    case ParamKind::Reference:
      return "reference";
  }
  return "?";
}

const char* to_string(PerfModel p) {
  switch (p) {
    case PerfModel::None:
      return "none";
    case PerfModel::History:
      return "history";
    case PerfModel::Regression:
      return "regression";
    case PerfModel::NLRegression:
      return "nl_regression";
  }
  return "?";
}

const char* to_string(PartitionKind k) {
  switch (k) {
    case PartitionKind::None:
      return "none";
    case PartitionKind::Blocks:
      return "blocks";
    case PartitionKind::Blocks2D:
      return "blocks2d";
    case PartitionKind::GridRows:
      return "grid_rows";
    case PartitionKind::GridCols:
      return "grid_cols";
    case PartitionKind::Auto:
      return "auto";
  }
  return "?";
}

bool backend_enabled(const Options& o, const Interface& i, Backend b) {
  const BackendInfo& r = info(b);
  return !(o.*r.disabled_by_option) && !(i.*r.disabled_by_interface);
}

std::vector<const Variant*> enabled_variants(const Options& options, const Interface& i) {
  std::vector<const Variant*> out;
  for (const Variant& v : i.variants) {
    if (!v.disabled && backend_enabled(options, i, v.backend)) out.push_back(&v);
  }
  return out;
}

PerfModel effective_perf_model(const Application& app, const Options& options, const Interface& i) {
  if (options.perf_model != PerfModel::None) return options.perf_model;
  if (i.perf_model != PerfModel::None) return i.perf_model;
  return app.composition.perf_model;
}

}  // namespace peppher::ir

namespace peppher::ir {

SourceLoc loc_at(const Expression& e, int offset) {
  // Walk the raw spelling, consuming one decoded character per raw character or entity.
  SourceLoc loc = e.loc;
  size_t raw = 0;
  for (int i = 0; i < offset && raw < e.raw.size(); ++i) {
    if (e.raw[raw] == '&') {
      size_t semi = e.raw.find(';', raw);
      size_t len = semi == std::string::npos ? 1 : semi - raw + 1;
      raw += len;
      loc.col += static_cast<int>(len);
    } else if (e.raw[raw] == '\n') {
      ++raw;
      ++loc.line;
      loc.col = 1;
    } else {
      ++raw;
      ++loc.col;
    }
  }
  if (e.raw.empty()) loc.col += offset;
  return loc;
}

std::string display_name(const Interface& i) {
  if (i.template_args.empty()) return i.name;
  std::string out = i.name + "<";
  for (size_t k = 0; k < i.template_args.size(); ++k) out += (k ? "," : "") + i.template_args[k];
  return out + ">";
}

const SourceFile* kernel_source(const Variant& v) {
  for (const SourceFile& s : v.sources) {
    if (!s.kernel.empty()) return &s;
  }
  return nullptr;
}

const SourceFile* host_side_source(const Variant& v) {
  if (info(v.backend).code != VariantCode::Kernel) return nullptr;
  for (const SourceFile& s : v.sources) {
    if (!s.opencl_program.empty() || !s.cl_kernel.empty() || !s.cl_command_queue.empty()) {
      return &s;
    }
  }
  return nullptr;
}

const SourceFile* program_source(const Variant& v) {
  if (const SourceFile* k = kernel_source(v)) return k;
  const SourceFile* found = nullptr;
  for (const SourceFile& s : v.sources) {
    const std::string& p = s.path;
    if (p.size() < 3 || p.compare(p.size() - 3, 3, ".cl") != 0) continue;
    if (found != nullptr) return nullptr;  // two: which one is ambiguous
    found = &s;
  }
  return found;
}

}  // namespace peppher::ir
