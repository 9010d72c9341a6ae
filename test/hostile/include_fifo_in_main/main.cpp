// the application, which includes a FIFO
#include "settings.h"
#include "vector_scale.h"
int main() {
  float x[4] = {1, 2, 3, 4};
  vector_scale(x, 4, 2.0f);
  return 0;
}
