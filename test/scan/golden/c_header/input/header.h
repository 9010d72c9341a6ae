/* A C library header as found in the wild: include guard and extern "C", C99's restrict,
 * typedef'd scalars, arrays with and without a size, va_list, static and inline functions,
 * an opaque handle, deprecated functions, export macros, comments below declarations. */
#ifndef C_HEADER_H
#define C_HEADER_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MYLIB_API(type, name, args) type name args

typedef double real_t;
typedef struct mylib_ctx mylib_ctx;

/**
 * @brief Scales a vector in place.
 * @param[in,out] x the vector
 * @param[in] n its length
 */
void vec_scale(real_t *restrict x, size_t n, real_t a);

void buf_copy(void *restrict dst, const void *restrict src, size_t n);

/* bins holds 256 counts, whatever len says. */
void histogram(const uint8_t *data, size_t len, uint32_t bins[256]);

void vec_add(const float a[], const float b[], float out[], int n);

void mat3_mul(const float a[3][3], const float b[3][3], float c[3][3]);

void mylib_vlog(int level, const char *fmt, va_list args);

void mylib_run(mylib_ctx *ctx, float *x, int n);

static inline float sq(float x) { return x * x; }

__attribute__((deprecated)) void old_scale(float *x, int n, float a);

/* Fills and clears. */


void plain_fill(float *x, int n);
/* zlib's style: each function documented below its declaration; the comment above
 * plain_fill, after a blank line, is not its description. */

MYLIB_API(void, exported_axpy, (float a, const float *x, float *y, int n));
MYLIB_API(int, exported_log, (const char *fmt, ...));

#include <stdbool.h>
void mask_count(const bool *mask, int n, bool invert, int *count);

struct filter { float coeffs[4]; int taps; };
void apply_filter(struct filter f, float *x, int n);

void count_values(const int *values, int values_count, float *peppher_buf);

#ifdef __cplusplus
}
#endif

#endif /* C_HEADER_H */
