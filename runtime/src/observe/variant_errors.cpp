// The record of exceptions thrown by variants on StarPU workers (see
// detail/variant_errors.h): a queue under a mutex, with an atomic count for the fast path.
#include "peppher/detail/variant_errors.h"

#include <atomic>
#include <cstdio>
#include <deque>
#include <exception>
#include <mutex>
#include <string>

namespace peppher::detail {
namespace {

struct Recorded {
  std::string where;  // "iface/variant"
  std::exception_ptr error;
};

std::mutex& mutex() {
  static std::mutex m;
  return m;
}

std::deque<Recorded>& recorded() {
  static std::deque<Recorded> q;
  return q;
}

std::atomic<int> pending{0};

std::string describe(const std::exception_ptr& e) {
  try {
    std::rethrow_exception(e);
  } catch (const std::exception& x) {
    return x.what();
  } catch (...) {
    return "an exception that is not a std::exception";
  }
}

}  // namespace

void record_variant_exception(const char* iface, const char* variant) noexcept {
  try {
    std::lock_guard<std::mutex> lock(mutex());
    recorded().push_back({std::string(iface) + "/" + variant, std::current_exception()});
    pending.fetch_add(1, std::memory_order_release);
  } catch (...) {
    std::fprintf(stderr, "peppher: variant %s of %s threw, and recording it failed\n", variant,
                 iface);
  }
}

void rethrow_variant_exception() {
  if (pending.load(std::memory_order_acquire) == 0) return;
  std::exception_ptr e;
  {
    std::lock_guard<std::mutex> lock(mutex());
    if (recorded().empty()) return;
    e = recorded().front().error;
    recorded().pop_front();
    pending.fetch_sub(1, std::memory_order_release);
  }
  std::rethrow_exception(e);
}

void report_unclaimed_variant_exceptions() noexcept {
  if (pending.load(std::memory_order_acquire) == 0) return;
  std::lock_guard<std::mutex> lock(mutex());
  for (const Recorded& r : recorded()) {
    std::fprintf(stderr,
                 "peppher: variant %s threw (never rethrown: no host access or call "
                 "followed it): %s\n",
                 r.where.c_str(), describe(r.error).c_str());
  }
  recorded().clear();
  pending.store(0, std::memory_order_release);
}

}  // namespace peppher::detail
