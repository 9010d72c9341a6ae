void class_(float* arr, int size, float factor) { (void)arr; (void)size; (void)factor; }
