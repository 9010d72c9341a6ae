// Light-form components with host-side OpenCL variants (<iface>_opencl.cpp): vinc's has no
// kernel file, vdec's has launch sizes, twice's kernel file names its kernel.
#include <peppher/annotate.h>
void vinc(float* x PEPPHER_SIZE(n), int n);
void vdec(float* x PEPPHER_SIZE(n), int n);
void twice(float* x PEPPHER_SIZE(n), int n);
