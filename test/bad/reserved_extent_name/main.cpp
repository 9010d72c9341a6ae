// The application: calls axpy(x, x_size, y, A, A_rows, y_count).
#include "peppher.h"

int main() {
  PEPPHER_INITIALIZE();
  peppher::Vector<float> x(16, 1.0f), y(16, 0.0f);
  peppher::Matrix<float> A(4, 4, 0.0f);
  axpy(x, 16, y, A, 4, 0.0f);
  PEPPHER_SHUTDOWN();
  return 0;
}
