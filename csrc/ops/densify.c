/* DENSIFY: the dense form of a constant sparse tensor (TFLite densify.cc
 * with the sparsity format converter): float32, float16 and int8 weights
 * that converters store sparse in front of CONV_2D and FULLY_CONNECTED.
 *
 * The model loader already checked the structure as TFLite's verifier does
 * (traversal order a permutation, block sizes dividing their dims, CSR
 * segments sorted and ending at the index count, indices inside their
 * level); prepare adds what this walk assumes and writes the output once,
 * as a persistent tensor, so invoke has nothing to do.
 *
 * Walk: levels follow the traversal order; a dense level has dense_size
 * children per node (child node = node·size + i), a CSR level the indices
 * array_indices[segments[node] .. segments[node + 1]) (child node = that
 * position). A leaf takes the next stored value. Element (i, b) of a dim d
 * split into blocks of size s is dense index i·s + b, so every level adds
 * index × weight to the flat output offset: weight = stride(d)·s for a
 * tensor level, stride(d) for the block level of d.
 */
#include <string.h>

#include "kernel_util.h"
#include "ops.h"

#define DENSIFY_MAX_RANK 8

typedef struct walk {
  const TfLiteSparsity* sp;
  int levels;
  size_t weight[2 * DENSIFY_MAX_RANK];
  size_t elem;       /* bytes per value */
  const char* in;
  char* out;
  size_t next;       /* stored values consumed so far */
} walk;

static void fill(walk* w, int level, int node, size_t offset) {
  if (level == w->levels) {
    memcpy(w->out + offset * w->elem, w->in + w->next++ * w->elem, w->elem);
    return;
  }
  const TfLiteDimensionMetadata* md = &w->sp->dim_metadata[level];
  if (md->format == kTfLiteDimDense) {
    for (int i = 0; i < md->dense_size; ++i)
      fill(w, level + 1, node * md->dense_size + i, offset + (size_t)i * w->weight[level]);
    return;
  }
  const int* seg = md->array_segments->data;
  for (int j = seg[node]; j < seg[node + 1]; ++j)
    fill(w, level + 1, j, offset + (size_t)md->array_indices->data[j] * w->weight[level]);
}

/* The per-level weights. Blocks must be listed in order, one per tensor
 * dim: TFLite's converter reads block b's size from level rank + b and
 * applies the blocks of one dim in sequence, which this linear walk does
 * not; converters emit nothing else. */
static TfLiteStatus plan(TfLiteContext* ctx, const TfLiteTensor* in, walk* w) {
  const TfLiteSparsity* sp = in->sparsity;
  const int rank = tff_rank(in), levels = sp->traversal_order->size;
  const int* order = sp->traversal_order->data;
  TF_LITE_ENSURE_MSG(ctx, rank <= DENSIFY_MAX_RANK, "DENSIFY: rank %d is not supported (at most %d)",
                     rank, DENSIFY_MAX_RANK);
  size_t stride[DENSIFY_MAX_RANK], block[DENSIFY_MAX_RANK];
  size_t s = 1;
  for (int d = rank - 1; d >= 0; --d) {
    stride[d] = s;
    block[d] = 1;
    s *= (size_t)tff_dim(in, d);
  }
  for (int l = rank; l < levels; ++l) {
    const int m = sp->block_map->data[l - rank];
    TF_LITE_ENSURE_MSG(ctx, order[l] == l,
                       "DENSIFY: block levels out of order (level %d is dim %d)", l, order[l]);
    TF_LITE_ENSURE_MSG(ctx, block[m] == 1, "DENSIFY: dim %d is blocked twice", m);
    block[m] = (size_t)sp->dim_metadata[l].dense_size;
    w->weight[l] = stride[m];
  }
  for (int l = 0; l < rank; ++l) w->weight[l] = stride[order[l]] * block[order[l]];
  w->sp = sp;
  w->levels = levels;
  return kTfLiteOk;
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  TF_LITE_ENSURE_MSG(ctx, tff_num_inputs(node) == 1 && tff_num_outputs(node) == 1,
                     "DENSIFY: expected 1 input and 1 output, got %d and %d",
                     tff_num_inputs(node), tff_num_outputs(node));
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE_MSG(ctx, in && out, "DENSIFY: the input or the output is missing");
  TF_LITE_ENSURE_MSG(ctx, in->allocation_type == kTfLiteMmapRo && in->sparsity != NULL,
                     "DENSIFY: the input must be a constant sparse tensor");
  TF_LITE_ENSURE_MSG(ctx, in->type == kTfLiteFloat32 || in->type == kTfLiteFloat16 ||
                              in->type == kTfLiteInt8,
                     "DENSIFY: input type %s is not supported (float32, float16, int8)",
                     TfLiteTypeGetName(in->type));
  TF_LITE_ENSURE_MSG(ctx, out->type == in->type, "DENSIFY: input type %s and output type %s differ",
                     TfLiteTypeGetName(in->type), TfLiteTypeGetName(out->type));
  walk w;
  TF_LITE_ENSURE_OK(ctx, plan(ctx, in, &w));
  TF_LITE_ENSURE_OK(ctx, tff_resize_output_persistent(ctx, out, in->dims->size, in->dims->data));
  w.elem = tff_type_size(in->type);
  w.in = in->data.raw_const;
  w.out = out->data.raw;
  w.next = 0;
  memset(w.out, 0, tff_num_elements(out->dims) * w.elem);
  if (tff_num_elements(out->dims) > 0) fill(&w, 0, 0, 0);
  return kTfLiteOk;
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  (void)ctx, (void)node; /* the output was written at prepare */
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_DENSIFY(void) {
  static const TfLiteRegistration r = {.prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinDensify,
                                       .version = 1};
  return &r;
}
