// Port of Rodinia 3.1 cuda/particlefilter/ex_particle_CUDA_float_seq.cu to offload-cxx (see
// SOURCE.md). A particle filter tracking an object through a synthetic video: per frame a
// likelihood kernel (random moves, image lookups, a shared-memory tree reduction per workgroup),
// a one-work-item sum, a normalisation (work-item 0 builds the whole CDF) and a resampling search.
// usage: rodinia-particlefilter [-x dimX -y dimY -z Nfr -np Nparticles]
//        (default -x 128 -y 128 -z 10 -np 500; the run script's Nparticles is 1000; e.g.
//        -x 128 -y 128 -z 10 -np 20000 for a GPU run)
#include <offload/offload.hpp>

#include <fcntl.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include <vector>

#define BLOCK_X 16
#define BLOCK_Y 16
#define PI 3.1415926535897932

const int threads_per_block = 512;

/**
@var M value for Linear Congruential Generator (LCG); use GCC's value
 */
long M = INT_MAX;
/**
@var A value for LCG
 */
int A = 1103515245;
/**
@var C value for LCG
 */
int C = 12345;

/*****************************
 *GET_TIME
 *returns a long int representing the time
 *****************************/
long long get_time() {
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (tv.tv_sec * 1000000) +tv.tv_usec;
}
// Returns the number of seconds elapsed between the two specified times

double elapsed_time(long long start_time, long long end_time) {
    return (double) (end_time - start_time) / (1000 * 1000);
}

// (the kernels and their device functions)
/********************************
 * CALC LIKELIHOOD SUM
 * DETERMINES THE LIKELIHOOD SUM BASED ON THE FORMULA: SUM( (IK[IND] - 100)^2 - (IK[IND] - 228)^2)/ 100
 * param 1 I 3D matrix
 * param 2 current ind array
 * param 3 length of ind array
 * returns a double representing the sum
 ********************************/
double calcLikelihoodSum(unsigned char * I, int * ind, int numOnes, int index) {
    double likelihoodSum = 0.0;
    int x;
    for (x = 0; x < numOnes; x++)
        likelihoodSum += (pow((double) (I[ind[index * numOnes + x]] - 100), 2) - pow((double) (I[ind[index * numOnes + x]] - 228), 2)) / 50.0;
    return likelihoodSum;
}

/****************************
CDF CALCULATE
CALCULATES CDF
param1 CDF
param2 weights
param3 Nparticles
 *****************************/
void cdfCalc(double * CDF, double * weights, int Nparticles) {
    int x;
    CDF[0] = weights[0];
    for (x = 1; x < Nparticles; x++) {
        CDF[x] = weights[x] + CDF[x - 1];
    }
}

/*****************************
 * RANDU
 * GENERATES A UNIFORM DISTRIBUTION
 * returns a double representing a randomily generated number from a uniform distribution with range [0, 1)
 ******************************/
double d_randu(int * seed, int index) {

    int M = INT_MAX;
    int A = 1103515245;
    int C = 12345;
    int num = A * seed[index] + C;
    seed[index] = num % M;

    return fabs(seed[index] / ((double) M));
}/**
* Generates a uniformly distributed random number using the provided seed and GCC's settings for the Linear Congruential Generator (LCG)
* @see http://en.wikipedia.org/wiki/Linear_congruential_generator
* @note This function is thread-safe
* @param seed The seed array
* @param index The specific index of the seed to be advanced
* @return a uniformly distributed number [0, 1)
*/

double randu(int * seed, int index) {
    int num = A * seed[index] + C;
    seed[index] = num % M;
    return fabs(seed[index] / ((double) M));
}

/**
 * Generates a normally distributed random number using the Box-Muller transformation
 * @note This function is thread-safe
 * @param seed The seed array
 * @param index The specific index of the seed to be advanced
 * @return a double representing random number generated using the Box-Muller algorithm
 * @see http://en.wikipedia.org/wiki/Normal_distribution, section computing value for normal random distribution
 */
double randn(int * seed, int index) {
    /*Box-Muller algorithm*/
    double u = randu(seed, index);
    double v = randu(seed, index);
    double cosine = cos(2 * PI * v);
    double rt = -2 * log(u);
    return sqrt(rt) * cosine;
}

