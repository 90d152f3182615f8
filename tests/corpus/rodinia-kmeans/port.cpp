// Port of Rodinia 3.1 cuda/kmeans (kmeans_cuda.cu, kmeans_cuda_kernel.cu, kmeans.c, cluster.c,
// kmeans_clustering.c, kmeans.h; from Northwestern University's MineBench) to offload-cxx (see
// SOURCE.md). K-means: each iteration copies the centers and memberships in, one kernel finds
// every point's nearest center (reading the features through the texture path), the host moves
// the centers; a transpose kernel lays the features out by dimension first.
// usage: rodinia-kmeans [npoints] [nfeatures] [nclusters]   (default 20000 34 5; e.g.
//        494020 34 5, the size of Rodinia's kdd_cup input, for a GPU run)
#include <offload/offload.hpp>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include <vector>

// kmeans.h
#ifndef FLT_MAX
#define FLT_MAX 3.40282347e+38
#endif

// kmeans_cuda_kernel.cu

// FIXME: Make this a runtime selectable variable!
#define ASSUMED_NR_CLUSTERS 32

// The original reads the features through texture references (t_features, bound to the
// transposed features; t_features_flipped and t_clusters, bound but not read) and the centers
// from __constant__ float c_clusters[ASSUMED_NR_CLUSTERS*34]. The port reads both through
// offload::readonly_ptr (NVIDIA's read-only data path, as a texture fetch of linear memory).

/* ----------------- invert_mapping() --------------------- */
/* inverts data array from row-major to column-major.

   [p0,dim0][p0,dim1][p0,dim2] ...
   [p1,dim0][p1,dim1][p1,dim2] ...
   [p2,dim0][p2,dim1][p2,dim2] ...
										to
   [dim0,p0][dim0,p1][dim0,p2] ...
   [dim1,p0][dim1,p1][dim1,p2] ...
   [dim2,p0][dim2,p1][dim2,p2] ...
*/
OFFLOAD_KERNEL void invert_mapping(offload::device_ptr<float> input,			/* original */
							   offload::device_ptr<float> output,			/* inverted */
							   int npoints,				/* npoints */
							   int nfeatures)			/* nfeatures */
{
	int point_id = offload::thread_id_x() + offload::block_dim_x()*offload::block_id_x();	/* id of thread */
	int i;

	if(point_id < npoints){
		for(i=0;i<nfeatures;i++)
			output[point_id + npoints*i] = input[point_id*nfeatures + i];
	}
	return;
}
/* ----------------- invert_mapping() end --------------------- */

/* to turn on the GPU delta and center reduction */
//#define GPU_DELTA_REDUCTION
//#define GPU_NEW_CENTER_REDUCTION
// (both off in the original: their code, which needs them, is left out)

/* ----------------- kmeansPoint() --------------------- */
/* find the index of nearest cluster centers and change membership*/
OFFLOAD_KERNEL void
kmeansPoint(offload::readonly_ptr<float> features,			/* in: [npoints*nfeatures] */
            int     nfeatures,
            int     npoints,
            int     nclusters,
            offload::device_ptr<int> membership,
			offload::readonly_ptr<float> c_clusters,  /* the original: float *clusters, unused; the centers in __constant__ c_clusters */
			offload::device_ptr<float> block_clusters,
			offload::device_ptr<int> block_deltas)
{

	// block ID
	const unsigned int block_id = offload::grid_dim_x()*offload::block_id_y()+offload::block_id_x();
	// point/thread ID
	const unsigned int point_id = block_id*offload::block_dim_x()*offload::block_dim_y() + offload::thread_id_x();

	int  index = -1;

	if (point_id < npoints)
	{
		int i, j;
		float min_dist = FLT_MAX;
		float dist;													/* distance square between a point to cluster center */

		/* find the cluster center id with min distance to pt */
		for (i=0; i<nclusters; i++) {
			int cluster_base_index = i*nfeatures;					/* base index of cluster centers for inverted array */
			float ans=0.0;												/* Euclidean distance sqaure */

			for (j=0; j < nfeatures; j++)
			{
				int addr = point_id + j*npoints;					/* appropriate index of data point */
				float diff = (features[addr] -                      /* tex1Dfetch(t_features,addr) */
							  c_clusters[cluster_base_index + j]);	/* distance between a data point to cluster centers */
				ans += diff*diff;									/* sum of squares */
			}
			dist = ans;

			/* see if distance is smaller than previous ones:
			if so, change minimum distance and save index of cluster center */
			if (dist < min_dist) {
				min_dist = dist;
				index    = i;
			}
		}
	}

	if (point_id < npoints)
	{
		/* assign the membership to object point_id */
		membership[point_id] = index;
	}
}

