// A function template over a length N: the light form's generic interfaces take type
// parameters only (XML templateTypes).
#include <peppher/annotate.h>
template <int N>
void fixed(float* x PEPPHER_SIZE(N));
