/* COMPLEX_ABS (TFLite complex_support.cc): |z| of complex64 into float32 and
 * of complex128 into float64, as std::abs does (hypot: no overflow in the
 * squares). One kernel in both numerics modes. */
#include "kernel_util.h"
#include "ops.h"

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE_MSG(ctx, tff_num_inputs(node) == 1 && tff_num_outputs(node) == 1 && in && out,
                     "COMPLEX_ABS: expected 1 input and 1 output");
  TF_LITE_ENSURE_MSG(ctx, in->type == kTfLiteComplex64 || in->type == kTfLiteComplex128,
                     "COMPLEX_ABS: input type %s must be complex64 or complex128",
                     TfLiteTypeGetName(in->type));
  TF_LITE_ENSURE_TYPES_EQ(ctx, out->type,
                          in->type == kTfLiteComplex64 ? kTfLiteFloat32 : kTfLiteFloat64);
  return tff_resize_output(ctx, out, tff_rank(in), in->dims->data);
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  const size_t n = tff_num_elements(in->dims);
  if (in->type == kTfLiteComplex64) {
    for (size_t i = 0; i < n; ++i) out->data.f[i] = hypotf(in->data.c64[i].re, in->data.c64[i].im);
  } else {
    for (size_t i = 0; i < n; ++i) {
      out->data.f64[i] = hypot(in->data.c128[i].re, in->data.c128[i].im);
    }
  }
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_COMPLEX_ABS(void) {
  static const TfLiteRegistration r = {.prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinComplexAbs,
                                       .version = 1};
  return &r;
}
