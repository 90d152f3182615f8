// Kernels whose work-items meet every barrier together (compiler/cpu/Lockstep.cpp): the loops
// keep uniform values once per workgroup and take each region's exit once. Results must be those
// of the host: a tree with a run-time bound whose counter is read after the loop, a loop whose
// uniform step count comes from an argument and is carried across two barriers, a uniform value
// computed before a barrier and read after it (not a phi), nested uniform loops, a loop whose
// exit is taken from the middle (`break` after a barrier), odd workgroup sizes and two
// dimensions; and a kernel that is not in lockstep (a barrier under a test of the index) next to
// them, still right.
// RUN: %offload-cxx -O2 -v %s -o %t 2>&1 | FileCheck %s --check-prefix=SAYS
// RUN: env OFFLOAD_DEVICE=cpu OFFLOAD_CPU_THREADS=1 %t | FileCheck %s
// RUN: env OFFLOAD_DEVICE=cpu OFFLOAD_CPU_THREADS=3 %t | FileCheck %s
// RUN: %offload-cxx -O0 %s -o %t0 && env OFFLOAD_DEVICE=cpu %t0 | FileCheck %s
// SAYS-NOT: fibers
// SAYS-DAG: kernel 'tree' on the CPU device: work-item loops split at its barriers, in lockstep
// SAYS-DAG: kernel 'steps' on the CPU device: work-item loops split at its barriers, in lockstep
// SAYS-DAG: kernel 'nested' on the CPU device: work-item loops split at its barriers, in lockstep
// SAYS-DAG: kernel 'middle' on the CPU device: work-item loops split at its barriers, in lockstep
// SAYS-DAG: kernel 'grid2d' on the CPU device: work-item loops split at its barriers, in lockstep
// SAYS-DAG: kernel 'divergent' on the CPU device: work-item loops split at its barriers{{$}}
// CHECK: tree: ok
// CHECK: steps: ok
// CHECK: carried: ok
// CHECK: nested: ok
// CHECK: middle: ok
// CHECK: grid2d: ok
// CHECK: divergent: ok
// CHECK: all lockstep checks passed
#include <offload/offload.hpp>

#include <cstdio>
#include <span>
#include <vector>

OFFLOAD_KERNEL void tree(offload::device_ptr<const int> in, offload::device_ptr<long long> out) {
  auto &s = offload::shared<long long[512]>([] {});
  const unsigned t = offload::thread_id_x(), n = offload::block_dim_x();
  s[t] = in[offload::global_id_x()];
  offload::barrier();
  unsigned h = n, rounds = 0;
  for (; h > 1; h = (h + 1) / 2) {  // odd sizes: the upper half folds onto the lower
    const unsigned half = (h + 1) / 2;
    if (t < h - half) s[t] += s[t + half];
    ++rounds;
    offload::barrier();
  }
  if (t == 0) out[offload::block_id_x()] = s[0] * 100 + rounds + h;
}

OFFLOAD_KERNEL void steps(std::span<int> data, int count, int stride) {
  auto &s = offload::shared<int[256]>([] {});
  const unsigned t = offload::thread_id_x(), n = offload::block_dim_x();
  const unsigned base = offload::block_id_x() * n;
  s[t] = data[base + t];
  int shift = stride;
  for (int k = 0; k < count; ++k) {
    offload::barrier();
    const int v = s[(t + unsigned(shift)) % n];
    offload::barrier();
    s[t] = v + k;
    shift = shift * 3 % 7 + 1;
  }
  offload::barrier();
  data[base + t] = s[t] + shift;
}

OFFLOAD_KERNEL void carried(std::span<int> out, int a, int b) {
  auto &s = offload::shared<int[64]>([] {});
  const unsigned t = offload::thread_id_x();
  const int u = a * offload::block_id_x() + b * int(offload::block_dim_x());  // uniform, not a phi
  s[t] = int(t) + u;
  offload::barrier();
  out[offload::global_id_x()] = s[(t + 1) % offload::block_dim_x()] - u * 2;
}

