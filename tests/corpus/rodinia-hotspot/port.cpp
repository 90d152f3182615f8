// Port of Rodinia 3.1 cuda/hotspot/hotspot.cu to offload-cxx (see SOURCE.md).
// Thermal simulation: a 2-D stencil over 16x16 shared-memory tiles, several time steps per launch
// ("pyramid": each workgroup computes a shrinking tile, re-reading its halo every launch).
// usage: rodinia-hotspot [grid_rows/grid_cols] [pyramid_height] [sim_time]
//        (default 512 2 60; e.g. 2048 2 200 for a GPU run)
#include <offload/offload.hpp>

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

#include <vector>

#define BLOCK_SIZE 16

#define STR_SIZE 256

/* maximum power density possible (say 300W for a 10mm x 10mm chip)	*/
#define MAX_PD	(3.0e6)
/* required precision in degrees	*/
#define PRECISION	0.001
#define SPEC_HEAT_SI 1.75e6
#define K_SI 100
/* capacitance fitting factor	*/
#define FACTOR_CHIP	0.5

/* chip parameters	*/
float t_chip = 0.0005;
float chip_height = 0.016;
float chip_width = 0.016;
/* ambient temperature, assuming no package at all	*/
float amb_temp = 80.0;

void run(int argc, char** argv);

void
fatal(const char *s)
{
	fprintf(stderr, "error: %s\n", s);

}

// The original reads the initial temperatures and the power of each cell from two files
// (readinput). The port generates them; bench/corpus/rodinia/inputs.c writes the same values as
// files of the original's format ("%.9g" per line, exact for floats).
void generate_input(float *temp, float *power, int grid_rows, int grid_cols){
	unsigned s = 12345u;
	for (int i = 0; i < grid_rows * grid_cols; i++) {
		s = s * 1103515245u + 12345u;
		temp[i] = 323.0f + (float)((s >> 8) % 2000) / 100.0f;   // 323 .. 343 K
		s = s * 1103515245u + 12345u;
		power[i] = (float)((s >> 8) % 1000) * 1.0e-6f;           // 0 .. 1 mW a cell
	}
}

#define IN_RANGE(x, min, max)   ((x)>=(min) && (x)<=(max))
#define CLAMP_RANGE(x, min, max) x = (x<(min)) ? min : ((x>(max)) ? max : x )
#define MIN(a, b) ((a)<=(b) ? (a) : (b))

