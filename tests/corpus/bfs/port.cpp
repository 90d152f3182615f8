// Port of HeCBench src/bfs-cuda/bfs.cu (from Rodinia) to offload-cxx (see SOURCE.md).
// Level-synchronous BFS over a CSR graph: two kernels per level, until no node changes.
// usage: bfs [number of nodes]
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <math.h>
#include <chrono>
#include <offload/offload.hpp>
#include <vector>

#define MAX_THREADS_PER_BLOCK 256


//Structure to hold a node information
struct Node
{
  int starting;
  int no_of_edges;
};

OFFLOAD_KERNEL void
Kernel(offload::device_ptr<Node> d_graph_nodes,
       offload::device_ptr<int> d_graph_edges,
       offload::device_ptr<char> d_graph_mask,
       offload::device_ptr<char> d_updatind_graph_mask,
       offload::device_ptr<char> d_graph_visited,
       offload::device_ptr<int> d_cost,
       const int no_of_nodes)
{
  int tid = offload::block_id_x() * offload::block_dim_x() + offload::thread_id_x();
  if( tid<no_of_nodes && d_graph_mask[tid])
  {
    d_graph_mask[tid]=0;
    const int num_edges = d_graph_nodes[tid].no_of_edges;
    const int starting = d_graph_nodes[tid].starting;

    for(int i=starting; i<(num_edges + starting); i++)
    {
      int id = d_graph_edges[i];
      if(!d_graph_visited[id])
      {
        d_cost[id]=d_cost[tid]+1;
        d_updatind_graph_mask[id]=1;
      }
    }
  }
}

OFFLOAD_KERNEL void
Kernel2(offload::device_ptr<char> d_graph_mask,
        offload::device_ptr<char> d_updatind_graph_mask,
        offload::device_ptr<char> d_graph_visited,
        offload::device_ptr<char> d_over,
        const int no_of_nodes)
{
  int tid = offload::block_id_x() * offload::block_dim_x() + offload::thread_id_x();
  if( tid<no_of_nodes && d_updatind_graph_mask[tid])
  {
    d_graph_mask[tid]=1;
    d_graph_visited[tid]=1;
    d_over[0]=1;
    d_updatind_graph_mask[tid]=0;
  }
}

void run_bfs_cpu(int no_of_nodes, Node *h_graph_nodes, int edge_list_size,
    int *h_graph_edges, char *h_graph_mask, char *h_updating_graph_mask,
    char *h_graph_visited, int *h_cost_ref)
{
  char stop;
  do{
    //if no thread changes this value then the loop stops
    stop=0;
    for(int tid = 0; tid < no_of_nodes; tid++ )
    {
      if (h_graph_mask[tid] == 1){ 
        h_graph_mask[tid]=0;
        for(int i=h_graph_nodes[tid].starting; 
            i<(h_graph_nodes[tid].no_of_edges + h_graph_nodes[tid].starting); i++){
          int id = h_graph_edges[i];  // node id is connected with node tid
          if(!h_graph_visited[id]){   // if node id has not been visited, enter the body below
            h_cost_ref[id]=h_cost_ref[tid]+1;
            h_updating_graph_mask[id]=1;
          }
        }
      }    
    }

    for(int tid=0; tid< no_of_nodes ; tid++ )
    {
      if (h_updating_graph_mask[tid] == 1){
        h_graph_mask[tid]=1;
        h_graph_visited[tid]=1;
        stop=1;
        h_updating_graph_mask[tid]=0;
      }
    }
  }
  while(stop);
}

void Usage(int argc, char**argv){
  fprintf(stderr,"Usage: %s [number of nodes]\n", argv[0]);
}

//Apply BFS on a Graph
void run_bfs_gpu(int no_of_nodes, Node *h_graph_nodes, int edge_list_size,
    int *h_graph_edges, char *h_graph_mask, char *h_updating_graph_mask,
    char *h_graph_visited, int *h_cost)
{

  offload::buffer<Node> d_graph_nodes(no_of_nodes);
  d_graph_nodes.copy_from(std::span<const Node>(h_graph_nodes, no_of_nodes));

  offload::buffer<int> d_graph_edges(edge_list_size);
  d_graph_edges.copy_from(std::span<const int>(h_graph_edges, edge_list_size));

  offload::buffer<char> d_graph_mask(no_of_nodes);
  d_graph_mask.copy_from(std::span<const char>(h_graph_mask, no_of_nodes));

  offload::buffer<char> d_updating_graph_mask(no_of_nodes);
  d_updating_graph_mask.copy_from(std::span<const char>(h_updating_graph_mask, no_of_nodes));

  offload::buffer<char> d_graph_visited(no_of_nodes);
  d_graph_visited.copy_from(std::span<const char>(h_graph_visited, no_of_nodes));

  offload::buffer<int> d_cost(no_of_nodes);
  d_cost.copy_from(std::span<const int>(h_cost, no_of_nodes));

  char h_over;
  offload::buffer<char> d_over(1);

  // setup execution parameters
  offload::launch_config cfg{.workgroups = {(no_of_nodes + MAX_THREADS_PER_BLOCK - 1) / MAX_THREADS_PER_BLOCK},
                             .threads = {MAX_THREADS_PER_BLOCK}};

  double time = 0;
  offload::queue q;
  do {
    h_over = 0;
    d_over.copy_from(std::span<const char>(&h_over, 1));

    auto start = q.record();

    q.launch(Kernel, cfg, d_graph_nodes.data(), d_graph_edges.data(), d_graph_mask.data(), d_updating_graph_mask.data(),
             d_graph_visited.data(), d_cost.data(), no_of_nodes);
    q.launch(Kernel2, cfg, d_graph_mask.data(), d_updating_graph_mask.data(), d_graph_visited.data(), d_over.data(), no_of_nodes);

    auto end = q.record();
    q.wait();
    time += offload::elapsed_ms(start, end);

    d_over.copy_to(std::span<char>(&h_over, 1));
  } while(h_over);

  printf("Total kernel execution time : %f (us)\n", time * 1e3f);
  printf("time_ms: %f\n", time);

  // copy result from device to host
  d_cost.copy_to(std::span<int>(h_cost, no_of_nodes));
}

