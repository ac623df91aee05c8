/* SPLIT_V: inputs (input, size_splits, axis); output i takes size_splits[i]
 * entries along the axis. One size may be -1: the rest of the dimension
 * (split_common.h). */
#include "../runtime/alias.h"
#include "ops.h"
#include "split_common.h"

/* Axis and sizes from the tensors; -1 after reporting. */
static int split_sizes(TfLiteContext* ctx, const TfLiteNode* node, int* sizes) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* ss = tff_input(ctx, node, 1);
  const int axis = tff_split_axis(ctx, "SPLIT_V", tff_input(ctx, node, 2), in->dims->size);
  if (axis < 0) return -1;
  const int n = tff_num_outputs(node), dim = in->dims->data[axis];
  int64_t sum = 0;
  int rest = -1;
  for (int i = 0; i < n; ++i) {
    const int64_t v = tff_index_at(ss, i);
    if (v == -1 && rest < 0) {
      rest = i;
      continue;
    }
    if (v < 0 || v > dim) {
      TF_LITE_KERNEL_LOG(ctx, "SPLIT_V: size_splits[%d] = %lld is invalid for dimension %d (%d)%s",
                         i, (long long)v, axis, dim, v == -1 ? ": more than one -1" : "");
      return -1;
    }
    sizes[i] = (int)v;
    sum += v;
  }
  if (rest >= 0 ? sum > dim : sum != dim) {
    TF_LITE_KERNEL_LOG(ctx, "SPLIT_V: size_splits sum to %lld, dimension %d is %d", (long long)sum,
                       axis, dim);
    return -1;
  }
  if (rest >= 0) sizes[rest] = dim - (int)sum;
  return axis;
}

static TfLiteStatus resize(TfLiteContext* ctx, TfLiteNode* node, int at_invoke, int* axis) {
  int* sizes = (int*)malloc(sizeof(int) * (size_t)tff_num_outputs(node));
  TF_LITE_ENSURE_MSG(ctx, sizes != NULL, "SPLIT_V: out of memory");
  *axis = split_sizes(ctx, node, sizes);
  const TfLiteStatus s = *axis < 0 ? kTfLiteError
                                   : tff_split_resize(ctx, node, tff_input(ctx, node, 0), *axis,
                                                      sizes, at_invoke);
  free(sizes);
  return s;
}

static int shape_constant(TfLiteContext* ctx, const TfLiteNode* node) {
  return tff_is_constant(tff_input(ctx, node, 1)) && tff_is_constant(tff_input(ctx, node, 2));
}

/* With constant sizes and axis, prepare fixes the copy: `outer` rows of
 * `row` input bytes, output i taking chunk[i] bytes of each (chunk NULL:
 * dynamic outputs, invoke shapes them). Streaming models split a few pixels'
 * channels per invoke, so the node's cost is its entry, not the bytes. */
typedef struct {
  size_t outer, row;
  size_t* chunk;
} OpData;

TFF_ZEROED_INIT(init, OpData)

static void free_data(TfLiteContext* ctx, void* data) {
  (void)ctx;
  if (data) free(((OpData*)data)->chunk);
  free(data);
}

static TfLiteStatus fix_copy(TfLiteContext* ctx, TfLiteNode* node, OpData* d, int axis) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  size_t inner = tff_type_size(in->type);
  d->outer = 1;
  for (int k = 0; k < axis; ++k) d->outer *= (size_t)in->dims->data[k];
  for (int k = axis + 1; k < in->dims->size; ++k) inner *= (size_t)in->dims->data[k];
  d->row = (size_t)in->dims->data[axis] * inner;
  d->chunk = (size_t*)malloc(sizeof(size_t) * (size_t)tff_num_outputs(node));
  TF_LITE_ENSURE_MSG(ctx, d->chunk != NULL, "SPLIT_V: out of memory");
  size_t at = 0;
  for (int i = 0; i < tff_num_outputs(node); ++i) {
    d->chunk[i] = (size_t)tff_output(ctx, node, i)->dims->data[axis] * inner;
    /* Rows before the axis: each output may be its chunk of every input row
     * where it lies (alias.h); then the plan loops leave this node out. */
    if (d->outer > 1 && d->chunk[i] > 0)
      tff_view_offer_rows(ctx, node->outputs->data[i], node->inputs->data[0], at, d->chunk[i], d->row);
    at += d->chunk[i];
  }
  return kTfLiteOk;
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  free(d->chunk);
  d->chunk = NULL;
  const TfLiteSplitVParams* p = (const TfLiteSplitVParams*)node->builtin_data;
  TF_LITE_ENSURE_MSG(ctx, p != NULL, "SPLIT_V: missing options");
  TF_LITE_ENSURE_MSG(ctx, tff_num_inputs(node) == 3, "SPLIT_V: expected 3 inputs, got %d",
                     tff_num_inputs(node));
  TF_LITE_ENSURE_OK(ctx, tff_split_check(ctx, node, "SPLIT_V", tff_input(ctx, node, 0),
                                         p->num_splits));
  const TfLiteTensor* ss = tff_input(ctx, node, 1);
  const TfLiteTensor* axis = tff_input(ctx, node, 2);
  TF_LITE_ENSURE_MSG(ctx, ss != NULL && (ss->type == kTfLiteInt32 || ss->type == kTfLiteInt64) &&
                              ss->dims->size == 1,
                     "SPLIT_V: size_splits must be a 1-D INT32 or INT64 tensor");
  TF_LITE_ENSURE_MSG(ctx, ss->dims->data[0] == p->num_splits,
                     "SPLIT_V: size_splits has %d entries for %d outputs", ss->dims->data[0],
                     p->num_splits);
  TF_LITE_ENSURE_MSG(ctx, axis != NULL && axis->type == kTfLiteInt32 &&
                              tff_num_elements(axis->dims) == 1,
                     "SPLIT_V: the axis must be one INT32");
  if (!shape_constant(ctx, node)) {
    tff_split_dynamic(ctx, node);
    return kTfLiteOk;
  }
  int a;
  TF_LITE_ENSURE_OK(ctx, resize(ctx, node, 0, &a));
  return fix_copy(ctx, node, d, a);
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const OpData* d = (const OpData*)node->user_data;
  if (d->chunk == NULL) {
    int axis;
    TF_LITE_ENSURE_OK(ctx, resize(ctx, node, 1, &axis));
    tff_split_run(ctx, node, tff_input(ctx, node, 0), axis);
    return kTfLiteOk;
  }
  const char* src = tff_input(ctx, node, 0)->data.raw_const;
  for (int i = 0; i < tff_num_outputs(node); ++i) {
    char* dst = tff_output(ctx, node, i)->data.raw;
    const size_t chunk = d->chunk[i];
    for (size_t r = 0; r < d->outer; ++r) tff_copy(dst + r * chunk, src + r * d->row, chunk);
    src += chunk;
  }
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_SPLIT_V(void) {
  static const TfLiteRegistration r = {.init = init,
                                       .free = free_data,
                                       .prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinSplitV,
                                       .version = 1};
  return &r;
}
