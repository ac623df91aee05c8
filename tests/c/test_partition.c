/* Tests of the epoch partitioner (csrc/runtime/partition.c) on the worked
 * examples of docs/delegate-abi.md §4.4 and a few edge cases. Graphs are
 * written as "node: inputs -> outputs"; the expected subsets are what TFLite
 * (LiteRT 2.3) produces (cross-checked in tests/test_delegate.py). Exit 0 when
 * all pass; each failure prints the case. Built by tests/test_partition.py. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "partition.h"

#define MAXN 16

typedef struct graph {
  int num_tensors;
  int num_nodes;
  TfLiteNode nodes[MAXN];
  TfLiteIntArray* plan;
  TfLiteIntArray* outputs;
} graph;

static int failures = 0;

static TfLiteIntArray* arr(int n, const int* v) {
  TfLiteIntArray* a = TfLiteIntArrayCreate(n);
  if (n) memcpy(a->data, v, sizeof(int) * (size_t)n);
  return a;
}

#define ARR(...) arr((int)(sizeof((int[]){__VA_ARGS__}) / sizeof(int)), (int[]){__VA_ARGS__})
#define NONE arr(0, NULL)

/* Appends node i with the given inputs and outputs; the plan is 0..n-1. */
static void node(graph* g, TfLiteIntArray* in, TfLiteIntArray* out) {
  TfLiteNode* n = &g->nodes[g->num_nodes++];
  memset(n, 0, sizeof(*n));
  n->inputs = in;
  n->outputs = out;
}

static void finish_graph(graph* g, int num_tensors, TfLiteIntArray* outputs) {
  g->num_tensors = num_tensors;
  g->outputs = outputs;
  g->plan = TfLiteIntArrayCreate(g->num_nodes);
  for (int i = 0; i < g->num_nodes; ++i) g->plan->data[i] = i;
}

static void free_graph(graph* g) {
  for (int i = 0; i < g->num_nodes; ++i) {
    TfLiteIntArrayFree(g->nodes[i].inputs);
    TfLiteIntArrayFree(g->nodes[i].outputs);
  }
  TfLiteIntArrayFree(g->plan);
  TfLiteIntArrayFree(g->outputs);
}

static void str(char* buf, const TfLiteIntArray* a) {
  int k = sprintf(buf, "[");
  for (int i = 0; i < a->size; ++i) k += sprintf(buf + k, i ? ",%d" : "%d", a->data[i]);
  sprintf(buf + k, "]");
}

/* Renders subsets as "[0,1,4]*<0,1>(2,3,6) [2]<1,3>(4) ...": nodes, '*' when
 * claimed, <inputs>, (outputs). */
static void render(char* buf, const tff_node_subset* s, int n) {
  buf[0] = 0;
  for (int i = 0; i < n; ++i) {
    char a[256], b[256], c[256];
    str(a, s[i].nodes);
    str(b, s[i].inputs);
    str(c, s[i].outputs);
    b[0] = '<', b[strlen(b) - 1] = '>';
    c[0] = '(', c[strlen(c) - 1] = ')';
    sprintf(buf + strlen(buf), "%s%s%s%s%s", i ? " " : "", a, s[i].claimed ? "*" : "", b, c);
  }
}

static void expect(const char* name, graph* g, TfLiteIntArray* claimed, int greedy, int fuse,
                   const char* want) {
  tff_partition_graph pg = {g->plan, g->nodes, g->num_nodes, g->num_tensors, g->outputs};
  tff_node_subset* s = NULL;
  int n = -1;
  char got[2048] = "<error>";
  if (tff_partition(&pg, claimed, greedy, fuse, &s, &n) == kTfLiteOk) render(got, s, n);
  else if (s != NULL || n != 0) sprintf(got, "<error with output left set>");
  if (strcmp(got, want) != 0) {
    printf("FAIL %s (greedy=%d fuse=%d)\n  want %s\n  got  %s\n", name, greedy, fuse, want, got);
    ++failures;
  }
  tff_subsets_free(s, n);
  TfLiteIntArrayFree(claimed);
}

/* G1: n0 t2=a+b, n1 t3=t2*a, n2 t4=t3-b, n3 t5=t4+t2, n4 t6=a*b, n5 t7=t6-t5. */
static void g1(graph* g) {
  memset(g, 0, sizeof(*g));
  node(g, ARR(0, 1), ARR(2));
  node(g, ARR(2, 0), ARR(3));
  node(g, ARR(3, 1), ARR(4));
  node(g, ARR(4, 2), ARR(5));
  node(g, ARR(0, 1), ARR(6));
  node(g, ARR(6, 5), ARR(7));
  finish_graph(g, 8, ARR(7));
}

/* G4: n0 t2=a+b, n1 t3=t2-a, n2 t4=t3+b, n3 t5=a-b, n4 t6=t5+t4, n5 t7=a+b,
 * n6 t8=t7*t6. */
static void g4(graph* g) {
  memset(g, 0, sizeof(*g));
  node(g, ARR(0, 1), ARR(2));
  node(g, ARR(2, 0), ARR(3));
  node(g, ARR(3, 1), ARR(4));
  node(g, ARR(0, 1), ARR(5));
  node(g, ARR(5, 4), ARR(6));
  node(g, ARR(0, 1), ARR(7));
  node(g, ARR(7, 6), ARR(8));
  finish_graph(g, 9, ARR(8));
}

