/* The epoch partitioner; see partition.h. Each sweep of the plan builds one
 * subset: the first node whose inputs are ready fixes the subset's kind, then
 * only nodes of that kind join. A subset is closed before the next starts, so
 * every input of a subset comes from an earlier one and contraction cannot
 * create a cycle. Side-effecting nodes are chained by control edges so they
 * keep their relative order. */
#include "partition.h"

#include <stdlib.h>
#include <string.h>

enum { kNotReady = -1, kAlwaysReady = -2 };

typedef struct int_list {
  int* v;
  int n, cap;
} int_list;

static int push(int_list* l, int x) {
  if (l->n == l->cap) {
    const int cap = l->cap ? 2 * l->cap : 8;
    int* v = (int*)realloc(l->v, sizeof(int) * (size_t)cap);
    if (v == NULL) return 0;
    l->v = v;
    l->cap = cap;
  }
  l->v[l->n++] = x;
  return 1;
}

static int cmp_int(const void* a, const void* b) {
  const int x = *(const int*)a, y = *(const int*)b;
  return (x > y) - (x < y);
}

/* Sorted, deduplicated copy as a TfLiteIntArray; frees the list. */
static TfLiteIntArray* finish(int_list* l) {
  if (l->n > 1) qsort(l->v, (size_t)l->n, sizeof(int), cmp_int);
  int m = 0;
  for (int i = 0; i < l->n; ++i)
    if (m == 0 || l->v[m - 1] != l->v[i]) l->v[m++] = l->v[i];
  TfLiteIntArray* a = TfLiteIntArrayCreate(m);
  if (a && m) memcpy(a->data, l->v, sizeof(int) * (size_t)m);
  free(l->v);
  return a;
}

typedef struct subset_build {
  int claimed;
  int_list nodes, inputs, outputs;
} subset_build;

void tff_subsets_free(tff_node_subset* s, int n) {
  for (int i = 0; s && i < n; ++i) {
    TfLiteIntArrayFree(s[i].nodes);
    TfLiteIntArrayFree(s[i].inputs);
    TfLiteIntArrayFree(s[i].outputs);
  }
  free(s);
}

