// CSR SpMV on the offload device: ITERS products y = A x with the matrix kept in device buffers.
//  - main version: offload::parallel_for, one row per work-item (a lambda capturing device_ptrs)
//  - second version: an OFFLOAD_KERNEL with one warp (32 lanes) per row and warp_reduce_add
// Build: offload-cxx -O3 spmv.cpp -o spmv
#include <offload/offload.hpp>
#include "spmv_ref.hpp"
using namespace spmv;

constexpr unsigned WG = 256, WARPS_PER_WG = WG / 32;

OFFLOAD_KERNEL void spmv_warp(offload::readonly_ptr<std::int32_t> rp, offload::readonly_ptr<std::int32_t> col,
                              offload::readonly_ptr<double> val, offload::readonly_ptr<double> x,
                              offload::device_ptr<double> y, std::int32_t n) {
  const std::int64_t row = std::int64_t(offload::block_id_x()) * WARPS_PER_WG + offload::thread_id_x() / 32;
  const unsigned lane = offload::lane_id();
  double s = 0;
  if (row < n)
    for (std::int32_t k = rp[row] + std::int32_t(lane); k < rp[row + 1]; k += 32) s += val[k] * x[col[k]];
  s = offload::warp_reduce_add(s);   // every lane takes part
  if (row < n && lane == 0) y[row] = s;
}

int main(int argc, char **argv) {
  const bool with_warp = argc > 1 && std::string(argv[1]) == "--warp";
  const csr a = make_matrix();
  const std::vector<double> x0 = make_x();
  const std::size_t nnz = a.val.size();

  offload::buffer<std::int32_t> d_rp(N + 1), d_col(nnz);
  offload::buffer<double> d_val(nnz), d_x(N), d_y(N);
  d_rp.copy_from(a.rowptr);
  d_col.copy_from(a.col);
  d_val.copy_from(a.val);

  // one row per work-item, as a lambda
  auto run = [&] {
    d_x.copy_from(x0);
    offload::device_ptr<double> x = d_x.data(), y = d_y.data();
    for (int it = 0; it < ITERS; ++it) {
      offload::device_ptr<const std::int32_t> rp = d_rp.data(), col = d_col.data();
      offload::device_ptr<const double> val = d_val.data(), xin = x;
      offload::device_ptr<double> yout = y;
      offload::parallel_for(offload::range{std::size_t(N)}, [=](std::size_t i) {
        double s = 0;
        for (std::int32_t k = rp[i]; k < rp[i + 1]; ++k) s += val[k] * xin[col[k]];
        yout[i] = s;
      });
      std::swap(x, y);
    }
    offload::synchronize();
  };
  run();
  double ms = bench::median_ms(run);
  std::vector<double> out(N);
  d_x.copy_to(out);   // after an even number of swaps the result is in d_x

  // one warp per row
  const offload::launch_config wcfg{.workgroups = {(N + WARPS_PER_WG - 1) / WARPS_PER_WG}, .threads = {WG}};
  auto run_warp = [&] {
    d_x.copy_from(x0);
    offload::device_ptr<double> x = d_x.data(), y = d_y.data();
    for (int it = 0; it < ITERS; ++it) {
      offload::launch(spmv_warp, wcfg, d_rp.data(), d_col.data(), d_val.data(), x, y, N);
      std::swap(x, y);
    }
    offload::synchronize();
  };
  double ms_warp = 0;
  std::vector<double> out_warp;
  if (with_warp) {  // slow on the CPU device (32 work-items per row): median of 3 only
    run_warp();
    ms_warp = bench::median_ms(run_warp, 3);
    out_warp.resize(N);
    d_x.copy_to(out_warp);
  }

  std::vector<double> ref = reference(a, x0), twin;
  double d = bench::max_rel_diff(out, ref, 1e-12), dw = with_warp ? bench::max_rel_diff(out_warp, ref, 1e-12) : 0.0;
  bool ok = d < 1e-12 && dw < 1e-12;
  if (bench::read_file("spmv_omp.out", twin, out.size())) {
    double dt = bench::max_rel_diff(out, twin, 1e-12);
    std::printf("vs OpenMP twin: max rel diff %.2e\n", dt);
    ok = ok && dt < 1e-12;
  } else {
    std::printf("(no spmv_omp.out: run ./spmv_omp first to compare with the twin)\n");
  }
  std::printf("CHECK %s (max rel diff vs serial: row-per-item %.2e, warp-per-row %.2e, on %s)\n",
              ok ? "ok" : "WRONG", d, dw, offload::last_launch_device().c_str());
  std::printf("spmv %.2f ms\n", ms);
  if (with_warp) std::printf("spmv_warp %.2f ms (median of 3)\n", ms_warp);
  return ok ? 0 : 1;
}