double test_randn(int * seed, int index) {
    //Box-Muller algortihm
    double pi = 3.14159265358979323846;
    double u = randu(seed, index);
    double v = randu(seed, index);
    double cosine = cos(2 * pi * v);
    double rt = -2 * log(u);
    return sqrt(rt) * cosine;
}

double d_randn(int * seed, int index) {
    //Box-Muller algortihm
    double pi = 3.14159265358979323846;
    double u = d_randu(seed, index);
    double v = d_randu(seed, index);
    double cosine = cos(2 * pi * v);
    double rt = -2 * log(u);
    return sqrt(rt) * cosine;
}

/****************************
UPDATE WEIGHTS
UPDATES WEIGHTS
param1 weights
param2 likelihood
param3 Nparcitles
 ****************************/
double updateWeights(double * weights, double * likelihood, int Nparticles) {
    int x;
    double sum = 0;
    for (x = 0; x < Nparticles; x++) {
        weights[x] = weights[x] * exp(likelihood[x]);
        sum += weights[x];
    }
    return sum;
}

int findIndexBin(double * CDF, int beginIndex, int endIndex, double value) {
    if (endIndex < beginIndex)
        return -1;
    int middleIndex;
    while (endIndex > beginIndex) {
        middleIndex = beginIndex + ((endIndex - beginIndex) / 2);
        if (CDF[middleIndex] >= value) {
            if (middleIndex == 0)
                return middleIndex;
            else if (CDF[middleIndex - 1] < value)
                return middleIndex;
            else if (CDF[middleIndex - 1] == value) {
                while (CDF[middleIndex] == value && middleIndex >= 0)
                    middleIndex--;
                middleIndex++;
                return middleIndex;
            }
        }
        if (CDF[middleIndex] > value)
            endIndex = middleIndex - 1;
        else
            beginIndex = middleIndex + 1;
    }
    return -1;
}

/** added this function. was missing in original double version.
 * Takes in a double and returns an integer that approximates to that double
 * @return if the mantissa < .5 => return value < input value; else return value > input value
 */
double dev_round_double(double value) {
    int newValue = (int) (value);
    if (value - newValue < .5f)
        return newValue;
    else
        return newValue++;
}

/*****************************
 * CUDA Find Index Kernel Function to replace FindIndex
 * param1: arrayX
 * param2: arrayY
 * param3: CDF
 * param4: u
 * param5: xj
 * param6: yj
 * param7: weights
 * param8: Nparticles
 *****************************/
OFFLOAD_KERNEL void find_index_kernel(offload::device_ptr<double> arrayX, offload::device_ptr<double> arrayY, offload::device_ptr<double> CDF, offload::device_ptr<double> u, offload::device_ptr<double> xj, offload::device_ptr<double> yj, offload::device_ptr<double> weights, int Nparticles) {
    int block_id = offload::block_id_x();
    int i = offload::block_dim_x() * block_id + offload::thread_id_x();

    if (i < Nparticles) {

        int index = -1;
        int x;

        for (x = 0; x < Nparticles; x++) {
            if (CDF[x] >= u[i]) {
                index = x;
                break;
            }
        }
        if (index == -1) {
            index = Nparticles - 1;
        }

        xj[i] = arrayX[index];
        yj[i] = arrayY[index];

        //weights[i] = 1 / ((double) (Nparticles)); //moved this code to the beginning of likelihood kernel

    }
    offload::barrier();
}

OFFLOAD_KERNEL void normalize_weights_kernel(offload::device_ptr<double> weights, int Nparticles, offload::device_ptr<double> partial_sums, offload::device_ptr<double> CDF, offload::device_ptr<double> u, offload::device_ptr<int> seed) {
    int block_id = offload::block_id_x();
    int i = offload::block_dim_x() * block_id + offload::thread_id_x();
    auto &u1 = offload::shared<double>([] {}), &sumWeights = offload::shared<double>([] {});

    if(0 == offload::thread_id_x())
        sumWeights = partial_sums[0];

    offload::barrier();

    if (i < Nparticles) {
        weights[i] = weights[i] / sumWeights;
    }

    offload::barrier();

    if (i == 0) {
        cdfCalc(CDF.get(), weights.get(), Nparticles);
        u[0] = (1 / ((double) (Nparticles))) * d_randu(seed.get(), i); // do this to allow all threads in all blocks to use the same u1
    }

    offload::barrier();

    if(0 == offload::thread_id_x())
        u1 = u[0];

    offload::barrier();

    if (i < Nparticles) {
        u[i] = u1 + i / ((double) (Nparticles));
    }
}