// kmeans_cuda.cu

#define THREADS_PER_DIM 16
#define BLOCKS_PER_DIM 16
#define THREADS_PER_BLOCK THREADS_PER_DIM*THREADS_PER_DIM

#define CPU_DELTA_REDUCE
#define CPU_CENTER_REDUCE

unsigned int num_threads_perdim = THREADS_PER_DIM;					/* sqrt(256) -- see references for this choice */
unsigned int num_blocks_perdim = BLOCKS_PER_DIM;					/* temporary */
unsigned int num_threads = num_threads_perdim*num_threads_perdim;	/* number of threads */
unsigned int num_blocks = num_blocks_perdim*num_blocks_perdim;		/* number of blocks */

/* _d denotes it resides on the device */
int    *membership_new;												/* newly assignment membership */
offload::buffer<float> *feature_d;									/* inverted data array */
offload::buffer<float> *feature_flipped_d;							/* original (not inverted) data array */
offload::buffer<int>   *membership_d;								/* membership on the device */
float  *block_new_centers;											/* sum of points in a cluster (per block) */
offload::buffer<float> *clusters_d;									/* cluster centers on the device */

// the port's check of every launch (in kmeansCuda)
int check_calls = 0, check_bad = 0;
double check_ms = 0;  // time in check_membership, left out of time_ms
void check_membership(float **feature, int nfeatures, int npoints, int nclusters, float **clusters, const int *membership);

/* -------------- allocateMemory() ------------------- */
/* allocate device memory, calculate number of blocks and threads, and invert the data array */
void allocateMemory(int npoints, int nfeatures, int nclusters, float **features)
{
	num_blocks = npoints / num_threads;
	if (npoints % num_threads > 0)		/* defeat truncation */
		num_blocks++;

	num_blocks_perdim = sqrt((double) num_blocks);
	while (num_blocks_perdim * num_blocks_perdim < num_blocks)	// defeat truncation (should run once)
		num_blocks_perdim++;

	num_blocks = num_blocks_perdim*num_blocks_perdim;

	/* allocate memory for memory_new[] and initialize to -1 (host) */
	membership_new = (int*) malloc(npoints * sizeof(int));
	for(int i=0;i<npoints;i++) {
		membership_new[i] = -1;
	}

	/* allocate memory for block_new_centers[] (host) */
	block_new_centers = (float *) malloc(nclusters*nfeatures*sizeof(float));

	/* allocate memory for feature_flipped_d[][], feature_d[][] (device) */
	feature_flipped_d = new offload::buffer<float>(npoints*nfeatures);
	feature_flipped_d->copy_from(std::span<const float>(features[0], npoints*nfeatures));
	feature_d = new offload::buffer<float>(npoints*nfeatures);

	/* invert the data array (kernel execution) */
	offload::launch(invert_mapping, {.workgroups = {num_blocks}, .threads = {num_threads}}, feature_flipped_d->data(),feature_d->data(),npoints,nfeatures);

	/* allocate memory for membership_d[] and clusters_d[][] (device) */
	membership_d = new offload::buffer<int>(npoints);
	clusters_d = new offload::buffer<float>(nclusters*nfeatures);
}
/* -------------- allocateMemory() end ------------------- */

