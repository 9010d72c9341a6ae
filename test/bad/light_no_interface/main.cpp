// Calls the plain component of plain.h.
#include "peppher.h"
#include "plain.h"
int main() { return 0; }