OFFLOAD_KERNEL void sum_kernel(offload::device_ptr<double> partial_sums, int Nparticles) {
    int block_id = offload::block_id_x();
    int i = offload::block_dim_x() * block_id + offload::thread_id_x();

    if (i == 0) {
        int x;
        double sum = 0.0;
        int num_blocks = ceil((double) Nparticles / (double) threads_per_block);
        for (x = 0; x < num_blocks; x++) {
            sum += partial_sums[x];
        }
        partial_sums[0] = sum;
    }
}

/*****************************
 * CUDA Likelihood Kernel Function to replace FindIndex
 * param1: arrayX
 * param2: arrayY
 * param2.5: CDF
 * param3: ind
 * param4: objxy
 * param5: likelihood
 * param6: I
 * param6.5: u
 * param6.75: weights
 * param7: Nparticles
 * param8: countOnes
 * param9: max_size
 * param10: k
 * param11: IszY
 * param12: Nfr
 *****************************/
OFFLOAD_KERNEL void likelihood_kernel(offload::device_ptr<double> arrayX, offload::device_ptr<double> arrayY, offload::device_ptr<double> xj, offload::device_ptr<double> yj, offload::device_ptr<double> CDF, offload::device_ptr<int> ind, offload::device_ptr<int> objxy, offload::device_ptr<double> likelihood, offload::device_ptr<unsigned char> I, offload::device_ptr<double> u, offload::device_ptr<double> weights, int Nparticles, int countOnes, int max_size, int k, int IszY, int Nfr, offload::device_ptr<int> seed, offload::device_ptr<double> partial_sums) {
    int block_id = offload::block_id_x();
    int i = offload::block_dim_x() * block_id + offload::thread_id_x();
    int y;

    int indX, indY;
    auto &buffer = offload::shared<double[512]>([] {});
    if (i < Nparticles) {
        arrayX[i] = xj[i];
        arrayY[i] = yj[i];

        weights[i] = 1 / ((double) (Nparticles)); //Donnie - moved this line from end of find_index_kernel to prevent all weights from being reset before calculating position on final iteration.

        arrayX[i] = arrayX[i] + 1.0 + 5.0 * d_randn(seed.get(), i);
        arrayY[i] = arrayY[i] - 2.0 + 2.0 * d_randn(seed.get(), i);

    }

    offload::barrier();

    if (i < Nparticles) {
        for (y = 0; y < countOnes; y++) {
            //added dev_round_double() to be consistent with roundDouble
            indX = dev_round_double(arrayX[i]) + objxy[y * 2 + 1];
            indY = dev_round_double(arrayY[i]) + objxy[y * 2];

            ind[i * countOnes + y] = abs(indX * IszY * Nfr + indY * Nfr + k);
            if (ind[i * countOnes + y] >= max_size)
                ind[i * countOnes + y] = 0;
        }
        likelihood[i] = calcLikelihoodSum(I.get(), ind.get(), countOnes, i);

        likelihood[i] = likelihood[i] / countOnes;

        weights[i] = weights[i] * exp(likelihood[i]); //Donnie Newell - added the missing exponential function call

    }

    buffer[offload::thread_id_x()] = 0.0;

    offload::barrier();

    if (i < Nparticles) {

        buffer[offload::thread_id_x()] = weights[i];
    }

    offload::barrier();

    //this doesn't account for the last block that isn't full
    for (unsigned int s = offload::block_dim_x() / 2; s > 0; s >>= 1) {
        if (offload::thread_id_x() < s) {
            buffer[offload::thread_id_x()] += buffer[offload::thread_id_x() + s];
        }

        offload::barrier();

    }
    if (offload::thread_id_x() == 0) {
        partial_sums[offload::block_id_x()] = buffer[0];
    }

    offload::barrier();


}

/**
 * Takes in a double and returns an integer that approximates to that double
 * @return if the mantissa < .5 => return value < input value; else return value > input value
 */
// (the host functions)
/**
 * Takes in a double and returns an integer that approximates to that double
 * @return if the mantissa < .5 => return value < input value; else return value > input value
 */
double roundDouble(double value) {
    int newValue = (int) (value);
    if (value - newValue < .5)
        return newValue;
    else
        return newValue++;
}

