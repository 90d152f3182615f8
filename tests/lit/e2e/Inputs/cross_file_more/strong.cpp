#include "shapes.h"
int strong_or_weak(int x) { return x + 100; }  // overrides main.cpp's weak one, as at the host link
