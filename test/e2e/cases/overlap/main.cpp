// Inter-component parallelism (paper IV.E): two calls on different containers overlap in
// time; two calls on the same container run one after the other. Needs 2 CPU workers.
#include <cstdio>

#include "peppher.h"

int main() {
  PEPPHER_INITIALIZE();
  peppher::Vector<double> a(16, 0.0), b(16, 0.0);
  busy(a, 300);  // independent of the next call
  busy(b, 300);
  busy(a, 50);  // depends on the first call (same container, readwrite)
  // Host reads wait for the tasks that use the data.
  const double a0_start = a[1], a0_end = a[2], a1_start = a[3];
  const double b_start = b[1], b_end = b[2];
  PEPPHER_SHUTDOWN();
  const bool overlapped = a0_start < b_end && b_start < a0_end;
  const bool ordered = a1_start >= a0_end;
  std::printf("overlap: independent calls %s, dependent calls %s\n",
              overlapped ? "overlapped" : "DID NOT OVERLAP", ordered ? "ordered" : "NOT ORDERED");
  return overlapped && ordered ? 0 : 1;
}
