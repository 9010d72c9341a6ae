// rowid, CPU variant: M is the task's block; `first` is its first row in the whole matrix.
#include <peppher/runtime.h>

void rowid_cpu(peppher::Matrix<float>& M, int first) {
  for (size_t r = 0; r < M.rows(); ++r) {
    for (size_t c = 0; c < M.cols(); ++c) {
      M(r, c) = static_cast<float>((first + static_cast<int>(r)) * 100 + static_cast<int>(c));
    }
  }
}
