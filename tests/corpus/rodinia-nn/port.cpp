// Port of Rodinia 3.1 cuda/nn/nn_cuda.cu to offload-cxx (see SOURCE.md).
// Nearest neighbours: one kernel computes the distance of every hurricane record to a point,
// the host picks the nearest few.
// usage: rodinia-nn [number of records] [results] [lat] [lng]
//        (default 100000 5 30 90, the run script's -r 5 -lat 30 -lng 90; e.g. 4000000 5 30 90
//        for a GPU run)
#include <offload/offload.hpp>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include <algorithm>
#include <vector>

#define min( a, b )			a > b ? b : a
#define ceilDiv( a, b )		( a + b - 1 ) / b
#define print( x )			printf( #x ": %lu\n", (unsigned long) x )
#define DEBUG				false

#define DEFAULT_THREADS_PER_BLOCK 256

#define MAX_ARGS 10
#define REC_LENGTH 53 // size of a record in db
#define LATITUDE_POS 28	// character position of the latitude value in each record
#define OPEN 10000	// initial value of nearest neighbors


typedef struct latLong
{
  float lat;
  float lng;
} LatLong;

typedef struct record
{
  char recString[REC_LENGTH];
  float distance;
} Record;

int generateData(int numRecords,std::vector<Record> &records,std::vector<LatLong> &locations);
void findLowest(std::vector<Record> &records,float *distances,int numRecords,int topN);

/**
* Kernel
* Executed on GPU
* Calculates the Euclidean distance from each record in the database to the target position
*/
OFFLOAD_KERNEL void euclid(offload::device_ptr<LatLong> d_locations, offload::device_ptr<float> d_distances, int numRecords,float lat, float lng)
{
	//int globalId = gridDim.x * blockDim.x * blockIdx.y + blockDim.x * blockIdx.x + threadIdx.x;
	int globalId = offload::block_dim_x() * ( offload::grid_dim_x() * offload::block_id_y() + offload::block_id_x() ) + offload::thread_id_x(); // more efficient
    offload::device_ptr<LatLong> latLong = d_locations+globalId;
    if (globalId < numRecords) {
        offload::device_ptr<float> dist=d_distances+globalId;
        *dist = (float)sqrt((lat-latLong->lat)*(lat-latLong->lat)+(lng-latLong->lng)*(lng-latLong->lng));
	}
}

/**
* This program finds the k-nearest neighbors
**/

int main(int argc, char* argv[])
{
	int    i=0;
	float lat, lng;
	int quiet=0;

    std::vector<Record> records;
	std::vector<LatLong> locations;
	int resultsCount=10;

    // The original takes a file listing the record files, -r, -lat, -lng and flags; the port
    // takes the number of records to generate (as Rodinia's hurricane_gen.c writes them, with a
    // fixed seed) and the other three, all optional.
    int wanted = argc > 1 ? atoi(argv[1]) : 100000;
    resultsCount = argc > 2 ? atoi(argv[2]) : 5;
    lat = argc > 3 ? atof(argv[3]) : 30;
    lng = argc > 4 ? atof(argv[4]) : 90;
    if (wanted <= 0 || resultsCount <= 0) {
      printf("rodinia-nn: FAIL bad arguments\n");
      return 1;
    }

    int numRecords = generateData(wanted,records,locations);
    if (resultsCount > numRecords) resultsCount = numRecords;

    //Pointers to host memory
	float *distances;

	// Scaling calculations - added by Sam Kauffman
	// (the original asks the device for its largest grid, its largest workgroup and its free
	// memory; the port takes CUDA's 2^31-1 and 256, and leaves the memory check out)
	unsigned long maxGridX = 2147483647;
	unsigned long threadsPerBlock = min( 1024, DEFAULT_THREADS_PER_BLOCK );
	unsigned long blocks = ceilDiv( numRecords, threadsPerBlock ); // extra threads will do nothing
	unsigned long gridY = ceilDiv( blocks, maxGridX );
	unsigned long gridX = ceilDiv( blocks, gridY );
	// There will be no more than (gridY - 1) extra blocks
	offload::launch_config gridDim{.workgroups = {gridX, gridY}, .threads = {threadsPerBlock}};

	/**
	* Allocate memory on host and device
	*/
	distances = (float *)malloc(sizeof(float) * numRecords);
	offload::buffer<LatLong> d_locations(numRecords);
	offload::buffer<float> d_distances(numRecords);

    // timed as the original with its added timing lines (SOURCE.md)
    struct timeval t0, t1;
    gettimeofday(&t0, NULL);
   /**
    * Transfer data from host to device
    */
    d_locations.copy_from(locations);

    /**
    * Execute kernel
    */
    offload::launch(euclid, gridDim, d_locations.data(),d_distances.data(),numRecords,lat,lng);
    offload::synchronize();

    //Copy data from device memory to host memory
    d_distances.copy_to(std::span<float>(distances, numRecords));
    gettimeofday(&t1, NULL);
    double ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_usec - t0.tv_usec) * 1e-3;
    printf("Device time: %f (ms)\n", ms);
    printf("time_ms: %f\n", ms);

    // The port's check: every distance against the host's, before findLowest reorders them.
    int bad = 0;
    for (i = 0; i < numRecords; i++) {
      float d = sqrtf((lat-locations[i].lat)*(lat-locations[i].lat)+(lng-locations[i].lng)*(lng-locations[i].lng));
      if (!(fabsf(d - distances[i]) <= 1e-6f * fmaxf(d, 1.0f))) {
        if (!bad) printf("distance %d: %f (device) != %f (host)\n", i, distances[i], d);
        bad++;
      }
    }

	// find the resultsCount least distances
    std::vector<float> all(distances, distances + numRecords);
    findLowest(records,distances,numRecords,resultsCount);

    // print out results
    if (!quiet)
    for(i=0;i<resultsCount;i++) {
      printf("%s --> Distance=%f\n",records[i].recString,records[i].distance);
    }
    // and that they are the smallest, in order
    std::sort(all.begin(), all.end());
    for (i = 0; i < resultsCount; i++)
      if (records[i].distance != all[i]) bad++;
    free(distances);
    if (bad) {
      printf("rodinia-nn: FAIL %d distances differ from the host's\n", bad);
      return 1;
    }
    printf("rodinia-nn: PASS\n");
    return 0;
}

