// Calls the apply component of apply.h.
#include "peppher.h"
#include "apply.h"
int main() { return 0; }
