// a variant that includes a FIFO and a link to /dev/zero: Clang (and the compiler) would
// wait on the first for ever and read the second without end
#include "pipe.h"
#include "zeros.h"
void scale_cpu(float* arr, int size, float factor) { for (int i = 0; i < size; ++i) arr[i] *= factor; }