/**
 * Set values of the 3D array to a newValue if that value is equal to the testValue
 * @param testValue The value to be replaced
 * @param newValue The value to replace testValue with
 * @param array3D The image vector
 * @param dimX The x dimension of the frame
 * @param dimY The y dimension of the frame
 * @param dimZ The number of frames
 */
void setIf(int testValue, int newValue, unsigned char * array3D, int * dimX, int * dimY, int * dimZ) {
    int x, y, z;
    for (x = 0; x < *dimX; x++) {
        for (y = 0; y < *dimY; y++) {
            for (z = 0; z < *dimZ; z++) {
                if (array3D[x * *dimY * *dimZ + y * *dimZ + z] == testValue)
                    array3D[x * *dimY * *dimZ + y * *dimZ + z] = newValue;
            }
        }
    }
}

/**
 * Sets values of 3D matrix using randomly generated numbers from a normal distribution
 * @param array3D The video to be modified
 * @param dimX The x dimension of the frame
 * @param dimY The y dimension of the frame
 * @param dimZ The number of frames
 * @param seed The seed array
 */
void addNoise(unsigned char * array3D, int * dimX, int * dimY, int * dimZ, int * seed) {
    int x, y, z;
    for (x = 0; x < *dimX; x++) {
        for (y = 0; y < *dimY; y++) {
            for (z = 0; z < *dimZ; z++) {
                array3D[x * *dimY * *dimZ + y * *dimZ + z] = array3D[x * *dimY * *dimZ + y * *dimZ + z] + (unsigned char) (5 * randn(seed, 0));
            }
        }
    }
}

/**
 * Fills a radius x radius matrix representing the disk
 * @param disk The pointer to the disk to be made
 * @param radius  The radius of the disk to be made
 */
void strelDisk(int * disk, int radius) {
    int diameter = radius * 2 - 1;
    int x, y;
    for (x = 0; x < diameter; x++) {
        for (y = 0; y < diameter; y++) {
            double distance = sqrt(pow((double) (x - radius + 1), 2) + pow((double) (y - radius + 1), 2));
            if (distance < radius)
                disk[x * diameter + y] = 1;
        }
    }
}

/**
 * Dilates the provided video
 * @param matrix The video to be dilated
 * @param posX The x location of the pixel to be dilated
 * @param posY The y location of the pixel to be dilated
 * @param poxZ The z location of the pixel to be dilated
 * @param dimX The x dimension of the frame
 * @param dimY The y dimension of the frame
 * @param dimZ The number of frames
 * @param error The error radius
 */
void dilate_matrix(unsigned char * matrix, int posX, int posY, int posZ, int dimX, int dimY, int dimZ, int error) {
    int startX = posX - error;
    while (startX < 0)
        startX++;
    int startY = posY - error;
    while (startY < 0)
        startY++;
    int endX = posX + error;
    while (endX > dimX)
        endX--;
    int endY = posY + error;
    while (endY > dimY)
        endY--;
    int x, y;
    for (x = startX; x < endX; x++) {
        for (y = startY; y < endY; y++) {
            double distance = sqrt(pow((double) (x - posX), 2) + pow((double) (y - posY), 2));
            if (distance < error)
                matrix[x * dimY * dimZ + y * dimZ + posZ] = 1;
        }
    }
}

/**
 * Dilates the target matrix using the radius as a guide
 * @param matrix The reference matrix
 * @param dimX The x dimension of the video
 * @param dimY The y dimension of the video
 * @param dimZ The z dimension of the video
 * @param error The error radius to be dilated
 * @param newMatrix The target matrix
 */
void imdilate_disk(unsigned char * matrix, int dimX, int dimY, int dimZ, int error, unsigned char * newMatrix) {
    int x, y, z;
    for (z = 0; z < dimZ; z++) {
        for (x = 0; x < dimX; x++) {
            for (y = 0; y < dimY; y++) {
                if (matrix[x * dimY * dimZ + y * dimZ + z] == 1) {
                    dilate_matrix(newMatrix, x, y, z, dimX, dimY, dimZ, error);
                }
            }
        }
    }
}

/**
 * Fills a 2D array describing the offsets of the disk object
 * @param se The disk object
 * @param numOnes The number of ones in the disk
 * @param neighbors The array that will contain the offsets
 * @param radius The radius used for dilation
 */
