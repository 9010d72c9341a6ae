// Calls the rows component of rows.h.
#include "peppher.h"
#include "rows.h"
int main() { return 0; }