/* -------------- deallocateMemory() ------------------- */
/* free host and device memory */
void deallocateMemory()
{
	free(membership_new);
	free(block_new_centers);
	delete feature_d;
	delete feature_flipped_d;
	delete membership_d;
	delete clusters_d;
}
/* -------------- deallocateMemory() end ------------------- */

/* ------------------- kmeansCuda() ------------------------ */
int	// delta -- had problems when return value was of float type
kmeansCuda(float  **feature,				/* in: [npoints][nfeatures] */
           int      nfeatures,				/* number of attributes for each point */
           int      npoints,				/* number of data points */
           int      nclusters,				/* number of clusters */
           int     *membership,				/* which cluster the point belongs to */
		   float  **clusters,				/* coordinates of cluster centers */
		   int     *new_centers_len,		/* number of elements in each cluster */
           float  **new_centers				/* sum of elements in each cluster */
		   )
{
	int delta = 0;			/* if point has moved */
	int i,j;				/* counters */

	// cudaSetDevice(1): left out (see SOURCE.md)

	/* copy membership (host to device) */
	membership_d->copy_from(std::span<const int>(membership_new, npoints));

	/* copy clusters (host to device) */
	clusters_d->copy_from(std::span<const float>(clusters[0], nclusters*nfeatures));

	/* set up texture */
	// (the port: nothing to bind; see above)

	/* copy clusters to constant memory */
	// (the port: clusters_d, read through a readonly_ptr)

    /* setup execution parameters.
	   changed to 2d (source code on NVIDIA CUDA Programming Guide) */
	offload::launch_config cfg{.workgroups = {num_blocks_perdim, num_blocks_perdim}, .threads = {num_threads_perdim*num_threads_perdim}};

	/* execute the kernel */
    offload::launch(kmeansPoint, cfg, feature_d->data(),
                                      nfeatures,
                                      npoints,
                                      nclusters,
                                      membership_d->data(),
                                      clusters_d->data(),
									  offload::device_ptr<float>{},   // block_clusters_d: never allocated in the original
									  offload::device_ptr<int>{});    // block_deltas_d: likewise

	offload::synchronize();

	/* copy back membership (device to host) */
	membership_d->copy_to(std::span<int>(membership_new, npoints));

	{  // the port's check, which the original does not do: its time is left out of time_ms
		struct timeval c0, c1;
		gettimeofday(&c0, NULL);
		check_membership(feature, nfeatures, npoints, nclusters, clusters, membership_new);
		gettimeofday(&c1, NULL);
		check_ms += (c1.tv_sec - c0.tv_sec) * 1e3 + (c1.tv_usec - c0.tv_usec) * 1e-3;
	}

	/* for each point, sum data points in each cluster
	   and see if membership has changed:
	     if so, increase delta and change old membership, and update new_centers;
	     otherwise, update new_centers */
	delta = 0;
	for (i = 0; i < npoints; i++)
	{
		int cluster_id = membership_new[i];
		new_centers_len[cluster_id]++;
		if (membership_new[i] != membership[i])
		{
#ifdef CPU_DELTA_REDUCE
			delta++;
#endif
			membership[i] = membership_new[i];
		}
#ifdef CPU_CENTER_REDUCE
		for (j = 0; j < nfeatures; j++)
		{
			new_centers[cluster_id][j] += feature[i][j];
		}
#endif
	}

	return delta;

}
/* ------------------- kmeansCuda() end ------------------------ */