void getneighbors(int * se, int numOnes, int * neighbors, int radius) {
    int x, y;
    int neighY = 0;
    int center = radius - 1;
    int diameter = radius * 2 - 1;
    for (x = 0; x < diameter; x++) {
        for (y = 0; y < diameter; y++) {
            if (se[x * diameter + y]) {
                neighbors[neighY * 2] = (int) (y - center);
                neighbors[neighY * 2 + 1] = (int) (x - center);
                neighY++;
            }
        }
    }
}

/**
 * The synthetic video sequence we will work with here is composed of a
 * single moving object, circular in shape (fixed radius)
 * The motion here is a linear motion
 * the foreground intensity and the background intensity is known
 * the image is corrupted with zero mean Gaussian noise
 * @param I The video itself
 * @param IszX The x dimension of the video
 * @param IszY The y dimension of the video
 * @param Nfr The number of frames of the video
 * @param seed The seed array used for number generation
 */
void videoSequence(unsigned char * I, int IszX, int IszY, int Nfr, int * seed) {
    int k;
    int max_size = IszX * IszY * Nfr;
    /*get object centers*/
    int x0 = (int) roundDouble(IszY / 2.0);
    int y0 = (int) roundDouble(IszX / 2.0);
    I[x0 * IszY * Nfr + y0 * Nfr + 0] = 1;

    /*move point*/
    int xk, yk, pos;
    for (k = 1; k < Nfr; k++) {
        xk = abs(x0 + (k-1));
        yk = abs(y0 - 2 * (k-1));
        pos = yk * IszY * Nfr + xk * Nfr + k;
        if (pos >= max_size)
            pos = 0;
        I[pos] = 1;
    }

    /*dilate matrix*/
    unsigned char * newMatrix = (unsigned char *) calloc((size_t) IszX * IszY * Nfr, sizeof (unsigned char));  // (the original: malloc, read where not written)
    imdilate_disk(I, IszX, IszY, Nfr, 5, newMatrix);
    int x, y;
    for (x = 0; x < IszX; x++) {
        for (y = 0; y < IszY; y++) {
            for (k = 0; k < Nfr; k++) {
                I[x * IszY * Nfr + y * Nfr + k] = newMatrix[x * IszY * Nfr + y * Nfr + k];
            }
        }
    }
    free(newMatrix);

    /*define background, add noise*/
    setIf(0, 100, I, &IszX, &IszY, &Nfr);
    setIf(1, 228, I, &IszX, &IszY, &Nfr);
    /*add noise*/
    addNoise(I, &IszX, &IszY, &Nfr, seed);

}

/**
 * Finds the first element in the CDF that is greater than or equal to the provided value and returns that index
 * @note This function uses sequential search
 * @param CDF The CDF
 * @param lengthCDF The length of CDF
 * @param value The value to be found
 * @return The index of value in the CDF; if value is never found, returns the last index
 */
int findIndex(double * CDF, int lengthCDF, double value) {
    int index = -1;
    int x;
    for (x = 0; x < lengthCDF; x++) {
        if (CDF[x] >= value) {
            index = x;
            break;
        }
    }
    if (index == -1) {
        return lengthCDF - 1;
    }
    return index;
}

/**
 * The implementation of the particle filter (the original's particleFilter, on offload-cxx's
 * buffers); returns the port's check's verdict (0: passed).
 */
int check(unsigned char *I, int IszX, int IszY, int Nfr, const std::vector<int> &seed0, int Nparticles,
          int countOnes, int *objxy, double *arrayX, double *arrayY, double *weights);

double gpu_ms = 0;  // the port's: the "GPU Execution" region, for time_ms

