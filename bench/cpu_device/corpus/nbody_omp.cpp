// The algorithm of tests/corpus/nbody/port.cpp (all-pairs gravitational n-body, float), written
// with OpenMP on the host: per step, particles split among threads for the accelerations, then
// an update loop with the kinetic energy as a `reduction(+:...)` (the port sums it in a 1x1
// kernel). time_ms: the total over all steps, as the port's.
// usage: nbody_omp [number of particles] [number of steps (>= 3)]     g++ -O3 -fopenmp
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

struct Particle {
  Particle() : pos{}, vel{}, acc{}, mass{} {}
  float pos[3], vel[3], acc[3], mass;
};

int main(int argc, char **argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 2048;
  const int nsteps = argc > 2 ? std::atoi(argv[2]) : 4;
  if (n <= 0 || nsteps < 3) {
    std::printf("nbody_omp: FAIL bad arguments\n");
    return 1;
  }
  const float dt = 0.1f;
  std::vector<Particle> p(n);
  {
    std::mt19937 gen(42);
    std::uniform_real_distribution<float> unif_d(0, 1.0);
    for (int i = 0; i < n; ++i)
      for (int k = 0; k < 3; ++k) p[i].pos[k] = unif_d(gen);
  }
  {
    std::mt19937 gen(42);
    std::uniform_real_distribution<float> unif_d(-1.0, 1.0);
    for (int i = 0; i < n; ++i)
      for (int k = 0; k < 3; ++k) p[i].vel[k] = unif_d(gen) * 1.0e-3f;
  }
  {
    std::mt19937 gen(42);
    std::uniform_real_distribution<float> unif_d(0.0, 1.0);
    for (int i = 0; i < n; ++i) p[i].mass = static_cast<float>(n) * unif_d(gen);
  }
  const std::vector<Particle> initial = p;
  constexpr float kSofteningSquared = 1e-3f;
  constexpr float kG = 6.67259e-11f;

  float kenergy = 0;
  double total_ms = 0;
  Particle *P = p.data();
  for (int s = 1; s <= nsteps; ++s) {
    auto t0 = std::chrono::steady_clock::now();
#pragma omp parallel for
    for (int i = 0; i < n; i++) {
      const float xi = P[i].pos[0], yi = P[i].pos[1], zi = P[i].pos[2];
      float a0 = P[i].acc[0], a1 = P[i].acc[1], a2 = P[i].acc[2];
      for (int j = 0; j < n; j++) {
        const float dx = P[j].pos[0] - xi, dy = P[j].pos[1] - yi, dz = P[j].pos[2] - zi;
        const float d2 = dx * dx + dy * dy + dz * dz + kSofteningSquared;
        const float inv = 1.0f / std::sqrt(d2);
        const float strength = kG * P[j].mass * inv * inv * inv;
        a0 += dx * strength;
        a1 += dy * strength;
        a2 += dz * strength;
      }
      P[i].acc[0] = a0;
      P[i].acc[1] = a1;
      P[i].acc[2] = a2;
    }
    float energy = 0;
#pragma omp parallel for reduction(+ : energy)
    for (int i = 0; i < n; i++) {
      Particle &q = P[i];
      for (int k = 0; k < 3; k++) {
        q.vel[k] += q.acc[k] * dt;
        q.pos[k] += q.vel[k] * dt;
        q.acc[k] = 0.f;
      }
      energy += q.mass * (q.vel[0] * q.vel[0] + q.vel[1] * q.vel[1] + q.vel[2] * q.vel[2]);
    }
    auto t1 = std::chrono::steady_clock::now();
    total_ms += std::chrono::duration<double, std::milli>(t1 - t0).count();
    kenergy = 0.5f * energy;
  }
  std::printf("time_ms: %f (%d steps)\n", total_ms, nsteps);

  // the port's host reference, in double
  std::vector<Particle> ref = initial;
  double ref_energy = 0;
  for (int s = 1; s <= nsteps; ++s) {
    for (int i = 0; i < n; ++i) {
      double a[3] = {ref[i].acc[0], ref[i].acc[1], ref[i].acc[2]};
      for (int j = 0; j < n; ++j) {
        double d[3], d2 = kSofteningSquared;
        for (int k = 0; k < 3; ++k) { d[k] = double(ref[j].pos[k]) - ref[i].pos[k]; d2 += d[k] * d[k]; }
        double inv = 1.0 / std::sqrt(d2);
        double strength = double(kG) * ref[j].mass * inv * inv * inv;
        for (int k = 0; k < 3; ++k) a[k] += d[k] * strength;
      }
      for (int k = 0; k < 3; ++k) ref[i].acc[k] = a[k];
    }
    ref_energy = 0;
    for (int i = 0; i < n; ++i) {
      double v2 = 0;
      for (int k = 0; k < 3; ++k) {
        ref[i].vel[k] += ref[i].acc[k] * dt;
        ref[i].pos[k] += ref[i].vel[k] * dt;
        ref[i].acc[k] = 0.f;
        v2 += double(ref[i].vel[k]) * ref[i].vel[k];
      }
      ref_energy += ref[i].mass * v2;
    }
    ref_energy *= 0.5;
  }
  int bad = 0;
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < 3; ++k) {
      const double got = p[i].pos[k], want = ref[i].pos[k];
      if (std::fabs(got - want) > 1e-4 * std::fmax(1.0, std::fabs(want))) ++bad;
    }
  const bool energy_ok = std::fabs(kenergy - ref_energy) <= 1e-3 * std::fabs(ref_energy);
  if (bad || !energy_ok) {
    std::printf("nbody_omp: FAIL %d positions differ; energy %.9g vs %.9g\n", bad, double(kenergy), ref_energy);
    return 1;
  }
  std::printf("nbody_omp: PASS\n");
  return 0;
}