OFFLOAD_KERNEL void calculate_temp(int iteration,  //number of iteration
                               offload::device_ptr<float> power,   //power input
                               offload::device_ptr<float> temp_src,    //temperature input/output
                               offload::device_ptr<float> temp_dst,    //temperature input/output
                               int grid_cols,  //Col of grid
                               int grid_rows,  //Row of grid
							   int border_cols,  // border offset
							   int border_rows,  // border offset
                               float Cap,      //Capacitance
                               float Rx,
                               float Ry,
                               float Rz,
                               float step,
                               float time_elapsed){

        auto &temp_on_cuda = offload::shared<float[BLOCK_SIZE][BLOCK_SIZE]>([] {});
        auto &power_on_cuda = offload::shared<float[BLOCK_SIZE][BLOCK_SIZE]>([] {});
        auto &temp_t = offload::shared<float[BLOCK_SIZE][BLOCK_SIZE]>([] {}); // saving temparary temperature result

	float amb_temp = 80.0;
        float step_div_Cap;
        float Rx_1,Ry_1,Rz_1;

	int bx = offload::block_id_x();
        int by = offload::block_id_y();

	int tx=offload::thread_id_x();
	int ty=offload::thread_id_y();

	step_div_Cap=step/Cap;

	Rx_1=1/Rx;
	Ry_1=1/Ry;
	Rz_1=1/Rz;

        // each block finally computes result for a small block
        // after N iterations.
        // it is the non-overlapping small blocks that cover
        // all the input data

        // calculate the small block size
	int small_block_rows = BLOCK_SIZE-iteration*2;//EXPAND_RATE
	int small_block_cols = BLOCK_SIZE-iteration*2;//EXPAND_RATE

        // calculate the boundary for the block according to
        // the boundary of its small block
        int blkY = small_block_rows*by-border_rows;
        int blkX = small_block_cols*bx-border_cols;
        int blkYmax = blkY+BLOCK_SIZE-1;
        int blkXmax = blkX+BLOCK_SIZE-1;

        // calculate the global thread coordination
	int yidx = blkY+ty;
	int xidx = blkX+tx;

        // load data if it is within the valid input range
	int loadYidx=yidx, loadXidx=xidx;
        int index = grid_cols*loadYidx+loadXidx;

	if(IN_RANGE(loadYidx, 0, grid_rows-1) && IN_RANGE(loadXidx, 0, grid_cols-1)){
            temp_on_cuda[ty][tx] = temp_src[index];  // Load the temperature data from global memory to shared memory
            power_on_cuda[ty][tx] = power[index];// Load the power data from global memory to shared memory
	}
	offload::barrier();

        // effective range within this block that falls within
        // the valid range of the input data
        // used to rule out computation outside the boundary.
        int validYmin = (blkY < 0) ? -blkY : 0;
        int validYmax = (blkYmax > grid_rows-1) ? BLOCK_SIZE-1-(blkYmax-grid_rows+1) : BLOCK_SIZE-1;
        int validXmin = (blkX < 0) ? -blkX : 0;
        int validXmax = (blkXmax > grid_cols-1) ? BLOCK_SIZE-1-(blkXmax-grid_cols+1) : BLOCK_SIZE-1;

        int N = ty-1;
        int S = ty+1;
        int W = tx-1;
        int E = tx+1;

        N = (N < validYmin) ? validYmin : N;
        S = (S > validYmax) ? validYmax : S;
        W = (W < validXmin) ? validXmin : W;
        E = (E > validXmax) ? validXmax : E;

        bool computed;
        for (int i=0; i<iteration ; i++){
            computed = false;
            if( IN_RANGE(tx, i+1, BLOCK_SIZE-i-2) &&  \
                  IN_RANGE(ty, i+1, BLOCK_SIZE-i-2) &&  \
                  IN_RANGE(tx, validXmin, validXmax) && \
                  IN_RANGE(ty, validYmin, validYmax) ) {
                  computed = true;
                  temp_t[ty][tx] =   temp_on_cuda[ty][tx] + step_div_Cap * (power_on_cuda[ty][tx] +
	       	         (temp_on_cuda[S][tx] + temp_on_cuda[N][tx] - 2.0*temp_on_cuda[ty][tx]) * Ry_1 +
		             (temp_on_cuda[ty][E] + temp_on_cuda[ty][W] - 2.0*temp_on_cuda[ty][tx]) * Rx_1 +
		             (amb_temp - temp_on_cuda[ty][tx]) * Rz_1);

            }
            offload::barrier();
            if(i==iteration-1)
                break;
            if(computed)	 //Assign the computation range
                temp_on_cuda[ty][tx]= temp_t[ty][tx];
            offload::barrier();
          }

      // update the global memory
      // after the last iteration, only threads coordinated within the
      // small block perform the calculation and switch on ``computed''
      if (computed){
          temp_dst[index]= temp_t[ty][tx];
      }
}

/*
   compute N time steps
*/

