// cfd_copy, sequential CPU variant (skeleton from compose -generateCompFiles, filled in):
// dst = src, the state an iteration starts from.
#include <algorithm>

#include "../cfd_copy.h"

void cfd_copy_cpu(const peppher::Vector<float>& src, peppher::Vector<float>& dst) {
  std::copy(src.data(), src.data() + dst.size(), dst.data());
}