OFFLOAD_KERNEL void nested(std::span<int> out, int outer, int inner) {
  auto &s = offload::shared<int[128]>([] {});
  const unsigned t = offload::thread_id_x(), n = offload::block_dim_x();
  s[t] = int(t);
  int total = 0;
  for (int i = 0; i < outer; ++i)
    for (int j = i; j < inner; ++j) {
      offload::barrier();
      total += s[(t + unsigned(i + j)) % n];
      offload::barrier();
      if (t == 0) s[0] += 1;
    }
  out[offload::global_id_x()] = total;
}

OFFLOAD_KERNEL void middle(std::span<int> out, int limit) {
  auto &s = offload::shared<int[96]>([] {});
  const unsigned t = offload::thread_id_x(), n = offload::block_dim_x();
  s[t] = 1;
  int k = 0;
  for (;;) {
    offload::barrier();
    const int v = s[(t + 1) % n];
    if (k * k > limit) break;  // uniform exit after a barrier
    offload::barrier();
    s[t] = v + k;
    ++k;
  }
  out[offload::global_id_x()] = s[t] * 1000 + k;
}

OFFLOAD_KERNEL void grid2d(std::span<int> out, int rounds) {
  auto &s = offload::shared<int[8][12]>([] {});
  const unsigned x = offload::thread_id_x(), y = offload::thread_id_y();
  s[y][x] = int(x + 10 * y);
  for (int r = 0; r < rounds; ++r) {
    offload::barrier();
    const int v = s[(y + 1) % offload::block_dim_y()][(x + 1) % offload::block_dim_x()];
    offload::barrier();
    s[y][x] = v + r;
  }
  out[(offload::block_id_x() * offload::block_dim_y() + y) * offload::block_dim_x() + x] = s[y][x];
}

OFFLOAD_KERNEL void divergent(std::span<int> out, int rounds) {
  auto &s = offload::shared<int[64]>([] {});
  const unsigned t = offload::thread_id_x();
  s[t] = int(t);
  for (int r = 0; r < rounds; ++r) {
    if (t % 2 == 0) {
      offload::barrier();  // the odd ones at the other barrier: NVIDIA's bar.sync counts either
      s[t] += 1;
    } else {
      offload::barrier();
      s[t] += 2;
    }
  }
  offload::barrier();
  out[offload::global_id_x()] = s[t];
}

static bool report(const char *name, bool ok) {
  std::printf("%s: %s\n", name, ok ? "ok" : "WRONG");
  return ok;
}

