// The application: calls scale(data, n, peppher_factor).
#include "peppher.h"

int main() {
  PEPPHER_INITIALIZE();
  float data[4] = {1, 2, 3, 4};
  scale(data, 4, 2.0f);
  PEPPHER_SHUTDOWN();
  return 0;
}
