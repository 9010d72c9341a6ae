// A C library header with its own types (a typedef, an enum) used by the function.
#ifndef MYLIB_H
#define MYLIB_H
#include <stddef.h>
typedef double real_t;
enum mode { MODE_ADD = 0, MODE_SUB = 1 };
#ifdef __cplusplus
extern "C" {
#endif
/** y := y + alpha * x (or minus) */
void combine(size_t n, real_t alpha, enum mode m, const real_t* x, real_t* y);
#ifdef __cplusplus
}
#endif
#endif
