/* A C99 program calling row_axpy, which takes a peppher::Matrix<float> and a
   peppher::Vector<float>, through the runtime's C handles: the calls return at once and the
   handles' data moves only when a task or the host needs it. Checks the result exactly.
   Usage: c_containers run CALLS | wrong-size | null-array | bad-ld */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "peppher.h"

enum { kRows = 37, kCols = 29, kLd = 32 };
static const float kPadding = -7.0f;

static float start_m(int i, int j) {
  return (float)(i * kCols + j);
}
static float start_s(int j) {
  return (float)(j % 5);
}

/* m(i, j) and s[j] after `calls` calls of row_axpy with a = 1 (call k adds start_s(j) + k),
   the last `bumped` of them after the host added `bump` to every s[j]. */
static int check(const float* m, const float* s, int calls, int bumped, float bump,
                 const char* what) {
  int wrong = 0;
  for (int j = 0; j < kCols; ++j) {
    const float added =
        (float)calls * start_s(j) + (float)(calls * (calls - 1) / 2) + (float)bumped * bump;
    if (s[j] != start_s(j) + (float)calls + bump) ++wrong;
    for (int i = 0; i < kRows; ++i)
      if (m[i * kLd + j] != start_m(i, j) + added) ++wrong;
  }
  printf("%s: %d wrong\n", what, wrong);
  return wrong;
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "run";
  const int calls = argc > 2 ? atoi(argv[2]) : 6;
  float* m = malloc(sizeof(float) * kRows * kLd);
  float* s = malloc(sizeof(float) * kCols);
  double* wide = malloc(sizeof(double) * kCols);
  if (m == NULL || s == NULL || wide == NULL) return 2;
  for (int i = 0; i < kRows; ++i)
    for (int j = 0; j < kLd; ++j) m[i * kLd + j] = j < kCols ? start_m(i, j) : kPadding;
  for (int j = 0; j < kCols; ++j) s[j] = start_s(j);
  memset(wide, 0, sizeof(double) * kCols);

  PEPPHER_INITIALIZE();
  peppher_matrix* hm =
      peppher_matrix_create(m, kRows, kCols, strcmp(mode, "bad-ld") == 0 ? 3 : kLd, sizeof(float));
  peppher_vector* hs =
      peppher_vector_create(strcmp(mode, "null-array") == 0 ? NULL : s, kCols, sizeof *s);
  if (strcmp(mode, "wrong-size") == 0) {
    peppher_vector* hw = peppher_vector_create(wide, kCols, sizeof *wide);
    row_axpy(hm, hw, 1.0f); /* ends the program: s takes floats */
    peppher_vector_release(hw);
  }
  if (peppher_vector_size(hs) != kCols || peppher_matrix_rows(hm) != kRows ||
      peppher_matrix_cols(hm) != kCols || peppher_matrix_ld(hm) != kLd)
    return 3;

  /* The first half of the calls, then a host read of both and a host write of s, then the
     rest: each call returns at once, the host accesses wait for the tasks. */
  for (int k = 0; k < calls / 2; ++k) row_axpy(hm, hs, 1.0f);
  int wrong =
      check(peppher_matrix_read(hm), peppher_vector_read(hs), calls / 2, 0, 0.0f, "halfway");
  float* bumped = peppher_vector_write(hs);
  for (int j = 0; j < kCols; ++j) bumped[j] += 1000.0f;
  for (int k = calls / 2; k < calls; ++k) row_axpy(hm, hs, 1.0f);
  peppher_matrix_release(hm);
  peppher_vector_release(hs);
  wrong += check(m, s, calls, calls - calls / 2, 1000.0f, "released");
  for (int i = 0; i < kRows; ++i)
    for (int j = kCols; j < kLd; ++j) wrong += m[i * kLd + j] != kPadding;
  PEPPHER_SHUTDOWN();
  printf("c_containers: %d calls, %d wrong\n", calls, wrong);
  free(m);
  free(s);
  free(wide);
  return wrong == 0 ? 0 : 1;
}
