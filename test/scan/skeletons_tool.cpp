// A stand-alone front end to utility mode for tests and manual runs until the composer's
// CLI wires it: skeletons_tool [-o DIR] [--force] [--functions a,b] [-p DIR] [-v]
//                              [-IDIR] [-DNAME[=V]] header.h... [-- compiler flags]
#include <iostream>
#include <sstream>

#include "compose/utility/utility_mode.h"

int main(int argc, char** argv) {
  peppher::utility::UtilityOptions options;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() { return i + 1 < argc ? std::string(argv[++i]) : std::string(); };
    if (a == "--") {
      for (++i; i < argc; ++i) options.clang_args.push_back(argv[i]);
    } else if (a == "-o") {
      options.output_dir = value();
    } else if (a == "--force") {
      options.force = true;
    } else if (a == "-v") {
      options.verbosity = 1;
    } else if (a == "-p") {
      options.compile_commands_dir = value();
    } else if (a == "--functions") {
      std::istringstream names(value());
      for (std::string n; std::getline(names, n, ',');) options.functions.push_back(n);
    } else if (a.rfind("-I", 0) == 0 || a.rfind("-D", 0) == 0) {
      options.clang_args.push_back(a);
    } else {
      options.headers.push_back(a);
    }
  }
  peppher::diag::Diagnostics diag(std::cerr);
  return peppher::utility::run_utility_mode(options, diag, std::cout);
}
