// Port of Rodinia 3.1 cuda/pathfinder/pathfinder.cu to offload-cxx (see SOURCE.md).
// Dynamic programming over a grid of weights: each row's shortest path from the row above
// (min of three neighbours), several rows per launch in 256-wide shared-memory tiles ("pyramid").
// usage: rodinia-pathfinder [row_len] [col_len] [pyramid_height]
//        (default 100000 100 20, the original's run script; e.g. 1000000 200 20 for a GPU run)
#include <offload/offload.hpp>

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

#include <vector>

#define BLOCK_SIZE 256
#define STR_SIZE 256
#define DEVICE 0
#define HALO 1 // halo width along one direction when advancing to the next iteration

void run(int argc, char** argv);

int rows, cols;
int* data;
int** wall;
int* result;
#define M_SEED 9
int pyramid_height;

//#define BENCH_PRINT  (the original prints the whole grid and result: left out)

void
init(int argc, char** argv)
{
	// The original requires the three arguments; the port has defaults (its run script's).
	cols = argc > 1 ? atoi(argv[1]) : 100000;
	rows = argc > 2 ? atoi(argv[2]) : 100;
	pyramid_height = argc > 3 ? atoi(argv[3]) : 20;
	if (cols <= 0 || rows <= 1 || pyramid_height <= 0 || pyramid_height * HALO * 2 >= BLOCK_SIZE) {
		printf("Usage: dynproc row_len col_len pyramid_height\n");
		printf("rodinia-pathfinder: FAIL bad arguments\n");
		exit(1);
	}
	data = new int[rows*cols];
	wall = new int*[rows];
	for(int n=0; n<rows; n++)
		wall[n]=data+cols*n;
	result = new int[cols];

	int seed = M_SEED;
	srand(seed);

	for (int i = 0; i < rows; i++)
    {
        for (int j = 0; j < cols; j++)
        {
            wall[i][j] = rand() % 10;
        }
    }
}

#define IN_RANGE(x, min, max)   ((x)>=(min) && (x)<=(max))
#define CLAMP_RANGE(x, min, max) x = (x<(min)) ? min : ((x>(max)) ? max : x )
#define MIN(a, b) ((a)<=(b) ? (a) : (b))

OFFLOAD_KERNEL void dynproc_kernel(
                int iteration,
                offload::device_ptr<int> gpuWall,
                offload::device_ptr<int> gpuSrc,
                offload::device_ptr<int> gpuResults,
                int cols,
                int rows,
                int startStep,
                int border)
{

        auto &prev = offload::shared<int[BLOCK_SIZE]>([] {});
        auto &result = offload::shared<int[BLOCK_SIZE]>([] {});

	int bx = offload::block_id_x();
	int tx=offload::thread_id_x();

        // each block finally computes result for a small block
        // after N iterations.
        // it is the non-overlapping small blocks that cover
        // all the input data

        // calculate the small block size
	int small_block_cols = BLOCK_SIZE-iteration*HALO*2;

        // calculate the boundary for the block according to
        // the boundary of its small block
        int blkX = small_block_cols*bx-border;
        int blkXmax = blkX+BLOCK_SIZE-1;

        // calculate the global thread coordination
	int xidx = blkX+tx;

        // effective range within this block that falls within
        // the valid range of the input data
        // used to rule out computation outside the boundary.
        int validXmin = (blkX < 0) ? -blkX : 0;
        int validXmax = (blkXmax > cols-1) ? BLOCK_SIZE-1-(blkXmax-cols+1) : BLOCK_SIZE-1;

        int W = tx-1;
        int E = tx+1;

        W = (W < validXmin) ? validXmin : W;
        E = (E > validXmax) ? validXmax : E;

        bool isValid = IN_RANGE(tx, validXmin, validXmax);

	if(IN_RANGE(xidx, 0, cols-1)){
            prev[tx] = gpuSrc[xidx];
	}
	offload::barrier(); // [Ronny] Added sync to avoid race on prev Aug. 14 2012
        bool computed;
        for (int i=0; i<iteration ; i++){
            computed = false;
            if( IN_RANGE(tx, i+1, BLOCK_SIZE-i-2) &&  \
                  isValid){
                  computed = true;
                  int left = prev[W];
                  int up = prev[tx];
                  int right = prev[E];
                  int shortest = MIN(left, up);
                  shortest = MIN(shortest, right);
                  int index = cols*(startStep+i)+xidx;
                  result[tx] = shortest + gpuWall[index];

            }
            offload::barrier();
            if(i==iteration-1)
                break;
            if(computed)	 //Assign the computation range
                prev[tx]= result[tx];
	    offload::barrier(); // [Ronny] Added sync to avoid race on prev Aug. 14 2012
      }

      // update the global memory
      // after the last iteration, only threads coordinated within the
      // small block perform the calculation and switch on ``computed''
      if (computed){
          gpuResults[xidx]=result[tx];
      }
}

