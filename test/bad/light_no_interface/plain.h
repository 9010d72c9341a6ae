// A header with no annotated function and no variant files: no interface.
void helper(int n);
