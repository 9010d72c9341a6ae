// pf_resample, CPU variant: new particle first + j of the block is the particle where the
// cumulative weights first reach u1 + (first + j) / n.
#include <peppher/runtime.h>

#include "../pf_particle.h"

void pf_resample_cpu(const peppher::Vector<double>& cdf, const peppher::Vector<double>& x,
                     const peppher::Vector<double>& y, const peppher::Scalar<double>& u1, int first,
                     int, peppher::Vector<double>& x_new, peppher::Vector<double>& y_new) {
  const int n = static_cast<int>(cdf.size());
  const double offset = u1.get();
  for (std::size_t j = 0; j < x_new.size(); ++j) {
    const int i = pf::find_index(cdf.data(), n,
                                 offset + (first + static_cast<int>(j)) / static_cast<double>(n));
    x_new.data()[j] = x.data()[i];
    y_new.data()[j] = y.data()[i];
  }
}
