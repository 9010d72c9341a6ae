// Composed with --components naming a folder that does not exist.
#include "peppher.h"
int main() { return 0; }
