// a legacy header
void f(float* a, int n);
