/* CAST between bool, int8, uint8, int16, uint16, int32, uint32, int64,
 * float16, float32, float64 and complex64, every pair (TFLite cast.cc;
 * XNNPACK does not take CAST, so both modes agree):
 *  - integer -> integer: C conversion (wraps modulo 2^bits);
 *  - anything -> bool: x != 0 (NaN is true); bool -> anything: 0 or 1;
 *  - float -> integer: SafeCast: NaN -> the type's maximum, below its
 *    minimum -> minimum, at or above 2^bits (2^(bits−1) signed) -> maximum,
 *    else truncation toward zero;
 *  - -> float32 / float64: one C conversion from the source value (int64 ->
 *    float rounds once);
 *  - -> float16: first to float32 as above, then rounded to nearest even;
 *  - complex64 -> other types: its real part; -> complex64: (x, 0).
 * Elements are read into an int64 or a double (exact for every source) and
 * written from it. */
#include <math.h>

#include "fp16.h"
#include "ops.h"
#include "unary_common.h"

#define CAST_TYPES                                                                        \
  (TFF_TYPE_BIT(kTfLiteBool) | TFF_TYPE_BIT(kTfLiteInt8) | TFF_TYPE_BIT(kTfLiteUInt8) |   \
   TFF_TYPE_BIT(kTfLiteInt16) | TFF_TYPE_BIT(kTfLiteUInt16) | TFF_TYPE_BIT(kTfLiteInt32) | \
   TFF_TYPE_BIT(kTfLiteUInt32) | TFF_TYPE_BIT(kTfLiteInt64) |                            \
   TFF_TYPE_BIT(kTfLiteFloat16) | TFF_TYPE_BIT(kTfLiteFloat32) |                          \
   TFF_TYPE_BIT(kTfLiteFloat64) | TFF_TYPE_BIT(kTfLiteComplex64))
#define CAST_NAMES                                                                  \
  "bool, int8, uint8, int16, uint16, int32, uint32, int64, float16, float32, float64, " \
  "complex64"

/* One source element: an integer, or a floating value (exact in double). */
typedef struct value {
  int is_float;
  int64_t i;
  double d;
} value;

static value read_at(const TfLiteTensor* t, size_t k) {
  value v = {0, 0, 0.0};
  switch (t->type) {
    case kTfLiteBool: v.i = t->data.b[k] != 0; break;
    case kTfLiteInt8: v.i = t->data.int8[k]; break;
    case kTfLiteUInt8: v.i = t->data.uint8[k]; break;
    case kTfLiteInt16: v.i = t->data.i16[k]; break;
    case kTfLiteUInt16: v.i = t->data.ui16[k]; break;
    case kTfLiteInt32: v.i = t->data.i32[k]; break;
    case kTfLiteUInt32: v.i = t->data.u32[k]; break;
    case kTfLiteInt64: v.i = t->data.i64[k]; break;
    case kTfLiteFloat16: v.is_float = 1, v.d = tff_half_to_float(t->data.f16[k].data); break;
    case kTfLiteFloat32: v.is_float = 1, v.d = t->data.f[k]; break;
    case kTfLiteFloat64: v.is_float = 1, v.d = t->data.f64[k]; break;
    default: v.is_float = 1, v.d = t->data.c64[k].re; break; /* complex64 */
  }
  return v;
}

/* An integer of `bits` bits (signed or not): SafeCast from a float, C
 * conversion (modulo 2^64, then the caller's narrowing) from an integer. */
static int64_t to_int(value v, int bits, int is_signed) {
  if (!v.is_float) return v.i;
  const double hi = ldexp(1.0, is_signed ? bits - 1 : bits); /* exclusive */
  const double lo = is_signed ? -hi : 0.0;
  const int64_t max = bits == 64 ? INT64_MAX : (int64_t)hi - 1;
  if (isnan(v.d) || v.d >= hi) return max;
  if (v.d < lo) return (int64_t)lo;
  return (int64_t)v.d;
}

static float to_float(value v) { return v.is_float ? (float)v.d : (float)v.i; }

