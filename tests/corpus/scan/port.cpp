// Port of HeCBench src/scan-cuda/main.cu to offload-cxx (see SOURCE.md).
// Work-efficient (Blelloch) exclusive scan of each block of N elements in shared memory, plain
// and bank-conflict-avoiding, for char/short/int/long and N = 128 .. 2048.
// usage: scan [number of elements] [repeat]
#include <offload/offload.hpp>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cstdint>
#include <vector>

static int failures = 0;
static double total_ms = 0;

template<typename T>
void verify(const T* cpu_out, const T* gpu_out, int64_t n)
{
  int error = memcmp(cpu_out, gpu_out, n * sizeof(T));
  if (error) {
    for (int64_t i = 0; i < n; i++) {
      if (cpu_out[i] != gpu_out[i]) {
        printf("@%zu: %lf != %lf\n", (size_t)i, (double)cpu_out[i], (double)gpu_out[i]);
        break;
      }
    }
    ++failures;
  }
  printf("%s\n", error ? "FAIL" : "PASS");
}

// bank conflict aware optimization

#define LOG_MEM_BANKS 5
#define OFFSET(n) ((n) >> LOG_MEM_BANKS)

// N is the number of elements to scan in a thread block
template<typename T, int N>
OFFLOAD_KERNEL void scan_bcao (
  const int64_t nblocks,
        offload::device_ptr<T> g_odata,
        offload::device_ptr<T> g_idata)
{
  auto &temp = offload::shared<T[2*N]>([] {});

  for (int64_t bid = offload::block_id_x(); bid < nblocks; bid += offload::grid_dim_x())
  {
    auto gi = &g_idata[bid * N];
    auto go = &g_odata[bid * N];

    int thid = offload::thread_id_x();
    int a = thid;
    int b = a + (N/2);
    int oa = OFFSET(a);
    int ob = OFFSET(b);

    temp[a + oa] = gi[a];
    temp[b + ob] = gi[b];

    int offset = 1;
    for (int d = N >> 1; d > 0; d >>= 1)
    {
      offload::barrier();
      if (thid < d)
      {
        int ai = offset*(2*thid+1)-1;
        int bi = offset*(2*thid+2)-1;
        ai += OFFSET(ai);
        bi += OFFSET(bi);
        temp[bi] += temp[ai];
      }
      offset *= 2;
    }

    if (thid == 0) temp[N-1+OFFSET(N-1)] = 0; // clear the last elem
    for (int d = 1; d < N; d *= 2) // traverse down
    {
      offset >>= 1;
      offload::barrier();
      if (thid < d)
      {
        int ai = offset*(2*thid+1)-1;
        int bi = offset*(2*thid+2)-1;
        ai += OFFSET(ai);
        bi += OFFSET(bi);
        T t = temp[ai];
        temp[ai] = temp[bi];
        temp[bi] += t;
      }
    }
    offload::barrier(); // required

    go[a] = temp[a + oa];
    go[b] = temp[b + ob];
  }
}

template<typename T, int N>
OFFLOAD_KERNEL void scan(
  const int64_t nblocks,
        offload::device_ptr<T> g_odata,
        offload::device_ptr<T> g_idata)
{
  auto &temp = offload::shared<T[N]>([] {});

  for (int64_t bid = offload::block_id_x(); bid < nblocks; bid += offload::grid_dim_x())
  {
    auto gi = &g_idata[bid * N];
    auto go = &g_odata[bid * N];

    int thid = offload::thread_id_x();
    int offset = 1;
    temp[2*thid]   = gi[2*thid];
    temp[2*thid+1] = gi[2*thid+1];
    for (int d = N >> 1; d > 0; d >>= 1)
    {
      offload::barrier();
      if (thid < d)
      {
        int ai = offset*(2*thid+1)-1;
        int bi = offset*(2*thid+2)-1;
        temp[bi] += temp[ai];
      }
      offset *= 2;
    }

    if (thid == 0) temp[N-1] = 0; // clear the last elem
    for (int d = 1; d < N; d *= 2) // traverse down
    {
      offset >>= 1;
      offload::barrier();
      if (thid < d)
      {
        int ai = offset*(2*thid+1)-1;
        int bi = offset*(2*thid+2)-1;
        T t = temp[ai];
        temp[ai] = temp[bi];
        temp[bi] += t;
      }
    }
    go[2*thid] = temp[2*thid];
    go[2*thid+1] = temp[2*thid+1];
  }
}

