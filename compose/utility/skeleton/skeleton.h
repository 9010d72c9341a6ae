// The skeleton generator's printing half: renders each ComponentPlan into its files
// (interface descriptor, and per backend an implementation descriptor and a source
// skeleton) in an OutputContext. Never touches the filesystem.
#pragma once

#include <string>
#include <vector>

#include "compose/output/output_context.h"
#include "compose/utility/skeleton/plan.h"

namespace peppher::skeleton {

// Adds, for each plan p, relative to the interface's folder:
//   p.xml, p/p_cpu.{xml,cpp}, p/p_openmp.{xml,cpp}, p/p_opencl.{xml,cl}, p/p_cuda.{xml,cu}
// (p_opencl only when p.opencl).
void generate_skeletons(const std::vector<ComponentPlan>& plans, output::OutputContext& out);

// An interface a main descriptor requires.
struct RequiredInterface {
  std::string name;
  bool generic = false;
};

// The text of a main.xml requiring `interfaces` (from the headers named in `origin`), with
// its program sources left to the user, so `compose --check main.xml` works at once.
std::string main_descriptor(const std::vector<RequiredInterface>& interfaces,
                            const std::string& origin);

}  // namespace peppher::skeleton