int particleFilter(unsigned char * I, int IszX, int IszY, int Nfr, int * seed, int Nparticles) {
    int max_size = IszX * IszY*Nfr;
    //original particle centroid
    double xe = roundDouble(IszY / 2.0);
    double ye = roundDouble(IszX / 2.0);

    //expected object locations, compared to center
    int radius = 5;
    int diameter = radius * 2 - 1;
    int * disk = (int*) calloc(diameter * diameter, sizeof (int));  // (the original: malloc, and strelDisk sets only the ones)
    strelDisk(disk, radius);
    int countOnes = 0;
    int x, y;
    for (x = 0; x < diameter; x++) {
        for (y = 0; y < diameter; y++) {
            if (disk[x * diameter + y] == 1)
                countOnes++;
        }
    }
    int * objxy = (int *) malloc(countOnes * 2 * sizeof (int));
    getneighbors(disk, countOnes, objxy, radius);
    //initial weights are all equal (1/Nparticles)
    double * weights = (double *) malloc(sizeof (double) *Nparticles);
    for (x = 0; x < Nparticles; x++) {
        weights[x] = 1 / ((double) (Nparticles));
    }

    //initial likelihood to 0.0
    double * arrayX = (double *) malloc(sizeof (double) *Nparticles);
    double * arrayY = (double *) malloc(sizeof (double) *Nparticles);
    double * xj = (double *) malloc(sizeof (double) *Nparticles);
    double * yj = (double *) malloc(sizeof (double) *Nparticles);
    std::vector<int> seed0(seed, seed + Nparticles);  // the port's: the seeds, for the check

    //GPU copies of arrays
    offload::buffer<double> arrayX_GPU(Nparticles), arrayY_GPU(Nparticles), xj_GPU(Nparticles), yj_GPU(Nparticles),
        CDF_GPU(Nparticles), u_GPU(Nparticles), likelihood_GPU(Nparticles), weights_GPU(Nparticles);
    offload::buffer<unsigned char> I_GPU((size_t)IszX * IszY * Nfr);
    offload::buffer<int> objxy_GPU(2 * countOnes), ind_GPU((size_t)countOnes * Nparticles), seed_GPU(Nparticles);
    offload::buffer<double> partial_sums(Nparticles);
    //set likelihood to zero (cudaMemset)
    likelihood_GPU.copy_from(std::vector<double>(Nparticles, 0.0));


    //Donnie - this loop is different because in this kernel, arrayX and arrayY
    //  are set equal to xj before every iteration, so effectively, arrayX and
    //  arrayY will be set to xe and ye before the first iteration.
    for (x = 0; x < Nparticles; x++) {

        xj[x] = xe;
        yj[x] = ye;

    }

    int k;
    //start send
    long long send_start = get_time();
    I_GPU.copy_from(std::span<const unsigned char>(I, (size_t)IszX * IszY * Nfr));
    objxy_GPU.copy_from(std::span<const int>(objxy, 2 * countOnes));
    weights_GPU.copy_from(std::span<const double>(weights, Nparticles));
    xj_GPU.copy_from(std::span<const double>(xj, Nparticles));
    yj_GPU.copy_from(std::span<const double>(yj, Nparticles));
    seed_GPU.copy_from(std::span<const int>(seed, Nparticles));
    long long send_end = get_time();
    printf("TIME TO SEND TO GPU: %f\n", elapsed_time(send_start, send_end));
    int num_blocks = ceil((double) Nparticles / (double) threads_per_block);
    offload::launch_config cfg{.workgroups = {num_blocks}, .threads = {threads_per_block}};


    for (k = 1; k < Nfr; k++) {

        offload::launch(likelihood_kernel, cfg, arrayX_GPU.data(), arrayY_GPU.data(), xj_GPU.data(), yj_GPU.data(), CDF_GPU.data(), ind_GPU.data(), objxy_GPU.data(), likelihood_GPU.data(), I_GPU.data(), u_GPU.data(), weights_GPU.data(), Nparticles, countOnes, max_size, k, IszY, Nfr, seed_GPU.data(), partial_sums.data());

        offload::launch(sum_kernel, cfg, partial_sums.data(), Nparticles);

        offload::launch(normalize_weights_kernel, cfg, weights_GPU.data(), Nparticles, partial_sums.data(), CDF_GPU.data(), u_GPU.data(), seed_GPU.data());

        offload::launch(find_index_kernel, cfg, arrayX_GPU.data(), arrayY_GPU.data(), CDF_GPU.data(), u_GPU.data(), xj_GPU.data(), yj_GPU.data(), weights_GPU.data(), Nparticles);

    }//end loop

    //block till kernels are finished
    offload::synchronize();
    long long back_time = get_time();

    long long free_time = get_time();  // (the original frees ten device arrays here)
    arrayX_GPU.copy_to(std::span<double>(arrayX, Nparticles));
    long long arrayX_time = get_time();
    arrayY_GPU.copy_to(std::span<double>(arrayY, Nparticles));
    long long arrayY_time = get_time();
    weights_GPU.copy_to(std::span<double>(weights, Nparticles));
    long long back_end_time = get_time();
    printf("GPU Execution: %lf\n", elapsed_time(send_end, back_time));
    printf("FREE TIME: %lf\n", elapsed_time(back_time, free_time));
    printf("TIME TO SEND BACK: %lf\n", elapsed_time(back_time, back_end_time));
    printf("SEND ARRAY X BACK: %lf\n", elapsed_time(free_time, arrayX_time));
    printf("SEND ARRAY Y BACK: %lf\n", elapsed_time(arrayX_time, arrayY_time));
    printf("SEND WEIGHTS BACK: %lf\n", elapsed_time(arrayY_time, back_end_time));
    gpu_ms = elapsed_time(send_end, back_time) * 1e3;

    xe = 0;
    ye = 0;
    // estimate the object location by expected values
    for (x = 0; x < Nparticles; x++) {
        xe += arrayX[x] * weights[x];
        ye += arrayY[x] * weights[x];
    }
    printf("XE: %lf\n", xe);
    printf("YE: %lf\n", ye);
    double distance = sqrt(pow((double) (xe - (int) roundDouble(IszY / 2.0)), 2) + pow((double) (ye - (int) roundDouble(IszX / 2.0)), 2));
    printf("%lf\n", distance);

    int bad = check(I, IszX, IszY, Nfr, seed0, Nparticles, countOnes, objxy, arrayX, arrayY, weights);

    //free regular memory
    free(disk);
    free(objxy);
    free(weights);
    free(arrayX);
    free(arrayY);
    free(xj);
    free(yj);
    return bad;
}

