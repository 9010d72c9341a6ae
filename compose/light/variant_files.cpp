// Finds an interface's variant files by name and makes each the ir::Variant an XML variant
// descriptor gives with the backend's default compiler and -O2 (utility mode's skeletons).
#include "compose/light/variant_files.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "compose/explore/paths.h"
#include "compose/ir/toolchain.h"
#include "compose/light/variant_annotations.h"
#include "compose/util/text.h"

namespace peppher::light {
namespace {

namespace fs = std::filesystem;

struct BackendFile {
  ir::Backend backend;
  const char* extension;
  const char* language;
  bool host_side = false;  // <iface>_opencl.{cpp,c}: the original tool's host-side variant
};

// In the order a folder's variants are listed (the backends' order, C++ before C). An
// OpenCL host file comes before the kernel file: with one, <iface>_opencl.cl is its
// program (one variant, as an XML descriptor lists both files), not a variant of its own.
constexpr BackendFile kFiles[] = {
    {ir::Backend::Cpu, ".cpp", "C++"},      {ir::Backend::Cpu, ".c", "C"},
    {ir::Backend::OpenMp, ".cpp", "C++"},   {ir::Backend::OpenMp, ".c", "C"},
    {ir::Backend::Cuda, ".cu", "CUDA"},     {ir::Backend::OpenCl, ".cpp", "C++", true},
    {ir::Backend::OpenCl, ".c", "C", true}, {ir::Backend::OpenCl, ".cl", "OpenCL"},
};

// A light variant's compile flags unless its file says PEPPHER_FLAGS(...) (the backend's
// required flag, -fopenmp, is added to any).
constexpr const char* kDefaultFlags = "-O2";

bool source_extension(const std::string& ext) {
  return ext == ".c" || ext == ".cpp" || ext == ".cc" || ext == ".cu" || ext == ".cl";
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// Variant `name` of backend file kind `f` in file `path`, with its backend's defaults.
ir::Variant variant_of(const std::string& folder, const std::string& iface, const std::string& name,
                       const std::string& path, const BackendFile& f) {
  const ir::SourceLoc loc{path, 1, 1};
  ir::Variant v;
  v.loc = loc;
  v.name = name;
  v.provides_loc = loc;
  v.backend = f.backend;
  v.backend_loc = loc;
  v.descriptor_file = path;
  v.from["name"] = "file name";
  v.from["targetPlatform"] = "file name (" + fs::path(path).filename().string() + ")";
  ir::SourceFile s;
  s.loc = loc;
  s.name = fs::path(path).filename().string();
  s.path = path;
  s.language = f.language;
  if (f.host_side) {
    // The generated wrapper defines these and sets them before each call; cl_kernel only
    // when the file's PEPPHER_KERNEL names a kernel (variant_annotations.cpp).
    s.opencl_program = iface + "_program";
    s.cl_command_queue = iface + "_queue";
    v.from["starpu_opencl_program"] = "default (" + s.opencl_program + ")";
    v.from["cl_command_queue"] = "default (" + s.cl_command_queue + ")";
  }
  if (f.backend == ir::Backend::OpenCl && !f.host_side) {
    s.kernel = name;
    v.from["kernel"] = "file name";
  } else {
    v.from["compiler"] = "default (the backend's)";
    v.from["flags"] = std::string("default (") + kDefaultFlags +
                      ")";  // what utility mode's skeleton descriptors write: the compiler, -O2
    s.compiler.loc = loc;
    s.compiler.name = ir::variant_compiler(v, s);
    s.compiler.flags = kDefaultFlags;
  }
  v.sources.push_back(std::move(s));
  if (f.host_side) {
    // Its kernels: <iface>_opencl.cl, the program the wrapper builds (read_header
    // reports a missing one at the host file).
    const std::string program = explore::normalize(folder + "/" + name + ".cl");
    std::error_code ec;
    if (fs::is_regular_file(program, ec)) {
      ir::SourceFile k;
      k.loc = {program, 1, 1};
      k.name = fs::path(program).filename().string();
      k.path = program;
      k.language = "OpenCL";
      v.sources.push_back(std::move(k));
    }
  }
  return v;
}

std::vector<ir::Variant> variants_in(const std::string& folder, const std::string& iface) {
  std::vector<ir::Variant> out;
  for (const BackendFile& f : kFiles) {
    const std::string name = iface + "_" + suffix(f.backend);
    const std::string path = explore::normalize(folder + "/" + name + f.extension);
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) continue;
    if (std::any_of(out.begin(), out.end(), [&](const ir::Variant& v) { return v.name == name; }))
      continue;  // _cpu.cpp and _cpu.c: the first (check/ would call two a duplicate)
    out.push_back(variant_of(folder, iface, name, path, f));
  }
  return out;
}

// The value of a `// PEPPHER_BACKEND(name)` annotation in `path`, with its place ("" when the
// file has none; variant_annotations.cpp checks the line's form).
std::string declared_backend(const std::string& path, ir::SourceLoc& at) {
  std::string backend;
  for_each_annotation_line(path, [&](const std::string& line, size_t first, int number) {
    const size_t name = line.find("PEPPHER_BACKEND(", first);
    if (name == std::string::npos) return true;
    const size_t open = name + std::string("PEPPHER_BACKEND(").size();
    const size_t close = line.find(')', open);
    if (close == std::string::npos) return true;
    at = {path, number, static_cast<int>(name) + 1};
    backend = text::trim(line.substr(open, close - open));
    return false;
  });
  return backend;
}

// Backends in the order a folder's variants are listed; within one, variants by name (as
// the XML form reads an implementation folder's descriptors).
int backend_rank(ir::Backend b) {
  switch (b) {
    case ir::Backend::Cpu:
      return 0;
    case ir::Backend::OpenMp:
      return 1;
    case ir::Backend::Cuda:
      return 2;
    case ir::Backend::OpenCl:
      return 3;
  }
  return 4;
}

}  // namespace

std::string suffix(ir::Backend b) {
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
  return "";
}

VariantFiles variant_files(const std::string& header, const std::string& iface,
                           const std::vector<std::string>& siblings) {
  VariantFiles found;
  const std::string here = explore::parent_dir(header);
  const std::string own = explore::normalize((here.empty() ? "." : here) + "/" + iface);
  std::error_code ec;
  const std::string folder = fs::is_directory(own, ec) ? own : here.empty() ? "." : here;
  found.variants = variants_in(folder, iface);
  if (!found.variants.empty()) found.folder = folder;
  std::vector<std::string> unknown;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string stem = it->path().stem().string();
    if (!source_extension(it->path().extension().string())) continue;
    if (stem.rfind(iface + "_", 0) != 0) continue;
    bool known = false;  // a backend's, or a sibling interface's (axpy_batch_cpu.cpp)
    for (const BackendFile& f : kFiles) known = known || ends_with(stem, "_" + suffix(f.backend));
    for (const std::string& s : siblings)
      known = known || (s != iface && stem.rfind(s + "_", 0) == 0);
    if (known) continue;
    const std::string path = explore::normalize(it->path().string());
    ir::SourceLoc at;
    const std::string backend = declared_backend(path, at);
    if (backend.empty()) {
      unknown.push_back(path);
      continue;
    }
    const BackendFile* kind = nullptr;
    for (const BackendFile& f : kFiles) {
      if (!f.host_side && suffix(f.backend) == backend &&
          it->path().extension().string() == f.extension)
        kind = &f;
    }
    if (kind == nullptr) {
      found.misnamed.push_back({at, backend});
      continue;
    }
    ir::Variant v = variant_of(folder, iface, stem, path, *kind);
    v.from["targetPlatform"] =
        "annotation at " + at.file + ":" + std::to_string(at.line) + ":" + std::to_string(at.col);
    found.variants.push_back(std::move(v));
    found.folder = folder;
  }
  std::stable_sort(found.variants.begin(), found.variants.end(),
                   [](const ir::Variant& a, const ir::Variant& b) {
                     const int ra = backend_rank(a.backend), rb = backend_rank(b.backend);
                     return ra != rb ? ra < rb : a.name < b.name;
                   });
  std::sort(unknown.begin(), unknown.end());
  for (const std::string& u : unknown) found.unknown.push_back({u, 1, 1});
  return found;
}

}  // namespace peppher::light
