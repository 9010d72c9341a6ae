// Includes a generic light-form header whose template has a non-type parameter.
#include "fixed.h"
#include "peppher.h"
int main() { return 0; }
