#include "h.h"
namespace ns { int f(int x) { return x + 1; } int f(double x) { return int(x) + 2; } }
int S::get() const { return v * 2; }
int S::sget(int x) { return x * 5; }
template <class T> T tmpl(T x) { return x * 7; }
template int tmpl<int>(int);
int g_table[4] = {1, 2, 3, 4};
int uses_global(int i) { return g_table[i & 3]; }
int with_static(int x) { static int calls = 0; return x + ++calls; }
