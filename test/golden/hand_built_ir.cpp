// Hand-built IR for the golden tests (see hand_built_ir.h). Paths are relative to a fake
// application folder, so the generated text is the same on every machine.
#include "hand_built_ir.h"

#include "compose/expr/parser.h"

namespace peppher::golden {

ir::Expression expr(const std::string& text) {
  ir::Expression e;
  e.text = text;
  e.ast = expr::parse(text).root;
  return e;
}

namespace {

ir::Parameter param(const std::string& name, const std::string& type, ir::ParamKind kind,
                    const std::string& elem, ir::AccessMode mode, const std::string& count = "") {
  ir::Parameter p;
  p.name = name;
  p.type = type;
  p.kind = kind;
  p.elem_type = elem;
  p.access_mode = mode;
  p.is_const = type.rfind("const", 0) == 0;
  if (!count.empty()) p.num_elements = expr(count);
  return p;
}

ir::SourceFile source(const std::string& path, const std::string& compiler,
                      const std::string& flags) {
  ir::SourceFile s;
  s.name = path.substr(path.rfind('/') + 1);
  s.path = path;
  s.compiler.name = compiler;
  s.compiler.flags = flags;
  return s;
}

ir::Variant variant(const std::string& name, const std::string& iface, ir::Backend backend,
                    ir::SourceFile src) {
  ir::Variant v;
  v.name = name;
  v.provides = iface;
  v.backend = backend;
  v.sources.push_back(std::move(src));
  return v;
}

ir::Application app_shell(const std::string& output) {
  ir::Application app;
  app.name = "main";
  app.descriptor_file = "/app/main.xml";
  app.sources.push_back(source("/app/main.cpp", "g++", "-O2"));
  app.link.type = "link";
  app.link.name = "g++";
  app.link.flags = "-O2";
  app.link.output = output;
  return app;
}

}  // namespace

ir::Application vector_scale_app() {
  using ir::AccessMode;
  using ir::ParamKind;
  ir::Application app = app_shell("vector_scale");
  ir::Interface i;
  i.name = "vector_scale";
  i.descriptor_file = "/app/vector_scale.xml";
  i.parameters = {
      param("arr", "float *", ParamKind::RawPointer, "float", AccessMode::ReadWrite, "size"),
      param("size", "int", ParamKind::ScalarValue, "int", AccessMode::Read),
      param("factor", "float", ParamKind::ScalarValue, "float", AccessMode::Read)};
  i.variants.push_back(variant("scale_cpu_func", "vector_scale", ir::Backend::Cpu,
                               source("/app/vector_scale/vector_scale_cpu.c", "gcc", "-O2")));
  i.variants.push_back(variant("scale_cuda_func", "vector_scale", ir::Backend::Cuda,
                               source("/app/vector_scale/vector_scale_cuda.cu", "nvcc", "-O3")));
  ir::SourceFile cl = source("/app/vector_scale/vector_scale.cl", "", "");
  cl.kernel = "vector_scale_kernel";
  i.variants.push_back(variant("scale_opencl", "vector_scale", ir::Backend::OpenCl, cl));
  app.interfaces.push_back(std::move(i));
  return app;
}

ir::Application containers_app() {
  using ir::AccessMode;
  using ir::ParamKind;
  ir::Application app = app_shell("dot");
  ir::Interface i;
  i.name = "dot";
  i.descriptor_file = "/app/dot.xml";
  i.perf_model = ir::PerfModel::History;
  i.parameters = {
      param("x", "const peppher::Vector<float> &", ParamKind::Vector, "float", AccessMode::Read),
      param("y", "const peppher::Vector<float> &", ParamKind::Vector, "float", AccessMode::Read),
      param("result", "peppher::Scalar<float> &", ParamKind::ScalarContainer, "float",
            AccessMode::Write)};
  i.variants.push_back(
      variant("dot_cpu", "dot", ir::Backend::Cpu, source("/app/dot/dot_cpu.cpp", "g++", "-O2")));
  i.variants.push_back(variant("dot_openmp", "dot", ir::Backend::OpenMp,
                               source("/app/dot/dot_openmp.cpp", "g++", "-O2")));
  ir::SourceFile cl = source("/app/dot/dot.cl", "", "");
  cl.kernel = "dot_kernel";
  cl.global_size = {expr("256")};
  cl.local_size = {expr("256")};
  i.variants.push_back(variant("dot_opencl", "dot", ir::Backend::OpenCl, cl));
  app.interfaces.push_back(std::move(i));
  return app;
}

}  // namespace peppher::golden
