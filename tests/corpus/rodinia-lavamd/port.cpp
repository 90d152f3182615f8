// Port of Rodinia 3.1 cuda/lavaMD (main.c, main.h, kernel/kernel_gpu_cuda.cu,
// kernel/kernel_gpu_cuda_wrapper.cu/.h, util/*) to offload-cxx (see SOURCE.md).
// Particle forces in a 3-D grid of boxes (100 particles each): one workgroup of 128 per home box
// stages its particles and then each neighbour box's in shared memory (double precision, exp).
// usage: rodinia-lavamd [boxes1d]   (default 6; the original's run script has -boxes1d 10;
//        e.g. 30 for a GPU run)
#include <offload/offload.hpp>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include <vector>

// main.h
#define fp double

#define NUMBER_PAR_PER_BOX 100							// keep this low to allow more blocks that share shared memory to run concurrently, code does not work for larger than 110, more speedup can be achieved with larger number and no shared memory used

#define NUMBER_THREADS 128

#define DOT(A,B) ((A.x)*(B.x)+(A.y)*(B.y)+(A.z)*(B.z))	// STABLE

typedef struct
{
	fp x, y, z;

} THREE_VECTOR;

typedef struct
{
	fp v, x, y, z;

} FOUR_VECTOR;

typedef struct nei_str
{

	// neighbor box
	int x, y, z;
	int number;
	long offset;

} nei_str;

typedef struct box_str
{

	// home box
	int x, y, z;
	int number;
	long offset;

	// neighbor boxes
	int nn;
	nei_str nei[26];

} box_str;

typedef struct par_str
{

	fp alpha;

} par_str;

typedef struct dim_str
{

	// input arguments
	int cur_arg;
	int arch_arg;
	int cores_arg;
	int boxes1d_arg;

	// system memory
	long number_boxes;
	long box_mem;
	long space_elem;
	long space_mem;
	long space_mem2;

} dim_str;

// util/timer/timer.c
// Returns the current system time in microseconds
long long get_time() {
	struct timeval tv;
	gettimeofday(&tv, NULL);
	return (tv.tv_sec * 1000000) + tv.tv_usec;
}

// kernel/kernel_gpu_cuda.cu
//	plasmaKernel_gpu_2

