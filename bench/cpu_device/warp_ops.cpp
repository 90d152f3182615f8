// bench/cpu_device/warp_ops.cpp — the CPU device's warp operations against a barrier, per
// work-item (issue 31, item 4: at most 2x a barrier's cost). One thread is the fair measure:
//   offload-cxx -O3 --offload-arch=host bench/cpu_device/warp_ops.cpp -o warp_ops
//   OFFLOAD_DEVICE=cpu OFFLOAD_CPU_THREADS=1 ./warp_ops [rounds]
// Each kernel does `rounds` operations per work-item (256 workgroups of 256); the best of 5
// launches is divided by work-items x operations. Results are checked against the host.
#include <offload/offload.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

OFFLOAD_KERNEL void with_barriers(offload::device_ptr<float> out, int rounds) {
  auto &tile = offload::shared<float[256]>([] {});
  const unsigned t = offload::thread_id_x();
  float v = float(t);
  for (int r = 0; r < rounds; ++r) {
    tile[t] = v;
    offload::barrier();
    v += tile[(t + 1) & 255];
    offload::barrier();
  }
  out[offload::global_id_x()] = v;
}
OFFLOAD_KERNEL void with_shuffles(offload::device_ptr<float> out, int rounds) {
  float v = float(offload::thread_id_x());
  for (int r = 0; r < rounds; ++r)
    v += offload::shuffle_down(v, 1);
  out[offload::global_id_x()] = v;
}
OFFLOAD_KERNEL void with_reduce(offload::device_ptr<float> out, int rounds) {
  float v = float(offload::thread_id_x());
  for (int r = 0; r < rounds; ++r)
    v += offload::warp_reduce_add(v) * 1e-3f;
  out[offload::global_id_x()] = v;
}

int main(int argc, char **argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 16, groups = 256, items = 256;
  offload::buffer<float> out(std::size_t(groups) * items);
  int wrong = 0;
  auto time = [&](auto kernel, const char *name, int per, auto expect) {
    double best = 1e30;
    for (int k = 0; k < 5; ++k) {
      const auto t0 = std::chrono::steady_clock::now();
      offload::launch(kernel, {.workgroups = {unsigned(groups)}, .threads = {unsigned(items)}},
                      out.data(), rounds);
      offload::synchronize();
      best = std::min(best, std::chrono::duration<double, std::nano>(
                                std::chrono::steady_clock::now() - t0).count());
    }
    std::vector<float> got(out.size());
    out.copy_to(got);
    const std::vector<float> want = expect();
    for (int i = 0; i < items; ++i)  // the first workgroup (every one computes the same)
      if (std::fabs(got[i] - want[i]) > 1e-3f * std::fabs(want[i]) + 1e-3f) {
        std::printf("%s: work-item %d gave %g, want %g\n", name, i, got[i], want[i]);
        ++wrong;
        break;
      }
    std::printf("%-14s %.2f ns per work-item per %s\n", name,
                best / (double(groups) * items * rounds * per), per == 2 ? "barrier" : "op");
  };
  time(with_barriers, "barrier", 2, [&] {
    std::vector<float> v(items);
    for (int t = 0; t < items; ++t) v[t] = float(t);
    for (int r = 0; r < rounds; ++r) {
      std::vector<float> n(items);
      for (int t = 0; t < items; ++t) n[t] = v[t] + v[(t + 1) & 255];
      v = n;
    }
    return v;
  });
  time(with_shuffles, "shuffle_down", 1, [&] {
    std::vector<float> v(items);
    for (int t = 0; t < items; ++t) v[t] = float(t);
    for (int r = 0; r < rounds; ++r) {
      std::vector<float> n(items);
      for (int t = 0; t < items; ++t) n[t] = v[t] + ((t % 32) < 31 ? v[t + 1] : v[t]);
      v = n;
    }
    return v;
  });
  time(with_reduce, "warp_reduce", 1, [&] {
    std::vector<float> v(items);
    for (int t = 0; t < items; ++t) v[t] = float(t);
    for (int r = 0; r < rounds; ++r) {
      std::vector<float> n(items);
      for (int t = 0; t < items; ++t) {
        float s = 0;
        for (int l = t & ~31; l < (t & ~31) + 32; ++l) s += v[l];
        n[t] = v[t] + s * 1e-3f;
      }
      v = n;
    }
    return v;
  });
  std::printf("%s\n", wrong ? "WRONG" : "results checked");
  return wrong != 0;
}
