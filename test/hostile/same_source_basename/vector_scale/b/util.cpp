// helper
int helper() { return 1; }
