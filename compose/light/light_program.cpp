// Assembles the light form's application: the sources and link step from the command line,
// the interfaces from the included headers and --components folders (light_interface.h),
// required by main in order.
#include "compose/light/light_program.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "compose/explore/paths.h"
#include "compose/light/includes.h"
#include "compose/light/light_interface.h"
#include "compose/output/output_context.h"
#include "compose/runtime_location.h"

namespace peppher::light {
namespace {

namespace fs = std::filesystem;

// `path` relative to the working folder when it lies under it (as a user would write it).
std::string shown(const std::string& path) {
  const fs::path rel = fs::path(path).lexically_relative(fs::current_path());
  if (rel.empty() || *rel.begin() == "..") return explore::normalize(path);
  return explore::normalize(rel.generic_string());
}

bool is_c(const std::string& source) {
  return fs::path(source).extension() == ".c";
}

std::string joined(const std::vector<std::string>& words) {
  std::string s;
  for (const std::string& w : words) s += (s.empty() ? "" : " ") + w;
  return s;
}

// --components DIR: the headers directly in DIR (absolute, sorted), those compose generated
// left out; DIR not a folder is an error.
std::vector<std::string> component_headers(const std::string& dir, diag::Diagnostics& diag) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    diag.error("--components '" + dir +
               "': " + (fs::exists(dir, ec) ? "not a folder" : "no such folder") +
               " (give the folder that holds the components' annotated headers)");
    return {};
  }
  std::vector<std::string> out;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string path = fs::absolute(it->path()).lexically_normal().string();
    if (!is_header(path) || !fs::is_regular_file(path, ec)) continue;
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    if (text.str().find(output::kGeneratedMark) != std::string::npos) continue;  // compose's own
    out.push_back(path);
  }
  if (ec) diag.error("--components '" + dir + "': cannot list it: " + ec.message());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

bool light_form(const ir::Options& options) {
  return options.main_xml.empty() && !options.sources.empty();
}

ir::Application load(const ir::Options& options, diag::Diagnostics& diag) {
  ir::Application app;
  const std::string main_source = explore::normalize(options.sources.front());
  app.descriptor_file = main_source;
  app.loc = {main_source, 1, 1};
  app.name = "main";
  app.target = ir::Backend::Cpu;
  const std::string main_dir = explore::parent_dir(main_source);
  const std::string out_dir = options.output_dir.empty() ? main_dir : options.output_dir;
  const std::string flags = explore::rebase_flags(joined(options.clang_args), ".", ".", out_dir);
  bool all_c = true;
  for (const std::string& given : options.sources) {
    const std::string path = explore::normalize(given);
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) {
      diag.error("source '" + given + "' does not exist or is not a file");
      continue;
    }
    ir::SourceFile s;
    s.loc = {path, 1, 1};
    s.name = path;
    s.path = path;
    s.language = is_c(path) ? "C" : "C++";
    s.compiler.name = is_c(path) ? "gcc" : "g++";
    s.compiler.flags = flags;
    all_c = all_c && is_c(path);
    app.sources.push_back(std::move(s));
  }
  app.link.type = "link";
  app.link.name = all_c ? "gcc" : "g++";
  app.link.flags = explore::rebase_flags(joined(options.link_flags), ".", ".", out_dir);
  app.link.output = fs::path(main_source).stem().string();
  if (diag.has_errors()) return app;

  std::vector<std::string> headers =
      included_headers(options.sources, options.clang_args, runtime_header_dirs(),
                       main_dir.empty() ? "." : main_dir);
  for (const std::string& dir : options.component_dirs) {
    for (const std::string& h : component_headers(dir, diag)) {
      if (std::find(headers.begin(), headers.end(), h) == headers.end()) headers.push_back(h);
    }
  }
  if (diag.has_errors()) return app;
  for (const std::string& h : headers) {
    for (ir::Interface& i :
         read_header(shown(h), options.clang_args, runtime_header_dirs(), diag)) {
      bool twice = false;
      for (const ir::Interface& other : app.interfaces) {
        if (other.name != i.name) continue;
        diag.error(i.loc, "interface '" + i.name + "' is declared twice");
        diag.note(other.loc, "first declared here");
        twice = true;
      }
      if (twice) continue;
      ir::RequiredInterface r;
      r.loc = i.loc;
      r.name = i.name;
      r.resolved = i.descriptor_file;
      app.required.push_back(r);
      app.interfaces.push_back(std::move(i));
    }
  }
  if (app.interfaces.empty() && !diag.has_errors()) {
    std::string also;  // the --components folders, when given
    for (const std::string& d : options.component_dirs) also += ", nor of '" + d + "'";
    diag.error(app.loc, "no interface found: none of the headers '" + main_source + "' includes" +
                            also +
                            " declares an annotated function (PEPPHER_SIZE, "
                            "PEPPHER_COMPONENT, ... from <peppher/annotate.h>) or one with "
                            "variant files named after it");
  }
  return app;
}

}  // namespace peppher::light
