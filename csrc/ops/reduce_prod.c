/* REDUCE_PROD (TFLite reduce.cc EvalProd): float32, int32, int64 and
 * unquantized int8, uint8, int16 (integers wrap), bool (all; reference
 * numerics only, as TFLite's optimized kernel fails on it), and quantized
 * int8, int16.
 *
 * Quantized: each step rescales so the int32 accumulator cannot overflow.
 * With (M, e) = QM(s_in / s_out^(1/N)), N = input size / output size, the
 * first element gives p = q − z_in, each next p = MBQM64(p·(q − z_in)), and
 * the output is MBQM64(p) + z_out, clamped. MBQM64 is TFLite's 64-bit
 * MultiplyByQuantizedMultiplier (a 16-bit multiplier, one rounding), which
 * TFLite aborts on unless −31 <= e <= 7: such scales fail prepare here.
 * TFLite's optimized kernel (AUTO) copies the codes unchanged when no
 * reduced dim is longer than 1. */
#include <stdbool.h>

#include "ops.h"
#include "reduce_common.h"

typedef struct OpData {
  tff_reduce r;
  int quantized, copy;
  int32_t in_zp, out_zp, qmin, qmax, mult;
  int shift;
  tff_reduce_row_fn row;
} OpData;

#define MUL_FOLD(a, x) ((a) * (x))
#define WRAP32_MUL(a, x) ((int32_t)((uint32_t)(a) * (uint32_t)(x)))
#define WRAP64_MUL(a, x) ((int64_t)((uint64_t)(a) * (uint64_t)(x)))
#define WRAP8_MUL(a, x) ((int8_t)(uint8_t)((unsigned)(uint8_t)(a) * (unsigned)(uint8_t)(x)))
#define WRAPU8_MUL(a, x) ((uint8_t)((unsigned)(a) * (unsigned)(x)))
#define WRAP16_MUL(a, x) ((int16_t)(uint16_t)((unsigned)(uint16_t)(a) * (unsigned)(uint16_t)(x)))
TFF_REDUCE_ROW(row_f32, float, float, MUL_FOLD)
TFF_REDUCE_ROW(row_i32, int32_t, int32_t, WRAP32_MUL)
TFF_REDUCE_ROW(row_i64, int64_t, int64_t, WRAP64_MUL)
TFF_REDUCE_ROW(row_s8, int8_t, int8_t, WRAP8_MUL)
TFF_REDUCE_ROW(row_u8, uint8_t, uint8_t, WRAPU8_MUL)
TFF_REDUCE_ROW(row_s16, int16_t, int16_t, WRAP16_MUL)
#define AND_FOLD(a, x) ((a) && (x))
TFF_REDUCE_ROW(row_bool, bool, bool, AND_FOLD)

/* TFLite's MultiplyByQuantizedMultiplier(int64_t x, ...). */
static int32_t mbqm64(int64_t x, int32_t mult, int shift) {
  const int64_t m16 = mult < 0x7FFF0000 ? (mult + (1 << 15)) >> 16 : 0x7FFF;
  const int total = 15 - shift;
  return (int32_t)((x * m16 + ((int64_t)1 << (total - 1))) >> total);
}

/* The accumulator is int64 holding an int32, INT64_MIN before the first element. */
#define QPROD_FOLD(a, x)                                                                \
  ((a) == INT64_MIN ? (int64_t)((x) - q->in_zp)                                           \
                    : (int64_t)mbqm64((int64_t)(int32_t)(a) * ((x) - q->in_zp), q->mult, q->shift))
#define QROW(NAME, T, FOLD)                                                          \
  static void NAME(const void* in_, void* acc_, int n, int reduced, const void* arg) { \
    const OpData* q = (const OpData*)arg;                                            \
    const T* xs = (const T*)in_;                                                     \
    int64_t* acc = (int64_t*)acc_;                                                   \
    for (int i = 0; i < n; ++i) {                                                    \
      int64_t* p = reduced ? acc : acc + i;                                          \
      const int64_t a = *p;                                                          \
      const int32_t x = xs[i];                                                       \
      *p = FOLD(a, x);                                                               \
    }                                                                                \
  }
QROW(qrow_s8, int8_t, QPROD_FOLD)
QROW(qrow_s16, int16_t, QPROD_FOLD)

TFF_ZEROED_INIT(init, OpData)

