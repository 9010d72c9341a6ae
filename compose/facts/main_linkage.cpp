// What the program's own sources declare and define of the interfaces (see main_linkage.h).
#include "compose/facts/main_linkage.h"

#include <algorithm>
#include <filesystem>

#include "compose/facts/program_sources.h"
#include "compose/facts/source_parser.h"
#include "compose/names/names.h"
#include "compose/plan/wrapper_plan.h"

namespace peppher::facts {

ProgramDeclarations read_program_declarations(const ir::Application& app,
                                              const ir::Options& options,
                                              const std::vector<std::string>& main_source_flags,
                                              const std::vector<std::string>& system_include_dirs) {
  namespace fs = std::filesystem;
  ProgramDeclarations found;
  std::vector<std::string> names;
  for (const ir::Interface& i : app.interfaces) {
    if (i.template_args.empty() && i.template_types.empty()) names.push_back(i.name);
  }
  if (names.empty()) return found;
  // A C source already makes every C-typed entry wrapper extern "C" (plan::has_c_callers).
  const bool c_callers = plan::has_c_callers(app, options);
  const std::string out = plan::output_dir(app, options);
  // What the program includes of the composition reads as empty: peppher.h (next to the
  // source or in the output folder, as the Makefile's -I finds it) and the wrapper headers.
  const std::string stub =
      "#define PEPPHER_INITIALIZE() ((void)0)\n#define PEPPHER_SHUTDOWN() ((void)0)\n";
  std::vector<std::pair<std::string, std::string>> generated = {{out + "/peppher.h", stub}};
  for (const ir::Interface& i : app.interfaces) {
    generated.emplace_back(out + "/" + names::wrapper_file(i, options.wrapper_files_ext), "");
  }
  SourceParser parser;
  for (const ProgramSource& source :
       program_sources(app, options, main_source_flags, system_include_dirs, /*with_c=*/true)) {
    ParseRequest r;
    r.path = source.path;
    r.language = source.c ? Language::C : Language::Cxx;
    r.flags = source.flags;
    r.flags.push_back("-I" + out);  // where the Makefile finds peppher.h
    r.directory = source.directory;
    r.function = names.front();
    r.more_functions.assign(names.begin() + 1, names.end());
    r.virtual_files = generated;
    const std::string next_to_source =
        (fs::absolute(source.path).parent_path() / "peppher.h").lexically_normal().string();
    if (next_to_source != out + "/peppher.h") r.virtual_files.emplace_back(next_to_source, stub);
    const ParsedSource parsed = parser.parse(r);
    for (const auto& refused : parsed.refused) {  // a header two sources include: once
      const auto same = [&](const auto& known) {
        return known.first.file == refused.first.file && known.first.line == refused.first.line &&
               known.first.col == refused.first.col && known.second == refused.second;
      };
      if (std::none_of(found.refused.begin(), found.refused.end(), same))
        found.refused.push_back(refused);
    }
    for (const ParsedFunction& f : parsed.functions) {
      if (f.extern_c && !source.c && !c_callers) found.c_declared.insert(f.name);
      if (f.defined && f.scope.empty() && !f.is_template)
        found.definitions.emplace_back(f.name, f.loc);
    }
  }
  return found;
}

}  // namespace peppher::facts