OFFLOAD_KERNEL void kernel_gpu_cuda(par_str d_par_gpu,
								dim_str d_dim_gpu,
								offload::device_ptr<box_str> d_box_gpu,
								offload::device_ptr<FOUR_VECTOR> d_rv_gpu,
								offload::device_ptr<fp> d_qv_gpu,
								offload::device_ptr<FOUR_VECTOR> d_fv_gpu)
{

	//	THREAD PARAMETERS

	int bx = offload::block_id_x();																// get current horizontal block index (0-n)
	int tx = offload::thread_id_x();															// get current horizontal thread index (0-n)
	// int ax = bx*NUMBER_THREADS+tx;
	// int wbx = bx;
	int wtx = tx;

	//	DO FOR THE NUMBER OF BOXES

	if(bx<d_dim_gpu.number_boxes){
	// while(wbx<box_indexes_counter){

		//	Extract input parameters

		// parameters
		fp a2 = 2.0*d_par_gpu.alpha*d_par_gpu.alpha;

		// home box
		int first_i;
		FOUR_VECTOR* rA;
		FOUR_VECTOR* fA;
		auto &rA_shared = offload::shared<FOUR_VECTOR[100]>([] {});

		// nei box
		int pointer;
		int k = 0;
		int first_j;
		FOUR_VECTOR* rB;
		fp* qB;
		int j = 0;
		auto &rB_shared = offload::shared<FOUR_VECTOR[100]>([] {});
		auto &qB_shared = offload::shared<double[100]>([] {});

		// common
		fp r2;
		fp u2;
		fp vij;
		fp fs;
		fp fxij;
		fp fyij;
		fp fzij;
		THREE_VECTOR d;

		//	Home box

		//	Setup parameters

		// home box - box parameters
		first_i = d_box_gpu[bx].offset;

		// home box - distance, force, charge and type parameters
		rA = &d_rv_gpu[first_i];
		fA = &d_fv_gpu[first_i];

		//	Copy to shared memory

		// home box - shared memory
		while(wtx<NUMBER_PAR_PER_BOX){
			rA_shared[wtx] = rA[wtx];
			wtx = wtx + NUMBER_THREADS;
		}
		wtx = tx;

		// synchronize threads  - not needed, but just to be safe
		offload::barrier();

		//	nei box loop

		// loop over neiing boxes of home box
		for (k=0; k<(1+d_box_gpu[bx].nn); k++){

			//	nei box - get pointer to the right box

			if(k==0){
				pointer = bx;													// set first box to be processed to home box
			}
			else{
				pointer = d_box_gpu[bx].nei[k-1].number;							// remaining boxes are nei boxes
			}

			//	Setup parameters

			// nei box - box parameters
			first_j = d_box_gpu[pointer].offset;

			// nei box - distance, (force), charge and (type) parameters
			rB = &d_rv_gpu[first_j];
			qB = &d_qv_gpu[first_j];

			//	Setup parameters

			// nei box - shared memory
			while(wtx<NUMBER_PAR_PER_BOX){
				rB_shared[wtx] = rB[wtx];
				qB_shared[wtx] = qB[wtx];
				wtx = wtx + NUMBER_THREADS;
			}
			wtx = tx;

			// synchronize threads because in next section each thread accesses data brought in by different threads here
			offload::barrier();

			//	Calculation

			// loop for the number of particles in the home box
			// for (int i=0; i<nTotal_i; i++){
			while(wtx<NUMBER_PAR_PER_BOX){

				// loop for the number of particles in the current nei box
				for (j=0; j<NUMBER_PAR_PER_BOX; j++){

					// r2 = rA[wtx].v + rB[j].v - DOT(rA[wtx],rB[j]);
					// u2 = a2*r2;
					// vij= exp(-u2);
					// fs = 2.*vij;

					// d.x = rA[wtx].x  - rB[j].x;
					// fxij=fs*d.x;
					// d.y = rA[wtx].y  - rB[j].y;
					// fyij=fs*d.y;
					// d.z = rA[wtx].z  - rB[j].z;
					// fzij=fs*d.z;

					// fA[wtx].v +=  qB[j]*vij;
					// fA[wtx].x +=  qB[j]*fxij;
					// fA[wtx].y +=  qB[j]*fyij;
					// fA[wtx].z +=  qB[j]*fzij;



					r2 = (fp)rA_shared[wtx].v + (fp)rB_shared[j].v - DOT((fp)rA_shared[wtx],(fp)rB_shared[j]);
					u2 = a2*r2;
					vij= exp(-u2);
					fs = 2*vij;

					d.x = (fp)rA_shared[wtx].x  - (fp)rB_shared[j].x;
					fxij=fs*d.x;
					d.y = (fp)rA_shared[wtx].y  - (fp)rB_shared[j].y;
					fyij=fs*d.y;
					d.z = (fp)rA_shared[wtx].z  - (fp)rB_shared[j].z;
					fzij=fs*d.z;

					fA[wtx].v +=  (double)((fp)qB_shared[j]*vij);
					fA[wtx].x +=  (double)((fp)qB_shared[j]*fxij);
					fA[wtx].y +=  (double)((fp)qB_shared[j]*fyij);
					fA[wtx].z +=  (double)((fp)qB_shared[j]*fzij);

				}

				// increment work thread index
				wtx = wtx + NUMBER_THREADS;

			}

			// reset work index
			wtx = tx;

			// synchronize after finishing force contributions from current nei box not to cause conflicts when starting next box
			offload::barrier();

			//	Calculation END

		}

		// // increment work block index
		// wbx = wbx + NUMBER_BLOCKS;

		// // synchronize - because next iteration will overwrite current shared memory
		// offload::barrier();

		//	nei box loop END

	}

}

// kernel/kernel_gpu_cuda_wrapper.cu
double kernel_ms = 0;  // the port's: the kernel stage, for time_ms

