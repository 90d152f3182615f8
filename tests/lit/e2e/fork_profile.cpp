// A child of fork() profiles and traces its own launches only, as gcc's -fprofile-arcs counters
// start again in a child: it reported its parent's five launches as its own (adversarial pass).
// The child's launches from the site its parent last used are its own rows too (they went into
// the parent's table through the forking thread's cached row: no kernel row in the child).
// RUN: rm -rf %t.d && mkdir -p %t.d && %offload-cxx -O1 %s -o %t.d/fork
// RUN: cd %t.d && env OFFLOAD_DEVICE=cpu OFFLOAD_PROFILE=1 OFFLOAD_TRACE=t.%%p.json ./fork 2>&1 | FileCheck %s
// RUN: cd %t.d && %python -c "import json, glob; print(sorted(sum(e.get('ph') == 'X' and e.get('cat') == 'kernel' for e in json.load(open(f))['traceEvents']) for f in glob.glob('t.*.json')))" | FileCheck %s --check-prefix=TRACES
// (parent: 4 from main's loop, 1 from again(); child: 1 from main, 3 from again())
// CHECK-DAG: fork_profile.cpp:{{[0-9]+}}  4
// CHECK-DAG: fork_profile.cpp:{{[0-9]+}}  3
// TRACES: [4, 5]
#include <offload/offload.hpp>

#include <sys/wait.h>
#include <unistd.h>

OFFLOAD_KERNEL void inc(int *x) { *x += 1; }

static void again(int *x, int n) {
  for (int i = 0; i < n; ++i)
    offload::launch(inc, {}, x);
}

int main() {
  int x = 0;
  for (int i = 0; i < 4; ++i)
    offload::launch(inc, {}, &x);
  again(&x, 1);  // the parent's last launch before the fork: the child's cached row
  const pid_t p = fork();
  if (p == 0) {
    int y = 0;
    offload::launch(inc, {}, &y);
    again(&y, 3);
    return y == 4 ? 0 : 1;
  }
  int status = 1;
  waitpid(p, &status, 0);
  return x == 5 && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
