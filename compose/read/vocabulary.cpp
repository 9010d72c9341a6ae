// The table of PEPPHER elements and attributes (original format plus extensions); the
// reader validates every descriptor against it and draws "did you mean" suggestions from it.
#include "compose/read/vocabulary.h"

#include <cstring>

#include "compose/ir/backends.h"

namespace peppher::read {
namespace {

// An interface's attributes, its backends' switches (disableCPU, ...) among them.
std::vector<const char*> interface_attributes() {
  std::vector<const char*> out = {"name",
                                  "impPath",
                                  "kind",
                                  "templateTypes",
                                  "useHistoryModels",
                                  "useRegressionModels",
                                  "useNLRegressionModels"};
  for (ir::Backend b : ir::codelet_groups()) out.push_back(ir::info(b).disable_switch);
  out.push_back("headerFile");
  return out;
}

}  // namespace

const std::vector<ElementSpec>& all_elements() {
  static const std::vector<ElementSpec> kElements = {
      {"component", {}, {}, {"interface", "implementation", "platform"}},
      {"interface",
       interface_attributes(),
       {"name"},
       {"parameters", "description", "performanceAspects", "genericParameters", "xmlFiles"}},
      // The original tool's list of implementation descriptors, read besides impPath's.
      {"xmlFiles", {"file"}, {}, {"xmlFile"}},
      {"xmlFile", {"file"}, {"file"}, {}},
      {"parameters", {}, {}, {"parameter"}},
      {"parameter",
       {"name", "type", "accessMode", "numElements", "descRowWidth", "elemType", "partition",
        "halo", "csr_nrows", "csr_first", "csr_row_offsets", "csr_col_indices", "range",
        "blockFirst", "reduction"},
       {"name", "type", "accessMode"},
       {}},
      {"description", {}, {}, {}, true},
      {"performanceAspects",
       {},
       {},
       {"performanceAspect", "predictionFunction"},
       true},  // free text too
      {"performanceAspect", {"name"}, {"name"}, {}},
      {"predictionFunction", {"name"}, {"name"}, {}},
      {"genericParameters", {}, {}, {"genericParameter"}, true},  // free text in the original
      {"genericParameter", {"name", "types"}, {"name"}, {}},
      {"implementation",
       {"name", "disable", "specializes", "priority"},
       {"name"},
       {"description", "sourceFiles", "providedInterfaces", "requiredInterfaces", "targetPlatform",
        "constraints", "parameterConstraints", "tunables", "performanceAspects", "composition"}},
      {"sourceFiles", {}, {}, {"sourceFile"}},
      {"sourceFile",
       {"name", "version", "language", "kernel", "extentArguments", "globalSize", "localSize",
        "starpu_opencl_program", "cl_kernel", "cl_command_queue", "type"},
       {},
       {"compilation", "localArg"}},
      {"localArg", {"name", "size"}, {"name", "size"}, {}},
      {"compilation", {}, {}, {"compiler", "language"}},
      {"language", {}, {}, {}, true},  // in the original tool's skeletons; ignored
      {"compiler", {"type"}, {}, {"name", "version", "flags", "output"}},
      {"name", {}, {}, {}, true},
      {"version", {}, {}, {}, true},
      {"flags", {}, {}, {}, true},
      {"output", {}, {}, {}, true},
      {"providedInterfaces", {}, {}, {"providedInterface"}},
      {"providedInterface", {"name"}, {"name"}, {}},
      {"requiredInterfaces", {}, {}, {"requiredInterface"}},
      {"requiredInterface", {"name", "xmlFile", "instantiate"}, {"name"}, {}},
      {"targetPlatform", {"name", "pdlRef"}, {}, {}},
      {"constraints", {}, {}, {"constraint"}},
      {"constraint", {"name", "expr", "type"}, {"expr"}, {}},
      {"parameterConstraints", {}, {}, {"parameterConstraint", "constraint"}},
      {"parameterConstraint", {"name", "expr", "type"}, {"expr"}, {}},
      {"tunables", {}, {}, {"tunable"}},
      {"tunable", {"name", "type", "values"}, {"name"}, {}},
      {"composition",
       {"scheduler", "optimizationGoal", "useHistoryModels", "useRegressionModels",
        "useNLRegressionModels", "mpi"},
       {},
       {}},
      {"platform", {"name"}, {"name"}, {"description", "property", "library", "software", "os"}},
      {"library", {"name", "version", "path"}, {"name"}, {}},
      {"software", {"name", "version", "path"}, {"name"}, {}},
      {"os", {"name", "version"}, {"name"}, {}},
      {"property", {"name", "value"}, {"name", "value"}, {}},
  };
  return kElements;
}

const ElementSpec* find_element(const std::string& name) {
  for (const ElementSpec& e : all_elements()) {
    if (name == e.name) return &e;
  }
  return nullptr;
}

bool has_attribute(const ElementSpec& spec, const std::string& attr) {
  for (const char* a : spec.attributes) {
    if (attr == a) return true;
  }
  return false;
}

bool allows_child(const ElementSpec& spec, const std::string& child) {
  for (const char* c : spec.children) {
    if (child == c) return true;
  }
  return false;
}

}  // namespace peppher::read
