// Calls the scale component of scale.h, whose variant files carry bad annotations.
#include "peppher.h"
#include "scale.h"
int main() { return 0; }
