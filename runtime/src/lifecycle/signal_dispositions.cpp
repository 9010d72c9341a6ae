// Keeping the program's SIGFPE disposition across StarPU's and pocl's start (see
// signal_dispositions.h). An integer division by zero in an OpenCL kernel run by pocl then
// raises SIGFPE as it does in a CPU variant, instead of giving a made-up quotient.
#include "lifecycle/signal_dispositions.h"

namespace peppher::detail {

KeepSignalDispositions::KeepSignalDispositions() noexcept
    : saved_(sigaction(SIGFPE, nullptr, &fpe_) == 0) {}

KeepSignalDispositions::KeepSignalDispositions(KeepSignalDispositions&& other) noexcept
    : fpe_(other.fpe_), saved_(other.saved_) {
  other.saved_ = false;
}

KeepSignalDispositions::~KeepSignalDispositions() {
  if (saved_) sigaction(SIGFPE, &fpe_, nullptr);
}

}  // namespace peppher::detail