int compute_tran_temp(offload::buffer<float> &MatrixPower,offload::buffer<float> *MatrixTemp, int col, int row, \
		int total_iterations, int num_iterations, int blockCols, int blockRows, int borderCols, int borderRows)
{
        offload::launch_config cfg{.workgroups = {blockCols, blockRows}, .threads = {BLOCK_SIZE, BLOCK_SIZE}};

	float grid_height = chip_height / row;
	float grid_width = chip_width / col;

	float Cap = FACTOR_CHIP * SPEC_HEAT_SI * t_chip * grid_width * grid_height;
	float Rx = grid_width / (2.0 * K_SI * t_chip * grid_height);
	float Ry = grid_height / (2.0 * K_SI * t_chip * grid_width);
	float Rz = t_chip / (K_SI * grid_height * grid_width);

	float max_slope = MAX_PD / (FACTOR_CHIP * t_chip * SPEC_HEAT_SI);
	float step = PRECISION / max_slope;
	float t;
        float time_elapsed;
	time_elapsed=0.001;

        int src = 1, dst = 0;

	for (t = 0; t < total_iterations; t+=num_iterations) {
            int temp = src;
            src = dst;
            dst = temp;
            offload::launch(calculate_temp, cfg, (int)MIN(num_iterations, total_iterations-t), MatrixPower.data(),MatrixTemp[src].data(),MatrixTemp[dst].data(),\
		col,row,borderCols, borderRows, Cap,Rx,Ry,Rz,step,time_elapsed);
	}
        return dst;
}

// The host's reference: the same time steps, one cell at a time (neighbours outside the grid
// are the cell itself, as the kernel's clamped N/S/E/W), in the kernel's precision.
void reference(std::vector<float> &temp, const std::vector<float> &power, int row, int col, int total_iterations)
{
	float grid_height = chip_height / row;
	float grid_width = chip_width / col;
	float Cap = FACTOR_CHIP * SPEC_HEAT_SI * t_chip * grid_width * grid_height;
	float Rx = grid_width / (2.0 * K_SI * t_chip * grid_height);
	float Ry = grid_height / (2.0 * K_SI * t_chip * grid_width);
	float Rz = t_chip / (K_SI * grid_height * grid_width);
	float max_slope = MAX_PD / (FACTOR_CHIP * t_chip * SPEC_HEAT_SI);
	float step = PRECISION / max_slope;
	float step_div_Cap = step / Cap, Rx_1 = 1 / Rx, Ry_1 = 1 / Ry, Rz_1 = 1 / Rz;
	float amb = 80.0;
	std::vector<float> next(temp.size());
	for (int it = 0; it < total_iterations; it++) {
		for (int r = 0; r < row; r++)
			for (int c = 0; c < col; c++) {
				int N = r > 0 ? r - 1 : r, S = r < row - 1 ? r + 1 : r;
				int W = c > 0 ? c - 1 : c, E = c < col - 1 ? c + 1 : c;
				float t0 = temp[r * col + c];
				next[r * col + c] = t0 + step_div_Cap * (power[r * col + c] +
					(temp[S * col + c] + temp[N * col + c] - 2.0 * t0) * Ry_1 +
					(temp[r * col + E] + temp[r * col + W] - 2.0 * t0) * Rx_1 +
					(amb - t0) * Rz_1);
			}
		temp.swap(next);
	}
}

int main(int argc, char** argv)
{
  printf("WG size of kernel = %d X %d\n", BLOCK_SIZE, BLOCK_SIZE);

    run(argc,argv);
    return 0;
}

