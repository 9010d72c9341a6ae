// Which instantiations of a generic interface the program calls, when no descriptor lists
// them (no instantiate="..." and no genericParameter types): the original tool left that
// to the C++ compiler. Each C++ source of main.xml is parsed with Clang, function bodies
// included, against a stand-in peppher.h that declares every such interface as a function
// template; the template arguments Clang deduces at each call are read back, as the
// facts expansion takes (facts/source_facts.h).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "compose/facts/program_sources.h"
#include "compose/facts/source_facts.h"

namespace peppher::facts {

// Template arguments per call, in the order met, each list once: for each name in `names`,
// the lists of canonical type spellings ("float", "unsigned int", "Point") of the calls in
// `sources`. `stand_in` is the text of the peppher.h the sources are parsed with: it must
// declare each of `names` as a function template. Sources Clang cannot read add nothing.
std::map<std::string, std::vector<std::vector<std::string>>> called_instantiations(
    const std::vector<ProgramSource>& sources, const std::string& stand_in,
    const std::vector<std::string>& names);

/// The instantiations of `app`'s generic interfaces (checked, not expanded) that no
/// descriptor lists (no instantiate="...", no genericParameter types), read from the calls
/// in main's C++ sources (compiled with `main_source_flags`, see program_sources);
/// `system_include_dirs`: the runtime's and StarPU's headers.
facts::CalledInstantiations read_called_instantiations(
    const ir::Application& app, const ir::Options& options,
    const std::vector<std::string>& main_source_flags,
    const std::vector<std::string>& system_include_dirs);

}  // namespace peppher::facts