TfLiteStatus tff_partition(const tff_partition_graph* g, const TfLiteIntArray* claimed,
                           int greedy, int fuse, tff_node_subset** out, int* n_out) {
  *out = NULL;
  *n_out = 0;
  const int nn = g->num_nodes, nt = g->num_tensors, steps = g->plan->size;
  int* node_epoch = (int*)malloc(sizeof(int) * (size_t)(nn + 1));
  char* is_claimed = (char*)calloc((size_t)nn + 1, 1);
  int* tensor_epoch = (int*)malloc(sizeof(int) * (size_t)(nt + 1));
  int* pending = (int*)calloc((size_t)nn + 1, sizeof(int)); /* incoming control edges */
  int* next_effect = (int*)malloc(sizeof(int) * (size_t)(nn + 1));
  subset_build* sub = NULL;
  int nsub = 0, nalloc = 0; /* subsets closed / allocated */
  TfLiteStatus status = kTfLiteError;
  if (!node_epoch || !is_claimed || !tensor_epoch || !pending || !next_effect) goto done;

  for (int i = 0; i < claimed->size; ++i) {
    const int x = claimed->data[i];
    if (x < 0 || x >= nn) goto done;
    is_claimed[x] = 1;
  }
  for (int i = 0; i < nn; ++i) node_epoch[i] = next_effect[i] = -1;
  for (int t = 0; t < nt; ++t) tensor_epoch[t] = kAlwaysReady;
  for (int s = 0; s < steps; ++s) {
    const TfLiteNode* node = &g->nodes[g->plan->data[s]];
    for (int k = 0; k < node->outputs->size; ++k)
      if (node->outputs->data[k] >= 0) tensor_epoch[node->outputs->data[k]] = kNotReady;
  }
  if (greedy) { /* chain side-effecting nodes in plan order */
    int prev = -1;
    for (int s = 0; s < steps; ++s) {
      const int ni = g->plan->data[s];
      if (!g->nodes[ni].might_have_side_effect) continue;
      if (prev >= 0) {
        next_effect[prev] = ni;
        pending[ni] = 1;
      }
      prev = ni;
    }
  }

  for (;;) {
    subset_build* grown = (subset_build*)realloc(sub, sizeof(subset_build) * (size_t)(nsub + 1));
    if (grown == NULL) goto done;
    sub = grown;
    subset_build* cur = &sub[nsub];
    memset(cur, 0, sizeof(*cur));
    nalloc = nsub + 1;
    cur->claimed = -1;
    const int epoch = nsub;
    /* TFLite's sweep: any node that does not join (already placed, not
     * ready, other kind) closes a non-greedy subset once this sweep has
     * added something; a sweep that adds nothing ends the subset. */
    for (int added = 1, closed = 0; added && !closed;) {
      added = 0;
      for (int s = 0; s < steps && !closed; ++s) {
        const int ni = g->plan->data[s];
        const TfLiteNode* node = &g->nodes[ni];
        int ok = node_epoch[ni] == -1 && pending[ni] == 0;
        for (int k = 0; ok && k < node->inputs->size; ++k) {
          const int t = node->inputs->data[k];
          if (t >= 0 && tensor_epoch[t] == kNotReady) ok = 0;
        }
        if (ok && cur->claimed < 0) cur->claimed = is_claimed[ni]; /* first ready node */
        ok = ok && cur->claimed == is_claimed[ni] && (fuse || cur->nodes.n == 0);
        if (!ok) {
          if (added && !greedy) closed = 1;
          continue;
        }
        node_epoch[ni] = epoch;
        if (!push(&cur->nodes, ni)) goto done;
        /* outputs first: an input that is also the node's own output is not
         * an input of the subset */
        for (int k = 0; k < node->outputs->size; ++k)
          if (node->outputs->data[k] >= 0) tensor_epoch[node->outputs->data[k]] = epoch;
        for (int k = 0; k < node->inputs->size; ++k) {
          const int t = node->inputs->data[k];
          if (t < 0 || tensor_epoch[t] == epoch) continue;
          if (!push(&cur->inputs, t)) goto done;
          if (tensor_epoch[t] >= 0 && !push(&sub[tensor_epoch[t]].outputs, t)) goto done;
        }
        if (next_effect[ni] >= 0) pending[next_effect[ni]] = 0;
        added = 1;
      }
    }
    if (cur->nodes.n == 0) break;
    ++nsub;
  }
  for (int s = 0; s < steps; ++s)
    if (node_epoch[g->plan->data[s]] == -1) goto done; /* not a DAG */
  for (int i = 0; i < g->outputs->size; ++i) {
    const int t = g->outputs->data[i];
    if (t >= 0 && t < nt && tensor_epoch[t] >= 0 && !push(&sub[tensor_epoch[t]].outputs, t)) goto done;
  }
  *out = (tff_node_subset*)calloc((size_t)(nsub ? nsub : 1), sizeof(tff_node_subset));
  if (*out == NULL) goto done;
  for (int i = 0; i < nsub; ++i) {
    (*out)[i].claimed = sub[i].claimed;
    (*out)[i].nodes = TfLiteIntArrayCreate(sub[i].nodes.n);
    if ((*out)[i].nodes && sub[i].nodes.n) memcpy((*out)[i].nodes->data, sub[i].nodes.v, sizeof(int) * (size_t)sub[i].nodes.n);
    free(sub[i].nodes.v);
    (*out)[i].inputs = finish(&sub[i].inputs);
    (*out)[i].outputs = finish(&sub[i].outputs);
    sub[i].nodes.v = sub[i].inputs.v = sub[i].outputs.v = NULL;
  }
  for (int i = 0; i < nsub; ++i)
    if (!(*out)[i].nodes || !(*out)[i].inputs || !(*out)[i].outputs) { /* out of memory */
      tff_subsets_free(*out, nsub);
      *out = NULL;
      goto done;
    }
  *n_out = nsub;
  status = kTfLiteOk;
done:
  if (sub) {
    for (int i = 0; i < nalloc && status != kTfLiteOk; ++i) {
      free(sub[i].nodes.v);
      free(sub[i].inputs.v);
      free(sub[i].outputs.v);
    }
    free(sub);
  }
  free(node_epoch);
  free(is_claimed);
  free(tensor_epoch);
  free(pending);
  free(next_effect);
  return status;
}
