/* SUM: float32, int32, int64 (integers wrap), bool (any; reference numerics
 * only, as TFLite's optimized kernel fails on it), and quantized int8, uint8,
 * int16 (TFLite reduce.cc EvalSum), over any axes (reduce_common.h).
 *
 * Quantized sums requantize Σq, in the formula ai-edge-litert runs:
 *  - XNN: int8/uint8 when AUTO gives the node to XNNPACK (tff_reduce_xnn):
 *    the int32 sum of codes, rint(clamp(Σq·s + zp')) with s = f32(s_in/s_out)
 *    and zp' = z_out − (N·z_in)·s, both float32.
 *  - OPT: AUTO otherwise (TFLite's optimized QuantizedMeanOrSum):
 *    round-half-away(Σq·s + b) + z_out with b = (−z_in·s)·N in float32.
 *  - REF: BUILTIN_REF. TFLite's reference kernel reads the tensors as uint8
 *    whatever their type: int8 codes are summed as their bytes (q & 0xff),
 *    MBQM(Σ − z_in·N, QM(s_in/s_out)) + z_out is clamped to [0, 255] and
 *    stored as a byte. For int16 it reads and writes half the bytes, so that
 *    mode refuses int16. */
#include <stdbool.h>

#include "ops.h"
#include "reduce_common.h"

enum { kSumPlain, kSumXnn, kSumOpt, kSumRef };

typedef struct OpData {
  int kind;
  tff_reduce r;
  tff_reduce_row_fn plain; /* kSumPlain: folds into the zeroed output */
  int32_t in_zp, out_zp, qmin, qmax;
  int32_t mult;
  int shift;
  float scale, bias;
} OpData;

#define ADD_FOLD(a, x) ((a) + (x))
#define WRAP32_FOLD(a, x) ((int32_t)((uint32_t)(a) + (uint32_t)(x)))
#define WRAP64_FOLD(a, x) ((int64_t)((uint64_t)(a) + (uint64_t)(x)))
#define BYTE_FOLD(a, x) ((a) + (int32_t)(uint8_t)(x))
#define OR_FOLD(a, x) ((a) || (x))
TFF_REDUCE_ROW(row_f32, float, float, ADD_FOLD)
TFF_REDUCE_ROW(row_i32, int32_t, int32_t, WRAP32_FOLD)
TFF_REDUCE_ROW(row_i64, int64_t, int64_t, WRAP64_FOLD)
TFF_REDUCE_ROW(row_s8, int8_t, int32_t, ADD_FOLD)
TFF_REDUCE_ROW(row_u8, uint8_t, int32_t, ADD_FOLD)
TFF_REDUCE_ROW(row_s16, int16_t, int32_t, WRAP32_FOLD)
TFF_REDUCE_ROW(row_bytes, int8_t, int32_t, BYTE_FOLD)
TFF_REDUCE_ROW(row_bool, bool, bool, OR_FOLD)

TFF_ZEROED_INIT(init, OpData)

