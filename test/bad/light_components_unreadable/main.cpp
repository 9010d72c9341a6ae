// Composed with --components comps, whose broken.h does not parse.
#include "peppher.h"
int main() { return 0; }
