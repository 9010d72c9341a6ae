// A light-form component compose can read.
#include <peppher/annotate.h>
void twice(float* x PEPPHER_SIZE(n), int n);
