/* bench/corpus/rodinia/inputs.c — writes the input files of Rodinia's original programs with the
   data each port of tests/corpus/rodinia-* generates in memory, in the format the original reads,
   so that on the GPU node both programs work on the same input. Built with gcc by
   bench/corpus.sh (build mode), run by a program's setup= line.
     inputs hotspot N TEMP POWER        N x N temperatures and powers, one "%.9g" a line
     inputs hotspot3d N L POWER TEMP    N x N x L powers and temperatures, row, column, layer
                                        (the layer fastest), one "%.9g" a line
     inputs cfd NX NY FILE              the NX x NY mesh of rodinia-cfd in the format of Rodinia's
                                        fvcorr.domn.* (Fortran numbering, outward normals)
     inputs srad FILE                   the 502 x 458 image of rodinia-srad-v1 as a P2 PGM
     inputs kmeans N F FILE             N points of F features (rodinia-kmeans), "id f1 .. fF" a line
     inputs nn N FILES DIR              N hurricane records (Rodinia's hurricane_gen.c, srand(7)
                                        once) in FILES files DIR/nn-K.db, listed in DIR/nn-filelist */
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

/* rodinia-hotspot3d/port.cpp generate_input: the values by index in memory (row * N + col +
   layer * N * N), written in the order the original's readinput reads them */
static int hotspot3d(int argc, char **argv) {
  if (argc != 6) return 2;
  int n = atoi(argv[2]), layers = atoi(argv[3]);
  FILE *p = open_out(argv[4]), *t = open_out(argv[5]);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < layers; k++) {
        long c = (long)i * n + j + (long)k * n * n;
        unsigned h = (unsigned)c * 2654435761u;
        h ^= h >> 13; h *= 0x5bd1e995u; h ^= h >> 15;
        fprintf(t, "%.9g\n", 323.0f + (float)(h % 2000u) / 100.0f);
        fprintf(p, "%.9g\n", (float)((h >> 11) % 1000u) * 1.0e-6f);
      }
  fclose(p); fclose(t);
  return 0;
}

/* rodinia-cfd/port.cpp generate_mesh, as the original's reader expects it in the file: a
   neighbour k as k + 1, the wing as 0, the far field as -1; the outward normals */
static int cfd(int argc, char **argv) {
  if (argc != 5) return 2;
  int nx = atoi(argv[2]), ny = atoi(argv[3]);
  FILE *f = open_out(argv[4]);
  const int dxs[4] = {1, -1, 0, 0}, dys[4] = {0, 0, 1, -1};
  fprintf(f, "%d\n", nx * ny);
  for (int y = 0; y < ny; y++)
    for (int x = 0; x < nx; x++) {
      fprintf(f, "%.9g", 4.0);
      for (int j = 0; j < 4; j++) {
        int X = x + dxs[j], Y = y + dys[j], nb;
        if (X >= 0 && X < nx && Y >= 0 && Y < ny) nb = Y * nx + X + 1;
        else if (Y < 0 && x >= nx / 4 && x < 3 * nx / 4) nb = 0;
        else nb = -1;
        fprintf(f, " %d %.9g %.9g %.9g", nb, nb == 0 ? 0.05f : (float)dxs[j], (float)dys[j], 0.0f);
      }
      fprintf(f, "\n");
    }
  fclose(f);
  return 0;
}

/* rodinia-srad-v1/port.cpp generate_image (the original reads the file row by row) */
static int srad(int argc, char **argv) {
  if (argc != 3) return 2;
  FILE *f = open_out(argv[2]);
  int rows = 502, cols = 458;
  unsigned s = 7u;
  fprintf(f, "P2\n%d %d\n255\n", cols, rows);
  for (int i = 0; i < rows; i++) {
    for (int j = 0; j < cols; j++) {
      s = s * 1103515245u + 12345u;
      fprintf(f, "%d ", 30 + (i * 7 + j * 13 + (i * j) % 31) % 200 + (int)((s >> 16) % 20u));
    }
    fprintf(f, "\n");
  }
  fclose(f);
  return 0;
}