// The original's loadData reads the records from files written by Rodinia's hurricane_gen.c;
// the port writes them as hurricane_gen.c does (srand(7) once instead of srand(time(NULL)) per
// file) into memory and parses them as loadData does. bench/corpus/rodinia/inputs.c writes the
// same records to files for the original.
int generateData(int numRecords,std::vector<Record> &records,std::vector<LatLong> &locations){
  int i=0, recNum=0;
  int year,month,date,hour,num,speed,press;
  float lat,lon;
  int hours[4] = {0,6,12,18};
  const char *name;
  const char names[21][10] = {"ALBERTO", "BERYL", "CHRIS","DEBBY","ERNESTO","FLORENCE","GORDON",
      "HELENE","ISAAC","JOYCE","KIRK","LESLIE","MICHAEL","NADINE","OSCAR","PATTY","RAFAEL",
      "SANDY","TONY","VALERIE","WILLIAM"};
  srand(7);
  for (int r = 0; r < numRecords; r++) {
      year = 1950 + rand() % 55;
      month = 1 + rand() % 12;
      date = 1 + rand() % 28;
      hour = hours[rand()%4];
      num = 1 + rand() % 28;
      name = names[rand()%21];
      lat = ((float)(7 + rand() % 63)) + ((float) rand() / (float) 0x7fffffff);
      lon = ((float)(rand() % 358)) + ((float) rand() / (float) 0x7fffffff);
      speed = 10+ rand() % 155;
      press = rand() % 900;

      Record record;
      LatLong latLong;
      char line[64];
      snprintf(line, sizeof line, "%4d %2d %2d %2d %2d %-9s %5.1f %5.1f %4d %4d\n", year, month, date, hour, num, name, lat, lon, speed, press);
      memcpy(record.recString, line, 48);  // fgets(record.recString,49,fp)
      record.recString[48] = '\0';

            // parse for lat and long
            char substr[6];

            for(i=0;i<5;i++) substr[i] = *(record.recString+i+28);
            substr[5] = '\0';
            latLong.lat = atof(substr);

            for(i=0;i<5;i++) substr[i] = *(record.recString+i+33);
            substr[5] = '\0';
            latLong.lng = atof(substr);

            locations.push_back(latLong);
            records.push_back(record);
            recNum++;
  }
  return recNum;
}

void findLowest(std::vector<Record> &records,float *distances,int numRecords,int topN){
  int i,j;
  float val;
  int minLoc;
  Record *tempRec;
  float tempDist;

  for(i=0;i<topN;i++) {
    minLoc = i;
    for(j=i;j<numRecords;j++) {
      val = distances[j];
      if (val < distances[minLoc]) minLoc = j;
    }
    // swap locations and distances
    tempRec = &records[i];
    records[i] = records[minLoc];
    records[minLoc] = *tempRec;

    tempDist = distances[i];
    distances[i] = distances[minLoc];
    distances[minLoc] = tempDist;

    // add distance to the min we just found
    records[i].distance = distances[i];
  }
}
