// Port of Rodinia 3.1 cuda/srad/srad_v2 (srad.cu, srad.h, srad_kernel.cu) to offload-cxx (see
// SOURCE.md). Speckle-reducing anisotropic diffusion: per iteration the host sums a region of
// interest, copies the image in, two 16x16-tile kernels (diffusion coefficient, then update)
// run, and the image comes back.
// usage: rodinia-srad-v2 [rows] [cols] [y1] [y2] [x1] [x2] [lambda] [no. of iter]
//        (default 512 512 0 127 0 127 0.5 10; e.g. 4096 4096 0 127 0 127 0.5 10 for a GPU run)
#include <offload/offload.hpp>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include <vector>

// srad.h
#define STR_SIZE 256
#define BLOCK_SIZE 16

#define GPU
#define TIMER
//#define OUTPUT

// srad_kernel.cu
OFFLOAD_KERNEL void
srad_cuda_1(
		  offload::device_ptr<float> E_C,
		  offload::device_ptr<float> W_C,
		  offload::device_ptr<float> N_C,
		  offload::device_ptr<float> S_C,
		  offload::device_ptr<float> J_cuda,
		  offload::device_ptr<float> C_cuda,
		  int cols,
		  int rows,
		  float q0sqr
)
{

  //block id
  int bx = offload::block_id_x();
  int by = offload::block_id_y();

  //thread id
  int tx = offload::thread_id_x();
  int ty = offload::thread_id_y();

  //indices
  int index   = cols * BLOCK_SIZE * by + BLOCK_SIZE * bx + cols * ty + tx;
  int index_n = cols * BLOCK_SIZE * by + BLOCK_SIZE * bx + tx - cols;
  int index_s = cols * BLOCK_SIZE * by + BLOCK_SIZE * bx + cols * BLOCK_SIZE + tx;
  int index_w = cols * BLOCK_SIZE * by + BLOCK_SIZE * bx + cols * ty - 1;
  int index_e = cols * BLOCK_SIZE * by + BLOCK_SIZE * bx + cols * ty + BLOCK_SIZE;

  float n, w, e, s, jc, g2, l, num, den, qsqr, c;

  //shared memory allocation
  auto &temp = offload::shared<float[BLOCK_SIZE][BLOCK_SIZE]>([] {});
  auto &temp_result = offload::shared<float[BLOCK_SIZE][BLOCK_SIZE]>([] {});

  auto &north = offload::shared<float[BLOCK_SIZE][BLOCK_SIZE]>([] {});
  auto &south = offload::shared<float[BLOCK_SIZE][BLOCK_SIZE]>([] {});
  auto &east = offload::shared<float[BLOCK_SIZE][BLOCK_SIZE]>([] {});
  auto &west = offload::shared<float[BLOCK_SIZE][BLOCK_SIZE]>([] {});

  //load data to shared memory
  north[ty][tx] = J_cuda[index_n];
  south[ty][tx] = J_cuda[index_s];
  if ( by == 0 ){
  north[ty][tx] = J_cuda[BLOCK_SIZE * bx + tx];
  }
  else if ( by == offload::grid_dim_y() - 1 ){
  south[ty][tx] = J_cuda[cols * BLOCK_SIZE * (offload::grid_dim_y() - 1) + BLOCK_SIZE * bx + cols * ( BLOCK_SIZE - 1 ) + tx];
  }
   offload::barrier();

  west[ty][tx] = J_cuda[index_w];
  east[ty][tx] = J_cuda[index_e];

  if ( bx == 0 ){
  west[ty][tx] = J_cuda[cols * BLOCK_SIZE * by + cols * ty];
  }
  else if ( bx == offload::grid_dim_x() - 1 ){
  east[ty][tx] = J_cuda[cols * BLOCK_SIZE * by + BLOCK_SIZE * ( offload::grid_dim_x() - 1) + cols * ty + BLOCK_SIZE-1];
  }

  offload::barrier();



  temp[ty][tx]      = J_cuda[index];

  offload::barrier();

   jc = temp[ty][tx];

   if ( ty == 0 && tx == 0 ){ //nw
	n  = north[ty][tx] - jc;
    s  = temp[ty+1][tx] - jc;
    w  = west[ty][tx]  - jc;
    e  = temp[ty][tx+1] - jc;
   }
   else if ( ty == 0 && tx == BLOCK_SIZE-1 ){ //ne
	n  = north[ty][tx] - jc;
    s  = temp[ty+1][tx] - jc;
    w  = temp[ty][tx-1] - jc;
    e  = east[ty][tx] - jc;
   }
   else if ( ty == BLOCK_SIZE -1 && tx == BLOCK_SIZE - 1){ //se
	n  = temp[ty-1][tx] - jc;
    s  = south[ty][tx] - jc;
    w  = temp[ty][tx-1] - jc;
    e  = east[ty][tx]  - jc;
   }
   else if ( ty == BLOCK_SIZE -1 && tx == 0 ){//sw
	n  = temp[ty-1][tx] - jc;
    s  = south[ty][tx] - jc;
    w  = west[ty][tx]  - jc;
    e  = temp[ty][tx+1] - jc;
   }

   else if ( ty == 0 ){ //n
	n  = north[ty][tx] - jc;
    s  = temp[ty+1][tx] - jc;
    w  = temp[ty][tx-1] - jc;
    e  = temp[ty][tx+1] - jc;
   }
   else if ( tx == BLOCK_SIZE -1 ){ //e
	n  = temp[ty-1][tx] - jc;
    s  = temp[ty+1][tx] - jc;
    w  = temp[ty][tx-1] - jc;
    e  = east[ty][tx] - jc;
   }
   else if ( ty == BLOCK_SIZE -1){ //s
	n  = temp[ty-1][tx] - jc;
    s  = south[ty][tx] - jc;
    w  = temp[ty][tx-1] - jc;
    e  = temp[ty][tx+1] - jc;
   }
   else if ( tx == 0 ){ //w
	n  = temp[ty-1][tx] - jc;
    s  = temp[ty+1][tx] - jc;
    w  = west[ty][tx] - jc;
    e  = temp[ty][tx+1] - jc;
   }
   else{  //the data elements which are not on the borders
	n  = temp[ty-1][tx] - jc;
    s  = temp[ty+1][tx] - jc;
    w  = temp[ty][tx-1] - jc;
    e  = temp[ty][tx+1] - jc;
   }


    g2 = ( n * n + s * s + w * w + e * e ) / (jc * jc);

    l = ( n + s + w + e ) / jc;

	num  = (0.5*g2) - ((1.0/16.0)*(l*l)) ;
	den  = 1 + (.25*l);
	qsqr = num/(den*den);

	// diffusion coefficent (equ 33)
	den = (qsqr-q0sqr) / (q0sqr * (1+q0sqr)) ;
	c = 1.0 / (1.0+den) ;

    // saturate diffusion coefficent
	if (c < 0){temp_result[ty][tx] = 0;}
	else if (c > 1) {temp_result[ty][tx] = 1;}
	else {temp_result[ty][tx] = c;}

    offload::barrier();

    C_cuda[index] = temp_result[ty][tx];
	E_C[index] = e;
	W_C[index] = w;
	S_C[index] = s;
	N_C[index] = n;

}

