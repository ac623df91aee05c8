/* LOG_SOFTMAX over the last dim (TFLite activations.cc LogSoftmax): float32,
 * and int8/uint8 with output scale 16/256 and zero point 127 (int8) or 255
 * (uint8), i.e. outputs in [-255/16, 0]. XNNPACK does not take it.
 *  - float32: x - max - log(sum(exp(x - max))).
 *  - int8 AUTO (TFLite's optimized kernel): a float table of
 *    exp(-s_in·d) over the 256 code differences d, a float row sum, then
 *    rint(s_in/s_out·q - (s_in·max + log(sum))/s_out) + 127.
 *  - int8 BUILTIN_REF and uint8 (both modes) (TFLite's reference kernel):
 *    gemmlowp fixed point: the difference to the row max rescaled to Q5.26,
 *    a Q12.19 sum of exp, its log in Q5.26 (fixedpoint.h), each output
 *    RDBPOT(diff - log, 22) + q_max; differences at or below the one whose
 *    log-probability is the lowest Q5.26 value give q_min. */
#include "fixedpoint.h"
#include "ops.h"
#include "unary_common.h"

typedef struct OpData {
  int table_kind;        /* int8 AUTO */
  int32_t mult, rev_mult, diff_min; /* input rescale to Q5.26 and back, lowest difference */
  int shift, rev_shift;
  int32_t qmin, qmax;
  float s_in, s_out;
  float table[256];
} OpData;

TFF_ZEROED_INIT(init, OpData)

static TfLiteStatus prepare_quant(TfLiteContext* ctx, const TfLiteTensor* in,
                                  const TfLiteTensor* out, OpData* d) {
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, "LOG_SOFTMAX", "input", in));
  const int u8 = in->type == kTfLiteUInt8;
  d->qmin = u8 ? 0 : -128;
  d->qmax = u8 ? 255 : 127;
  TF_LITE_ENSURE_MSG(ctx, out->params.scale == 16.0f / 256 && out->params.zero_point == d->qmax,
                     "LOG_SOFTMAX: output needs scale 16/256 and zero point %d, got %g and %d",
                     (int)d->qmax, (double)out->params.scale, (int)out->params.zero_point);
  d->s_in = tff_scale(in);
  d->s_out = tff_scale(out);
  d->table_kind = !u8 && !tff_numerics_ref(ctx);
  if (d->table_kind) {
    const float scale = -d->s_in;
    for (int v = 0; v <= 255; ++v) d->table[255 - v] = expf(scale * (float)v);
    return kTfLiteOk;
  }
  /* PreprocessLogSoftmaxScalingExp with beta 1 and 5 integer bits. */
  double real = (double)d->s_in * (double)(1 << 26);
  real = real < 2147483647.0 ? real : 2147483647.0;
  tff_quantize_multiplier(real, &d->mult, &d->shift);
  TF_LITE_ENSURE_MSG(ctx, d->shift >= 1 && d->shift <= 30,
                     "LOG_SOFTMAX: input scale %g is outside TFLite's fixed-point range",
                     (double)d->s_in);
  const double reverse = ldexp(1.0, 31 - d->shift) / (double)d->mult;
  tff_quantize_multiplier(reverse, &d->rev_mult, &d->rev_shift);
  const double radius = floor(31.0 * (double)(1 << 26) / ldexp(1.0, d->shift));
  d->diff_min = -(int32_t)radius;
  return kTfLiteOk;
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  TfLiteTensor *in, *out;
  TF_LITE_ENSURE_OK(ctx, tff_unary_prepare(ctx, node, "LOG_SOFTMAX", &in, &out));
  TF_LITE_ENSURE_TYPES_EQ(ctx, in->type, out->type);
  TF_LITE_ENSURE_MSG(ctx, tff_rank(in) >= 1, "LOG_SOFTMAX: the input must have rank >= 1");
  if (in->type == kTfLiteFloat32) return kTfLiteOk;
  TF_LITE_ENSURE_MSG(ctx, in->type == kTfLiteInt8 || in->type == kTfLiteUInt8,
                     "LOG_SOFTMAX: type %s not supported (float32, int8, uint8)",
                     TfLiteTypeGetName(in->type));
  TF_LITE_ENSURE_OK(ctx, prepare_quant(ctx, in, out, d));
  /* One row of codes and of results as int32. */
  return tff_scratch_request(ctx, node, 0,
                             2 * sizeof(int32_t) * (size_t)tff_dim(in, tff_rank(in) - 1));
}

