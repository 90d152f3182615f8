// Port of HeCBench src/nbody-cuda (GSimulation.cu, GSimulationKernels.hpp, Particle.hpp,
// main.cu) to offload-cxx (see SOURCE.md), the kernels written as lambdas (parallel_for, and
// parallel_reduce for the energy, issue 33; the OFFLOAD_KERNEL version is port.cpp). All-pairs gravitational n-body, float, rsqrt.
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

  RealType kenergy_ = 0;
  double total_ms = 0;
  const offload::device_ptr<Particle> pp = p.data();
  const offload::device_ptr<RealType> ep = e.data();
  // Looping across integration steps
  for (int s = 1; s <= nsteps; ++s) {
    auto ts0 = std::chrono::steady_clock::now();
    // accelerate_particles
    offload::parallel_for(offload::range{n}, [=](std::size_t i) {
      auto pi = pp[i];
      RealType acc0 = pi.acc[0];
      RealType acc1 = pi.acc[1];
      RealType acc2 = pi.acc[2];
      for (int j = 0; j < n; j++) {
        auto pj = pp[j];
        RealType dx = pj.pos[0] - pi.pos[0];  // 1flop
        RealType dy = pj.pos[1] - pi.pos[1];  // 1flop
        RealType dz = pj.pos[2] - pi.pos[2];  // 1flop
        RealType distance_sqr = dx * dx + dy * dy + dz * dz + kSofteningSquared;  // 6flops
        RealType distance_inv = offload::rsqrt(distance_sqr);                   // 1div+1sqrt
        auto strength = kG * pj.mass * distance_inv * distance_inv * distance_inv; // 4 flops
        acc0 += dx * strength;  // 2flops
        acc1 += dy * strength;  // 2flops
        acc2 += dz * strength;  // 2flops
      }
      pi.acc[0] = acc0;
      pi.acc[1] = acc1;
      pi.acc[2] = acc2;
      pp[i] = pi;
    });
    // update_particles
    offload::parallel_for(offload::range{n}, [=](std::size_t i) {
      auto pi = pp[i];
      for (int k = 0; k < 3; ++k) {
        pi.vel[k] += pi.acc[k] * dt;  // 2flops
        pi.pos[k] += pi.vel[k] * dt;  // 2flops
        pi.acc[k] = 0.f;
      }
      ep[i] = pi.mass * (pi.vel[0] * pi.vel[0] + pi.vel[1] * pi.vel[1] + pi.vel[2] * pi.vel[2]);  // 7flops
      pp[i] = pi;
    });
    // accumulate_energy: a reduction instead of the original's one-work-item loop
    const RealType total = offload::parallel_reduce(offload::range{n}, RealType(0),
                                                    [=](std::size_t i) { return ep[i]; });
    total_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - ts0).count();
    kenergy_ = 0.5 * total;
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
