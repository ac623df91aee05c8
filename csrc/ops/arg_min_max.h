/* ARG_MAX and ARG_MIN (TFLite arg_min_max.cc): the index of the largest
 * (smallest) element along one axis, the first one on ties, for float32,
 * uint8, int8, int32 and bool inputs; the axis tensor is one int32/int64
 * value; the output is int32 or int64 as output_type says. Codes compare as
 * they are, whatever the quantization. XNNPACK takes neither op, so both
 * numerics modes are the same. */
#ifndef TFLITE_FAST_OPS_ARG_MIN_MAX_H_
#define TFLITE_FAST_OPS_ARG_MIN_MAX_H_

#include <stdbool.h>

#include "reduce_common.h"

typedef struct tff_argmm {
  size_t outer, len, inner; /* dims before, along and after the axis */
} tff_argmm;

static inline void* tff_argmm_init(TfLiteContext* ctx, const char* buf, size_t len) {
  (void)ctx, (void)buf, (void)len;
  return calloc(1, sizeof(tff_argmm));
}

/* output_type is the first field of both TfLiteArgMaxParams and TfLiteArgMinParams. */
static inline TfLiteStatus tff_argmm_prepare(TfLiteContext* ctx, TfLiteNode* node,
                                             const char* op) {
  tff_argmm* d = (tff_argmm*)node->user_data;
  TF_LITE_ENSURE(ctx, d != NULL && node->builtin_data != NULL);
  const TfLiteTensor *in, *axis;
  TfLiteTensor* out;
  TF_LITE_ENSURE_OK(ctx, tff_axis_op_tensors(ctx, node, &in, &axis, &out));
  const TfLiteType ot = ((const TfLiteArgMaxParams*)node->builtin_data)->output_type;
  TF_LITE_ENSURE_MSG(ctx, ot == kTfLiteInt32 || ot == kTfLiteInt64,
                     "%s: output_type %s not supported (int32, int64)", op, TfLiteTypeGetName(ot));
  TF_LITE_ENSURE_MSG(ctx, out->type == ot, "%s: output tensor type %s differs from output_type %s",
                     op, TfLiteTypeGetName(out->type), TfLiteTypeGetName(ot));
  TF_LITE_ENSURE_MSG(ctx, in->type == kTfLiteFloat32 || in->type == kTfLiteUInt8 ||
                              in->type == kTfLiteInt8 || in->type == kTfLiteInt32 ||
                              in->type == kTfLiteBool,
                     "%s: input type %s not supported (float32, uint8, int8, int32, bool)", op,
                     TfLiteTypeGetName(in->type));
  TF_LITE_ENSURE_MSG(ctx, axis->type == kTfLiteInt32 || axis->type == kTfLiteInt64,
                     "%s: axis type %s must be int32 or int64", op, TfLiteTypeGetName(axis->type));
  TF_LITE_ENSURE_MSG(ctx, tff_num_elements(axis->dims) == 1, "%s: axis must hold one value", op);
  TF_LITE_ENSURE_MSG(ctx, tff_is_constant(axis),
                     "%s: axis tensor %d is not constant; dynamic shapes are not supported yet",
                     op, node->inputs->data[1]);
  const int rank = tff_rank(in);
  TF_LITE_ENSURE_MSG(ctx, rank >= 1, "%s: the input must have rank >= 1", op);
  const int64_t a = tff_index_at(axis, 0);
  TF_LITE_ENSURE_MSG(ctx, a >= -rank && a < rank, "%s: axis %lld out of range for rank %d", op,
                     (long long)a, rank);
  const int ax = (int)(a < 0 ? a + rank : a);
  TF_LITE_ENSURE_MSG(ctx, tff_dim(in, ax) > 0, "%s: axis %d is empty", op, ax);
  TF_LITE_ENSURE_MSG(ctx, rank <= 16, "%s: rank %d exceeds 16", op, rank);
  int dims[16], n = 0;
  d->outer = d->inner = 1;
  d->len = (size_t)tff_dim(in, ax);
  for (int i = 0; i < rank; ++i) {
    if (i < ax) d->outer *= (size_t)tff_dim(in, i);
    if (i > ax) d->inner *= (size_t)tff_dim(in, i);
    if (i != ax) dims[n++] = tff_dim(in, i);
  }
  return tff_resize_output(ctx, out, n, dims);
}

/* The index along the axis of the best element of each (outer, inner) line. */
#define TFF_ARGMM_KERNEL(NAME, T)                                                         \
  static void NAME(const tff_argmm* d, const void* in_, int is_max, TfLiteTensor* out) {  \
    const T* x = (const T*)in_;                                                           \
    for (size_t o = 0; o < d->outer; ++o) {                                               \
      for (size_t i = 0; i < d->inner; ++i) {                                             \
        const T* p = x + o * d->len * d->inner + i;                                       \
        T best = p[0];                                                                    \
        size_t at = 0;                                                                    \
        for (size_t k = 1; k < d->len; ++k) {                                             \
          const T v = p[k * d->inner];                                                    \
          if (is_max ? v > best : v < best) best = v, at = k;                             \
        }                                                                                 \
        const size_t j = o * d->inner + i;                                                \
        if (out->type == kTfLiteInt64) {                                                  \
          out->data.i64[j] = (int64_t)at;                                                 \
        } else {                                                                          \
          out->data.i32[j] = (int32_t)at;                                                 \
        }                                                                                 \
      }                                                                                   \
    }                                                                                     \
  }
TFF_ARGMM_KERNEL(tff_argmm_f32, float)
TFF_ARGMM_KERNEL(tff_argmm_u8, uint8_t)
TFF_ARGMM_KERNEL(tff_argmm_s8, int8_t)
TFF_ARGMM_KERNEL(tff_argmm_i32, int32_t)
TFF_ARGMM_KERNEL(tff_argmm_b, bool)

static inline void tff_argmm_invoke(TfLiteContext* ctx, TfLiteNode* node, int is_max) {
  const tff_argmm* d = (const tff_argmm*)node->user_data;
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  const void* x = in->data.raw_const;
  switch (in->type) {
    case kTfLiteFloat32: tff_argmm_f32(d, x, is_max, out); break;
    case kTfLiteUInt8: tff_argmm_u8(d, x, is_max, out); break;
    case kTfLiteInt8: tff_argmm_s8(d, x, is_max, out); break;
    case kTfLiteInt32: tff_argmm_i32(d, x, is_max, out); break;
    default: tff_argmm_b(d, x, is_max, out); break;
  }
}

#endif /* TFLITE_FAST_OPS_ARG_MIN_MAX_H_ */
