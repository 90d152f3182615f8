int uval() { return 1; }
