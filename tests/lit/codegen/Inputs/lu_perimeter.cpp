// LU decomposition's perimeter kernel (Rodinia 3.1 lud_perimeter, rewritten): a body too large for
// LLVM to inline on its own, reading and writing a device_ptr (issue 30, gpu-entry.test).
#include <offload/offload.hpp>
constexpr int B = 16;
OFFLOAD_KERNEL void perimeter(offload::device_ptr<float> m, int matrix_dim, int offset) {
  auto &dia = offload::shared<float[B][B]>([] {});
  auto &peri_row = offload::shared<float[B][B]>([] {});
  auto &peri_col = offload::shared<float[B][B]>([] {});
  int i, j, array_offset, idx;
  if (offload::thread_id_x() < B) {
    idx = offload::thread_id_x();
    array_offset = offset * matrix_dim + offset;
    for (i = 0; i < B / 2; i++) { dia[i][idx] = m[array_offset + idx]; array_offset += matrix_dim; }
    array_offset = offset * matrix_dim + offset;
    for (i = 0; i < B; i++) { peri_row[i][idx] = m[array_offset + (offload::block_id_x() + 1) * B + idx]; array_offset += matrix_dim; }
  } else {
    idx = offload::thread_id_x() - B;
    array_offset = (offset + B / 2) * matrix_dim + offset;
    for (i = B / 2; i < B; i++) { dia[i][idx] = m[array_offset + idx]; array_offset += matrix_dim; }
    array_offset = (offset + (offload::block_id_x() + 1) * B) * matrix_dim + offset;
    for (i = 0; i < B; i++) { peri_col[i][idx] = m[array_offset + idx]; array_offset += matrix_dim; }
  }
  offload::barrier();
  if (offload::thread_id_x() < B) {
    idx = offload::thread_id_x();
    for (i = 1; i < B; i++) for (j = 0; j < i; j++) peri_row[i][idx] -= dia[i][j] * peri_row[j][idx];
  } else {
    idx = offload::thread_id_x() - B;
    for (i = 0; i < B; i++) { for (j = 0; j < i; j++) peri_col[idx][i] -= peri_col[idx][j] * dia[j][i]; peri_col[idx][i] /= dia[i][i]; }
  }
  offload::barrier();
  if (offload::thread_id_x() < B) {
    idx = offload::thread_id_x();
    array_offset = (offset + 1) * matrix_dim + offset;
    for (i = 1; i < B; i++) { m[array_offset + (offload::block_id_x() + 1) * B + idx] = peri_row[i][idx]; array_offset += matrix_dim; }
  } else {
    idx = offload::thread_id_x() - B;
    array_offset = (offset + (offload::block_id_x() + 1) * B) * matrix_dim + offset;
    for (i = 0; i < B; i++) { m[array_offset + idx] = peri_col[i][idx]; array_offset += matrix_dim; }
  }
}
int main() {
  offload::buffer<float> m(64 * 64);
  offload::launch(perimeter, {.workgroups = {2}, .threads = {32}}, m.data(), 64, 0);
  offload::synchronize();
}
