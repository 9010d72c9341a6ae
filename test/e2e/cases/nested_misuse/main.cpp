// nested_misuse: outer's variant passes a container the task does not hold to inner; the
// call fails with a peppher::Error (ending the program with its message), never a hang.
#include <cstdio>

#include "peppher.h"

peppher::Vector<int>* g_elsewhere = nullptr;

int main() {
  PEPPHER_INITIALIZE();
  {
    peppher::Vector<int> v(16, 1), elsewhere(16, 2);
    g_elsewhere = &elsewhere;
    outer(v);
    const peppher::Vector<int>& read = v;
    std::printf("misuse: v[0] = %d\n", static_cast<int>(read[0]));
  }
  PEPPHER_SHUTDOWN();
  std::printf("misuse: no error\n");
  return 0;
}