int main(void) {
  graph g;

  g1(&g);
  expect("G1", &g, ARR(0, 1, 3, 4), 1, 1,
         "[0,1,4]*<0,1>(2,3,6) [2]<1,3>(4) [3]*<2,4>(5) [5]<5,6>(7)");
  expect("G1", &g, ARR(0, 1, 3, 4), 0, 1,
         "[0,1]*<0,1>(2,3) [2]<1,3>(4) [3,4]*<0,1,2,4>(5,6) [5]<5,6>(7)");
  expect("G1", &g, ARR(0, 1, 3, 4), 1, 0,
         "[0]*<0,1>(2) [1]*<0,2>(3) [2]<1,3>(4) [3]*<2,4>(5) [4]*<0,1>(6) [5]<5,6>(7)");
  expect("G1 claim order", &g, ARR(4, 3, 1, 0, 1), 1, 1,
         "[0,1,4]*<0,1>(2,3,6) [2]<1,3>(4) [3]*<2,4>(5) [5]<5,6>(7)");
  expect("G1 nothing claimed", &g, NONE, 1, 1, "[0,1,2,3,4,5]<0,1>(7)");
  expect("G1 all claimed", &g, ARR(0, 1, 2, 3, 4, 5), 0, 1, "[0,1,2,3,4,5]*<0,1>(7)");
  expect("G1 invalid claim", &g, ARR(0, 6), 1, 1, "<error>");
  expect("G1 negative claim", &g, ARR(-1), 1, 1, "<error>");
  /* Nodes outside the plan are ignored (plan without n4, n5: as after an
   * earlier delegate replaced them). */
  g.plan->size = 4;
  expect("G1 partial plan", &g, ARR(0, 1, 3, 4), 1, 1,
         "[0,1]*<0,1>(2,3) [2]<1,3>(4) [3]*<2,4>()");
  free_graph(&g);

  g4(&g);
  expect("G4", &g, ARR(0, 2, 4, 5), 1, 1,
         "[0,5]*<0,1>(2,7) [1,3]<0,1,2>(3,5) [2,4]*<1,3,5>(6) [6]<6,7>(8)");
  expect("G4", &g, ARR(0, 2, 4, 5), 0, 1,
         "[0]*<0,1>(2) [1]<0,2>(3) [2]*<1,3>(4) [3]<0,1>(5) [4,5]*<0,1,4,5>(6,7) [6]<6,7>(8)");
  free_graph(&g);

  /* Constant input: t2=ADD(a,c), t3=ADD(t2,c) with c (tensor 1) a weight:
   * constants are inputs of the partition. */
  memset(&g, 0, sizeof(g));
  node(&g, ARR(0, 1), ARR(2));
  node(&g, ARR(2, 1), ARR(3));
  finish_graph(&g, 4, ARR(3));
  expect("constant", &g, ARR(0, 1), 1, 1, "[0,1]*<0,1>(3)");
  free_graph(&g);

  /* Side effects: n0 (claimed), n1 (not), n2 (claimed) have side effects,
   * n3 (claimed) has none; all read t0. Greedy chains n0 -> n1 -> n2; non-greedy
   * builds no control edges (as TFLite). */
  memset(&g, 0, sizeof(g));
  node(&g, ARR(0), ARR(1));
  node(&g, ARR(0), ARR(2));
  node(&g, ARR(0), ARR(3));
  node(&g, ARR(0), ARR(4));
  g.nodes[0].might_have_side_effect = g.nodes[1].might_have_side_effect = true;
  g.nodes[2].might_have_side_effect = true;
  finish_graph(&g, 5, ARR(1, 2, 3, 4));
  expect("side effects", &g, ARR(0, 2, 3), 1, 1, "[0,3]*<0>(1,4) [1]<0>(2) [2]*<0>(3)");
  expect("side effects", &g, ARR(0, 2, 3), 0, 1, "[0]*<0>(1) [1]<0>(2) [2,3]*<0>(3,4)");
  g.nodes[1].might_have_side_effect = false;
  expect("side effects unchained", &g, ARR(0, 2, 3), 1, 1, "[0,2,3]*<0>(1,3,4) [1]<0>(2)");
  free_graph(&g);

  /* A graph output that is also a graph input, an optional (-1) input, an
   * output read by a later subset and by the caller. */
  memset(&g, 0, sizeof(g));
  node(&g, ARR(0, -1), ARR(1));
  node(&g, ARR(1), ARR(2));
  node(&g, ARR(2, 1), ARR(3));
  finish_graph(&g, 4, ARR(0, 1, 3));
  expect("outputs", &g, ARR(0, 2), 1, 1, "[0]*<0>(1) [1]<1>(2) [2]*<1,2>(3)");
  free_graph(&g);

  /* Not a DAG: n0 reads t2 which n1 writes from t1 which n0 writes. */
  memset(&g, 0, sizeof(g));
  node(&g, ARR(0, 2), ARR(1));
  node(&g, ARR(1), ARR(2));
  finish_graph(&g, 3, ARR(2));
  expect("cycle", &g, ARR(0), 1, 1, "<error>");
  expect("cycle", &g, NONE, 0, 1, "<error>");
  free_graph(&g);

  /* Empty plan: no subsets. */
  memset(&g, 0, sizeof(g));
  finish_graph(&g, 2, ARR(1));
  expect("empty", &g, NONE, 1, 1, "");
  free_graph(&g);

  if (failures == 0) printf("all partition tests passed\n");
  return failures ? 1 : 0;
}
