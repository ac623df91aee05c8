/* TFLite's delegate partitioner ("epoch" algorithm, docs/delegate-abi.md
 * §4.1): splits an execution plan into subsets of claimed / unclaimed nodes
 * so that contracting each claimed subset into one node keeps the graph a
 * DAG. Pure function of the graph; no runtime state. */
#ifndef TFLITE_FAST_RUNTIME_PARTITION_H_
#define TFLITE_FAST_RUNTIME_PARTITION_H_

#include "tflite_fast/common.h"

typedef struct tff_node_subset {
  int claimed;              /* 1: the delegate's nodes, 0: left to the CPU */
  TfLiteIntArray* nodes;    /* node indices, in execution order */
  TfLiteIntArray* inputs;   /* sorted, deduplicated; constants included */
  TfLiteIntArray* outputs;  /* sorted, deduplicated */
} tff_node_subset;

typedef struct tff_partition_graph {
  const TfLiteIntArray* plan;      /* node indices in execution order */
  const TfLiteNode* nodes;         /* the node table */
  int num_nodes;
  int num_tensors;
  const TfLiteIntArray* outputs;   /* graph outputs */
} tff_partition_graph;

/* Partitions `g` given the claimed node indices. greedy=0 keeps the plan's
 * order except for runs of consecutive nodes (DisableDelegateClustering);
 * fuse=0 puts every claimed node in its own subset. On success *out holds
 * *n subsets (free with tff_subsets_free). Returns kTfLiteError for an
 * invalid claim (index out of range) or a graph that is not a DAG. */
TfLiteStatus tff_partition(const tff_partition_graph* g, const TfLiteIntArray* claimed,
                           int greedy, int fuse, tff_node_subset** out, int* n);
void tff_subsets_free(tff_node_subset* s, int n);

#endif /* TFLITE_FAST_RUNTIME_PARTITION_H_ */
