// Port of HeCBench src/nbody-cuda (GSimulation.cu, GSimulationKernels.hpp, Particle.hpp,
// main.cu) to offload-cxx (see SOURCE.md). All-pairs gravitational n-body, float, rsqrt.
// usage: nbody [number of particles] [number of steps (>= 3)]
#include <offload/offload.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <random>
#include <vector>

using RealType = float;  // type.hpp

struct Particle {        // Particle.hpp
 public:
  Particle() : pos{}, vel{}, acc{}, mass{} {};
  RealType pos[3];
  RealType vel[3];
  RealType acc[3];
  RealType mass;
};

// ---- GSimulationKernels.hpp ----
OFFLOAD_KERNEL void
accelerate_particles( offload::device_ptr<Particle> p, const int n, const float kSofteningSquared, const float kG )
{
  int i = offload::block_id_x() * offload::block_dim_x() + offload::thread_id_x();
  if (i >= n) return;

  auto pi = p[i];
  RealType acc0 = pi.acc[0];
  RealType acc1 = pi.acc[1];
  RealType acc2 = pi.acc[2];
  for (int j = 0; j < n; j++) {
    RealType dx, dy, dz;
    RealType distance_sqr = 0.0f;
    RealType distance_inv = 0.0f;

    auto pj = p[j];
    dx = pj.pos[0] - pi.pos[0];  // 1flop
    dy = pj.pos[1] - pi.pos[1];  // 1flop
    dz = pj.pos[2] - pi.pos[2];  // 1flop

    distance_sqr =
      dx * dx + dy * dy + dz * dz + kSofteningSquared;  // 6flops
    distance_inv = offload::rsqrt(distance_sqr);       // 1div+1sqrt

    auto strength = kG * pj.mass * distance_inv * distance_inv * distance_inv; // 4 flops

    acc0 += dx * strength;  // 2flops
    acc1 += dy * strength;  // 2flops
    acc2 += dz * strength;  // 2flops
  }
  pi.acc[0] = acc0;
  pi.acc[1] = acc1;
  pi.acc[2] = acc2;
  p[i] = pi;
}

OFFLOAD_KERNEL void
update_particles(offload::device_ptr<Particle> p,
                 offload::device_ptr<RealType> e,
                 const int n, RealType dt)
{
  int i = offload::block_id_x() * offload::block_dim_x() + offload::thread_id_x();
  if (i >= n) return;

  auto pi = p[i];

  pi.vel[0] += pi.acc[0] * dt;  // 2flops
  pi.vel[1] += pi.acc[1] * dt;  // 2flops
  pi.vel[2] += pi.acc[2] * dt;  // 2flops

  pi.pos[0] += pi.vel[0] * dt;  // 2flops
  pi.pos[1] += pi.vel[1] * dt;  // 2flops
  pi.pos[2] += pi.vel[2] * dt;  // 2flops

  pi.acc[0] = 0.f;
  pi.acc[1] = 0.f;
  pi.acc[2] = 0.f;

  e[i] = pi.mass *
    (pi.vel[0] * pi.vel[0] + pi.vel[1] * pi.vel[1] +
     pi.vel[2] * pi.vel[2]);  // 7flops

  p[i] = pi;
}

OFFLOAD_KERNEL void
accumulate_energy(offload::device_ptr<RealType> e, const int n)
{
  for (int i = 1; i < n; i++) e[0] += e[i];
}

// ---- GSimulation.cu (the class GSimulation flattened into main) ----
int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 2048;  // SMALL; the original's default is 16000
  const int nsteps = argc > 2 ? std::atoi(argv[2]) : 4; // the original's default is 10
  if (n <= 0 || nsteps < 3) {
    std::cout << "nbody: FAIL bad arguments (the number of integration steps should be at least 3)\n";
    return 1;
  }
  const RealType dt = 0.1;
  std::vector<RealType> energy(n, 0.f);
  std::vector<Particle> particles_(n);

  {  // InitPos, InitVel, InitAcc (the constructor zeroes acc), InitMass
    std::mt19937 gen(42);
    std::uniform_real_distribution<RealType> unif_d(0, 1.0);
    for (int i = 0; i < n; ++i)
      for (int k = 0; k < 3; ++k) particles_[i].pos[k] = unif_d(gen);
  }
  {
    std::mt19937 gen(42);
    std::uniform_real_distribution<RealType> unif_d(-1.0, 1.0);
    for (int i = 0; i < n; ++i)
      for (int k = 0; k < 3; ++k) particles_[i].vel[k] = unif_d(gen) * 1.0e-3f;
  }
  {
    std::mt19937 gen(42);
    std::uniform_real_distribution<RealType> unif_d(0.0, 1.0);
    for (int i = 0; i < n; ++i) particles_[i].mass = static_cast<RealType>(n) * unif_d(gen);
  }
  const std::vector<Particle> initial = particles_;

  constexpr float kSofteningSquared = 1e-3f;
  // prevents explosion in the case the particles are really close to each other
  constexpr float kG = 6.67259e-11f;

  offload::buffer<Particle> p(n);
  p.copy_from(particles_);
  offload::buffer<RealType> e(n);
  e.copy_from(energy);

  offload::launch_config grid{.workgroups = {(n+255)/256}, .threads = {256}};

  RealType kenergy_ = 0;
  double total_ms = 0;
  offload::queue q;
  // Looping across integration steps
  for (int s = 1; s <= nsteps; ++s) {
    auto ts0 = q.record();
    q.launch(accelerate_particles, grid, p.data(), n, kSofteningSquared, kG);
    q.launch(update_particles, grid, p.data(), e.data(), n, dt);
    q.launch(accumulate_energy, {}, e.data(), n);
    auto ts1 = q.record();
    q.wait();
    total_ms += offload::elapsed_ms(ts0, ts1);

    std::vector<RealType> e0(1);
    e.copy_to(e0);
    kenergy_ = 0.5 * e0[0];
  }  // end of the time step loop
  p.copy_to(particles_);

  std::cout << "# Total Energy        : " << kenergy_ << "\n";
  std::printf("time_ms: %f (%d steps)\n", total_ms, nsteps);

  // Host reference (as HeCBench's GSimulationReference.hpp): the same steps, in double.
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
      const double got = particles_[i].pos[k], want = ref[i].pos[k];
      if (std::fabs(got - want) > 1e-4 * std::fmax(1.0, std::fabs(want))) {
        if (!bad) std::printf("pos[%d][%d]: %.9g (device) != %.9g (host)\n", i, k, got, want);
        ++bad;
      }
    }
  const bool energy_ok = std::fabs(kenergy_ - ref_energy) <= 1e-3 * std::fabs(ref_energy);
  if (bad || !energy_ok) {
    std::printf("nbody: FAIL %d positions differ; energy %.9g (device) vs %.9g (host)\n", bad,
                double(kenergy_), ref_energy);
    return 1;
  }
  std::printf("nbody: PASS\n");
  return 0;
}