// The port's check. The final weights are normalised, so they must add up to 1 whatever the
// order of work. With one workgroup (Nparticles <= 512) the run is also deterministic and is
// replayed on the host: the same steps, the same random sequences and the kernels' orders of
// summation, compared particle by particle. With several workgroups the original races: in
// normalize_weights_kernel, work-item 0 builds the CDF from every workgroup's weights and writes
// u[0], while the other workgroups divide their weights and read u[0] with nothing ordering the
// two (a barrier orders one workgroup only); the outcome depends on the timing, and only the
// sum is checked.
int check(unsigned char *I, int IszX, int IszY, int Nfr, const std::vector<int> &seed0, int Nparticles,
          int countOnes, int *objxy, double *arrayX, double *arrayY, double *weights) {
    int bad = 0;
    double sum = 0;
    for (int i = 0; i < Nparticles; i++) sum += weights[i];
    printf("sum of the final weights: %.15f\n", sum);
    if (!(fabs(sum - 1.0) <= 1e-9)) bad++;
    if (Nparticles > threads_per_block) {
        printf("(%d workgroups: the run depends on the timing of normalize_weights_kernel; its result is not replayed)\n",
               (Nparticles + threads_per_block - 1) / threads_per_block);
        return bad;
    }
    int N = Nparticles, max_size = IszX * IszY * Nfr;
    std::vector<int> seed(seed0), ind((size_t)countOnes * N);
    std::vector<double> ax(N), ay(N), xj(N, roundDouble(IszY / 2.0)), yj(N, roundDouble(IszX / 2.0)), w(N), lik(N), CDF(N), u(N);
    std::vector<double> buffer(threads_per_block);
    for (int k = 1; k < Nfr; k++) {
        // likelihood_kernel
        for (int i = 0; i < N; i++) {
            ax[i] = xj[i];
            ay[i] = yj[i];
            w[i] = 1 / ((double) (N));
            ax[i] = ax[i] + 1.0 + 5.0 * d_randn(seed.data(), i);
            ay[i] = ay[i] - 2.0 + 2.0 * d_randn(seed.data(), i);
        }
        for (int i = 0; i < N; i++) {
            for (int y = 0; y < countOnes; y++) {
                int indX = dev_round_double(ax[i]) + objxy[y * 2 + 1];
                int indY = dev_round_double(ay[i]) + objxy[y * 2];
                ind[i * countOnes + y] = abs(indX * IszY * Nfr + indY * Nfr + k);
                if (ind[i * countOnes + y] >= max_size)
                    ind[i * countOnes + y] = 0;
            }
            lik[i] = calcLikelihoodSum(I, ind.data(), countOnes, i);
            lik[i] = lik[i] / countOnes;
            w[i] = w[i] * exp(lik[i]);
        }
        for (int t = 0; t < threads_per_block; t++) buffer[t] = t < N ? w[t] : 0.0;
        for (int s = threads_per_block / 2; s > 0; s >>= 1)
            for (int t = 0; t < s; t++) buffer[t] += buffer[t + s];
        double sumWeights = buffer[0];  // sum_kernel: one workgroup's partial sum
        // normalize_weights_kernel
        for (int i = 0; i < N; i++) w[i] = w[i] / sumWeights;
        cdfCalc(CDF.data(), w.data(), N);
        u[0] = (1 / ((double) (N))) * d_randu(seed.data(), 0);
        double u1 = u[0];
        for (int i = 0; i < N; i++) u[i] = u1 + i / ((double) (N));
        // find_index_kernel
        for (int i = 0; i < N; i++) {
            int index = -1;
            for (int x = 0; x < N; x++)
                if (CDF[x] >= u[i]) { index = x; break; }
            if (index == -1) index = N - 1;
            xj[i] = ax[index];
            yj[i] = ay[index];
        }
    }
    double worst = 0;
    for (int i = 0; i < N; i++) {
        worst = fmax(worst, fabs(ax[i] - arrayX[i]) / fmax(1.0, fabs(ax[i])));
        worst = fmax(worst, fabs(ay[i] - arrayY[i]) / fmax(1.0, fabs(ay[i])));
        worst = fmax(worst, fabs(w[i] - weights[i]) / fmax(1e-300, fabs(w[i])));
    }
    printf("replayed on the host: largest relative difference %g\n", worst);
    if (!(worst <= 1e-9)) bad++;
    return bad;
}

