// A light-form declaration compose cannot map: a function pointer parameter.
#include <peppher/annotate.h>
void apply(float* x PEPPHER_SIZE(n), int n, float (*op)(float));
