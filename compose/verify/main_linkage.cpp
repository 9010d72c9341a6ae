// Finds the interfaces a C++ main source declares extern "C" (see main_linkage.h).
#include "compose/verify/main_linkage.h"

#include <filesystem>

#include "compose/names/names.h"
#include "compose/plan/wrapper_plan.h"
#include "compose/verify/program_sources.h"
#include "compose/verify/source_parser.h"

namespace peppher::verify {

std::set<std::string> c_declared_interfaces(const ir::Application& app,
                                            const std::vector<std::string>& system_include_dirs) {
  namespace fs = std::filesystem;
  std::set<std::string> declared;
  std::vector<std::string> names;
  for (const ir::Interface& i : app.interfaces) {
    if (i.template_args.empty() && i.template_types.empty()) names.push_back(i.name);
  }
  // A C source already makes every C-typed entry wrapper extern "C" (plan::has_c_callers).
  if (names.empty() || plan::has_c_callers(app)) return declared;
  const std::string out = plan::output_dir(app);
  // What the program includes of the composition reads as empty: peppher.h (next to the
  // source or in the output folder, as the Makefile's -I finds it) and the wrapper headers.
  const std::string stub =
      "#define PEPPHER_INITIALIZE() ((void)0)\n#define PEPPHER_SHUTDOWN() ((void)0)\n";
  std::vector<std::pair<std::string, std::string>> generated = {{out + "/peppher.h", stub}};
  for (const ir::Interface& i : app.interfaces) {
    generated.emplace_back(out + "/" + names::wrapper_file(i, app.options.wrapper_files_ext), "");
  }
  SourceParser parser;
  for (const ProgramSource& source : program_cxx_sources(app, system_include_dirs)) {
    ParseRequest r;
    r.path = source.path;
    r.language = Language::Cxx;
    r.flags = source.flags;
    r.flags.push_back("-I" + out);  // where the Makefile finds peppher.h
    r.directory = source.directory;
    r.function = names.front();
    r.more_functions.assign(names.begin() + 1, names.end());
    r.virtual_files = generated;
    const std::string next_to_source =
        (fs::absolute(source.path).parent_path() / "peppher.h").lexically_normal().string();
    if (next_to_source != out + "/peppher.h") r.virtual_files.emplace_back(next_to_source, stub);
    for (const ParsedFunction& f : parser.parse(r).functions) {
      if (f.extern_c) declared.insert(f.name);
    }
  }
  return declared;
}

}  // namespace peppher::verify