void
kernel_gpu_cuda_wrapper(par_str par_cpu,
						dim_str dim_cpu,
						box_str* box_cpu,
						FOUR_VECTOR* rv_cpu,
						fp* qv_cpu,
						FOUR_VECTOR* fv_cpu)
{
	// timer
	long long time0;
	long long time1;
	long long time2;
	long long time3;
	long long time4;
	long long time5;
	long long time6;

	time0 = get_time();

	//	INITIAL DRIVER OVERHEAD
	offload::synchronize();

	//	EXECUTION PARAMETERS
	offload::launch_config cfg{.workgroups = {dim_cpu.number_boxes, 1}, .threads = {NUMBER_THREADS, 1}};

	time1 = get_time();

	//	GPU MEMORY				(MALLOC)
	{
	offload::buffer<box_str> d_box_gpu(dim_cpu.number_boxes);
	offload::buffer<FOUR_VECTOR> d_rv_gpu(dim_cpu.space_elem);
	offload::buffer<fp> d_qv_gpu(dim_cpu.space_elem);
	offload::buffer<FOUR_VECTOR> d_fv_gpu(dim_cpu.space_elem);

	time2 = get_time();

	//	GPU MEMORY			COPY
	d_box_gpu.copy_from(std::span<const box_str>(box_cpu, dim_cpu.number_boxes));
	d_rv_gpu.copy_from(std::span<const FOUR_VECTOR>(rv_cpu, dim_cpu.space_elem));
	d_qv_gpu.copy_from(std::span<const fp>(qv_cpu, dim_cpu.space_elem));
	d_fv_gpu.copy_from(std::span<const FOUR_VECTOR>(fv_cpu, dim_cpu.space_elem));

	time3 = get_time();

	//	KERNEL
	// launch kernel - all boxes
	offload::launch(kernel_gpu_cuda, cfg, par_cpu,
											dim_cpu,
											d_box_gpu.data(),
											d_rv_gpu.data(),
											d_qv_gpu.data(),
											d_fv_gpu.data());
	offload::synchronize();

	time4 = get_time();

	//	GPU MEMORY			COPY (CONTD.)
	d_fv_gpu.copy_to(std::span<FOUR_VECTOR>(fv_cpu, dim_cpu.space_elem));

	time5 = get_time();

	//	GPU MEMORY DEALLOCATION (the buffers' ends)
	}

	time6 = get_time();

	//	DISPLAY TIMING
	// (the original's format has "% :" after each percentage, an invalid conversion: "%% :" here)
	printf("Time spent in different stages of GPU_CUDA KERNEL:\n");

	printf("%15.12f s, %15.12f %% : GPU: SET DEVICE / DRIVER INIT\n",	(float) (time1-time0) / 1000000, (float) (time1-time0) / (float) (time6-time0) * 100);
	printf("%15.12f s, %15.12f %% : GPU MEM: ALO\n", 					(float) (time2-time1) / 1000000, (float) (time2-time1) / (float) (time6-time0) * 100);
	printf("%15.12f s, %15.12f %% : GPU MEM: COPY IN\n",					(float) (time3-time2) / 1000000, (float) (time3-time2) / (float) (time6-time0) * 100);

	printf("%15.12f s, %15.12f %% : GPU: KERNEL\n",						(float) (time4-time3) / 1000000, (float) (time4-time3) / (float) (time6-time0) * 100);

	printf("%15.12f s, %15.12f %% : GPU MEM: COPY OUT\n",				(float) (time5-time4) / 1000000, (float) (time5-time4) / (float) (time6-time0) * 100);
	printf("%15.12f s, %15.12f %% : GPU MEM: FRE\n", 					(float) (time6-time5) / 1000000, (float) (time6-time5) / (float) (time6-time0) * 100);

	printf("Total time:\n");
	printf("%.12f s\n", 												(float) (time6-time0) / 1000000);
	kernel_ms = (time4 - time3) / 1000.0;
}

