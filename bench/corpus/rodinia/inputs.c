/* bench/corpus/rodinia/inputs.c — writes the input files of Rodinia's original programs with the
   data each port of tests/corpus/rodinia-* generates in memory, in the format the original reads,
   so that on the GPU node both programs work on the same input. Built with gcc by
   bench/corpus.sh (build mode), run by a program's setup= line.
     inputs hotspot N TEMP POWER        N x N temperatures and powers, one "%.9g" a line */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FILE *open_out(const char *path) {
  FILE *f = fopen(path, "w");
  if (!f) { perror(path); exit(1); }
  return f;
}

/* rodinia-hotspot/port.cpp generate_input */
static int hotspot(int argc, char **argv) {
  if (argc != 5) return 2;
  int n = atoi(argv[2]);
  FILE *t = open_out(argv[3]), *p = open_out(argv[4]);
  unsigned s = 12345u;
  for (long i = 0; i < (long)n * n; i++) {
    s = s * 1103515245u + 12345u;
    float temp = 323.0f + (float)((s >> 8) % 2000) / 100.0f;
    s = s * 1103515245u + 12345u;
    float power = (float)((s >> 8) % 1000) * 1.0e-6f;
    fprintf(t, "%.9g\n", temp);
    fprintf(p, "%.9g\n", power);
  }
  fclose(t); fclose(p);
  return 0;
}

int main(int argc, char **argv) {
  int rc = 2;
  if (argc > 1 && !strcmp(argv[1], "hotspot")) rc = hotspot(argc, argv);
  if (rc == 2) fprintf(stderr, "usage: inputs hotspot N TEMP POWER\n");
  return rc;
}
