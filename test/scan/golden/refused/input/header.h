// Overloads, functions returning a value, variadic functions and function pointers.
#pragma once

void scale(float *v, int n, float f);
void scale(double *v, int n, double f);

double norm(const double *v, int n);

int log_message(const char *format, ...);

typedef void (*progress_fn)(int done);
void run(float *data, int n, progress_fn progress);

void split(const char **names, int count);
