#pragma once
namespace ns { int f(int); int f(double); }
struct S { int v; int get() const; static int sget(int); };
template <class T> T tmpl(T);
int uses_global(int);
int with_static(int);
int variadic(int, ...);