static TfLiteStatus prepare_quant(TfLiteContext* ctx, TfLiteNode* node, const TfLiteTensor* in,
                                  const TfLiteTensor* out, OpData* d) {
  TF_LITE_ENSURE_MSG(ctx, in->type == kTfLiteInt8 || in->type == kTfLiteInt16,
                     "REDUCE_PROD: quantized type %s not supported (int8, int16)",
                     TfLiteTypeGetName(in->type));
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, "REDUCE_PROD", "input", in));
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, "REDUCE_PROD", "output", out));
  d->quantized = 1;
  d->in_zp = tff_zero_point(in);
  d->out_zp = tff_zero_point(out);
  if (in->type == kTfLiteInt16) {
    TF_LITE_ENSURE_MSG(ctx, d->in_zp == 0 && d->out_zp == 0,
                       "REDUCE_PROD: int16 zero points must be 0");
  }
  d->qmin = in->type == kTfLiteInt8 ? -128 : -32768;
  d->qmax = in->type == kTfLiteInt8 ? 127 : 32767;
  d->row = in->type == kTfLiteInt8 ? qrow_s8 : qrow_s16;
  d->copy = !tff_numerics_ref(ctx) && d->r.real_reduced == 0;
  if (d->r.in_count == 0 || d->r.out_count == 0) return kTfLiteOk;
  const int n = (int)(d->r.in_count / d->r.out_count);
  const double scaling = (double)tff_scale(in) / pow((double)tff_scale(out), 1.0 / n);
  tff_quantize_multiplier(scaling, &d->mult, &d->shift);
  TF_LITE_ENSURE_MSG(ctx, d->shift >= -31 && d->shift <= 7,
                     "REDUCE_PROD: per-step scale %g is outside TFLite's range "
                     "(exponent %d not in [-31, 7])", scaling, d->shift);
  return tff_scratch_request(ctx, node, 0, d->r.out_count * sizeof(int64_t));
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  TF_LITE_ENSURE(ctx, d != NULL);
  TF_LITE_ENSURE_OK(ctx, tff_reduce_prepare(ctx, node, "REDUCE_PROD", &d->r));
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* out = tff_output(ctx, node, 0);
  d->quantized = 0;
  if (in->quantization.type != kTfLiteNoQuantization) {
    return prepare_quant(ctx, node, in, out, d);
  }
  switch (in->type) {
    case kTfLiteFloat32: d->row = row_f32; break;
    case kTfLiteInt32: d->row = row_i32; break;
    case kTfLiteInt64: d->row = row_i64; break;
    case kTfLiteInt8: d->row = row_s8; break;
    case kTfLiteUInt8: d->row = row_u8; break;
    case kTfLiteInt16: d->row = row_s16; break;
    case kTfLiteBool:
      TF_LITE_ENSURE_OK(ctx, tff_reduce_bool_ref_only(ctx, "REDUCE_PROD"));
      d->row = row_bool;
      break;
    default:
      TF_LITE_KERNEL_LOG(ctx, "REDUCE_PROD: type %s not supported", TfLiteTypeGetName(in->type));
      return kTfLiteError;
  }
  return kTfLiteOk;
}

static void fill_one(TfLiteTensor* out, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    switch (out->type) {
      case kTfLiteFloat32: out->data.f[i] = 1.0f; break;
      case kTfLiteInt32: out->data.i32[i] = 1; break;
      case kTfLiteInt64: out->data.i64[i] = 1; break;
      case kTfLiteInt16: out->data.i16[i] = 1; break;
      default: out->data.uint8[i] = 1; break;
    }
  }
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const OpData* d = (const OpData*)node->user_data;
  const tff_reduce* r = &d->r;
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  const size_t elem = tff_type_size(in->type);
  if (!d->quantized) {
    fill_one(out, r->out_count);
    tff_reduce_walk(r, in->data.raw_const, elem, out->data.raw, elem, d->row, NULL);
    return kTfLiteOk;
  }
  if (r->in_count == 0) return kTfLiteOk; /* TFLite leaves the output as it is */
  if (d->copy) {
    memcpy(out->data.raw, in->data.raw_const, r->in_count * elem);
    return kTfLiteOk;
  }
  int64_t* acc = (int64_t*)tff_scratch(ctx, node, 0);
  for (size_t i = 0; i < r->out_count; ++i) acc[i] = INT64_MIN;
  tff_reduce_walk(r, in->data.raw_const, elem, acc, sizeof(int64_t), d->row, d);
  for (size_t i = 0; i < r->out_count; ++i) {
    const uint32_t p = (uint32_t)mbqm64((int64_t)(int32_t)acc[i], d->mult, d->shift);
    int32_t v = (int32_t)(p + (uint32_t)d->out_zp); /* wraps as TFLite on x86 */
    v = v < d->qmin ? d->qmin : (v > d->qmax ? d->qmax : v);
    if (elem == 2) {
      out->data.i16[i] = (int16_t)v;
    } else {
      out->data.int8[i] = (int8_t)v;
    }
  }
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_REDUCE_PROD(void) {
  static const TfLiteRegistration r = {.init = init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinReduceProd,
                                       .version = 1};
  return &r;
}
