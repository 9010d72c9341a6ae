// axpby, sequential: y = a x + b y. A function template: compose's generated translation
// unit includes this file and instantiates it for each type the program uses.
template <typename T>
void axpby_cpu(T a, const T* x, T b, T* y, int n) {
  for (int i = 0; i < n; ++i) y[i] = a * x[i] + b * y[i];
}