/* rodinia-kmeans/port.cpp generate_points: 8 blobs, features multiples of 1/64 */
static int kmeans(int argc, char **argv) {
  if (argc != 5) return 2;
  int n = atoi(argv[2]), nf = atoi(argv[3]);
  FILE *f = open_out(argv[4]);
  int *centers = malloc(sizeof(int) * 8 * nf);
  srand(11);
  for (int c = 0; c < 8 * nf; c++) centers[c] = rand() % 4096;
  for (int i = 0; i < n; i++) {
    int blob = rand() % 8;
    fprintf(f, "%d", i + 1);
    for (int j = 0; j < nf; j++) fprintf(f, " %.9g", (float)(centers[blob * nf + j] + rand() % 1024 - 512) / 64.0f);
    fprintf(f, "\n");
  }
  free(centers);
  fclose(f);
  return 0;
}

/* rodinia-nn/port.cpp generateData */
static int nn(int argc, char **argv) {
  if (argc != 5) return 2;
  long n = atol(argv[2]);
  int files = atoi(argv[3]);
  const char *dir = argv[4];
  int hours[4] = {0, 6, 12, 18};
  const char names[21][10] = {"ALBERTO", "BERYL", "CHRIS", "DEBBY", "ERNESTO", "FLORENCE", "GORDON",
      "HELENE", "ISAAC", "JOYCE", "KIRK", "LESLIE", "MICHAEL", "NADINE", "OSCAR", "PATTY", "RAFAEL",
      "SANDY", "TONY", "VALERIE", "WILLIAM"};
  char path[4096];
  snprintf(path, sizeof path, "%s/nn-filelist", dir);
  FILE *list = open_out(path);
  srand(7);
  for (int f = 0; f < files; f++) {
    snprintf(path, sizeof path, "%s/nn-%d.db", dir, f);
    fprintf(list, "%s\n", path);
    FILE *fp = open_out(path);
    long lo = n * f / files, hi = n * (f + 1) / files;
    for (long r = lo; r < hi; r++) {
      int year = 1950 + rand() % 55;
      int month = 1 + rand() % 12;
      int date = 1 + rand() % 28;
      int hour = hours[rand() % 4];
      int num = 1 + rand() % 28;
      const char *name = names[rand() % 21];
      float lat = ((float)(7 + rand() % 63)) + ((float)rand() / (float)0x7fffffff);
      float lon = ((float)(rand() % 358)) + ((float)rand() / (float)0x7fffffff);
      int speed = 10 + rand() % 155;
      int press = rand() % 900;
      fprintf(fp, "%4d %2d %2d %2d %2d %-9s %5.1f %5.1f %4d %4d\n", year, month, date, hour, num, name, lat, lon, speed, press);
    }
    fclose(fp);
  }
  fclose(list);
  return 0;
}

int main(int argc, char **argv) {
  int rc = 2;
  if (argc > 1 && !strcmp(argv[1], "hotspot")) rc = hotspot(argc, argv);
  if (argc > 1 && !strcmp(argv[1], "hotspot3d")) rc = hotspot3d(argc, argv);
  if (argc > 1 && !strcmp(argv[1], "nn")) rc = nn(argc, argv);
  if (argc > 1 && !strcmp(argv[1], "srad")) rc = srad(argc, argv);
  if (argc > 1 && !strcmp(argv[1], "cfd")) rc = cfd(argc, argv);
  if (argc > 1 && !strcmp(argv[1], "kmeans")) rc = kmeans(argc, argv);
  if (rc == 2) fprintf(stderr, "usage: inputs hotspot N TEMP POWER | hotspot3d N L POWER TEMP | srad FILE | cfd NX NY FILE | kmeans N F FILE | nn N FILES DIR\n");
  return rc;
}
