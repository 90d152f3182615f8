/* bench/corpus: writes the graph that tests/corpus/bfs/port.cpp generates (srand(7); node i has
 * 1 + rand() % 8 edges to rand() % nodes, drawn in that order) as a Rodinia BFS graph file, the
 * input of the original (bfs.cu reads: nodes, then "start edges" per node, the source, the
 * number of edges, then "id cost" per edge). Built here with gcc, run on the GPU node.
 *   usage: graphgen NODES FILE */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  if (argc != 3) { fprintf(stderr, "usage: %s NODES FILE\n", argv[0]); return 2; }
  const int n = atoi(argv[1]);
  FILE *f = fopen(argv[2], "w");
  if (n <= 0 || !f) { fprintf(stderr, "graphgen: bad arguments\n"); return 2; }
  int *count = malloc(sizeof(int) * (size_t)n);
  int *edges = malloc(sizeof(int) * (size_t)n * 8);
  long m = 0;
  srand(7);
  fprintf(f, "%d\n", n);
  for (int i = 0; i < n; i++) {
    count[i] = 1 + rand() % 8;
    fprintf(f, "%ld %d\n", m, count[i]);
    for (int e = 0; e < count[i]; e++) edges[m++] = rand() % n;
  }
  fprintf(f, "\n0\n\n%ld\n", m);
  for (long k = 0; k < m; k++) fprintf(f, "%d 1\n", edges[k]);
  free(count); free(edges);
  return fclose(f) != 0;
}