OFFLOAD_KERNEL void
srad_cuda_2(
		  offload::device_ptr<float> E_C,
		  offload::device_ptr<float> W_C,
		  offload::device_ptr<float> N_C,
		  offload::device_ptr<float> S_C,
		  offload::device_ptr<float> J_cuda,
		  offload::device_ptr<float> C_cuda,
		  int cols,
		  int rows,
		  float lambda,
		  float q0sqr
)
{
	//block id
	int bx = offload::block_id_x();
    int by = offload::block_id_y();

	//thread id
    int tx = offload::thread_id_x();
    int ty = offload::thread_id_y();

	//indices
    int index   = cols * BLOCK_SIZE * by + BLOCK_SIZE * bx + cols * ty + tx;
	int index_s = cols * BLOCK_SIZE * by + BLOCK_SIZE * bx + cols * BLOCK_SIZE + tx;
    int index_e = cols * BLOCK_SIZE * by + BLOCK_SIZE * bx + cols * ty + BLOCK_SIZE;
	float cc, cn, cs, ce, cw, d_sum;

	//shared memory allocation
	auto &south_c = offload::shared<float[BLOCK_SIZE][BLOCK_SIZE]>([] {});
    auto &east_c = offload::shared<float[BLOCK_SIZE][BLOCK_SIZE]>([] {});

    auto &c_cuda_temp = offload::shared<float[BLOCK_SIZE][BLOCK_SIZE]>([] {});
    auto &c_cuda_result = offload::shared<float[BLOCK_SIZE][BLOCK_SIZE]>([] {});
    auto &temp = offload::shared<float[BLOCK_SIZE][BLOCK_SIZE]>([] {});

    //load data to shared memory
	temp[ty][tx]      = J_cuda[index];

    offload::barrier();

	south_c[ty][tx] = C_cuda[index_s];

	if ( by == offload::grid_dim_y() - 1 ){
	south_c[ty][tx] = C_cuda[cols * BLOCK_SIZE * (offload::grid_dim_y() - 1) + BLOCK_SIZE * bx + cols * ( BLOCK_SIZE - 1 ) + tx];
	}
	offload::barrier();


	east_c[ty][tx] = C_cuda[index_e];

	if ( bx == offload::grid_dim_x() - 1 ){
	east_c[ty][tx] = C_cuda[cols * BLOCK_SIZE * by + BLOCK_SIZE * ( offload::grid_dim_x() - 1) + cols * ty + BLOCK_SIZE-1];
	}

    offload::barrier();

    c_cuda_temp[ty][tx]      = C_cuda[index];

    offload::barrier();

	cc = c_cuda_temp[ty][tx];

   if ( ty == BLOCK_SIZE -1 && tx == BLOCK_SIZE - 1){ //se
	cn  = cc;
    cs  = south_c[ty][tx];
    cw  = cc;
    ce  = east_c[ty][tx];
   }
   else if ( tx == BLOCK_SIZE -1 ){ //e
	cn  = cc;
    cs  = c_cuda_temp[ty+1][tx];
    cw  = cc;
    ce  = east_c[ty][tx];
   }
   else if ( ty == BLOCK_SIZE -1){ //s
	cn  = cc;
    cs  = south_c[ty][tx];
    cw  = cc;
    ce  = c_cuda_temp[ty][tx+1];
   }
   else{ //the data elements which are not on the borders
	cn  = cc;
    cs  = c_cuda_temp[ty+1][tx];
    cw  = cc;
    ce  = c_cuda_temp[ty][tx+1];
   }

   // divergence (equ 58)
   d_sum = cn * N_C[index] + cs * S_C[index] + cw * W_C[index] + ce * E_C[index];

   // image update (equ 61)
   c_cuda_result[ty][tx] = temp[ty][tx] + 0.25 * lambda * d_sum;

   offload::barrier();

   J_cuda[index] = c_cuda_result[ty][tx];

}

