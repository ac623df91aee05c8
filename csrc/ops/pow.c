/* POW: a^b elementwise with broadcasting (binary_common.h's walk), float32
 * and int32, as TFLite's kernel (one kernel in both numerics modes):
 * - float32: powf; int32: pow in double, converted back (a result outside
 *   int32 becomes INT_MIN, as x86's conversion makes it); a negative int32
 *   exponent fails invoke.
 * - when the shapes differ and b has one element that is within 1e-5 of an
 *   integer e >= 1, TFLite instead multiplies by squaring (x^(e/2) squared,
 *   times x when e is odd), each float32 product clamped to ±FLT_MAX and each
 *   int32 product wrapping; so do we. */
#include <float.h>

#include "binary_common.h"
#include "ops.h"

typedef struct OpData {
  tff_binary op;
  int by_squaring; /* the shapes differ and b has one element */
} OpData;

/* e when y qualifies for multiplication by squaring, else 0. */
static inline int32_t square_exponent(float y) {
  if (!(fabsf(y) < 0x1p31f)) return 0;
  const int32_t e = (int32_t)roundf(y);
  return fabsf(y - (float)e) < 1e-5f && e >= 1 ? e : 0;
}

/* The highest set bit of e >= 1. */
static inline int top_bit(int32_t e) {
  int b = 0;
  while (e >> (b + 1)) ++b;
  return b;
}

static inline float clamp_finite(float v) {
  v = v < -FLT_MAX ? -FLT_MAX : v;
  return FLT_MAX < v ? FLT_MAX : v;
}

static inline float pow_f32(float x, float y, const OpData* p) {
  const int32_t e = p->by_squaring ? square_exponent(y) : 0;
  if (e == 0) return powf(x, y);
  float r = x;
  for (int b = top_bit(e) - 1; b >= 0; --b) {
    r = clamp_finite(r * r);
    if ((e >> b) & 1) r = clamp_finite(x * r);
  }
  return r;
}

static inline int32_t pow_i32(int32_t x, int32_t y, const OpData* p) {
  if (p->by_squaring && y >= 1) {
    uint32_t r = (uint32_t)x;
    for (int b = top_bit(y) - 1; b >= 0; --b) {
      r *= r;
      if ((y >> b) & 1) r *= (uint32_t)x;
    }
    return (int32_t)r;
  }
  const double v = pow((double)x, (double)y);
  return v >= -2147483648.0 && v < 2147483648.0 ? (int32_t)v : INT32_MIN;
}

TFF_BINARY_ROW(pow_f32_row, float, OpData, pow_f32)
TFF_BINARY_ROW(pow_i32_row, int32_t, OpData, pow_i32)
static const tff_binary_rows rows = {pow_f32_row, NULL, NULL, NULL, pow_i32_row, NULL,
                                     "float32, int32"};

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  TF_LITE_ENSURE_MSG(ctx, d != NULL, "POW: out of memory");
  TF_LITE_ENSURE_OK(ctx, tff_binary_typed_prepare(ctx, node, "POW", &d->op, &rows, d));
  const TfLiteTensor* a = tff_input(ctx, node, 0);
  const TfLiteTensor* b = tff_input(ctx, node, 1);
  d->by_squaring = !TfLiteIntArrayEqual(a->dims, b->dims) && tff_num_elements(b->dims) == 1;
  return kTfLiteOk;
}

/* 1 when some int32 element of t is negative. */
static int any_negative(const TfLiteTensor* t) {
  const size_t n = tff_num_elements(t->dims);
  for (size_t i = 0; i < n; ++i)
    if (t->data.i32[i] < 0) return 1;
  return 0;
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* b = tff_input(ctx, node, 1);
  TF_LITE_ENSURE_MSG(ctx, b->type != kTfLiteInt32 || !any_negative(b),
                     "POW does not support negative value for int32.");
  return tff_binary_invoke(ctx, node, &((const OpData*)node->user_data)->op);
}

TFF_ZEROED_INIT(init, OpData)

const TfLiteRegistration* tff_register_POW(void) {
  static const TfLiteRegistration r = {.init = init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinPow,
                                       .version = 1};
  return &r;
}
