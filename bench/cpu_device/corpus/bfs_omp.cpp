// The algorithm of tests/corpus/bfs/port.cpp (level-synchronous BFS over a CSR graph, Rodinia),
// written with OpenMP on the host: per level, a `parallel for` over the frontier's nodes and one
// over the nodes to update, until no node changes. time_ms: the two loops of every level, as the
// port's two kernels per level (the flag's copies are outside, as in the port).
// usage: bfs_omp [number of nodes]     g++ -O3 -fopenmp
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

struct Node {
  int starting;
  int no_of_edges;
};

static void run_bfs_cpu(int n, const Node *nodes, const int *edges, char *mask, char *updating,
                        char *visited, int *cost) {  // the port's serial reference
  char stop;
  do {
    stop = 0;
    for (int tid = 0; tid < n; tid++)
      if (mask[tid] == 1) {
        mask[tid] = 0;
        for (int i = nodes[tid].starting; i < nodes[tid].no_of_edges + nodes[tid].starting; i++) {
          int id = edges[i];
          if (!visited[id]) {
            cost[id] = cost[tid] + 1;
            updating[id] = 1;
          }
        }
      }
    for (int tid = 0; tid < n; tid++)
      if (updating[tid] == 1) {
        mask[tid] = 1;
        visited[tid] = 1;
        stop = 1;
        updating[tid] = 0;
      }
  } while (stop);
}

int main(int argc, char *argv[]) {
  const int n = argc > 1 ? atoi(argv[1]) : 100000;
  if (n <= 0) {
    printf("bfs_omp: FAIL bad arguments\n");
    return 1;
  }
  std::vector<Node> nodes(n);
  std::vector<int> edges;
  srand(7);  // the port's generated graph
  for (int i = 0; i < n; i++) {
    int edgeno = 1 + rand() % 8;
    nodes[i].starting = (int)edges.size();
    nodes[i].no_of_edges = edgeno;
    for (int e = 0; e < edgeno; e++) edges.push_back(rand() % n);
  }
  auto fresh = [&](std::vector<char> &mask, std::vector<char> &upd, std::vector<char> &vis,
                   std::vector<int> &cost) {
    mask.assign(n, 0), upd.assign(n, 0), vis.assign(n, 0), cost.assign(n, -1);
    mask[0] = 1, vis[0] = 1, cost[0] = 0;
  };
  std::vector<char> m, u, v;
  std::vector<int> c;
  fresh(m, u, v, c);
  const Node *g = nodes.data();
  const int *e = edges.data();
  char *mask = m.data(), *upd = u.data(), *vis = v.data();
  int *cost = c.data();

  double time_ms = 0;
  char over;
  do {
    over = 0;
    auto t0 = std::chrono::steady_clock::now();
#pragma omp parallel for
    for (int tid = 0; tid < n; tid++)
      if (mask[tid]) {
        mask[tid] = 0;
        for (int i = g[tid].starting; i < g[tid].no_of_edges + g[tid].starting; i++) {
          int id = e[i];
          if (!vis[id]) {
            cost[id] = cost[tid] + 1;
            upd[id] = 1;
          }
        }
      }
#pragma omp parallel for
    for (int tid = 0; tid < n; tid++)
      if (upd[tid]) {
        mask[tid] = 1;
        vis[tid] = 1;
        over = 1;
        upd[tid] = 0;
      }
    auto t1 = std::chrono::steady_clock::now();
    time_ms += std::chrono::duration<double, std::milli>(t1 - t0).count();
  } while (over);
  printf("time_ms: %f\n", time_ms);

  std::vector<char> m2, u2, v2;
  std::vector<int> ref;
  fresh(m2, u2, v2, ref);
  run_bfs_cpu(n, g, e, m2.data(), u2.data(), v2.data(), ref.data());
  const bool ok = ref == c;
  printf("bfs_omp: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
