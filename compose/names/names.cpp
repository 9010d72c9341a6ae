// Generated names (see names.h).
#include "compose/names/names.h"

#include <cctype>
#include <filesystem>

namespace peppher::names {

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
  return v.name + (v.backend == ir::Backend::Cuda ? "_instances.cu" : "_instances.cpp");
}

static const char* backend_prefix(ir::Backend b) {
  switch (b) {
    case ir::Backend::Cpu:
      return "cpu";
    case ir::Backend::OpenMp:
      return "openmp";
    case ir::Backend::Cuda:
      return "cuda";
    case ir::Backend::OpenCl:
      return "opencl";
  }
  return "unknown";
}

std::string backend_wrapper(const ir::Variant& v) {
  return "peppher_" + std::string(backend_prefix(v.backend)) + "_" + v.name;
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
  return "peppher_cmd/" + p.parent_path().filename().string() + "/" + p.stem().string() + ".cmd";
}

}  // namespace peppher::names
