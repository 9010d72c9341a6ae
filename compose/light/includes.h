// The light form's interface headers: the user headers a program's sources include
// (read with Clang's preprocessor), not system headers nor the runtime's own.
#pragma once

#include <string>
#include <vector>

namespace peppher::light {

// The headers `sources` include, directly or not, in first-seen order (absolute paths):
// each that is not a system header and either lies under `tree` (the program's folder) or
// spells a PEPPHER_ annotation; files compose generated are left out. `flags` are the -I/-D
// flags the sources compile with; `system_dirs` the runtime's and StarPU's headers
// (-isystem). The peppher.h the sources include reads as empty; an include that cannot be
// found ends that source's list (its build reports it).
std::vector<std::string> included_headers(const std::vector<std::string>& sources,
                                          const std::vector<std::string>& flags,
                                          const std::vector<std::string>& system_dirs,
                                          const std::string& tree);

}  // namespace peppher::light