// The port's check of one launch: every point's nearest center, found on the host as the
// kernel finds it; a point whose two nearest centers tie within 1e-5 may go either way (GPUs
// fuse the distance's multiply-adds). Beyond 20 launches of more than 2^20 features, every
// 16th point.
void check_membership(float **feature, int nfeatures, int npoints, int nclusters, float **clusters, const int *membership)
{
	check_calls++;
	const int step = (check_calls <= 20 || (long)npoints * nfeatures <= (1 << 20)) ? 1 : 16;
	for (int p = 0; p < npoints; p += step) {
		float best = FLT_MAX, second = FLT_MAX;
		int index = -1;
		std::vector<float> d(nclusters);
		for (int i = 0; i < nclusters; i++) {
			float ans = 0.0f;
			for (int j = 0; j < nfeatures; j++) {
				float diff = feature[p][j] - clusters[i][j];
				ans += diff * diff;
			}
			d[i] = ans;
			if (ans < best) { second = best; best = ans; index = i; }
			else if (ans < second) second = ans;
		}
		bool ok = membership[p] == index ||
		          (membership[p] >= 0 && membership[p] < nclusters && fabsf(d[membership[p]] - best) <= 1e-5f * best);
		if (!ok) {
			if (!check_bad) printf("launch %d, point %d: center %d (device) != %d (host)\n", check_calls, p, membership[p], index);
			check_bad++;
		}
	}
}

// kmeans_clustering.c

#define RANDOM_MAX 2147483647

/*----< kmeans_clustering() >---------------------------------------------*/
float** kmeans_clustering(float **feature,    /* in: [npoints][nfeatures] */
                          int     nfeatures,
                          int     npoints,
                          int     nclusters,
                          float   threshold,
                          int    *membership) /* out: [npoints] */
{
    int      i, j, n = 0;				/* counters */
	int		 loop=0, temp;
    int     *new_centers_len;	/* [nclusters]: no. of points in each cluster */
    float    delta;				/* if the point moved */
    float  **clusters;			/* out: [nclusters][nfeatures] */
    float  **new_centers;		/* [nclusters][nfeatures] */

	int     *initial;			/* used to hold the index of points not yet selected
								   prevents the "birthday problem" of dual selection (?)
								   considered holding initial cluster indices, but changed due to
								   possible, though unlikely, infinite loops */
	int      initial_points;
	int		 c = 0;

	/* nclusters should never be > npoints
	   that would guarantee a cluster without points */
	if (nclusters > npoints)
		nclusters = npoints;

    /* allocate space for and initialize returning variable clusters[] */
    clusters    = (float**) malloc(nclusters *             sizeof(float*));
    clusters[0] = (float*)  malloc(nclusters * nfeatures * sizeof(float));
    for (i=1; i<nclusters; i++)
        clusters[i] = clusters[i-1] + nfeatures;

	/* initialize the random clusters */
	initial = (int *) malloc (npoints * sizeof(int));
	for (i = 0; i < npoints; i++)
	{
		initial[i] = i;
	}
	initial_points = npoints;

    /* randomly pick cluster centers */
    for (i=0; i<nclusters && initial_points >= 0; i++) {
		//n = (int)rand() % initial_points;

        for (j=0; j<nfeatures; j++)
            clusters[i][j] = feature[initial[n]][j];	// remapped

		/* swap the selected index to the end (not really necessary,
		   could just move the end up) */
		temp = initial[n];
		initial[n] = initial[initial_points-1];
		initial[initial_points-1] = temp;
		initial_points--;
		n++;
    }

	/* initialize the membership to -1 for all */
    for (i=0; i < npoints; i++)
	  membership[i] = -1;

    /* allocate space for and initialize new_centers_len and new_centers */
    new_centers_len = (int*) calloc(nclusters, sizeof(int));

    new_centers    = (float**) malloc(nclusters *            sizeof(float*));
    new_centers[0] = (float*)  calloc(nclusters * nfeatures, sizeof(float));
    for (i=1; i<nclusters; i++)
        new_centers[i] = new_centers[i-1] + nfeatures;

	/* iterate until convergence */
	do {
        delta = 0.0;
		// CUDA
		delta = (float) kmeansCuda(feature,			/* in: [npoints][nfeatures] */
								   nfeatures,		/* number of attributes for each point */
								   npoints,			/* number of data points */
								   nclusters,		/* number of clusters */
								   membership,		/* which cluster the point belongs to */
								   clusters,		/* out: [nclusters][nfeatures] */
								   new_centers_len,	/* out: number of points in each cluster */
								   new_centers		/* sum of points in each cluster */
								   );

		/* replace old cluster centers with new_centers */
		/* CPU side of reduction */
		for (i=0; i<nclusters; i++) {
			for (j=0; j<nfeatures; j++) {
				if (new_centers_len[i] > 0)
					clusters[i][j] = new_centers[i][j] / new_centers_len[i];	/* take average i.e. sum/n */
				new_centers[i][j] = 0.0;	/* set back to 0 */
			}
			new_centers_len[i] = 0;			/* set back to 0 */
		}
		c++;
    } while ((delta > threshold) && (loop++ < 500));	/* makes sure loop terminates */

	printf("iterated %d times\n", c);
    free(initial);  // (the original leaks it)
    free(new_centers[0]);
    free(new_centers);
    free(new_centers_len);

    return clusters;
}