static void write_at(TfLiteTensor* t, size_t k, value v) {
  switch (t->type) {
    case kTfLiteBool: t->data.b[k] = v.is_float ? v.d != 0.0 : v.i != 0; break;
    case kTfLiteInt8: t->data.int8[k] = (int8_t)to_int(v, 8, 1); break;
    case kTfLiteUInt8: t->data.uint8[k] = (uint8_t)to_int(v, 8, 0); break;
    case kTfLiteInt16: t->data.i16[k] = (int16_t)to_int(v, 16, 1); break;
    case kTfLiteUInt16: t->data.ui16[k] = (uint16_t)to_int(v, 16, 0); break;
    case kTfLiteInt32: t->data.i32[k] = (int32_t)to_int(v, 32, 1); break;
    case kTfLiteUInt32: t->data.u32[k] = (uint32_t)to_int(v, 32, 0); break;
    case kTfLiteInt64: t->data.i64[k] = to_int(v, 64, 1); break;
    case kTfLiteFloat16: t->data.f16[k].data = tff_float_to_half(to_float(v)); break;
    case kTfLiteFloat32: t->data.f[k] = to_float(v); break;
    case kTfLiteFloat64: t->data.f64[k] = v.is_float ? v.d : (double)v.i; break;
    default: /* complex64 */
      t->data.c64[k].re = to_float(v);
      t->data.c64[k].im = 0.0f;
      break;
  }
}

/* Tight loops for the pairs real models cast most (indices and masks to
 * float, int32 <-> int64, float32 -> int32); the same results as the
 * element-wise path. */
typedef void (*cast_fn)(const void* src, void* dst, size_t n);
#define CAST_LOOP(name, TI, TO, expr)                          \
  static void name(const void* src, void* dst, size_t n) {    \
    const TI* x = (const TI*)src;                              \
    TO* y = (TO*)dst;                                          \
    for (size_t i = 0; i < n; ++i) y[i] = (expr);              \
  }
CAST_LOOP(i32_f32, int32_t, float, (float)x[i])
CAST_LOOP(i64_f32, int64_t, float, (float)x[i])
CAST_LOOP(u8_f32, uint8_t, float, (float)x[i])
CAST_LOOP(i8_f32, int8_t, float, (float)x[i])
CAST_LOOP(b_f32, uint8_t, float, x[i] ? 1.0f : 0.0f)
CAST_LOOP(i32_i64, int32_t, int64_t, x[i])
CAST_LOOP(i64_i32, int64_t, int32_t, (int32_t)x[i])
CAST_LOOP(f32_i32, float, int32_t,
          isnan(x[i]) || x[i] >= 2147483648.0f ? INT32_MAX
                      : (x[i] < -2147483648.0f ? INT32_MIN : (int32_t)x[i]))
#undef CAST_LOOP

static cast_fn fast_path(TfLiteType from, TfLiteType to) {
  static const struct { TfLiteType from, to; cast_fn fn; } table[] = {
      {kTfLiteInt32, kTfLiteFloat32, i32_f32}, {kTfLiteInt64, kTfLiteFloat32, i64_f32},
      {kTfLiteUInt8, kTfLiteFloat32, u8_f32},  {kTfLiteInt8, kTfLiteFloat32, i8_f32},
      {kTfLiteBool, kTfLiteFloat32, b_f32},    {kTfLiteInt32, kTfLiteInt64, i32_i64},
      {kTfLiteInt64, kTfLiteInt32, i64_i32},   {kTfLiteFloat32, kTfLiteInt32, f32_i32}};
  for (size_t k = 0; k < sizeof table / sizeof table[0]; ++k) {
    if (table[k].from == from && table[k].to == to) return table[k].fn;
  }
  return NULL;
}

typedef struct OpData {
  cast_fn fast;
} OpData;

TFF_ZEROED_INIT(init, OpData)

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  TfLiteTensor *in, *out;
  TF_LITE_ENSURE_OK(ctx, tff_unary_prepare(ctx, node, "CAST", &in, &out));
  const TfLiteType types[2] = {in->type, out->type};
  for (int k = 0; k < 2; ++k) {
    TF_LITE_ENSURE_MSG(ctx, (unsigned)types[k] < 64 && (CAST_TYPES & TFF_TYPE_BIT(types[k])),
                       "CAST: %s type %s is not supported (%s)", k ? "output" : "input",
                       TfLiteTypeGetName(types[k]), CAST_NAMES);
  }
  ((OpData*)node->user_data)->fast = fast_path(in->type, out->type);
  return kTfLiteOk;
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  const size_t n = tff_num_elements(in->dims);
  const OpData* d = (const OpData*)node->user_data;
  if (d->fast) {
    d->fast(in->data.raw_const, out->data.raw, n);
  } else if (in->type == kTfLiteComplex64 && out->type == kTfLiteComplex64) {
    memcpy(out->data.raw, in->data.raw_const, n * sizeof(TfLiteComplex64));
  } else {
    for (size_t k = 0; k < n; ++k) write_at(out, k, read_at(in, k));
  }
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_CAST(void) {
  static const TfLiteRegistration r = {.init = init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinCast,
                                       .version = 1};
  return &r;
}
