// the application
int main() { return 0; }
