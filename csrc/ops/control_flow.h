/* Shared by the control-flow kernels (WHILE, IF, CALL_ONCE): checking a
 * subgraph reference and moving tensors between subgraphs.
 *
 * Values cross subgraphs by copy: into a called subgraph's inputs (resized,
 * and the subgraph re-allocated, when a shape changes) and out of its outputs
 * into the node's outputs (resized when they are dynamic). A copy never reads
 * and writes the same subgraph, so inputs and outputs that alias each other
 * inside a subgraph (a body output that is a body input) are harmless. */
#ifndef TFLITE_FAST_OPS_CONTROL_FLOW_H_
#define TFLITE_FAST_OPS_CONTROL_FLOW_H_

#include "../runtime/subgraph.h"
#include "kernel_util.h"

/* The context of subgraph `index` called by op `name`, or NULL after
 * reporting why it cannot be: out of range, or ctx's own subgraph (a model
 * cannot make us recurse; cycles through other subgraphs are refused by the
 * runtime's guard on subgraphs being prepared or run). */
static inline TfLiteContext* tff_cf_subgraph(TfLiteContext* ctx, const char* name,
                                             const char* what, int index) {
  TfLiteContext* sub = tff_subgraph_context(ctx, index);
  if (sub == NULL) {
    TF_LITE_KERNEL_LOG(ctx, "%s: %s subgraph %d does not exist (%d subgraphs)", name, what,
                       index, tff_num_subgraphs(ctx));
    return NULL;
  }
  if (sub == ctx) {
    TF_LITE_KERNEL_LOG(ctx, "%s: %s subgraph %d is the subgraph of the %s itself", name,
                       what, index, name);
    return NULL;
  }
  return sub;
}

/* 1 when some tensor of sub is sized at invoke (kTfLiteDynamic). */
static inline int tff_cf_has_dynamic(const TfLiteContext* sub) {
  for (size_t i = 0; i < sub->tensors_size; ++i)
    if (sub->tensors[i].allocation_type == kTfLiteDynamic) return 1;
  return 0;
}

/* Bytes of t's elements (what a copy moves; a constant's buffer may be longer). */
static inline size_t tff_cf_bytes(const TfLiteTensor* t) {
  return tff_num_elements(t->dims) * tff_type_size(t->type);
}

/* Checks that src can be copied into tensor `t` of sub (same fixed-size
 * type), then gives `t` src's shape (the subgraph needs tff_subgraph_allocate
 * afterwards). `what` names src in messages ("input 2"). */
static inline TfLiteStatus tff_cf_shape_into(TfLiteContext* ctx, const char* name,
                                             const char* what, int k,
                                             const TfLiteTensor* src, TfLiteContext* sub,
                                             int t) {
  const TfLiteTensor* dst = &sub->tensors[t];
  TF_LITE_ENSURE_MSG(ctx, !tff_is_constant(dst),
                     "%s: subgraph tensor %d receiving %s %d is a constant", name, t, what, k);
  TF_LITE_ENSURE_MSG(ctx, tff_type_size(src->type) > 0,
                     "%s: %s %d has type %s, which cannot cross subgraphs", name, what, k,
                     TfLiteTypeGetName(src->type));
  TF_LITE_ENSURE_MSG(ctx, src->type == dst->type,
                     "%s: %s %d has type %s but the subgraph tensor %d is %s", name, what, k,
                     TfLiteTypeGetName(src->type), t, TfLiteTypeGetName(dst->type));
  if (TfLiteIntArrayEqual(src->dims, dst->dims)) return kTfLiteOk;
  TF_LITE_ENSURE_MSG(ctx, tff_subgraph_resize(sub, t, src->dims) == kTfLiteOk,
                     "%s: cannot resize tensor %d of the subgraph for %s %d", name, t, what, k);
  return kTfLiteOk;
}

/* Copies src's elements into tensor `t` of sub, whose shape src already has
 * (tff_cf_shape_into + tff_subgraph_allocate ran). */
static inline void tff_cf_copy_into(const TfLiteTensor* src, TfLiteContext* sub, int t) {
  const size_t n = tff_cf_bytes(src);
  if (n) memcpy(sub->tensors[t].data.raw, src->data.raw_const, n);
}

/* Copies src (shape and elements) into the node's output `out` of ctx. A
 * dynamic output is resized when its shape differs or it has no memory yet;
 * a static one already has src's shape (checked at prepare). */
static inline TfLiteStatus tff_cf_copy_out(TfLiteContext* ctx, TfLiteTensor* out,
                                           const TfLiteTensor* src) {
  if (out->allocation_type == kTfLiteDynamic)
    TF_LITE_ENSURE_OK(ctx, tff_resize_dynamic(ctx, out, src->dims->size, src->dims->data));
  TF_LITE_ENSURE_MSG(ctx, TfLiteIntArrayEqual(out->dims, src->dims),
                     "a subgraph output changed shape after prepare");
  const size_t n = tff_cf_bytes(src);
  if (n) memcpy(out->data.raw, src->data.raw_const, n);
  return kTfLiteOk;
}

#endif /* TFLITE_FAST_OPS_CONTROL_FLOW_H_ */
