// Calls the scale component of scale.h.
#include "peppher.h"
#include "scale.h"
int main() { return 0; }