// cluster.c (without the RMSE: -r is not taken, see SOURCE.md)
int cluster(int      npoints,				/* number of data points */
            int      nfeatures,				/* number of attributes for each point */
            float  **features,			/* array: [npoints][nfeatures] */
            int      min_nclusters,			/* range of min to max number of clusters */
			int		 max_nclusters,
            float    threshold,				/* loop terminating factor */
            int     *best_nclusters,		/* out: number between min and max with lowest RMSE */
            float ***cluster_centres,		/* out: [best_nclusters][nfeatures] */
			int		 nloops					/* number of iteration for each number of clusters */
			)
{
	int		nclusters;						/* number of clusters k */
	int		index =0;						/* number of iteration to reach the best RMSE */
    int    *membership;						/* which cluster a data point belongs to */
    float **tmp_cluster_centres;			/* hold coordinates of cluster centers */
	int		i;

	/* allocate memory for membership */
    membership = (int*) malloc(npoints * sizeof(int));

	/* sweep k from min to max_nclusters to find the best number of clusters */
	for(nclusters = min_nclusters; nclusters <= max_nclusters; nclusters++)
	{
		if (nclusters > npoints) break;	/* cannot have more clusters than points */

		/* allocate device memory, invert data array (@ kmeans_cuda.cu) */
		allocateMemory(npoints, nfeatures, nclusters, features);

		/* iterate nloops times for each number of clusters */
		for(i = 0; i < nloops; i++)
		{
			/* initialize initial cluster centers, CUDA calls (@ kmeans_cuda.cu) */
			tmp_cluster_centres = kmeans_clustering(features,
													nfeatures,
													npoints,
													nclusters,
													threshold,
													membership);

			if (*cluster_centres) {
				free((*cluster_centres)[0]);
				free(*cluster_centres);
			}
			*cluster_centres = tmp_cluster_centres;
		}

		deallocateMemory();							/* free device memory (@ kmeans_cuda.cu) */
	}

    free(membership);

    return index;
}

// kmeans.c

// The original reads its points from a file (-i; Rodinia's kdd_cup: 494,020 lines of an id and
// 34 features). The port generates them: nclusters... 8 blobs in nfeatures dimensions, each
// feature a multiple of 1/64 (exact in float and in text); bench/corpus/rodinia/inputs.c
// writes the same points as a file of the original's format.
void generate_points(float *buf, int npoints, int nfeatures) {
	srand(11);
	std::vector<int> centers(8 * nfeatures);
	for (int &c : centers) c = rand() % 4096;  // 0 .. 63.98 after / 64
	for (int i = 0; i < npoints; i++) {
		int blob = rand() % 8;
		for (int j = 0; j < nfeatures; j++)
			buf[i * nfeatures + j] = (float)(centers[blob * nfeatures + j] + rand() % 1024 - 512) / 64.0f;
	}
}

