// boom_vec: adds 1 to v, or throws when asked (the caller sees it at its next host access).
#include <peppher/runtime.h>

#include <stdexcept>

void boom_vec_cpu(peppher::Vector<float>& v, int fail) {
  if (fail != 0) throw std::invalid_argument("boom_vec_cpu failed on purpose");
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = v[i] + 1.0f;
}
