// Profiling built in (issue 19): OFFLOAD_PROFILE=1's table (kernels with their template
// arguments and launch sites, counts, copies by direction, ranges), OFFLOAD_TRACE's Chrome
// trace-event JSON (checked by Inputs/check_trace.py), launches from several threads at once,
// nested offload::scoped_range, and strict values.
// RUN: %offload-cxx -O2 %s -o %t
// RUN: env OFFLOAD_PROFILE=1 %t 2> %t.err | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=TABLE < %t.err
// RUN: rm -f %t.json %t.json.tmp
// RUN: env OFFLOAD_TRACE=%t.json %t 2> %t.trace-err | FileCheck %s --check-prefix=OUT
// RUN: %python %S/Inputs/check_trace.py %t.json profile.cpp profile.cpp-ranges | FileCheck %s --check-prefix=TRACE
// RUN: env OFFLOAD_PROFILE=0 %t report 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: %t report 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: env OFFLOAD_PROFILE=2 not %t 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: env OFFLOAD_TRACE=%t.txt not %t 2>&1 | FileCheck %s --check-prefix=BAD-TRACE
// RUN: env OFFLOAD_TRACE=%t.no-such-folder/x.json not %t 2>&1 | FileCheck %s --check-prefix=BAD-FOLDER
// OUT: profile: all checks passed
// TRACE: check_trace: {{[0-9]+}} events, kernels {'count_up': 100, 'scale<double, -2>': 1, 'scale<float, 4>': 3}, 208 copies, 4 ranges, {{[0-9]+}} processes
// OFF-NOT: offload-cxx profile: {{.*}}device
// OFF: offload-cxx profile: off (set OFFLOAD_PROFILE=1 or OFFLOAD_TRACE=FILE.json)
// OFF-NOT: offload-cxx profile: {{.*}}device
// BAD: offload-cxx: error: {{.*}}OFFLOAD_PROFILE=2 is not understood (1: print each device's kernel and copy times at exit; 0 or unset: no profile)
// BAD-NOT: offload-cxx profile
// BAD-TRACE: offload-cxx: error: {{.*}}OFFLOAD_TRACE={{.*}}.txt is not understood (the file to write the timeline to, ending in .json)
// BAD-FOLDER: offload-cxx: error: {{.*}}OFFLOAD_TRACE={{.*}}/x.json: the folder {{.*}}.no-such-folder cannot be written to (No such file or directory)
//
// The table at exit: one section per device, kernels sorted by total time (so any order here).
// TABLE: offload-cxx profile: {{.*}}device
// TABLE-NEXT: kernel{{ +}}launch site{{ +}}launches{{ +}}total{{ +}}mean{{ +}}min{{ +}}max
#include <offload/offload.hpp>

#include <cstdio>
#include <span>
#include <thread>
#include <vector>

template <class T, int N>
OFFLOAD_KERNEL void scale(std::span<T> v) {
  const auto i = offload::global_id_x();
  if (i < v.size())
    v[i] *= T(N);
}

OFFLOAD_KERNEL void count_up(std::span<long> v) {
  const auto i = offload::global_id_x();
  if (i < v.size())
    v[i] += 1;
}

int main(int argc, char **) {
  constexpr std::size_t n = 1000;
  std::vector<float> f(n, 1.0f);
  std::vector<double> d(n, 1.0);
  const offload::launch_config cfg{.workgroups = {(n + 127) / 128}, .threads = {128}};
  {
    offload::scoped_range step("solver step");
    for (int r = 0; r < 3; ++r) {
      offload::scoped_range inner("inner phase");
      // TABLE-DAG: scale<float, 4>{{ +}}profile.cpp:[[#@LINE+1]]{{ +}}3{{ +}}{{[0-9.]+ [mu]?s}}
      offload::launch(scale<float, 4>, cfg, std::span(f));
    }
    // TABLE-DAG: scale<double, -2>{{ +}}profile.cpp:[[#@LINE+1]]{{ +}}1{{ +}}
    offload::launch(scale<double, -2>, cfg, std::span(d));
  }
  // Four threads launching at once: every launch is counted once.
  std::vector<std::vector<long>> per_thread(4, std::vector<long>(n, 0));
  std::vector<std::thread> threads;
  for (auto &v : per_thread)
    threads.emplace_back([&v] {
      for (int r = 0; r < 25; ++r)
        // TABLE-DAG: count_up{{ +}}profile.cpp:[[#@LINE+1]]{{ +}}100{{ +}}
        offload::launch(count_up, {.workgroups = {(n + 127) / 128}, .threads = {128}}, std::span(v));
    });
  for (auto &t : threads)
    t.join();
  for (std::size_t i = 0; i < n; ++i)
    if (f[i] != 64.0f || d[i] != -2.0 || per_thread[0][i] != 25 || per_thread[3][i] != 25) {
      std::printf("FAIL at %zu: %g %g %ld\n", i, double(f[i]), d[i], per_thread[0][i]);
      return 1;
    }
  if (argc > 1)
    offload::profile_report(stdout);
  std::printf("profile: all checks passed\n");
}
// Copies by direction, after the kernels: 104 launches copied 1000 elements in and out each.
// TABLE: copies{{ +}}bytes{{ +}}count{{ +}}total{{ +}}mean{{ +}}min{{ +}}max
// TABLE-DAG: host to device{{ +}}800.8 KiB{{ +}}104{{ +}}
// TABLE-DAG: device to host{{ +}}800.8 KiB{{ +}}104{{ +}}
// TABLE: offload-cxx profile: ranges (host time)
// TABLE-NEXT: range{{ +}}count{{ +}}total{{ +}}mean{{ +}}min{{ +}}max
// TABLE-NEXT: solver step{{ +}}1{{ +}}
// TABLE-NEXT: inner phase{{ +}}3{{ +}}
// TABLE-NOT: offload-cxx profile
