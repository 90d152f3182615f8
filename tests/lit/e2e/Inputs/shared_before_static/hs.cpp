int h(int x) { return x + 200; }
