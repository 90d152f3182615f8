// Functions of shapes.cpp (a file with no kernel, compiled by g++ as written) that kernels of
// main.cpp call: member functions, a static member, overloads, an explicit instantiation.
#pragma once
namespace geo {
int scale(int);
int scale(double);
struct Box {
  int w, h;
  int area() const;
  int grow(int by);
  static int unit(int n);
  Box &operator+=(const Box &o);
};
template <class T> T cube(T);
} // namespace geo
int strong_or_weak(int);  // weak in main.cpp, strong in strong.cpp
int configured(int);      // conf.h decides: found on the include path
