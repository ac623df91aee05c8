/* SLICE: inputs (input, begin, size), begin and size 1-D INT32/INT64 with one
 * entry per input dim; output dim d = size[d], or dim − begin[d] for -1.
 * Only bytes move (every type, every numerics mode alike).
 *
 * Shapes (TFLite's rules): constant begin and size shape the output at
 * prepare. Otherwise an output whose shape the model states (rank > 0, no -1
 * in its signature) keeps it and invoke checks the computed shape against
 * it; else the output is dynamic and invoke shapes it (the interpreter then
 * prepares the ops after it). */
#include "kernel_util.h"
#include "ops.h"

#define SLICE_MAX_RANK 16 /* bounds the walk's stack; TFLite's kernels stop at 5 or 6 */

/* begin[] and out[] from the tensors; kTfLiteError after reporting. */
static TfLiteStatus compute(TfLiteContext* ctx, const TfLiteNode* node, int* begin, int* out) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* b = tff_input(ctx, node, 1);
  const TfLiteTensor* s = tff_input(ctx, node, 2);
  for (int d = 0; d < in->dims->size; ++d) {
    const int64_t dim = in->dims->data[d], bv = tff_index_at(b, d), sv = tff_index_at(s, d);
    TF_LITE_ENSURE_MSG(ctx, bv >= 0 && bv <= dim,
                       "SLICE: begin[%d] = %lld is outside [0, %lld]", d, (long long)bv,
                       (long long)dim);
    TF_LITE_ENSURE_MSG(ctx, sv == -1 || (sv >= 0 && bv + sv <= dim),
                       "SLICE: size[%d] = %lld with begin %lld exceeds dimension %lld", d,
                       (long long)sv, (long long)bv, (long long)dim);
    begin[d] = (int)bv;
    out[d] = sv == -1 ? (int)(dim - bv) : (int)sv;
  }
  return kTfLiteOk;
}

static int has_unknown_dim(const TfLiteTensor* t) {
  if (t->dims_signature == NULL) return 0;
  for (int i = 0; i < t->dims_signature->size; ++i)
    if (t->dims_signature->data[i] < 0) return 1;
  return 0;
}

static int bounds_constant(TfLiteContext* ctx, const TfLiteNode* node) {
  return tff_is_constant(tff_input(ctx, node, 1)) && tff_is_constant(tff_input(ctx, node, 2));
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  TF_LITE_ENSURE_MSG(ctx, tff_num_inputs(node) == 3 && tff_num_outputs(node) == 1,
                     "SLICE: expected 3 inputs and 1 output, got %d and %d",
                     tff_num_inputs(node), tff_num_outputs(node));
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* b = tff_input(ctx, node, 1);
  const TfLiteTensor* s = tff_input(ctx, node, 2);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE_MSG(ctx, in && b && s, "SLICE: an input is missing");
  TF_LITE_ENSURE_MSG(ctx, in->type == out->type, "SLICE: input type %s and output type %s differ",
                     TfLiteTypeGetName(in->type), TfLiteTypeGetName(out->type));
  TF_LITE_ENSURE_MSG(ctx, tff_type_size(in->type) > 0, "SLICE: type %s is not supported",
                     TfLiteTypeGetName(in->type));
  const int rank = in->dims->size;
  TF_LITE_ENSURE_MSG(ctx, rank <= SLICE_MAX_RANK, "SLICE: rank %d is above %d", rank,
                     SLICE_MAX_RANK);
  for (int i = 1; i <= 2; ++i) {
    const TfLiteTensor* t = i == 1 ? b : s;
    TF_LITE_ENSURE_MSG(ctx, t->type == kTfLiteInt32 || t->type == kTfLiteInt64,
                       "SLICE: %s type %s must be INT32 or INT64", i == 1 ? "begin" : "size",
                       TfLiteTypeGetName(t->type));
    TF_LITE_ENSURE_MSG(ctx, t->dims->size == 1 && t->dims->data[0] == rank,
                       "SLICE: %s must be 1-D with %d entries (the input rank)",
                       i == 1 ? "begin" : "size", rank);
  }
  if (!bounds_constant(ctx, node)) {
    if (out->dims->size == 0 || has_unknown_dim(out)) out->allocation_type = kTfLiteDynamic;
    return kTfLiteOk;
  }
  int begin[SLICE_MAX_RANK], dims[SLICE_MAX_RANK];
  TF_LITE_ENSURE_OK(ctx, compute(ctx, node, begin, dims));
  return tff_resize_output(ctx, out, rank, dims);
}

/* Copies the box begin + [0, dims) of `in` (shape `shape`) from dim d on;
 * the last dim is one contiguous run. */
static void copy_box(const char* in, char** out, const int* shape, const int* begin,
                     const int* dims, int d, int rank, size_t elsize) {
  size_t stride = elsize;
  for (int k = d + 1; k < rank; ++k) stride *= (size_t)shape[k];
  in += (size_t)begin[d] * stride;
  if (d == rank - 1) {
    const size_t n = (size_t)dims[d] * elsize;
    if (n) memcpy(*out, in, n);
    *out += n;
    return;
  }
  for (int i = 0; i < dims[d]; ++i) copy_box(in + (size_t)i * stride, out, shape, begin, dims, d + 1, rank, elsize);
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  const int rank = in->dims->size;
  int begin[SLICE_MAX_RANK], dims[SLICE_MAX_RANK];
  TF_LITE_ENSURE_OK(ctx, compute(ctx, node, begin, dims));
  if (out->allocation_type == kTfLiteDynamic) {
    TF_LITE_ENSURE_OK(ctx, tff_resize_dynamic(ctx, out, rank, dims));
  } else {
    TF_LITE_ENSURE_MSG(ctx, TfLiteIntArrayEqualsArray(out->dims, rank, dims),
                       "SLICE: begin and size give a shape other than the output's static shape");
  }
  if (rank == 0) {
    memcpy(out->data.raw, in->data.raw_const, tff_type_size(in->type));
    return kTfLiteOk;
  }
  char* dst = out->data.raw;
  copy_box(in->data.raw_const, &dst, in->dims->data, begin, dims, 0, rank, tff_type_size(in->type));
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_SLICE(void) {
  static const TfLiteRegistration r = {.prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinSlice,
                                       .version = 1};
  return &r;
}
