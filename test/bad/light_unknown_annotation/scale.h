// A light-form header whose annotation compose does not know ("sise", not "size").
#include <peppher/annotate.h>
void scale(float* x __attribute__((annotate("peppher:sise=n"))), int n);
