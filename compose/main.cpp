// The compose executable: hands the command line to the driver (driver.cpp), which wires
// the stages; everything else lives in the compose_core library so tests can link it.
#include <iostream>

#include "compose/driver.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  return peppher::run_compose(args, std::cout, std::cerr);
}