int setup(int argc, char **argv) {
		float  *buf;
		float	threshold = 0.001;		/* default value */
		int		max_nclusters=5;		/* default value */
		int		min_nclusters=5;		/* default value */
		int		best_nclusters = 0;
		int		nfeatures = 0;
		int		npoints = 0;
		float **features;
		float **cluster_centres=NULL;
		int		i;
		int		nloops = 1;				/* default value */

	// The original takes -i FILE (and -b -t -m -n -l -r -o); the port takes the number of points,
	// of features and of clusters (the original's -m/-n, 5 by default, as its run script).
	npoints = argc > 1 ? atoi(argv[1]) : 20000;
	nfeatures = argc > 2 ? atoi(argv[2]) : 34;
	min_nclusters = max_nclusters = argc > 3 ? atoi(argv[3]) : 5;
	if (npoints <= 0 || nfeatures <= 0 || min_nclusters <= 0 || min_nclusters * nfeatures > ASSUMED_NR_CLUSTERS * 34) {
		printf("rodinia-kmeans: FAIL bad arguments (nclusters x nfeatures at most %d, the original's constant memory)\n", ASSUMED_NR_CLUSTERS * 34);
		exit(1);
	}

        buf         = (float*) malloc(npoints*nfeatures*sizeof(float));
        features    = (float**)malloc(npoints*          sizeof(float*));
        features[0] = (float*) malloc(npoints*nfeatures*sizeof(float));
        for (i=1; i<npoints; i++)
            features[i] = features[i-1] + nfeatures;
	generate_points(buf, npoints, nfeatures);

	printf("\nI/O completed\n");
	printf("\nNumber of objects: %d\n", npoints);
	printf("Number of features: %d\n", nfeatures);
	/* ============== I/O end ==============*/

	// error check for clusters
	if (npoints < min_nclusters)
	{
		printf("Error: min_nclusters(%d) > npoints(%d) -- cannot proceed\n", min_nclusters, npoints);
		exit(0);
	}

	srand(7);												/* seed for future random number generator */
	memcpy(features[0], buf, npoints*nfeatures*sizeof(float)); /* now features holds 2-dimensional array of features */
	free(buf);

	/* ======================= core of the clustering ===================*/

	cluster_centres = NULL;
	struct timeval t0, t1;  // as the original's added timing lines (SOURCE.md)
	gettimeofday(&t0, NULL);
    cluster(npoints,				/* number of data points */
					nfeatures,				/* number of features for each point */
					features,				/* array: [npoints][nfeatures] */
					min_nclusters,			/* range of min to max number of clusters */
					max_nclusters,
					threshold,				/* loop termination factor */
				   &best_nclusters,			/* return: number between min and max */
				   &cluster_centres,		/* return: [best_nclusters][nfeatures] */
					nloops);				/* number of iteration for each number of clusters */
	gettimeofday(&t1, NULL);
	double ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_usec - t0.tv_usec) * 1e-3;
	printf("Clustering time: %f (ms), of which the port's own check %f (ms)\n", ms, check_ms);
	printf("time_ms: %f\n", ms - check_ms);

	/* cluster center coordinates
	   :displayed only for when k=1*/
	// (the original's -o, which its run script gives)
	if(min_nclusters == max_nclusters) {
		printf("\n================= Centroid Coordinates =================\n");
		for(i = 0; i < max_nclusters; i++){
			printf("%d:", i);
			for(int j = 0; j < nfeatures; j++){
				printf(" %.2f", cluster_centres[i][j]);
			}
			printf("\n\n");
		}
	}

	printf("Number of Iteration: %d\n", nloops);
	printf("membership checked in %d launches: %d points differ from the host's\n", check_calls, check_bad);

	/* free up memory */
	free(cluster_centres[0]);
	free(cluster_centres);
	free(features[0]);
	free(features);
	if (check_bad || !check_calls) {
		printf("rodinia-kmeans: FAIL the device's memberships differ from the host's\n");
		exit(1);
	}
	printf("rodinia-kmeans: PASS\n");
    return(0);
}

// kmeans_cuda.cu
int
main( int argc, char** argv)
{
	offload::gpu_count();  // the original: cudaSetDevice(1), which starts CUDA before the timed region (SOURCE.md)
	setup(argc, argv);
}
