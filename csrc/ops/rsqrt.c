/* RSQRT: y = 1/sqrt(x).
 *  - float32, reference: 1.0f / sqrtf(x).
 *  - float32, default: AUTO's XNNPACK kernel, f32-vrsqrt (the CPU's RSQRTPS
 *    estimate and one Newton step under FTZ/DAZ; the kernel chosen at
 *    prepare, see ukernels/f32-vrsqrt/f32-vrsqrt.h).
 *  - int8: XNNPACK does not take it, so both modes run TFLite's fixed-point
 *    kernel (elementwise.cc RsqrtEvalQuantizedInt8), evaluated here once
 *    per code into a table:
 *      v = q − z_in;  v == 0 → 127;
 *      (m, s) = gemmlowp inverse sqrt of v (GetInvSqrtQuantizedMultiplierExp:
 *               5 Newton steps in Q3.28, times √2/2);
 *      t = MBQM(1, m, s + 20);  y = MBQM(t, M, e − 20) + z_out, clamped,
 *    with (M, e) = QM(1 / (double)(sqrtf(s_in)·s_out)) (sqrt and product in
 *    float, as std::sqrt of a float). Codes below z_in are negative inputs:
 *    TFLite fails at invoke with "Rsqrt is only defined for positive values",
 *    and so does this kernel. */
#include <float.h>
#include <math.h>

#include "cpu/cpu.h"
#include "fixedpoint.h"
#include "ops.h"
#include "platform.h"
#include "unary_common.h"

typedef struct OpData {
  int8_t lut[256];
  int32_t zi;
  int ref;
  tff_f32_vrsqrt_fn f32; /* default numerics */
} OpData;

TFF_ZEROED_INIT(init, OpData)

/* The inverse square roots of v = 1..255 (an int8 code less the zero
 * point), the same for every model: filled once per process (tff_once), not
 * by each prepare (255 runs of five fixed-point Newton steps were ~15% of
 * transformer_block_int8f's construction). */
static int32_t g_isqrt_mult[256];
static int8_t g_isqrt_shift[256];
static tff_once_flag g_isqrt_once;

static void isqrt_init(void) {
  for (int32_t v = 1; v < 256; ++v) {
    int s;
    tff_fp_inv_sqrt(v, &g_isqrt_mult[v], &s);
    g_isqrt_shift[v] = (int8_t)s;
  }
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  TfLiteTensor *in, *out;
  TF_LITE_ENSURE_OK(ctx, tff_unary_prepare(ctx, node, "RSQRT", &in, &out));
  TF_LITE_ENSURE_MSG(ctx, in->type == out->type, "RSQRT: input type %s and output type %s differ",
                     TfLiteTypeGetName(in->type), TfLiteTypeGetName(out->type));
  OpData* d = (OpData*)node->user_data;
  d->ref = tff_numerics_ref(ctx);
  d->f32 = tff_f32_vrsqrt_select(tff_cpu_effective())->fn;
  if (in->type == kTfLiteFloat32) return kTfLiteOk;
  TF_LITE_ENSURE_MSG(ctx, in->type == kTfLiteInt8,
                     "RSQRT: type %s is not supported (float32, int8)",
                     TfLiteTypeGetName(in->type));
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, "RSQRT", "input", in));
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, "RSQRT", "output", out));
  const float prod = sqrtf(tff_scale(in)) * tff_scale(out);
  int32_t mult;
  int e;
  tff_quantize_multiplier(1.0 / (double)prod, &mult, &e);
  TF_LITE_ENSURE_MSG(ctx, isfinite(prod) && prod > 0.0f && e - 20 >= -31 && e - 20 <= 31,
                     "RSQRT: input scale %g and output scale %g are out of range",
                     (double)tff_scale(in), (double)tff_scale(out));
  d->zi = tff_zero_point(in);
  const int32_t zo = tff_zero_point(out);
  tff_once(&g_isqrt_once, isqrt_init);
  for (int32_t q = -128; q <= 127; ++q) {
    const int32_t v = q - d->zi; /* < 256: both are int8 */
    int32_t y = 127;
    if (v > 0) {
      y = tff_mbqm(tff_mbqm(1, g_isqrt_mult[v], g_isqrt_shift[v] + 20), mult, e - 20) + zo;
      y = y < -128 ? -128 : (y > 127 ? 127 : y);
    }
    d->lut[(uint8_t)q] = (int8_t)y;
  }
  return kTfLiteOk;
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  const size_t n = tff_num_elements(in->dims);
  const OpData* d = (const OpData*)node->user_data;
  if (in->type == kTfLiteFloat32) {
    const float* x = in->data.f;
    float* y = out->data.f;
    if (d->ref) {
      for (size_t i = 0; i < n; ++i) y[i] = 1.0f / sqrtf(x[i]);
    } else if (n > 0) {
      d->f32(n, x, y);
    }
    return kTfLiteOk;
  }
  const int8_t* x = in->data.int8;
  int32_t lo = 127;
  for (size_t i = 0; i < n; ++i) lo = x[i] < lo ? x[i] : lo;
  TF_LITE_ENSURE_MSG(ctx, n == 0 || lo >= d->zi, "Rsqrt is only defined for positive values");
  tff_lut8_run((const uint8_t*)d->lut, (const uint8_t*)x, out->data.uint8, n);
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_RSQRT(void) {
  static const TfLiteRegistration r = {.init = init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinRsqrt,
                                       .version = 1};
  return &r;
}