int main(int argc, char * argv[]) {

    const char* usage = "double.out -x <dimX> -y <dimY> -z <Nfr> -np <Nparticles>";
    // The original requires the four options; the port has defaults for them.
    int IszX = 128, IszY = 128, Nfr = 10, Nparticles = 500;
    if (argc != 1 && (argc != 9 || strcmp(argv[1], "-x") || strcmp(argv[3], "-y") || strcmp(argv[5], "-z") || strcmp(argv[7], "-np") ||
        sscanf(argv[2], "%d", &IszX) != 1 || sscanf(argv[4], "%d", &IszY) != 1 || sscanf(argv[6], "%d", &Nfr) != 1 ||
        sscanf(argv[8], "%d", &Nparticles) != 1)) {
        printf("%s\n", usage);
        printf("rodinia-particlefilter: FAIL bad arguments\n");
        return 1;
    }
    if (IszX <= 0 || IszY <= 0 || Nfr <= 0 || Nparticles <= 0) {
        printf("rodinia-particlefilter: FAIL dimX, dimY, the number of frames and of particles must be > 0\n");
        return 1;
    }
    //establish seed
    // (the original: time(0) * i; the port: a fixed number, so that runs repeat)
    int * seed = (int *) malloc(sizeof (int) *Nparticles);
    int i;
    for (i = 0; i < Nparticles; i++)
        seed[i] = 1234567 * i;
    //malloc matrix
    // (the original: malloc; videoSequence reads it before writing all of it, see SOURCE.md)
    unsigned char * I = (unsigned char *) calloc((size_t)IszX * IszY * Nfr, sizeof (unsigned char));
    long long start = get_time();
    //call video sequence
    videoSequence(I, IszX, IszY, Nfr, seed);
    long long endVideoSequence = get_time();
    printf("VIDEO SEQUENCE TOOK %f\n", elapsed_time(start, endVideoSequence));
    //call particle filter
    int bad = particleFilter(I, IszX, IszY, Nfr, seed, Nparticles);
    long long endParticleFilter = get_time();
    printf("PARTICLE FILTER TOOK %f\n", elapsed_time(endVideoSequence, endParticleFilter));
    printf("ENTIRE PROGRAM TOOK %f\n", elapsed_time(start, endParticleFilter));
    printf("time_ms: %f\n", gpu_ms);

    free(seed);
    free(I);
    if (bad) {
        printf("rodinia-particlefilter: FAIL the device's particles differ from the host's\n");
        return 1;
    }
    printf("rodinia-particlefilter: PASS\n");
    return 0;
}
