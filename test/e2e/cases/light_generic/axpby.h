// A generic component in the light form: a function template. compose instantiates it for
// each element type the program calls it with (here float, double and int), and its
// variants, axpby/axpby_cpu.cpp (a template) and axpby/axpby_opencl.cl (T as -DT=<type>),
// for each.
#pragma once
#include <peppher/annotate.h>

template <typename T>
void axpby(T a, const T* x PEPPHER_SIZE(n), T b, T* y PEPPHER_SIZE(n), int n);
