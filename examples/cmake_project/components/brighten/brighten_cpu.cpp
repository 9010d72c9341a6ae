// brighten, sequential CPU variant.
#include <peppher/runtime.h>

void brighten_cpu(peppher::Vector<float>& image, float gain) {
  for (size_t i = 0; i < image.size(); ++i) image[i] *= gain;
}
