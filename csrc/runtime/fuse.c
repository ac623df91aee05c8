/* Activation fusion; see fuse.h. */
#include "fuse.h"

#include <stdlib.h>

#include "graph.h"
#include "tflite_fast/builtin_op_data.h"
#include "tflite_fast/builtin_ops.h"

/* The fused activation of an op that can take one, or NULL. */
static TfLiteFusedActivation* activation_of(const TfLiteNode* n, int code) {
  void* p = n->builtin_data;
  if (p == NULL) return NULL;
  switch (code) {
    case kTfLiteBuiltinConv2d: return &((TfLiteConvParams*)p)->activation;
    case kTfLiteBuiltinDepthwiseConv2d: return &((TfLiteDepthwiseConvParams*)p)->activation;
    case kTfLiteBuiltinFullyConnected: return &((TfLiteFullyConnectedParams*)p)->activation;
    case kTfLiteBuiltinAdd: return &((TfLiteAddParams*)p)->activation;
    case kTfLiteBuiltinSub: return &((TfLiteSubParams*)p)->activation;
    case kTfLiteBuiltinMul: return &((TfLiteMulParams*)p)->activation;
    default: return NULL;
  }
}

static int is_f32(const tff_subgraph* sg, const TfLiteIntArray* ts, int k) {
  return k < ts->size && ts->data[k] >= 0 && sg->tensors[ts->data[k]].type == kTfLiteFloat32;
}

/* Float all through: the first one or two inputs (the data, not a hybrid
 * op's int8 filter) and the one output, an arena tensor. */
static int float_op(const tff_subgraph* sg, const TfLiteNode* n) {
  if (n->outputs->size != 1 || !is_f32(sg, n->outputs, 0) || !is_f32(sg, n->inputs, 0) ||
      (n->inputs->size > 1 && !is_f32(sg, n->inputs, 1)))
    return 0;
  return sg->tensors[n->outputs->data[0]].allocation_type == kTfLiteArenaRw;
}

void tff_fuse_activations(tff_subgraph* sg) {
  TfLiteIntArrayFree(sg->alias);
  sg->alias = NULL;
  /* Every tensor stays observable with preserve_all_tensors; a delegate
   * owns its own graph (and may share no buffers). */
  if (sg->it->preserve_all_tensors || sg->delegation != NULL) return;
  const int nt = sg->num_tensors;
  int* producer = (int*)malloc(sizeof(int) * (size_t)(nt ? nt : 1));
  int* readers = (int*)calloc((size_t)(nt ? nt : 1), sizeof(int));
  /* Sized now: prepare may add tensors (scratch) past these. */
  TfLiteIntArray* alias = TfLiteIntArrayCreate(nt);
  if (!producer || !readers || !alias) goto done; /* no fusion: still correct */
  for (int t = 0; t < nt; ++t) producer[t] = alias->data[t] = -1;
  for (int s = 0; s < sg->plan->size; ++s) {
    const TfLiteNode* n = &sg->nodes[sg->plan->data[s]];
    for (int k = 0; k < n->outputs->size; ++k)
      if (n->outputs->data[k] >= 0) producer[n->outputs->data[k]] = sg->plan->data[s];
    for (int k = 0; k < n->inputs->size; ++k)
      if (n->inputs->data[k] >= 0) readers[n->inputs->data[k]] += 1;
    for (int k = 0; k < n->intermediates->size; ++k)
      if (n->intermediates->data[k] >= 0) readers[n->intermediates->data[k]] += 1;
  }
  for (int i = 0; i < sg->outputs->size; ++i) readers[sg->outputs->data[i]] += 1;
  int fused = 0;
  for (int s = 0; s < sg->plan->size; ++s) {
    const int ri = sg->plan->data[s];
    const TfLiteNode* relu = &sg->nodes[ri];
    const int code = sg->regs[ri].builtin_code;
    if ((code != kTfLiteBuiltinRelu && code != kTfLiteBuiltinRelu6) || relu->delegate != NULL ||
        relu->inputs->size != 1 || !float_op(sg, relu) || relu->inputs->data[0] < 0)
      continue;
    const int t = relu->inputs->data[0];
    const int pi = producer[t];
    if (pi < 0 || readers[t] != 1) continue;
    TfLiteNode* op = &sg->nodes[pi];
    TfLiteFusedActivation* act = activation_of(op, sg->regs[pi].builtin_code);
    const TfLiteFusedActivation want = code == kTfLiteBuiltinRelu ? kTfLiteActRelu : kTfLiteActRelu6;
    if (act == NULL || op->delegate != NULL || !float_op(sg, op) ||
        (*act != kTfLiteActNone && *act != want))
      continue;
    *act = want;
    alias->data[relu->outputs->data[0]] = t;
    fused = 1;
  }
  if (fused) {
    sg->alias = alias;
    alias = NULL;
  }
done:
  free(producer);
  free(readers);
  TfLiteIntArrayFree(alias);
}

void tff_fuse_lifetimes(tff_subgraph* sg, int* first, int* last) {
  if (sg->alias == NULL) return;
  for (int r = 0; r < sg->alias->size; ++r) {
    const int t = sg->alias->data[r];
    if (t < 0) continue;
    const TfLiteTensor *tt = &sg->tensors[t], *rt = &sg->tensors[r];
    if (tt->allocation_type != kTfLiteArenaRw || rt->allocation_type != kTfLiteArenaRw ||
        tt->bytes != rt->bytes || first[r] < 0 || first[t] < 0) {
      sg->alias->data[r] = -1;
      continue;
    }
    if (last[r] > last[t]) last[t] = last[r];
    first[r] = -1; /* no entry of its own */
  }
}

void tff_fuse_bind(tff_subgraph* sg) {
  if (sg->alias == NULL) return;
  for (int r = 0; r < sg->alias->size; ++r)
    if (sg->alias->data[r] >= 0) sg->tensors[r].data.raw = sg->tensors[sg->alias->data[r]].data.raw;
}
