#include "shapes.h"
namespace geo {
int scale(int x) { return x * 3; }
int scale(double x) { return int(x * 4.0); }
int Box::area() const { return w * h; }
int Box::grow(int by) { w += by; h += by; return w * h; }
int Box::unit(int n) { return n * 5; }
Box &Box::operator+=(const Box &o) { w += o.w; h += o.h; return *this; }
template <class T> T cube(T x) { return x * x * x; }
template int cube<int>(int);
} // namespace geo
