// Golden case input: only named by the generated Makefile, never compiled by the test.
int main() {
  return 0;
}