template <typename T, int N>
void runTest (const int64_t n, const int repeat)
{
  int64_t num_blocks = (n + N - 1) / N;

  int64_t nelems = num_blocks * N; // actual total number of elements

  std::vector<T> in(nelems), cpu_out(nelems), gpu_out(nelems);

  srand(123);
  for (int64_t n = 0; n < nelems; n++) in[n] = rand() % 5 + 1;

  T *t_in = in.data();
  T *t_out = cpu_out.data();
  for (int64_t n = 0; n < num_blocks; n++) {
    t_out[0] = 0;
    for (int i = 1; i < N; i++)
      t_out[i] = t_out[i-1] + t_in[i-1];
    t_out += N;
    t_in += N;
  }

  offload::buffer<T> d_in(nelems), d_out(nelems);
  d_in.copy_from(in);

  // the original uses 16 * prop.multiProcessorCount workgroups: 132 SMs, an H100/H200
  offload::launch_config cfg{.workgroups = {16 * 132}, .threads = {N/2}};

  offload::queue q;
  auto start = q.record();
  for (int i = 0; i < repeat; i++) {
    q.launch(scan<T, N>, cfg, num_blocks, d_out.data(), d_in.data());
  }
  auto end = q.record();
  q.wait();
  float time = offload::elapsed_ms(start, end);
  printf("Element size in bytes is %zu, N = %d. Average execution time of scan (w/  bank conflicts): %f (us)\n",
         sizeof(T), N, (time * 1e3f) / repeat);
  d_out.copy_to(gpu_out);
  verify(cpu_out.data(), gpu_out.data(), nelems);

  // bcao
  std::vector<T> zero(nelems);
  d_out.copy_from(zero);  // so that this kernel's results are the ones verified
  start = q.record();
  for (int i = 0; i < repeat; i++) {
    q.launch(scan_bcao<T, N>, cfg, num_blocks, d_out.data(), d_in.data());
  }
  end = q.record();
  q.wait();
  float bcao_time = offload::elapsed_ms(start, end);
  printf("Element size in bytes is %zu, N = %d. Average execution time of scan (w/o bank conflicts): %f (us). ",
         sizeof(T), N, (bcao_time * 1e3f) / repeat);
  printf("Reduce the time by %.1f%%\n", (time - bcao_time) * 1.0 / time * 100);
  d_out.copy_to(gpu_out);
  verify(cpu_out.data(), gpu_out.data(), nelems);
  total_ms += time + bcao_time;
}

template<int N>
void run (const int64_t n, const int repeat) {
  printf("\nThe number of elements to scan in a thread block: %d\n", N);
  runTest< char, N>(n, repeat);
  runTest<short, N>(n, repeat);
  runTest<  int, N>(n, repeat);
  runTest< long, N>(n, repeat);
}

int main(int argc, char* argv[])
{
  const int64_t n = argc > 1 ? atol(argv[1]) : 100000;  // SMALL; e.g. 100000000 on a GPU
  const int repeat = argc > 2 ? atoi(argv[2]) : 1;
  if (n <= 0 || repeat <= 0) {
    printf("scan: FAIL bad arguments\n");
    return 1;
  }

  run< 128>(n, repeat);
  run< 256>(n, repeat);
  run< 512>(n, repeat);
  run<1024>(n, repeat);
  run<2048>(n, repeat);

  printf("time_ms: %f (all kernels)\n", total_ms);
  if (failures) {
    printf("scan: FAIL %d of 40 results differ from the host's\n", failures);
    return 1;
  }
  printf("scan: PASS\n");
  return 0;
}
