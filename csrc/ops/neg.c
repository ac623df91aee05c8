/* NEG: y = −x for float32, int64, int32, int16 and int8. Integers wrap
 * (−INT_MIN is INT_MIN) and quantized int8/int16 negate their raw codes,
 * ignoring scale and zero point, as TFLite's kernel does; XNNPACK takes
 * only float32, where negation is exact. Both modes are the same. */
#include "kernel_util.h"
#include "ops.h"
#include "unary_common.h"

#define NEG_LOOP(T, U)                                                        \
  static void neg_##T(const void* src, void* dst, size_t n) {                 \
    const T* x = (const T*)src;                                               \
    T* y = (T*)dst;                                                           \
    for (size_t i = 0; i < n; ++i) y[i] = (T)(U)(0u - (U)x[i]);               \
  }
NEG_LOOP(int8_t, uint8_t)
NEG_LOOP(int16_t, uint16_t)
NEG_LOOP(int32_t, uint32_t)
NEG_LOOP(int64_t, uint64_t)
#undef NEG_LOOP

static void neg_float(const void* src, void* dst, size_t n) {
  const float* x = (const float*)src;
  float* y = (float*)dst;
  for (size_t i = 0; i < n; ++i) y[i] = -x[i];
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  TfLiteTensor *in, *out;
  TF_LITE_ENSURE_OK(ctx, tff_unary_prepare(ctx, node, "NEG", &in, &out));
  TF_LITE_ENSURE_MSG(ctx, in->type == out->type, "NEG: input type %s and output type %s differ",
                     TfLiteTypeGetName(in->type), TfLiteTypeGetName(out->type));
  switch (in->type) {
    case kTfLiteFloat32: case kTfLiteInt64: case kTfLiteInt32: case kTfLiteInt16:
    case kTfLiteInt8:
      return kTfLiteOk;
    default:
      TF_LITE_KERNEL_LOG(ctx, "NEG: type %s is not supported (float32, int64, int32, int16, int8)",
                         TfLiteTypeGetName(in->type));
      return kTfLiteError;
  }
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  const size_t n = tff_num_elements(in->dims);
  switch (in->type) {
    case kTfLiteFloat32: neg_float(in->data.raw_const, out->data.raw, n); break;
    case kTfLiteInt64: neg_int64_t(in->data.raw_const, out->data.raw, n); break;
    case kTfLiteInt32: neg_int32_t(in->data.raw_const, out->data.raw, n); break;
    case kTfLiteInt16: neg_int16_t(in->data.raw_const, out->data.raw, n); break;
    default: neg_int8_t(in->data.raw_const, out->data.raw, n); break;
  }
  return kTfLiteOk;
}

/* tff_unary_prepare requires user data; NEG keeps nothing in it. */
const TfLiteRegistration* tff_register_NEG(void) {
  static const TfLiteRegistration r = {.init = tff_unary_init,
                                       .free = tff_unary_free,
                                       .prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinNeg,
                                       .version = 1};
  return &r;
}