// srad.cu
void random_matrix(float *I, int rows, int cols);
void runTest( int argc, char** argv);
void reference(float *J, int rows, int cols, int r1, int r2, int c1, int c2, float lambda, int niter);

int
main( int argc, char** argv)
{
  printf("WG size of kernel = %d X %d\n", BLOCK_SIZE, BLOCK_SIZE);
    runTest( argc, argv);

    return EXIT_SUCCESS;
}


void
runTest( int argc, char** argv)
{
    int rows, cols, size_I, size_R, niter = 10, iter;
    float *I, *J, lambda, q0sqr, sum, sum2, tmp, meanROI,varROI ;

	unsigned int r1, r2, c1, c2;
	float *c;

	// The original requires all 8 arguments; the port has defaults for them.
	rows = argc > 1 ? atoi(argv[1]) : 512;  //number of rows in the domain
	cols = argc > 2 ? atoi(argv[2]) : 512;  //number of cols in the domain
	if (rows <= 0 || cols <= 0 || (rows%16!=0) || (cols%16!=0)){
	fprintf(stderr, "rows and cols must be multiples of 16\n");
	printf("rodinia-srad-v2: FAIL bad arguments\n");
	exit(1);
	}
	r1   = argc > 3 ? atoi(argv[3]) : 0;  //y1 position of the speckle
	r2   = argc > 4 ? atoi(argv[4]) : 127;  //y2 position of the speckle
	c1   = argc > 5 ? atoi(argv[5]) : 0;  //x1 position of the speckle
	c2   = argc > 6 ? atoi(argv[6]) : 127;  //x2 position of the speckle
	lambda = argc > 7 ? atof(argv[7]) : 0.5; //Lambda value
	niter = argc > 8 ? atoi(argv[8]) : 10; //number of iterations
	if (r2 >= (unsigned)rows || c2 >= (unsigned)cols || r1 > r2 || c1 > c2) {
	printf("rodinia-srad-v2: FAIL the speckle is outside the image\n");
	exit(1);
	}

	size_I = cols * rows;
    size_R = (r2-r1+1)*(c2-c1+1);

	I = (float *)malloc( size_I * sizeof(float) );
    J = (float *)malloc( size_I * sizeof(float) );
	c  = (float *)malloc(sizeof(float)* size_I) ;

	//Allocate device memory
	// The kernels read a row before J_cuda and C_cuda and a row after them (index_n of the
	// first row of tiles, index_s of the last; the values are then replaced): outside the
	// original's cudaMalloc'd arrays. The port's J and C buffers have a padding row on either
	// side so that those reads stay inside them.
	offload::buffer<float> J_pad(size_I + 2 * cols), C_pad(size_I + 2 * cols);
	offload::device_ptr<float> J_cuda = J_pad.data() + cols, C_cuda = C_pad.data() + cols;
	offload::buffer<float> E_C(size_I), W_C(size_I), S_C(size_I), N_C(size_I);

	printf("Randomizing the input matrix\n");
	//Generate a random matrix
	random_matrix(I, rows, cols);

    for (int k = 0;  k < size_I; k++ ) {
     	J[k] = (float)exp(I[k]) ;
    }
	std::vector<float> Jref(J, J + size_I);
	printf("Start the SRAD main loop\n");
	// timed as the original with its added timing lines (SOURCE.md)
	struct timeval t0, t1;
	gettimeofday(&t0, NULL);
 for (iter=0; iter< niter; iter++){
		sum=0; sum2=0;
        for (int i=r1; i<=r2; i++) {
            for (int j=c1; j<=c2; j++) {
                tmp   = J[i * cols + j];
                sum  += tmp ;
                sum2 += tmp*tmp;
            }
        }
        meanROI = sum / size_R;
        varROI  = (sum2 / size_R) - meanROI*meanROI;
        q0sqr   = varROI / (meanROI*meanROI);

	//Currently the input size must be divided by 16 - the block size
	int block_x = cols/BLOCK_SIZE ;
    int block_y = rows/BLOCK_SIZE ;

	offload::launch_config cfg{.workgroups = {block_x , block_y}, .threads = {BLOCK_SIZE, BLOCK_SIZE}};

	//Copy data from main memory to device memory
	J_pad.copy_from(std::span<const float>(J, size_I), cols);

	//Run kernels
	offload::launch(srad_cuda_1, cfg, E_C.data(), W_C.data(), N_C.data(), S_C.data(), J_cuda, C_cuda, cols, rows, q0sqr);
	offload::launch(srad_cuda_2, cfg, E_C.data(), W_C.data(), N_C.data(), S_C.data(), J_cuda, C_cuda, cols, rows, lambda, q0sqr);

	//Copy data from device memory to main memory
	J_pad.copy_to(std::span<float>(J, size_I), cols);
}

    offload::synchronize();
	gettimeofday(&t1, NULL);
	double ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_usec - t0.tv_usec) * 1e-3;
	printf("Main loop time: %f (ms)\n", ms);
	printf("time_ms: %f\n", ms);

	printf("Computation Done\n");

	// Check: the original's own CPU version (its #ifdef CPU code) on the same input.
	reference(Jref.data(), rows, cols, r1, r2, c1, c2, lambda, niter);
	double maxrel = 0, change = 0;
	for (int k = 0; k < size_I; k++) {
		maxrel = fmax(maxrel, fabs((double)J[k] - Jref[k]) / fabs((double)Jref[k]));
		change = fmax(change, fabs((double)Jref[k] - exp((double)I[k])));
	}
	printf("max relative |device - host| = %g; largest change of a pixel %g\n", maxrel, change);

	free(I);
	free(J);
	free(c);
	if (!(maxrel <= 1e-4)) {
		printf("rodinia-srad-v2: FAIL the device's image differs from the host's\n");
		exit(1);
	}
	printf("rodinia-srad-v2: PASS\n");
}

