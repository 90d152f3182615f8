// Port of Rodinia 3.1 cuda/gaussian/gaussian.cu to offload-cxx (see SOURCE.md).
// Gaussian elimination of Ax = b: per column t, Fan1 (multipliers, 1-D) and Fan2 (row update,
// 2-D workgroups of 4x4), then back substitution on the host.
// usage: rodinia-gaussian [size]   (default 256; e.g. 1024 for a GPU run)
#include <offload/offload.hpp>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include <vector>

#define MAXBLOCKSIZE 512
#define BLOCK_SIZE_XY 4

int Size;
float *a, *b, *finalVec;
float *m;

void InitPerRun();
void ForwardSub();
void BackSub();

unsigned int totalKernelTime = 0;

// create both matrix and right hand side, Ke Wang 2013/08/12 11:51:06
void
create_matrix(float *m, int size){
  int i,j;
  float lamda = -0.01;
  std::vector<float> coe(2*size-1);  // the original: a variable-length array
  float coe_i =0.0;

  for (i=0; i < size; i++)
    {
      coe_i = 10*exp(lamda*i);
      j=size-1+i;
      coe[j]=coe_i;
      j=size-1-i;
      coe[j]=coe_i;
    }


  for (i=0; i < size; i++) {
      for (j=0; j < size; j++) {
	m[i*size+j]=coe[size-1-i+j];
      }
  }


}

/*-------------------------------------------------------
 ** Fan1() -- Calculate multiplier matrix
 **-------------------------------------------------------
 */
OFFLOAD_KERNEL void Fan1(offload::device_ptr<float> m_cuda, offload::device_ptr<float> a_cuda, int Size, int t)
{
	if(offload::thread_id_x() + offload::block_id_x() * offload::block_dim_x() >= Size-1-t) return;
	*(m_cuda+Size*(offload::block_dim_x()*offload::block_id_x()+offload::thread_id_x()+t+1)+t) = *(a_cuda+Size*(offload::block_dim_x()*offload::block_id_x()+offload::thread_id_x()+t+1)+t) / *(a_cuda+Size*t+t);
}

/*-------------------------------------------------------
 ** Fan2() -- Modify the matrix A into LUD
 **-------------------------------------------------------
 */

OFFLOAD_KERNEL void Fan2(offload::device_ptr<float> m_cuda, offload::device_ptr<float> a_cuda, offload::device_ptr<float> b_cuda,int Size, int j1, int t)
{
	if(offload::thread_id_x() + offload::block_id_x() * offload::block_dim_x() >= Size-1-t) return;
	if(offload::thread_id_y() + offload::block_id_y() * offload::block_dim_y() >= Size-t) return;

	int xidx = offload::block_id_x() * offload::block_dim_x() + offload::thread_id_x();
	int yidx = offload::block_id_y() * offload::block_dim_y() + offload::thread_id_y();

	a_cuda[Size*(xidx+1+t)+(yidx+t)] -= m_cuda[Size*(xidx+1+t)+t] * a_cuda[Size*t+(yidx+t)];
	if(yidx == 0){
		b_cuda[xidx+1+t] -= m_cuda[Size*(xidx+1+t)+(yidx+t)] * b_cuda[t];
	}
}

