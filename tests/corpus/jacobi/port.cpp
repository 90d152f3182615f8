// Copyright (c) 2021, NVIDIA CORPORATION.
// Licensed under the Apache License, Version 2.0 (the "License");
// you may not use this file except in compliance with the License.
// You may obtain a copy of the License at
//
//     http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing, software
// distributed under the License is distributed on an "AS IS" BASIS,
// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
// See the License for the specific language governing permissions and
// limitations under the License.

#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <iomanip>
#include <limits>
#include <utility>
#include <offload/offload.hpp>
#include <cstdlib>
#include <vector>

// A multiple of thread block size: N is a parameter of the port (a kernel parameter, and a
// variable of main), default 64 (SMALL); the original's is 2048

#define IDX(i, j) ((i) + (j) * N)

void initialize_data (float* f, const int N) {
  // Set up simple sinusoidal boundary conditions
  for (int j = 0; j < N; ++j) {
    for (int i = 0; i < N; ++i) {

      if (i == 0 || i == N-1) {
        f[IDX(i,j)] = sinf(j * 2 * M_PI / (N - 1));
      }
      else if (j == 0 || j == N-1) {
        f[IDX(i,j)] = sinf(i * 2 * M_PI / (N - 1));
      }
      else {
        f[IDX(i,j)] = 0.0f;
      }

    }
  }
}

OFFLOAD_KERNEL void jacobi_step (offload::device_ptr<float> f,
                             offload::device_ptr<float> f_old,
                             offload::device_ptr<float> error,
                             const int N) {
  auto &f_old_tile = offload::shared<float[18][18]>([] {});

  int i = offload::thread_id_x() + offload::block_id_x() * offload::block_dim_x();
  int j = offload::thread_id_y() + offload::block_id_y() * offload::block_dim_y();

  // First read in the "interior" data, one value per thread
  // Note the offset by 1, to reserve space for the "left"/"bottom" halo

  f_old_tile[offload::thread_id_y()+1][offload::thread_id_x()+1] = f_old[IDX(i,j)];

  // Now read in the halo data; we'll pick the "closest" thread
  // to each element. When we do this, make sure we don't fall
  // off the end of the global memory array. Note that this
  // code does not fill the corners, as they are not used in
  // this stencil.

  if (offload::thread_id_x() == 0 && i >= 1) {
    f_old_tile[offload::thread_id_y()+1][offload::thread_id_x()+0] = f_old[IDX(i-1,j)];
  }
  if (offload::thread_id_x() == 15 && i <= N-2) {
    f_old_tile[offload::thread_id_y()+1][offload::thread_id_x()+2] = f_old[IDX(i+1,j)];
  }
  if (offload::thread_id_y() == 0 && j >= 1) {
    f_old_tile[offload::thread_id_y()+0][offload::thread_id_x()+1] = f_old[IDX(i,j-1)];
  }
  if (offload::thread_id_y() == 15 && j <= N-2) {
    f_old_tile[offload::thread_id_y()+2][offload::thread_id_x()+1] = f_old[IDX(i,j+1)];
  }

  // Synchronize all threads
  offload::barrier();

  float err = 0.0f;

  if (j >= 1 && j <= N-2) {
    if (i >= 1 && i <= N-2) {
      // Perform the read from shared memory
      f[IDX(i,j)] = 0.25f * (f_old_tile[offload::thread_id_y()+1][offload::thread_id_x()+2] + 
                             f_old_tile[offload::thread_id_y()+1][offload::thread_id_x()+0] + 
                             f_old_tile[offload::thread_id_y()+2][offload::thread_id_x()+1] + 
                             f_old_tile[offload::thread_id_y()+0][offload::thread_id_x()+1]);
      float df = f[IDX(i,j)] - f_old_tile[offload::thread_id_y()+1][offload::thread_id_x()+1];
      err = df * df;
    }
  }

  // Sum over threads in the warp
  // For simplicity, we do this outside the above conditional
  // so that all threads participate
  for (int offset = 8; offset > 0; offset /= 2) {
    err += offload::shuffle_down(err, offset);
  }

  // If we're thread 0 in the warp, update our value to shared memory
  // Note that we're assuming exactly a 16x16 block and that the warp ID
  // is equivalent to offload::thread_id_y(). For the general case, we would have to
  // write more careful code.
  auto &reduction_array = offload::shared<float[16]>([] {});
  if (offload::thread_id_x() == 0) {
    reduction_array[offload::thread_id_y()] = err;
  }

  // Synchronize the block before reading any values from smem
  offload::barrier();

  // Using the first warp in the block, reduce over the partial sums
  // in the shared memory array.
  if (offload::thread_id_y() == 0) {
    err = reduction_array[offload::thread_id_x()];
    for (int offset = 8; offset > 0; offset /= 2) {
      err += offload::shuffle_down(err, offset);
    }
    if (offload::thread_id_x() == 0) {
      offload::atomic_add(&error[0], err);
    }
  }
}


