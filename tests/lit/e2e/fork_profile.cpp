// A child of fork() profiles and traces its own launches only, as gcc's -fprofile-arcs counters
// start again in a child: it reported its parent's five launches as its own (adversarial pass).
// RUN: rm -rf %t.d && mkdir -p %t.d && %offload-cxx -O1 %s -o %t.d/fork
// RUN: cd %t.d && env OFFLOAD_DEVICE=cpu OFFLOAD_PROFILE=1 OFFLOAD_TRACE=t.%%p.json ./fork 2>&1 | FileCheck %s
// RUN: cd %t.d && %python -c "import json, glob; print(sorted(sum(e.get('ph') == 'X' and e.get('cat') == 'kernel' for e in json.load(open(f))['traceEvents']) for f in glob.glob('t.*.json')))" | FileCheck %s --check-prefix=TRACES
// CHECK-DAG: fork_profile.cpp:[[#CHILD:]]  1
// CHECK-DAG: fork_profile.cpp:[[#PARENT:]]  5
// TRACES: [1, 5]
#include <offload/offload.hpp>

#include <sys/wait.h>
#include <unistd.h>

OFFLOAD_KERNEL void inc(int *x) { *x += 1; }

int main() {
  int x = 0;
  for (int i = 0; i < 5; ++i)
    offload::launch(inc, {}, &x);
  const pid_t p = fork();
  if (p == 0) {
    int y = 0;
    offload::launch(inc, {}, &y);
    return y == 1 ? 0 : 1;
  }
  int status = 1;
  waitpid(p, &status, 0);
  return x == 5 && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
