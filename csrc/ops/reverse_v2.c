/* REVERSE_V2: the input with the order of the dims listed in `axis` (an
 * int32 vector, read at invoke) reversed. TFLite takes only adjacent axes
 * (after sorting), which merge into one dim: each outer row reverses the
 * order of its blocks of `inner` bytes. Every fixed-size type; codes are
 * copied as they are. */
#include "kernel_util.h"
#include "ops.h"

#define REVERSE_MAX_DIMS 8

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  TF_LITE_ENSURE_MSG(ctx, tff_num_inputs(node) == 2 && tff_num_outputs(node) == 1,
                     "REVERSE_V2: expected 2 inputs and 1 output, got %d and %d",
                     tff_num_inputs(node), tff_num_outputs(node));
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* axis = tff_input(ctx, node, 1);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE_MSG(ctx, in && axis && out, "REVERSE_V2: an input or the output is missing");
  TF_LITE_ENSURE_MSG(ctx, in->type == out->type && tff_type_size(in->type) > 0,
                     "REVERSE_V2: input type %s and output type %s must be one fixed-size type",
                     TfLiteTypeGetName(in->type), TfLiteTypeGetName(out->type));
  TF_LITE_ENSURE_MSG(ctx, axis->type == kTfLiteInt32 && tff_rank(axis) == 1,
                     "REVERSE_V2: axis must be an INT32 vector");
  TF_LITE_ENSURE_MSG(ctx, tff_rank(in) <= REVERSE_MAX_DIMS && tff_dim(axis, 0) <= tff_rank(in),
                     "REVERSE_V2: rank %d with %d axes (at most 8 dims, one axis each)",
                     tff_rank(in), tff_dim(axis, 0));
  return tff_resize_output(ctx, out, tff_rank(in), in->dims->data);
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* axis = tff_input(ctx, node, 1);
  char* out = tff_output(ctx, node, 0)->data.raw;
  const int rank = tff_rank(in), n = tff_dim(axis, 0);
  int lo = rank, hi = -1, seen = 0;
  for (int i = 0; i < n; ++i) {
    const int a = axis->data.i32[i], d = a < 0 ? a + rank : a;
    TF_LITE_ENSURE_MSG(ctx, d >= 0 && d < rank, "REVERSE_V2: axis %d is out of range for rank %d",
                       a, rank);
    TF_LITE_ENSURE_MSG(ctx, !(seen & (1 << d)), "REVERSE_V2: axis %d is repeated", a);
    seen |= 1 << d;
    lo = d < lo ? d : lo;
    hi = d > hi ? d : hi;
  }
  TF_LITE_ENSURE_MSG(ctx, n == 0 || hi - lo + 1 == n, "REVERSE_V2: non-contiguous axes are not "
                                                      "supported (as in TFLite)");
  if (n == 0) lo = hi = rank; /* nothing reversed: one block */
  size_t outer = 1, mid = 1, inner = tff_type_size(in->type);
  for (int d = 0; d < rank; ++d) {
    const size_t dim = (size_t)in->dims->data[d];
    if (d < lo) outer *= dim;
    else if (d <= hi) mid *= dim;
    else inner *= dim;
  }
  const char* src = in->data.raw_const;
  for (size_t o = 0; o < outer; ++o, src += mid * inner, out += mid * inner)
    for (size_t j = 0; j < mid; ++j) memcpy(out + (mid - 1 - j) * inner, src + j * inner, inner);
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_REVERSE_V2(void) {
  static const TfLiteRegistration r = {.prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinReverseV2,
                                       .version = 1};
  return &r;
}
