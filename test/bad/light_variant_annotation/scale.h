// A light-form header; its variants' annotation comments (scale/) are wrong.
#include <peppher/annotate.h>
void scale(float* x PEPPHER_SIZE(n), int n);
