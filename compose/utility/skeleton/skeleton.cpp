// Prints ComponentPlans through templates/skeleton_*.mustache (see skeleton.h); every
// value the templates use is computed here or in plan.cpp, the templates hold no logic.
#include "compose/utility/skeleton/skeleton.h"

#include "compose/emit/render.h"

namespace peppher::skeleton {
namespace {

using emit::TemplateData;

struct Backend {
  const char* suffix;    // file and function name suffix
  const char* platform;  // targetPlatform
  const char* title;     // for comments
  const char* source_ext;
  const char* language;
  const char* compiler;  // "" for OpenCL (built at run time)
  const char* extra_flags;
};

constexpr Backend kBackends[] = {
    {"cpu", "CPU", "CPU", ".cpp", "C++", "g++", ""},
    {"openmp", "OPENMP", "OpenMP", ".cpp", "C++", "g++", " -fopenmp"},
    {"opencl", "OPENCL", "OpenCL", ".cl", "OpenCL", "", ""},
    {"cuda", "CUDA", "CUDA", ".cu", "CUDA", "nvcc", ""},
};

std::string join(const std::vector<ParamPlan>& params, std::string ParamPlan::*field) {
  std::string out;
  for (const ParamPlan& p : params) out += (out.empty() ? "" : ", ") + p.*field;
  return out;
}

TemplateData common_data(const ComponentPlan& plan) {
  TemplateData d;
  d.set("interface", plan.name);
  d.set("origin", plan.origin);
  d.set("header_include", plan.header_include);
  d.set("c_restrict", TemplateData(plan.c_restrict));
  d.set("generic", TemplateData(plan.generic));
  d.set("template_decl", plan.template_decl);
  d.set("template_args", plan.template_args);
  d.set("params", emit::make_list(plan.params, [](const ParamPlan& p) {
          TemplateData item;
          item.set("name", p.name);
          item.set("cl_name", p.cl_name);
          item.set("user_note", p.user_note);
          return item;
        }));
  d.set("params_cpp", join(plan.params, &ParamPlan::cpp_decl));
  d.set("params_cl", join(plan.params, &ParamPlan::cl_decl));
  d.set("params_cuda_kernel", join(plan.params, &ParamPlan::cuda_kernel_decl));
  d.set("args", join(plan.params, &ParamPlan::cuda_arg));
  d.set("launch_elements", plan.launch_elements);
  d.set("cl_macros", emit::make_list(plan.cl_macros, [](const ClMacro& m) {
          TemplateData item;
          item.set("name", m.name);
          item.set("value", m.value);
          return item;
        }));
  d.set("cl_structs", emit::make_list(plan.cl_structs, [](const ClStruct& s) {
          TemplateData item;
          item.set("name", s.name);
          item.set("fields", emit::make_list(s.fields, [](const ClField& f) {
                     TemplateData field;
                     field.set("type", f.type);
                     field.set("name", f.name);
                     return field;
                   }));
          return item;
        }));
  return d;
}

// Goes into <name>.xml.
std::string interface_xml(const ComponentPlan& plan) {
  TemplateData d;
  d.set("name", plan.name);
  d.set("origin", plan.origin);
  d.set("header_file", plan.header_file);
  d.set("generic", TemplateData(plan.generic));
  d.set("template_types", plan.template_types);
  d.set("has_description", TemplateData(!plan.description_xml.empty()));
  d.set("description", plan.description_xml);
  d.set("interface_notes", emit::make_list(plan.interface_notes, [](const std::string& n) {
          TemplateData item;
          item.set("note", n);
          return item;
        }));
  d.set("params", emit::make_list(plan.params, [](const ParamPlan& p) {
          TemplateData item;
          item.set("name", p.name);
          item.set("type", p.type_xml);
          item.set("access", p.access);
          item.set("has_num_elements", TemplateData(p.has_num_elements));
          item.set("num_elements", p.num_elements);
          item.set("note", p.note);
          return item;
        }));
  return emit::render_template("skeleton_interface.xml", d);
}

}  // namespace

void generate_skeletons(const std::vector<ComponentPlan>& plans, output::OutputContext& out) {
  for (const ComponentPlan& plan : plans) {
    out.write(plan.name + ".xml", interface_xml(plan));
    for (const Backend& b : kBackends) {
      if (std::string(b.suffix) == "opencl" && !plan.opencl) continue;
      const std::string base = plan.name + "_" + b.suffix;
      TemplateData d = common_data(plan);
      d.set("variant", base);
      d.set("backend_title", b.title);
      d.set("platform", b.platform);
      d.set("source", base + b.source_ext);
      d.set("language", b.language);
      d.set("compiler", b.compiler);
      d.set("flags", xml_escape(plan.cpu_flags + b.extra_flags));
      d.set("has_compiler", TemplateData(*b.compiler != '\0'));
      d.set("is_kernel", TemplateData(*b.compiler == '\0'));
      d.set("openmp", TemplateData(std::string(b.suffix) == "openmp"));
      const std::string dir = plan.name + "/";
      out.write(dir + base + ".xml", emit::render_template("skeleton_implementation.xml", d));
      const std::string source_template = std::string("skeleton_") +
                                          (std::string(b.suffix) == "openmp" ? "cpu" : b.suffix) +
                                          b.source_ext;
      out.write(dir + base + b.source_ext, emit::render_template(source_template, d));
    }
  }
}

// Goes into main.xml, next to the interfaces.
std::string main_descriptor(const std::vector<RequiredInterface>& interfaces,
                            const std::string& origin) {
  TemplateData d;
  d.set("origin", origin);
  d.set("interfaces", emit::make_list(interfaces, [](const RequiredInterface& i) {
          TemplateData item;
          item.set("name", i.name);
          item.set("generic", TemplateData(i.generic));
          return item;
        }));
  return emit::render_template("skeleton_main.xml", d);
}

}  // namespace peppher::skeleton
