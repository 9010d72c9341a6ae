// A header compose cannot read: an unknown type and a missing parenthesis.
#include <peppher/annotate.h>
void halve(vec3* x PEPPHER_SIZE(n), int n;
