// Calls the saxpy component of saxpy.h.
#include "peppher.h"
#include "saxpy.h"
int main() { return 0; }