// Host reference: the same step as jacobi_step, without tiles; returns the sum of squares.
float host_jacobi_step (float* f, const float* f_old, const int N) {
  float error = 0.0f;
  for (int j = 1; j <= N-2; ++j)
    for (int i = 1; i <= N-2; ++i) {
      f[IDX(i,j)] = 0.25f * (f_old[IDX(i+1,j)] + f_old[IDX(i-1,j)] +
                             f_old[IDX(i,j+1)] + f_old[IDX(i,j-1)]);
      float df = f[IDX(i,j)] - f_old[IDX(i,j)];
      error += df * df;
    }
  return error;
}

int main (int argc, char* argv[]) {
  const int N = argc > 1 ? atoi(argv[1]) : 64;  // SMALL; 2048 is the original's
  if (N < 16 || N % 16 != 0) {
    std::cout << "jacobi: FAIL N must be a positive multiple of 16" << std::endl;
    return 1;
  }

  // Begin wall timing
  auto start_time = std::chrono::steady_clock::now();

  // Reserve space for the scalar field and the "old" copy of the data
  std::vector<float> f(N * N), f_old(N * N);

  // Initialize data (we'll do this on both f and f_old, so that we don't
  // have to worry about the boundary points later)
  initialize_data(f.data(), N);
  initialize_data(f_old.data(), N);

  offload::buffer<float> b_f(N * N), b_f_old(N * N), b_error(1);
  b_f.copy_from(f);
  b_f_old.copy_from(f_old);
  offload::device_ptr<float> d_f = b_f.data(), d_f_old = b_f_old.data(), d_error = b_error.data();

  // Initialize error to a large number
  float error = std::numeric_limits<float>::max();
  const float tolerance = 1.e-5f;

  // Iterate until we're converged (but set a cap on the maximum number of
  // iterations to avoid any possible hangs)
  const int max_iters = 10000;
  int num_iters = 0;

  offload::launch_config cfg{.workgroups = {N/16, N/16}, .threads = {16, 16}};

  auto start = std::chrono::steady_clock::now();

  std::vector<float> error_v(1);
  while (error > tolerance && num_iters < max_iters) {
    // Initialize error to zero (we'll add to it the following step)
    b_error.fill(0.0f);

    // Perform a Jacobi relaxation step
    offload::launch(jacobi_step, cfg, d_f, d_f_old, d_error, N);

    // Swap the old data and the new data
    std::swap(d_f, d_f_old);

    b_error.copy_to(error_v);
    error = error_v[0];

    // Normalize the L2-norm of the error by the number of data points
    // and then take the square root
    error = sqrtf(error / (N * N));

    // Periodically print out the current error
    if (num_iters % 1000 == 0) {
      std::cout << "Error after iteration " << num_iters << " = " << error << std::endl;
    }

    // Increment the iteration count
    ++num_iters;
  }

  auto end = std::chrono::steady_clock::now();
  auto time = std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count();
  std::cout << "Average execution time per iteration: " << (time * 1e-9f) / num_iters << " (s)\n";
  std::cout << "time_ms: " << time * 1e-6 << " (" << num_iters << " iterations)\n";

  // The device's result is in d_f_old after the last swap.
  std::vector<float> result(N * N);
  (num_iters % 2 ? b_f : b_f_old).copy_to(result);

  // Host reference: the same number of steps, and the same error norm.
  float host_error = 0.0f;
  for (int it = 0; it < num_iters; ++it) {
    host_error = sqrtf(host_jacobi_step(f.data(), f_old.data(), N) / (N * N));
    std::swap(f, f_old);
  }
  // f_old holds the host's last result
  int bad = 0;
  for (int k = 0; k < N * N; ++k)
    if (std::fabs(result[k] - f_old[k]) > 1e-4f * std::fmax(1.0f, std::fabs(f_old[k]))) {
      if (!bad) std::cout << "field differs at " << k << ": " << result[k] << " (device) != " << f_old[k] << " (host)\n";
      ++bad;
    }
  const bool error_ok = std::fabs(error - host_error) <= 1e-3f * host_error;

  // If we took fewer than max_iters steps and the error is below the tolerance,
  // we succeeded. Otherwise, we failed.

  // End wall timing
  auto end_time = std::chrono::steady_clock::now();
  auto total_time = std::chrono::duration_cast<std::chrono::nanoseconds>(end_time - start_time).count();
  double duration = total_time * 1e-9;
  std::cout << "Total elapsed time: " << std::setprecision(4) << duration << " seconds" << std::endl;

  if (error <= tolerance && num_iters < max_iters && bad == 0 && error_ok) {
    std::cout << "jacobi: PASS" << std::endl;
  }
  else {
    std::cout << "jacobi: FAIL iterations " << num_iters << ", error " << error << " (host: "
              << host_error << "), " << bad << " field values differ" << std::endl;
    return 1;
  }
  return 0;
}