// The port's check: the forces of the home boxes on the host, in the kernel's order (home box,
// then each neighbour box in turn, its particles in order), for every box up to 216 boxes and
// for 216 boxes spread over the grid beyond that.
int check(par_str par, dim_str dim, box_str *box, FOUR_VECTOR *rv, fp *qv, FOUR_VECTOR *fv)
{
	long stride = dim.number_boxes > 216 ? dim.number_boxes / 216 : 1;
	double worst = 0, largest = 0;
	fp a2 = 2.0*par.alpha*par.alpha;
	for (long bx = 0; bx < dim.number_boxes; bx += stride) {
		for (int i = 0; i < NUMBER_PAR_PER_BOX; i++) {
			FOUR_VECTOR rA = rv[box[bx].offset + i], f = {0, 0, 0, 0};
			for (int k = 0; k < 1 + box[bx].nn; k++) {
				long pointer = k == 0 ? bx : box[bx].nei[k-1].number;
				for (int j = 0; j < NUMBER_PAR_PER_BOX; j++) {
					FOUR_VECTOR rB = rv[box[pointer].offset + j];
					fp qB = qv[box[pointer].offset + j];
					fp r2 = rA.v + rB.v - DOT(rA, rB);
					fp u2 = a2*r2;
					fp vij = exp(-u2);
					fp fs = 2*vij;
					f.v += qB*vij;
					f.x += qB*(fs*(rA.x - rB.x));
					f.y += qB*(fs*(rA.y - rB.y));
					f.z += qB*(fs*(rA.z - rB.z));
				}
			}
			const FOUR_VECTOR &d = fv[box[bx].offset + i];
			double e = fmax(fmax(fabs(d.v - f.v), fabs(d.x - f.x)), fmax(fabs(d.y - f.y), fabs(d.z - f.z)));
			worst = fmax(worst, e);
			largest = fmax(largest, fabs(f.v));
		}
	}
	printf("largest difference of a force from the host's: %g (largest potential %g)\n", worst, largest);
	return !(worst <= 1e-9 * largest) || !(largest > 0);
}