// The original's CPU path (#ifdef CPU in runTest), as a function.
void reference(float *J, int rows, int cols, int r1, int r2, int c1, int c2, float lambda, int niter)
{
	float Jc, G2, L, num, den, qsqr;
	int k;
	float cN,cS,cW,cE,D;
	float sum, sum2, tmp, meanROI, varROI, q0sqr;
	int size_I = rows * cols, size_R = (r2-r1+1)*(c2-c1+1);
	std::vector<int> iN(rows), iS(rows), jW(cols), jE(cols);
	std::vector<float> dN(size_I), dS(size_I), dW(size_I), dE(size_I), c(size_I);
    for (int i=0; i< rows; i++) {
        iN[i] = i-1;
        iS[i] = i+1;
    }
    for (int j=0; j< cols; j++) {
        jW[j] = j-1;
        jE[j] = j+1;
    }
    iN[0]    = 0;
    iS[rows-1] = rows-1;
    jW[0]    = 0;
    jE[cols-1] = cols-1;
 for (int iter=0; iter< niter; iter++){
		sum=0; sum2=0;
        for (int i=r1; i<=r2; i++) {
            for (int j=c1; j<=c2; j++) {
                tmp   = J[i * cols + j];
                sum  += tmp ;
                sum2 += tmp*tmp;
            }
        }
        meanROI = sum / size_R;
        varROI  = (sum2 / size_R) - meanROI*meanROI;
        q0sqr   = varROI / (meanROI*meanROI);
		for (int i = 0 ; i < rows ; i++) {
            for (int j = 0; j < cols; j++) {

				k = i * cols + j;
				Jc = J[k];

				// directional derivates
                dN[k] = J[iN[i] * cols + j] - Jc;
                dS[k] = J[iS[i] * cols + j] - Jc;
                dW[k] = J[i * cols + jW[j]] - Jc;
                dE[k] = J[i * cols + jE[j]] - Jc;

                G2 = (dN[k]*dN[k] + dS[k]*dS[k]
                    + dW[k]*dW[k] + dE[k]*dE[k]) / (Jc*Jc);

   		        L = (dN[k] + dS[k] + dW[k] + dE[k]) / Jc;

				num  = (0.5*G2) - ((1.0/16.0)*(L*L)) ;
                den  = 1 + (.25*L);
                qsqr = num/(den*den);

                // diffusion coefficent (equ 33)
                den = (qsqr-q0sqr) / (q0sqr * (1+q0sqr)) ;
                c[k] = 1.0 / (1.0+den) ;

                // saturate diffusion coefficent
                if (c[k] < 0) {c[k] = 0;}
                else if (c[k] > 1) {c[k] = 1;}
		}
	}
         for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {

                // current index
                k = i * cols + j;

                // diffusion coefficent
					cN = c[k];
					cS = c[iS[i] * cols + j];
					cW = c[k];
					cE = c[i * cols + jE[j]];

                // divergence (equ 58)
                D = cN * dN[k] + cS * dS[k] + cW * dW[k] + cE * dE[k];

                // image update (equ 61)
                J[k] = J[k] + 0.25*lambda*D;
            }
	}
 }
}


void random_matrix(float *I, int rows, int cols){

	srand(7);

	for( int i = 0 ; i < rows ; i++){
		for ( int j = 0 ; j < cols ; j++){
		 I[i * cols + j] = rand()/(float)RAND_MAX ;
		}
	}

}
