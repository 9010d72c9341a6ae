// outer, sequential CPU variant: calls inner on its own operand (a view: fine), then on a
// container of the application that its task does not hold (g_elsewhere, set by main):
// inside a task that is a peppher::Error.
#include "inner_wrapper.h"

extern peppher::Vector<int>* g_elsewhere;

void outer_cpu(peppher::Vector<int>& v) {
  inner(v);
  inner(*g_elsewhere);
}