//----------------------------------------------------------
//--cambine:  main function
//--author:    created by Jianbin Fang
//--date:    25/01/2011
//----------------------------------------------------------
int main(int argc, char * argv[])
{
  int no_of_nodes;
  int edge_list_size;
  Node* h_graph_nodes;
  char *h_graph_mask, *h_updating_graph_mask, *h_graph_visited;
  // The original reads a Rodinia graph file (graphgen's format: per node a first edge and an edge
  // count, then the edges). The port generates such a graph: node i has 1..8 edges to random
  // nodes (a fixed seed), so that it needs no input file.
  no_of_nodes = argc > 1 ? atoi(argv[1]) : 100000;  // SMALL; e.g. 16000000 for a GPU run
  if (no_of_nodes <= 0) {
    Usage(argc, argv);
    printf("bfs: FAIL bad arguments\n");
    return 1;
  }

  int source = 0;

  // allocate host memory
  h_graph_nodes = (Node*) malloc(sizeof(Node)*no_of_nodes);
  h_graph_mask = (char*) malloc(sizeof(char)*no_of_nodes);
  h_updating_graph_mask = (char*) malloc(sizeof(char)*no_of_nodes);
  h_graph_visited = (char*) malloc(sizeof(char)*no_of_nodes);

  srand(7);
  std::vector<int> edges;
  // initalize the memory
  for(int i = 0; i < no_of_nodes; i++){
    int edgeno = 1 + rand() % 8;
    h_graph_nodes[i].starting = (int)edges.size();
    h_graph_nodes[i].no_of_edges = edgeno;
    for (int e = 0; e < edgeno; e++) edges.push_back(rand() % no_of_nodes);
    h_graph_mask[i]=0;
    h_updating_graph_mask[i]=0;
    h_graph_visited[i]=0;
  }
  //set the source node as 1 in the mask
  h_graph_mask[source]=1;
  h_graph_visited[source]=1;
  edge_list_size = (int)edges.size();
  int* h_graph_edges = (int*) malloc(sizeof(int)*edge_list_size);
  for(int i=0; i < edge_list_size ; i++){
    h_graph_edges[i] = edges[i];
  }

  // allocate mem for the result on host side
  int *h_cost = (int*) malloc(sizeof(int)*no_of_nodes);
  int *h_cost_ref = (int*)malloc(sizeof(int)*no_of_nodes);
  for(int i=0;i<no_of_nodes;i++){
    h_cost[i]=-1;
    h_cost_ref[i] = -1;
  }
  h_cost[source]=0;
  h_cost_ref[source]=0;    

  printf("run bfs (#nodes = %d) on device\n", no_of_nodes);
  run_bfs_gpu(no_of_nodes,h_graph_nodes,edge_list_size,h_graph_edges, 
      h_graph_mask, h_updating_graph_mask, h_graph_visited, h_cost);  

  printf("run bfs (#nodes = %d) on host (cpu) \n", no_of_nodes);
  // initalize the memory again
  for(int i = 0; i < no_of_nodes; i++){
    h_graph_mask[i]=0;
    h_updating_graph_mask[i]=0;
    h_graph_visited[i]=0;
  }
  //set the source node as 1 in the mask
  source=0;
  h_graph_mask[source]=1;
  h_graph_visited[source]=1;
  run_bfs_cpu(no_of_nodes,h_graph_nodes,edge_list_size,h_graph_edges, 
      h_graph_mask, h_updating_graph_mask, h_graph_visited, h_cost_ref);

  // verify
  // (the original's compare_results, of HeCBench's util.h, prints PASS or FAIL)
  int mismatches = 0, reached = 0;
  for (int i = 0; i < no_of_nodes; i++) {
    if (h_cost_ref[i] != h_cost[i]) {
      if (!mismatches) printf("cost[%d]: %d (device) != %d (host)\n", i, h_cost[i], h_cost_ref[i]);
      mismatches++;
    }
    reached += h_cost_ref[i] >= 0;
  }
  printf("%d of %d nodes reached\n", reached, no_of_nodes);

  free(h_graph_nodes);
  free(h_graph_mask);
  free(h_updating_graph_mask);
  free(h_graph_visited);
  free(h_cost);
  free(h_cost_ref);
  free(h_graph_edges);

  if (mismatches) {
    printf("bfs: FAIL %d costs differ from the host's\n", mismatches);
    return 1;
  }
  printf("bfs: PASS\n");
  return 0;
}
