// Generated names (see names.h).
#include "compose/names/names.h"

#include <cctype>
#include <filesystem>
#include <utility>

#include "compose/ir/backends.h"

namespace peppher::names {
namespace {

// The folder of the compile-command stamps (command_stamp).
constexpr const char* kStampDir = "peppher_cmd";

}  // namespace

std::string wrapper_file(const ir::Interface& i, const std::string& ext) {
  return i.name + "_wrapper" + ext;
}

std::string wrapper_source(const ir::Interface& i) {
  return i.name + instance_suffix(i) + "_wrapper.cpp";
}

std::string instance_suffix(const ir::Interface& i) {
  std::string out;
  for (const std::string& type : i.template_args) {
    out += "__";
    for (char c : type) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  }
  return out;
}

std::string instantiated(const std::string& function, const ir::Interface& i) {
  if (i.template_args.empty()) return function;
  std::string out = function + "<";
  for (size_t k = 0; k < i.template_args.size(); ++k) out += (k ? ", " : "") + i.template_args[k];
  return out + ">";
}

std::string instances_file(const ir::Variant& v) {
  return v.name + ir::info(v.backend).instances_suffix;
}

std::string backend_wrapper(const ir::Variant& v) {
  return "peppher_" + std::string(ir::info(v.backend).prefix) + "_" + v.name;
}

std::string counter(const ir::Variant& v) {
  return "peppher_counter_" + v.name;
}

std::string opencl_program(const ir::Variant& v) {
  return "peppher_program_" + v.name;
}

std::string kernel_file(const ir::Variant& v) {
  return (v.base_name.empty() ? v.name : v.base_name) + ".cl";
}

std::string perf_model_symbol(const ir::Interface& i) {
  return "peppher_" + i.name + instance_suffix(i);
}

std::string object_file(const std::string& owner, const std::string& source_path) {
  return "obj/" + owner + "/" + std::filesystem::path(source_path).stem().string() + ".o";
}

std::string command_stamp(const std::string& object) {
  std::filesystem::path p(object);  // obj/<owner>/<stem>.o
  return std::string(kStampDir) + "/" + p.parent_path().filename().string() + "/" +
         p.stem().string() + ".cmd";
}

std::string predicate_helper(int k) {
  return "peppher_constraint_" + std::to_string(k);
}

std::string helper_parameter(const std::string& identifier) {
  const size_t dot = identifier.find('.');
  if (dot == std::string::npos) return identifier;
  const std::string matrix = identifier.substr(0, dot);
  return identifier.compare(dot + 1, std::string::npos, "rows") == 0 ? matrix_rows(matrix)
                                                                     : matrix_cols(matrix);
}

std::string element_count(const std::string& p) {
  return p + "_count";
}
std::string vector_size(const std::string& p) {
  return p + "_size";
}
std::string matrix_rows(const std::string& p) {
  return p + "_rows";
}
std::string matrix_cols(const std::string& p) {
  return p + "_cols";
}
std::string matrix_ld(const std::string& p) {
  return p + "_ld";
}
std::string halo_buffer(const std::string& p, bool matrix, int side) {
  static const char* const kSides[2][2] = {{"_before", "_after"}, {"_above", "_below"}};
  return p + kSides[matrix ? 1 : 0][side == 0 ? 0 : 1];
}
std::string halo_size(const std::string& p, bool matrix, int side) {
  static const char* const kSides[2][2] = {{"_halo_before", "_halo_after"},
                                           {"_halo_above", "_halo_below"}};
  return p + kSides[matrix ? 1 : 0][side == 0 ? 0 : 1];
}
std::string trainer_storage(const std::string& p) {
  return p + "_storage";
}

std::vector<DerivedName> derived_names(const ir::Parameter& p) {
  const std::string& n = p.name;
  const std::string in_opencl = "' that the generated OpenCL wrapper declares";
  std::vector<DerivedName> out;
  switch (p.kind) {
    case ir::ParamKind::ScalarValue:
    case ir::ParamKind::StructValue:
      return out;
    case ir::ParamKind::RawPointer:
      out.push_back({trainer_storage(n), "the training program's array for '" + n + "'"});
      break;
    case ir::ParamKind::Vector:
      out.push_back({vector_size(n), "the length of peppher::Vector '" + n + in_opencl +
                                         " and passes to the kernel"});
      break;
    case ir::ParamKind::Matrix:
      for (const auto& [extent, what] :
           {std::pair{matrix_rows(n), "row count"}, std::pair{matrix_cols(n), "column count"},
            std::pair{matrix_ld(n), "leading dimension"}}) {
        out.push_back({extent, std::string("the ") + what + " of peppher::Matrix '" + n +
                                   in_opencl + " and passes to the kernel"});
      }
      break;
    case ir::ParamKind::ScalarContainer:
    case ir::ParamKind::Reference:
      break;
  }
  if (p.halo && (p.kind == ir::ParamKind::Vector || p.kind == ir::ParamKind::Matrix)) {
    const bool matrix = p.kind == ir::ParamKind::Matrix;
    for (int side = 0; side < 2; ++side) {
      const std::string where =
          std::string(side == 0 ? (matrix ? "above" : "before") : (matrix ? "below" : "after")) +
          " the block of '" + n + in_opencl + " and passes to the kernel";
      out.push_back({halo_buffer(n, matrix, side), "the halo " + where});
      out.push_back({halo_size(n, matrix, side), "the size of the halo " + where});
    }
  }
  out.push_back({element_count(n), "the element count of '" + n + in_opencl});
  return out;
}

const std::vector<std::string>& makefile_names() {
  static const std::vector<std::string> kNames = {
      "obj", kStampDir, trainer_program(), makefile(), umbrella_header(), cmake_file(),
      "all", "run",     "clean",           "train",    "cuda-check"};
  return kNames;
}

}  // namespace peppher::names
