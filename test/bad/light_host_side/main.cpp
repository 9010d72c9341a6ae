// Calls three components of kernels.h whose host-side OpenCL variants are wrong.
#include "kernels.h"
#include "peppher.h"
int main() { return 0; }
