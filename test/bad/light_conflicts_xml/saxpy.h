// A light-form interface whose XML descriptor beside it (saxpy.xml) gives y another size.
#include <peppher/annotate.h>
void saxpy(float a, const float* x PEPPHER_SIZE(n), float* y PEPPHER_SIZE(n), int n);