// main.c
int
main(	int argc,
		char *argv [])
{

	printf("thread block size of kernel = %d \n", NUMBER_THREADS);
	// counters
	int i, j, k, l, m, n;

	// system memory
	par_str par_cpu;
	dim_str dim_cpu;
	box_str* box_cpu;
	FOUR_VECTOR* rv_cpu;
	fp* qv_cpu;
	FOUR_VECTOR* fv_cpu;
	int nh;

	// The original takes -boxes1d N (default 1); the port takes N alone (default 6).
	dim_cpu.boxes1d_arg = argc > 1 ? atoi(argv[1]) : 6;
	if (dim_cpu.boxes1d_arg <= 0) {
		printf("rodinia-lavamd: FAIL bad arguments\n");
		return 1;
	}

	// Print configuration
	printf("Configuration used: boxes1d = %d\n", dim_cpu.boxes1d_arg);

	par_cpu.alpha = 0.5;

	// total number of boxes
	dim_cpu.number_boxes = dim_cpu.boxes1d_arg * dim_cpu.boxes1d_arg * dim_cpu.boxes1d_arg;

	// how many particles space has in each direction
	dim_cpu.space_elem = dim_cpu.number_boxes * NUMBER_PAR_PER_BOX;
	dim_cpu.space_mem = dim_cpu.space_elem * sizeof(FOUR_VECTOR);
	dim_cpu.space_mem2 = dim_cpu.space_elem * sizeof(fp);

	// box array
	dim_cpu.box_mem = dim_cpu.number_boxes * sizeof(box_str);

	// allocate boxes
	box_cpu = (box_str*)malloc(dim_cpu.box_mem);

	// initialize number of home boxes
	nh = 0;

	// home boxes in z direction
	for(i=0; i<dim_cpu.boxes1d_arg; i++){
		// home boxes in y direction
		for(j=0; j<dim_cpu.boxes1d_arg; j++){
			// home boxes in x direction
			for(k=0; k<dim_cpu.boxes1d_arg; k++){

				// current home box
				box_cpu[nh].x = k;
				box_cpu[nh].y = j;
				box_cpu[nh].z = i;
				box_cpu[nh].number = nh;
				box_cpu[nh].offset = nh * NUMBER_PAR_PER_BOX;

				// initialize number of neighbor boxes
				box_cpu[nh].nn = 0;

				// neighbor boxes in z direction
				for(l=-1; l<2; l++){
					// neighbor boxes in y direction
					for(m=-1; m<2; m++){
						// neighbor boxes in x direction
						for(n=-1; n<2; n++){

							// check if (this neighbor exists) and (it is not the same as home box)
							if(		(((i+l)>=0 && (j+m)>=0 && (k+n)>=0)==true && ((i+l)<dim_cpu.boxes1d_arg && (j+m)<dim_cpu.boxes1d_arg && (k+n)<dim_cpu.boxes1d_arg)==true)	&&
									(l==0 && m==0 && n==0)==false	){

								// current neighbor box
								box_cpu[nh].nei[box_cpu[nh].nn].x = (k+n);
								box_cpu[nh].nei[box_cpu[nh].nn].y = (j+m);
								box_cpu[nh].nei[box_cpu[nh].nn].z = (i+l);
								box_cpu[nh].nei[box_cpu[nh].nn].number =	(box_cpu[nh].nei[box_cpu[nh].nn].z * dim_cpu.boxes1d_arg * dim_cpu.boxes1d_arg) +
																			(box_cpu[nh].nei[box_cpu[nh].nn].y * dim_cpu.boxes1d_arg) +
																			 box_cpu[nh].nei[box_cpu[nh].nn].x;
								box_cpu[nh].nei[box_cpu[nh].nn].offset = box_cpu[nh].nei[box_cpu[nh].nn].number * NUMBER_PAR_PER_BOX;

								// increment neighbor box
								box_cpu[nh].nn = box_cpu[nh].nn + 1;

							}

						} // neighbor boxes in x direction
					} // neighbor boxes in y direction
				} // neighbor boxes in z direction

				// increment home box
				nh = nh + 1;

			} // home boxes in x direction
		} // home boxes in y direction
	} // home boxes in z direction

	// random generator seed set to random value - time in this case
	// (the port: a fixed seed, so that runs repeat)
	srand(7);

	// input (distances)
	rv_cpu = (FOUR_VECTOR*)malloc(dim_cpu.space_mem);
	for(i=0; i<dim_cpu.space_elem; i=i+1){
		rv_cpu[i].v = (rand()%10 + 1) / 10.0;			// get a number in the range 0.1 - 1.0
		rv_cpu[i].x = (rand()%10 + 1) / 10.0;			// get a number in the range 0.1 - 1.0
		rv_cpu[i].y = (rand()%10 + 1) / 10.0;			// get a number in the range 0.1 - 1.0
		rv_cpu[i].z = (rand()%10 + 1) / 10.0;			// get a number in the range 0.1 - 1.0
	}

	// input (charge)
	qv_cpu = (fp*)malloc(dim_cpu.space_mem2);
	for(i=0; i<dim_cpu.space_elem; i=i+1){
		qv_cpu[i] = (rand()%10 + 1) / 10.0;			// get a number in the range 0.1 - 1.0
	}

	// output (forces)
	fv_cpu = (FOUR_VECTOR*)malloc(dim_cpu.space_mem);
	for(i=0; i<dim_cpu.space_elem; i=i+1){
		fv_cpu[i].v = 0;								// set to 0, because kernels keeps adding to initial value
		fv_cpu[i].x = 0;								// set to 0, because kernels keeps adding to initial value
		fv_cpu[i].y = 0;								// set to 0, because kernels keeps adding to initial value
		fv_cpu[i].z = 0;								// set to 0, because kernels keeps adding to initial value
	}

	kernel_gpu_cuda_wrapper(par_cpu,
							dim_cpu,
							box_cpu,
							rv_cpu,
							qv_cpu,
							fv_cpu);
	printf("time_ms: %f\n", kernel_ms);

	int bad = check(par_cpu, dim_cpu, box_cpu, rv_cpu, qv_cpu, fv_cpu);

	free(rv_cpu);
	free(qv_cpu);
	free(fv_cpu);
	free(box_cpu);
	if (bad) {
		printf("rodinia-lavamd: FAIL the device's forces differ from the host's\n");
		return 1;
	}
	printf("rodinia-lavamd: PASS\n");
	return 0;
}
