/* CUMSUM (TFLite cumsum.cc): running sums along one axis of an int32, int64
 * or float32 tensor, in element order (reverse: from the end), exclusive or
 * not; integers wrap. The axis is one int32 value, negative from the end; it
 * is checked at prepare when constant, else at invoke. XNNPACK does not take
 * CUMSUM: both numerics modes are the same. */
#include "ops.h"
#include "reduce_common.h"

/* Splits the input at the axis: outer * len * inner elements. */
static TfLiteStatus split_axis(TfLiteContext* ctx, const TfLiteTensor* in,
                               const TfLiteTensor* axis, size_t* outer, size_t* len,
                               size_t* inner) {
  const int rank = tff_rank(in);
  const int a = axis->data.i32[0];
  TF_LITE_ENSURE_MSG(ctx, a >= -rank && a < rank, "CUMSUM: axis %d out of range for rank %d", a,
                     rank);
  const int ax = a < 0 ? a + rank : a;
  *outer = *inner = 1;
  for (int i = 0; i < ax; ++i) *outer *= (size_t)tff_dim(in, i);
  for (int i = ax + 1; i < rank; ++i) *inner *= (size_t)tff_dim(in, i);
  *len = (size_t)tff_dim(in, ax);
  return kTfLiteOk;
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor *in, *axis;
  TfLiteTensor* out;
  TF_LITE_ENSURE_OK(ctx, tff_axis_op_tensors(ctx, node, &in, &axis, &out));
  TF_LITE_ENSURE(ctx, node->builtin_data != NULL);
  TF_LITE_ENSURE_MSG(ctx, in->type == kTfLiteInt32 || in->type == kTfLiteInt64 ||
                              in->type == kTfLiteFloat32,
                     "CUMSUM: type %s not supported (int32, int64, float32)",
                     TfLiteTypeGetName(in->type));
  TF_LITE_ENSURE_TYPES_EQ(ctx, in->type, out->type);
  TF_LITE_ENSURE_TYPES_EQ(ctx, axis->type, kTfLiteInt32);
  TF_LITE_ENSURE_MSG(ctx, tff_num_elements(axis->dims) == 1, "CUMSUM: axis must hold one value");
  TF_LITE_ENSURE_MSG(ctx, tff_rank(in) >= 1, "CUMSUM: the input must have rank >= 1");
  if (tff_is_constant(axis)) {
    size_t outer, len, inner;
    TF_LITE_ENSURE_OK(ctx, split_axis(ctx, in, axis, &outer, &len, &inner));
  }
  return tff_resize_output(ctx, out, tff_rank(in), in->dims->data);
}

#define CUMSUM_KERNEL(NAME, T, ADD)                                                      \
  static void NAME(const void* in_, void* out_, size_t outer, size_t len, size_t inner,   \
                   int exclusive, int reverse) {                                          \
    const T* x = (const T*)in_;                                                           \
    T* y = (T*)out_;                                                                      \
    for (size_t o = 0; o < outer; ++o) {                                                  \
      for (size_t i = 0; i < inner; ++i) {                                                \
        T acc = 0;                                                                        \
        for (size_t k = 0; k < len; ++k) {                                                \
          const size_t at = (o * len + (reverse ? len - 1 - k : k)) * inner + i;          \
          if (exclusive) {                                                                \
            y[at] = acc;                                                                  \
            acc = ADD(acc, x[at]);                                                        \
          } else {                                                                        \
            acc = ADD(acc, x[at]);                                                        \
            y[at] = acc;                                                                  \
          }                                                                               \
        }                                                                                 \
      }                                                                                   \
    }                                                                                     \
  }
#define ADD_F(a, b) ((a) + (b))
#define ADD_W32(a, b) ((int32_t)((uint32_t)(a) + (uint32_t)(b)))
#define ADD_W64(a, b) ((int64_t)((uint64_t)(a) + (uint64_t)(b)))
CUMSUM_KERNEL(cumsum_f32, float, ADD_F)
CUMSUM_KERNEL(cumsum_i32, int32_t, ADD_W32)
CUMSUM_KERNEL(cumsum_i64, int64_t, ADD_W64)

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  const TfLiteCumsumParams* p = (const TfLiteCumsumParams*)node->builtin_data;
  size_t outer, len, inner;
  TF_LITE_ENSURE_OK(ctx, split_axis(ctx, in, tff_input(ctx, node, 1), &outer, &len, &inner));
  const void* x = in->data.raw_const;
  switch (in->type) {
    case kTfLiteFloat32:
      cumsum_f32(x, out->data.raw, outer, len, inner, p->exclusive, p->reverse);
      break;
    case kTfLiteInt32:
      cumsum_i32(x, out->data.raw, outer, len, inner, p->exclusive, p->reverse);
      break;
    default:
      cumsum_i64(x, out->data.raw, outer, len, inner, p->exclusive, p->reverse);
      break;
  }
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_CUMSUM(void) {
  static const TfLiteRegistration r = {.prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinCumsum,
                                       .version = 1};
  return &r;
}