int main() {
  bool ok = true;
  {  // tree, on several workgroup sizes
    bool good = true;
    for (unsigned n : {1u, 2u, 7u, 64u, 100u, 256u, 512u}) {
      const unsigned groups = 5;
      std::vector<int> in(n * groups);
      for (std::size_t i = 0; i < in.size(); ++i) in[i] = int(i % 13) - 4;
      offload::buffer<int> din(in.size());
      din.copy_from(in);
      offload::buffer<long long> dout(groups);
      offload::launch(tree, {.workgroups = {groups}, .threads = {n}}, din.data(), dout.data());
      std::vector<long long> out(groups);
      dout.copy_to(out);
      for (unsigned g = 0; g < groups; ++g) {
        long long sum = 0;
        for (unsigned t = 0; t < n; ++t) sum += in[g * n + t];
        unsigned h = n, rounds = 0;
        for (; h > 1; h = (h + 1) / 2) ++rounds;
        good = good && out[g] == sum * 100 + rounds + h;
      }
    }
    ok &= report("tree", good);
  }
  {  // steps
    const unsigned n = 200, groups = 3;
    const int count = 9, stride = 5;
    std::vector<int> data(n * groups);
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = int(i * 7 % 31);
    std::vector<int> want = data;
    for (unsigned g = 0; g < groups; ++g) {
      std::vector<int> s(want.begin() + g * n, want.begin() + (g + 1) * n);
      int shift = stride;
      for (int k = 0; k < count; ++k) {
        std::vector<int> next(n);
        for (unsigned t = 0; t < n; ++t) next[t] = s[(t + unsigned(shift)) % n] + k;
        s = next;
        shift = shift * 3 % 7 + 1;
      }
      for (unsigned t = 0; t < n; ++t) want[g * n + t] = s[t] + shift;
    }
    offload::launch(steps, {.workgroups = {groups}, .threads = {n}}, std::span<int>(data), count, stride);
    ok &= report("steps", data == want);
  }
  {  // carried
    const unsigned n = 48, groups = 4;
    const int a = 3, b = -2;
    std::vector<int> out(n * groups), want(n * groups);
    for (unsigned g = 0; g < groups; ++g) {
      const int u = a * int(g) + b * int(n);
      for (unsigned t = 0; t < n; ++t) want[g * n + t] = int((t + 1) % n) + u - u * 2;
    }
    offload::launch(carried, {.workgroups = {groups}, .threads = {n}}, std::span<int>(out), a, b);
    ok &= report("carried", out == want);
  }
  {  // nested
    const unsigned n = 33, groups = 2;
    const int outer = 4, inner = 6;
    std::vector<int> out(n * groups), want(n * groups);
    for (unsigned g = 0; g < groups; ++g) {
      std::vector<int> s(n);
      for (unsigned t = 0; t < n; ++t) s[t] = int(t);
      std::vector<int> total(n, 0);
      for (int i = 0; i < outer; ++i)
        for (int j = i; j < inner; ++j) {
          for (unsigned t = 0; t < n; ++t) total[t] += s[(t + unsigned(i + j)) % n];
          s[0] += 1;
        }
      for (unsigned t = 0; t < n; ++t) want[g * n + t] = total[t];
    }
    offload::launch(nested, {.workgroups = {groups}, .threads = {n}}, std::span<int>(out), outer, inner);
    ok &= report("nested", out == want);
  }
  {  // middle
    const unsigned n = 96, groups = 2;
    const int limit = 30;
    std::vector<int> out(n * groups), want(n * groups);
    for (unsigned g = 0; g < groups; ++g) {
      std::vector<int> s(n, 1);
      int k = 0;
      for (;;) {
        std::vector<int> v(n);
        for (unsigned t = 0; t < n; ++t) v[t] = s[(t + 1) % n];
        if (k * k > limit) break;
        for (unsigned t = 0; t < n; ++t) s[t] = v[t] + k;
        ++k;
      }
      for (unsigned t = 0; t < n; ++t) want[g * n + t] = s[t] * 1000 + k;
    }
    offload::launch(middle, {.workgroups = {groups}, .threads = {n}}, std::span<int>(out), limit);
    ok &= report("middle", out == want);
  }
  {  // grid2d
    const unsigned nx = 12, ny = 8, groups = 3;
    const int rounds = 5;
    std::vector<int> out(nx * ny * groups), want(nx * ny * groups);
    for (unsigned g = 0; g < groups; ++g) {
      std::vector<int> s(nx * ny);
      for (unsigned y = 0; y < ny; ++y)
        for (unsigned x = 0; x < nx; ++x) s[y * nx + x] = int(x + 10 * y);
      for (int r = 0; r < rounds; ++r) {
        std::vector<int> next(nx * ny);
        for (unsigned y = 0; y < ny; ++y)
          for (unsigned x = 0; x < nx; ++x) next[y * nx + x] = s[((y + 1) % ny) * nx + (x + 1) % nx] + r;
        s = next;
      }
      for (unsigned i = 0; i < nx * ny; ++i) want[g * nx * ny + i] = s[i];
    }
    offload::launch(grid2d, {.workgroups = {groups}, .threads = {nx, ny}}, std::span<int>(out), rounds);
    ok &= report("grid2d", out == want);
  }
  {  // divergent
    const unsigned n = 64;
    const int rounds = 3;
    std::vector<int> out(n), want(n);
    for (unsigned t = 0; t < n; ++t) want[t] = int(t) + rounds * (t % 2 == 0 ? 1 : 2);
    offload::launch(divergent, {.workgroups = {1}, .threads = {n}}, std::span<int>(out), rounds);
    ok &= report("divergent", out == want);
  }
  std::printf(ok ? "all lockstep checks passed\n" : "SOME LOCKSTEP CHECKS FAILED\n");
  return ok ? 0 : 1;
}
