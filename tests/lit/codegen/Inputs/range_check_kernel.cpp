// A kernel as most are written: one work-item per element, guarded by `if (i < n)`
// (opt-range-check-versioning.test).
#include <offload/offload.hpp>

OFFLOAD_KERNEL void saxpy(float a, offload::device_ptr<const float> x, offload::device_ptr<float> y,
                          unsigned n) {
  const unsigned i = unsigned(offload::global_id_x());
  if (i < n)
    y[i] = a * x[i] + y[i];
}

int main() {
  offload::buffer<float> x(1000), y(1000);
  offload::launch(saxpy, {.workgroups = {4}, .threads = {256}}, 2.0f, x.data(), y.data(), 1000u);
}