static void log_softmax_f32(const float* x, float* o, int n) {
  float max = -INFINITY;
  for (int i = 0; i < n; ++i) max = x[i] > max ? x[i] : max;
  float sum = 0.0f;
  for (int i = 0; i < n; ++i) sum += expf(x[i] - max);
  const float log_sum = logf(sum);
  for (int i = 0; i < n; ++i) o[i] = x[i] - max - log_sum;
}

/* One row of codes (int8 or uint8 as `at` reads them). */
static void log_softmax_table(const OpData* d, const int32_t* x, int32_t* o, int n) {
  int32_t max = d->qmin;
  for (int i = 0; i < n; ++i) max = x[i] > max ? x[i] : max;
  const float* t = d->table + 255 - max;
  float sum = 0.0f;
  for (int i = 0; i < n; ++i) sum += t[x[i]];
  const float scale = d->s_in / d->s_out;
  const float pre = (d->s_in * (float)max + logf(sum)) / d->s_out;
  for (int i = 0; i < n; ++i) {
    volatile float p = scale * (float)x[i];
    const float f = rintf(p - pre) + (float)d->qmax;
    /* x86's float to int32 conversion gives INT32_MIN out of range. */
    const int32_t v = (f > -2147483648.0f && f < 2147483648.0f) ? (int32_t)f : INT32_MIN;
    o[i] = v < d->qmin ? d->qmin : (v > d->qmax ? d->qmax : v);
  }
}

static void log_softmax_fixed(const OpData* d, const int32_t* x, int32_t* o, int n) {
  int32_t max = d->qmin;
  for (int i = 0; i < n; ++i) max = x[i] > max ? x[i] : max;
  int32_t sum = 0; /* Q12.19 */
  for (int i = 0; i < n; ++i) {
    const int32_t diff = x[i] - max;
    if (diff >= d->diff_min) {
      sum = tff_fp_add(sum, tff_rdbpot(tff_fp_exp_negative(tff_mbqm(diff, d->mult, d->shift)), 12));
    }
  }
  const int32_t log_sum = tff_fp_log_ge1(sum, 12, 5);
  const int32_t lowest = tff_mbqm(tff_fp_add(log_sum, INT32_MIN), d->rev_mult, d->rev_shift);
  const int32_t adjusted_min = d->diff_min - 1 > lowest ? d->diff_min - 1 : lowest;
  for (int i = 0; i < n; ++i) {
    const int32_t diff = x[i] - max;
    int32_t v = d->qmin;
    if (diff > adjusted_min) {
      const int32_t q5 = tff_mbqm(diff, d->mult, d->shift);
      v = tff_rdbpot(tff_fp_add(q5, -log_sum), 31 - 5 - 4) + d->qmax;
      v = v < d->qmin ? d->qmin : (v > d->qmax ? d->qmax : v);
    }
    o[i] = v;
  }
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const int n = tff_dim(in, tff_rank(in) - 1); /* rows of n, the softmax dim */
  const size_t rows = n ? tff_num_elements(in->dims) / (size_t)n : 0;
  TfLiteTensor* out = tff_output(ctx, node, 0);
  const OpData* d = (const OpData*)node->user_data;
  if (in->type == kTfLiteFloat32) {
    for (size_t r = 0; r < rows; ++r) {
      log_softmax_f32(in->data.f + r * (size_t)n, out->data.f + r * (size_t)n, n);
    }
    return kTfLiteOk;
  }
  int32_t* x = (int32_t*)tff_scratch(ctx, node, 0);
  int32_t* o = x + n;
  const int u8 = in->type == kTfLiteUInt8;
  for (size_t r = 0; r < rows; ++r) {
    const size_t at = r * (size_t)n;
    for (int i = 0; i < n; ++i) x[i] = u8 ? in->data.uint8[at + i] : in->data.int8[at + i];
    if (d->table_kind) {
      log_softmax_table(d, x, o, n);
    } else {
      log_softmax_fixed(d, x, o, n);
    }
    for (int i = 0; i < n; ++i) out->data.uint8[at + i] = (uint8_t)o[i];
  }
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_LOG_SOFTMAX(void) {
  static const TfLiteRegistration r = {.init = init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinLogSoftmax,
                                       .version = 1};
  return &r;
}