/*
   compute N time steps
*/
int calc_path(offload::buffer<int> &gpuWall, offload::buffer<int> *gpuResult, int rows, int cols, \
	 int pyramid_height, int blockCols, int borderCols)
{
        offload::launch_config cfg{.workgroups = {blockCols}, .threads = {BLOCK_SIZE}};

        int src = 1, dst = 0;
	for (int t = 0; t < rows-1; t+=pyramid_height) {
            int temp = src;
            src = dst;
            dst = temp;
            offload::launch(dynproc_kernel, cfg,
                (int)MIN(pyramid_height, rows-t-1),
                gpuWall.data(), gpuResult[src].data(), gpuResult[dst].data(),
                cols,rows, t, borderCols);
	}
        return dst;
}

int main(int argc, char** argv)
{
    run(argc,argv);
    return 0;
}

void run(int argc, char** argv)
{
    init(argc, argv);

    /* --------------- pyramid parameters --------------- */
    int borderCols = (pyramid_height)*HALO;
    int smallBlockCol = BLOCK_SIZE-(pyramid_height)*HALO*2;
    int blockCols = cols/smallBlockCol+((cols%smallBlockCol==0)?0:1);

    printf("pyramidHeight: %d\ngridSize: [%d]\nborder:[%d]\nblockSize: %d\nblockGrid:[%d]\ntargetBlock:[%d]\n",\
	pyramid_height, cols, borderCols, BLOCK_SIZE, blockCols, smallBlockCol);

    int size = rows*cols;

    offload::buffer<int> gpuResult[2] = {offload::buffer<int>(cols), offload::buffer<int>(cols)};
    gpuResult[0].copy_from(std::span<const int>(data, cols));
    offload::buffer<int> gpuWall(size-cols);
    gpuWall.copy_from(std::span<const int>(data+cols, size-cols));

    // timed as the original with its added timing lines (SOURCE.md): the launches and a wait
    struct timeval t0, t1;
    gettimeofday(&t0, NULL);
    int final_ret = calc_path(gpuWall, gpuResult, rows, cols, \
	 pyramid_height, blockCols, borderCols);
    offload::synchronize();
    gettimeofday(&t1, NULL);
    double ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_usec - t0.tv_usec) * 1e-3;
    printf("Kernel time: %f (ms)\n", ms);
    printf("time_ms: %f\n", ms);

    gpuResult[final_ret].copy_to(std::span<int>(result, cols));

    // Check (the original prints the result instead): the same recurrence on the host.
    std::vector<int> prev(data, data + cols), next(cols);
    for (int t = 1; t < rows; t++) {
        for (int j = 0; j < cols; j++) {
            int s = prev[j];
            if (j > 0) s = MIN(s, prev[j - 1]);
            if (j < cols - 1) s = MIN(s, prev[j + 1]);
            next[j] = s + wall[t][j];
        }
        prev.swap(next);
    }
    int bad = 0;
    for (int j = 0; j < cols; j++)
        if (prev[j] != result[j]) {
            if (!bad) printf("result[%d] = %d (device) != %d (host)\n", j, result[j], prev[j]);
            bad++;
        }

    delete [] data;
    delete [] wall;
    delete [] result;
    if (bad) {
        printf("rodinia-pathfinder: FAIL %d of %d results differ from the host's\n", bad, cols);
        exit(1);
    }
    printf("rodinia-pathfinder: PASS\n");
}