static TfLiteStatus prepare_quant(TfLiteContext* ctx, TfLiteNode* node, const TfLiteTensor* in,
                                  const TfLiteTensor* out, OpData* d) {
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, "SUM", "input", in));
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, "SUM", "output", out));
  d->in_zp = tff_zero_point(in);
  d->out_zp = tff_zero_point(out);
  if (in->type == kTfLiteInt16) {
    TF_LITE_ENSURE_MSG(ctx, d->in_zp == 0 && d->out_zp == 0,
                       "SUM: int16 zero points must be 0 (input %d, output %d)", (int)d->in_zp,
                       (int)d->out_zp);
    TF_LITE_ENSURE_MSG(ctx, !tff_numerics_ref(ctx),
                       "SUM: int16 is not supported in reference numerics (TFLite's reference "
                       "kernel reads int16 tensors as uint8)");
  }
  d->qmin = in->type == kTfLiteInt8 ? -128 : (in->type == kTfLiteUInt8 ? 0 : -32768);
  d->qmax = in->type == kTfLiteInt8 ? 127 : (in->type == kTfLiteUInt8 ? 255 : 32767);
  const float s_in = tff_scale(in), s_out = tff_scale(out);
  const float n = (float)d->r.n;
  d->scale = s_in / s_out;
  if (in->type != kTfLiteInt16 && tff_reduce_xnn(ctx, node)) {
    d->kind = kSumXnn;
    d->bias = (float)d->out_zp - (n * (float)d->in_zp) * d->scale;
  } else if (!tff_numerics_ref(ctx)) {
    d->kind = kSumOpt;
    d->bias = (float)(-d->in_zp) * d->scale * n;
  } else {
    d->kind = kSumRef;
    d->qmin = 0;
    d->qmax = 255;
    tff_quantize_multiplier((double)s_in / (double)s_out, &d->mult, &d->shift);
    TF_LITE_ENSURE_MSG(ctx, d->shift <= 30, "SUM: scale ratio %g is too large",
                       (double)s_in / (double)s_out);
  }
  return tff_scratch_request(ctx, node, 0, d->r.out_count * sizeof(int32_t));
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  TF_LITE_ENSURE(ctx, d != NULL);
  TF_LITE_ENSURE_OK(ctx, tff_reduce_prepare(ctx, node, "SUM", &d->r));
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  switch (in->type) {
    case kTfLiteFloat32: d->plain = row_f32; break;
    case kTfLiteInt32: d->plain = row_i32; break;
    case kTfLiteInt64: d->plain = row_i64; break;
    case kTfLiteBool:
      TF_LITE_ENSURE_OK(ctx, tff_reduce_bool_ref_only(ctx, "SUM"));
      d->plain = row_bool;
      break;
    case kTfLiteInt8:
    case kTfLiteUInt8:
    case kTfLiteInt16: return prepare_quant(ctx, node, in, tff_output(ctx, node, 0), d);
    default:
      TF_LITE_KERNEL_LOG(ctx, "SUM: type %s not supported (float32, int32, int64, int8, uint8, "
                         "int16, bool)", TfLiteTypeGetName(in->type));
      return kTfLiteError;
  }
  d->kind = kSumPlain;
  return kTfLiteOk;
}

/* The requantized code of one output sum. */
static int32_t requant(const OpData* d, int32_t sum) {
  float v;
  switch (d->kind) {
    case kSumXnn: {
      volatile float p = (float)sum * d->scale;
      v = p + d->bias;
      v = v < (float)d->qmin ? (float)d->qmin : (v > (float)d->qmax ? (float)d->qmax : v);
      return (int32_t)nearbyintf(v);
    }
    case kSumOpt: {
      volatile float p = (float)sum * d->scale;
      v = roundf(p + d->bias);
      /* x86's float to int32 conversion gives INT32_MIN out of range. */
      const int32_t q = (v > -2147483648.0f && v < 2147483648.0f) ? (int32_t)v : INT32_MIN;
      const int32_t o = (int32_t)((uint32_t)q + (uint32_t)d->out_zp);
      return o < d->qmin ? d->qmin : (o > d->qmax ? d->qmax : o);
    }
    default: {
      const int32_t x = (int32_t)((uint32_t)sum - (uint32_t)d->in_zp * (uint32_t)d->r.n);
      const int32_t o = (int32_t)((uint32_t)tff_mbqm(x, d->mult, d->shift) + (uint32_t)d->out_zp);
      return o < d->qmin ? d->qmin : (o > d->qmax ? d->qmax : o);
    }
  }
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const OpData* d = (const OpData*)node->user_data;
  const tff_reduce* r = &d->r;
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  const void* x = in->data.raw_const;
  const size_t elem = tff_type_size(in->type);
  if (d->kind == kSumPlain) {
    memset(out->data.raw, 0, r->out_count * elem);
    tff_reduce_walk(r, x, elem, out->data.raw, elem, d->plain, NULL);
    return kTfLiteOk;
  }
  int32_t* acc = (int32_t*)tff_scratch(ctx, node, 0);
  memset(acc, 0, r->out_count * sizeof(int32_t));
  tff_reduce_row_fn row = d->kind == kSumRef          ? row_bytes
                          : in->type == kTfLiteInt8  ? row_s8
                          : in->type == kTfLiteUInt8 ? row_u8
                                                     : row_s16;
  tff_reduce_walk(r, x, elem, acc, sizeof(int32_t), row, NULL);
  for (size_t i = 0; i < r->out_count; ++i) {
    const int32_t q = r->in_count ? requant(d, acc[i]) : 0;
    if (elem == 2) {
      out->data.i16[i] = (int16_t)q;
    } else {
      out->data.uint8[i] = (uint8_t)q;
    }
  }
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_SUM(void) {
  static const TfLiteRegistration r = {.init = init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinSum,
                                       .version = 1};
  return &r;
}
