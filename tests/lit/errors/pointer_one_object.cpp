// What a pointer parameter may do without an error (pointer_indexed.cpp has the errors): use the
// one object it points to — x[0], *x, x->field, &x[0], x + 0 — or, for a pointer to an array
// T (*)[N], index that array, (*x)[i] or x[0][i]. Arrays travel as std::span, device memory as
// offload::device_ptr. The program builds and each kernel computes what it should.
// RUN: %offload-cxx %s -o %t
// RUN: env OFFLOAD_DEVICE=cpu %t | FileCheck %s
// CHECK: one object: 3 5 7 9
// CHECK: array: 0 1 4 9 16 25 36 49 | 2
// CHECK: span: 2 4 6 8
// CHECK: device_ptr: 3 3 3 3
// CHECK: template: 1.5 2.5 | 7
#include <offload/offload.hpp>

#include <cstdio>
#include <span>
#include <vector>

struct particle {
  int history[4];
  int count;
};

OFFLOAD_KERNEL void one_object(int *x, particle *p, const int *add, int &r) {
  x[0] = *x + *add;          // 1 + 2
  int *first = &x[0];
  *(first + 0) += 0;
  p->history[p->count] = 5;  // a member array, through ->
  p[0].count += 1;
  p->history[p[0].count] = 7;
  r = *(x + 0) + 6;          // 9
}

OFFLOAD_KERNEL void squares(long (*a)[8], long (*b)[1]) {
  unsigned i = offload::global_id_x();
  if (i < 8)
    (*a)[i] = long(i) * long(i);
  if (i == 0)
    b[0][0] = 2;
}

OFFLOAD_KERNEL void twice(std::span<int> v) {
  unsigned i = offload::global_id_x();
  if (i < v.size())
    v[i] *= 2;
}

OFFLOAD_KERNEL void set(offload::device_ptr<int> d, unsigned n) {
  unsigned i = offload::global_id_x();
  if (i < n)
    d[i] = 3;
}

template <class P> OFFLOAD_KERNEL void bump(P x, int *out) {
  x[0] += 1;
  *out = 7;
}

int main() {
  int x = 1, add = 2, r = 0;
  particle p{{3, 0, 0, 0}, 1};
  offload::launch(one_object, {}, &x, &p, &add, r);
  std::printf("one object: %d %d %d %d\n", x, p.history[1], p.history[2], r);

  long a[8] = {}, b[1] = {};
  offload::launch(squares, {.workgroups = 1, .threads = 8}, &a, &b);
  std::printf("array:");
  for (long v : a)
    std::printf(" %ld", v);
  std::printf(" | %ld\n", b[0]);

  std::vector<int> v = {1, 2, 3, 4};
  offload::launch(twice, {.workgroups = 1, .threads = 4}, std::span(v));
  std::printf("span: %d %d %d %d\n", v[0], v[1], v[2], v[3]);

  offload::buffer<int> buf(4);
  offload::launch(set, {.workgroups = 1, .threads = 4}, buf.data(), 4u);
  std::vector<int> back(4);
  buf.copy_to(std::span(back));
  std::printf("device_ptr: %d %d %d %d\n", back[0], back[1], back[2], back[3]);

  std::vector<float> f = {0.5f, 2.5f};
  int out = 0;
  offload::launch(bump<std::span<float>>, {}, std::span(f), &out);
  std::printf("template: %g %g | %d\n", f[0], f[1], out);
}