int main(int argc, char *argv[])
{
  printf("WG size of kernel 1 = %d, WG size of kernel 2= %d X %d\n", MAXBLOCKSIZE, BLOCK_SIZE_XY, BLOCK_SIZE_XY);
  // The original takes -f FILE or -s SIZE (and -q); the port takes the size alone and generates
  // the matrix as the original's -s does (create_matrix, b = 1).
  Size = argc > 1 ? atoi(argv[1]) : 256;
  if (Size < 2) {
    printf("rodinia-gaussian: FAIL bad size\n");
    return 1;
  }
  printf("Create matrix internally in parse, size = %d \n", Size);
  a = (float *) malloc(Size * Size * sizeof(float));
  create_matrix(a, Size);
  b = (float *) malloc(Size * sizeof(float));
  for (int j =0; j< Size; j++)
    b[j]=1.0;
  m = (float *) malloc(Size * Size * sizeof(float));
  // the host's copy of the inputs, for the check
  std::vector<float> a0(a, a + Size * Size), b0(b, b + Size);

  InitPerRun();
  //begin timing
  struct timeval time_start;
  gettimeofday(&time_start, NULL);

  // run kernels
  ForwardSub();

  //end timing
  struct timeval time_end;
  gettimeofday(&time_end, NULL);
  unsigned int time_total = (time_end.tv_sec * 1000000 + time_end.tv_usec) - (time_start.tv_sec * 1000000 + time_start.tv_usec);

  BackSub();
  printf("\nTime total (including memory transfers)\t%f sec\n", time_total * 1e-6);
  printf("Time for CUDA kernels:\t%f sec\n",totalKernelTime * 1e-6);
  printf("time_ms: %f\n", totalKernelTime * 1e-3);

  // Check: the same elimination on the host (float, same order of operations), then the
  // solution's residual against the original system.
  std::vector<float> ra(a0), rb(b0), rm(Size * Size, 0.0f);
  for (int t = 0; t < Size - 1; t++) {
    for (int i = t + 1; i < Size; i++) rm[Size * i + t] = ra[Size * i + t] / ra[Size * t + t];
    for (int i = t + 1; i < Size; i++) {
      for (int j = t; j < Size; j++) ra[Size * i + j] -= rm[Size * i + t] * ra[Size * t + j];
      rb[i] -= rm[Size * i + t] * rb[t];
    }
  }
  double amax = 0, err = 0, merr = 0, berr = 0, bmax = 0;
  for (int i = 0; i < Size * Size; i++) {
    amax = fmax(amax, fabs(ra[i]));
    err = fmax(err, fabs(ra[i] - a[i]));
    merr = fmax(merr, fabs(rm[i] - m[i]));
  }
  for (int i = 0; i < Size; i++) {
    bmax = fmax(bmax, fabs(rb[i]));
    berr = fmax(berr, fabs(rb[i] - b[i]));
  }
  double res = 0;  // max |A0 x - b0| in double
  for (int i = 0; i < Size; i++) {
    double s = 0;
    for (int j = 0; j < Size; j++) s += double(a0[Size * i + j]) * finalVec[j];
    res = fmax(res, fabs(s - b0[i]));
  }
  printf("max |a - a_host| = %g (of %g), max |m - m_host| = %g, max |b - b_host| = %g (of %g), residual %g\n",
         err, amax, merr, berr, bmax, res);
  bool ok = err <= 1e-3 * amax && merr <= 1e-3 && berr <= 1e-3 * bmax;

  free(m);
  free(a);
  free(b);
  free(finalVec);
  if (!ok) {
    printf("rodinia-gaussian: FAIL the device's elimination differs from the host's\n");
    return 1;
  }
  printf("rodinia-gaussian: PASS\n");
  return 0;
}

/*------------------------------------------------------
 ** InitPerRun() -- Initialize the contents of the
 ** multipier matrix **m
 **------------------------------------------------------
 */
void InitPerRun()
{
	int i;
	for (i=0; i<Size*Size; i++)
			*(m+i) = 0.0;
}

/*------------------------------------------------------
 ** ForwardSub() -- Forward substitution of Gaussian
 ** elimination.
 **------------------------------------------------------
 */
void ForwardSub()
{
	int t;
	// allocate memory on GPU
	offload::buffer<float> m_cuda(Size * Size);
	offload::buffer<float> a_cuda(Size * Size);
	offload::buffer<float> b_cuda(Size);

	// copy memory to GPU
	m_cuda.copy_from(std::span<const float>(m, Size * Size));
	a_cuda.copy_from(std::span<const float>(a, Size * Size));
	b_cuda.copy_from(std::span<const float>(b, Size));

	int block_size,grid_size;

	block_size = MAXBLOCKSIZE;
	grid_size = (Size/block_size) + (!(Size%block_size)? 0:1);

	offload::launch_config dimGrid{.workgroups = {grid_size}, .threads = {block_size}};

	int blockSize2d, gridSize2d;
	blockSize2d = BLOCK_SIZE_XY;
	gridSize2d = (Size/blockSize2d) + (!(Size%blockSize2d?0:1));

	offload::launch_config dimGridXY{.workgroups = {gridSize2d, gridSize2d}, .threads = {blockSize2d, blockSize2d}};

    // begin timing kernels
    struct timeval time_start;
    gettimeofday(&time_start, NULL);
	for (t=0; t<(Size-1); t++) {
		offload::launch(Fan1, dimGrid, m_cuda.data(), a_cuda.data(), Size, t);
		offload::synchronize();  // cudaThreadSynchronize()
		offload::launch(Fan2, dimGridXY, m_cuda.data(), a_cuda.data(), b_cuda.data(), Size, Size-t, t);
		offload::synchronize();
	}
	// end timing kernels
	struct timeval time_end;
    gettimeofday(&time_end, NULL);
    totalKernelTime = (time_end.tv_sec * 1000000 + time_end.tv_usec) - (time_start.tv_sec * 1000000 + time_start.tv_usec);

	// copy memory back to CPU
	m_cuda.copy_to(std::span<float>(m, Size * Size));
	a_cuda.copy_to(std::span<float>(a, Size * Size));
	b_cuda.copy_to(std::span<float>(b, Size));
}

/*------------------------------------------------------
 ** BackSub() -- Backward substitution
 **------------------------------------------------------
 */

void BackSub()
{
	// create a new vector to hold the final answer
	finalVec = (float *) malloc(Size * sizeof(float));
	// solve "bottom up"
	int i,j;
	for(i=0;i<Size;i++){
		finalVec[Size-i-1]=b[Size-i-1];
		for(j=0;j<i;j++)
		{
			finalVec[Size-i-1]-=*(a+Size*(Size-i-1)+(Size-j-1)) * finalVec[Size-j-1];
		}
		finalVec[Size-i-1]=finalVec[Size-i-1]/ *(a+Size*(Size-i-1)+(Size-i-1));
	}
}
