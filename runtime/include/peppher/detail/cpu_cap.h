// When the StarPU in use cannot give every core a CPU worker (its STARPU_MAXCPUS, fixed when
// StarPU was built: 4 in Debian 12's package), init() says so once (devices/cpu_cores.cpp).
#pragma once

#include <string>

namespace peppher::detail {

/// @brief The note init() prints when @p cores (the machine's) exceed @p maxcpus (this
///        StarPU's cap) and the program did not ask for fewer CPU workers (@p requested: the
///        count asked for, -1 for StarPU's default of one per core); "" otherwise.
std::string cpu_cap_note(int cores, int maxcpus, int requested);

}  // namespace peppher::detail