void run(int argc, char** argv)
{
    int size;
    int grid_rows,grid_cols;
    float *FilesavingTemp,*FilesavingPower,*MatrixOut;

    int total_iterations = 60;
    int pyramid_height = 1; // number of iterations

    // The original takes <grid_rows/grid_cols> <pyramid_height> <sim_time> <temp_file>
    // <power_file> <output_file>; the port the first three, optional, and no files.
    grid_rows = grid_cols = argc > 1 ? atoi(argv[1]) : 512;
    pyramid_height = argc > 2 ? atoi(argv[2]) : 2;
    total_iterations = argc > 3 ? atoi(argv[3]) : 60;
    if (grid_rows <= 0 || pyramid_height <= 0 || pyramid_height >= BLOCK_SIZE / 2 || total_iterations <= 0) {
        printf("rodinia-hotspot: FAIL bad arguments\n");
        exit(1);
    }

    size=grid_rows*grid_cols;

    /* --------------- pyramid parameters --------------- */
    # define EXPAND_RATE 2// add one iteration will extend the pyramid base by 2 per each borderline
    int borderCols = (pyramid_height)*EXPAND_RATE/2;
    int borderRows = (pyramid_height)*EXPAND_RATE/2;
    int smallBlockCol = BLOCK_SIZE-(pyramid_height)*EXPAND_RATE;
    int smallBlockRow = BLOCK_SIZE-(pyramid_height)*EXPAND_RATE;
    int blockCols = grid_cols/smallBlockCol+((grid_cols%smallBlockCol==0)?0:1);
    int blockRows = grid_rows/smallBlockRow+((grid_rows%smallBlockRow==0)?0:1);

    FilesavingTemp = (float *) malloc(size*sizeof(float));
    FilesavingPower = (float *) malloc(size*sizeof(float));
    MatrixOut = (float *) calloc (size, sizeof(float));

    if( !FilesavingPower || !FilesavingTemp || !MatrixOut)
        fatal("unable to allocate memory");

    printf("pyramidHeight: %d\ngridSize: [%d, %d]\nborder:[%d, %d]\nblockGrid:[%d, %d]\ntargetBlock:[%d, %d]\n",\
	pyramid_height, grid_cols, grid_rows, borderCols, borderRows, blockCols, blockRows, smallBlockCol, smallBlockRow);

    generate_input(FilesavingTemp, FilesavingPower, grid_rows, grid_cols);

    offload::buffer<float> MatrixTemp[2] = {offload::buffer<float>(size), offload::buffer<float>(size)};
    MatrixTemp[0].copy_from(std::span<const float>(FilesavingTemp, size));

    offload::buffer<float> MatrixPower(size);
    MatrixPower.copy_from(std::span<const float>(FilesavingPower, size));
    printf("Start computing the transient temperature\n");
    // timed as the original is with bench's timing lines (SOURCE.md): the launches and a wait
    struct timeval t0, t1;
    gettimeofday(&t0, NULL);
    int ret = compute_tran_temp(MatrixPower,MatrixTemp,grid_cols,grid_rows, \
	 total_iterations,pyramid_height, blockCols, blockRows, borderCols, borderRows);
    offload::synchronize();
    gettimeofday(&t1, NULL);
	printf("Ending simulation\n");
    MatrixTemp[ret].copy_to(std::span<float>(MatrixOut, size));
    double ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_usec - t0.tv_usec) * 1e-3;
    printf("Kernel time: %f (ms)\n", ms);
    printf("time_ms: %f\n", ms);

    // The original writes the result to a file (writeoutput); the port checks it instead.
    std::vector<float> ref(FilesavingTemp, FilesavingTemp + size), pw(FilesavingPower, FilesavingPower + size);
    reference(ref, pw, grid_rows, grid_cols, total_iterations);
    double maxerr = 0;
    int worst = 0;
    for (int i = 0; i < size; i++) {
        double e = fabs((double)MatrixOut[i] - ref[i]);
        if (!(e <= maxerr)) { maxerr = e; worst = i; }
    }
    double change = 0;
    for (int i = 0; i < size; i++) change = fmax(change, fabs((double)ref[i] - FilesavingTemp[i]));
    printf("max |device - host| = %g K (cell %d: %f vs %f); largest change of a cell %g K\n", maxerr, worst, MatrixOut[worst], ref[worst], change);

    free(MatrixOut);
    free(FilesavingTemp);
    free(FilesavingPower);
    if (!(maxerr <= 1e-3)) {
        printf("rodinia-hotspot: FAIL the device's temperatures differ from the host's\n");
        exit(1);
    }
    printf("rodinia-hotspot: PASS\n");
}
