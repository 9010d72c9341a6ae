// A second translation unit including peppher.h: the generated header must be safe to
// include from several files of one program (one codelet, one counter per variant).
#include "peppher.h"

void scale_all(std::vector<peppher::Vector<float>>& vs, float factor) {
  for (auto& v : vs) scale_vec(v, factor);
}
