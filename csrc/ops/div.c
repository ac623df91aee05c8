/* DIV: a / b elementwise with broadcasting (binary_common.h's walk), every
 * fused activation.
 * - float32: the quotient clamped to the activation's bounds (infinities
 *   kept only where AUTO delegates to XNNPACK, see tff_binary_f32_bounds;
 *   IEEE division is exact either way).
 * - int32: C's truncating quotient, clamped; INT_MIN / −1 wraps.
 * - int8, uint8, int16 (TFLite's DivElementwise; XNNPACK takes none, so both
 *   modes): with d1 = a − za, d2 = b − zb (both negated when d2 < 0),
 *     R·2^−r = 1/d2 (GetReciprocal, 31 integer digits; tabulated per code
 *     for 8-bit divisors), h = clrsb(d1),
 *     q = SRDHM(d1·2^h, R),  o = zo + RDBPOT(SRDHM(q, M), h + r − e)
 *   with (M, e) = QM(f32(s_a / f32(s_b·s_out))). The final shift often
 *   exceeds 31 (small |d1|, large d2); TFLite then shifts as x86 does (the
 *   count taken mod 32, the mask built in 64 bits mod 64), and so do we.
 * An integer divisor equal to its zero point (0 for int32) anywhere in b
 * fails invoke, as TFLite's CheckNonZero; no integer division traps. */
#include "binary_common.h"
#include "fixedpoint.h"
#include "ops.h"

typedef struct DivQ {
  int32_t za, zb, zo, lo, hi, m;
  int e;
  /* int8/uint8: per divisor code c (as uint8), R and r of |c − zb|. */
  int32_t recip[256];
  int8_t bits[256];
} DivQ;

typedef struct OpData {
  tff_binary op;
  union {
    DivQ q;
    tff_clamp c;
  } p;
} OpData;

static inline float div_f32(float x, float y, const tff_clamp* c) {
  float v = x / y;
  v = v < c->f.lo ? c->f.lo : v;
  return c->f.hi < v ? c->f.hi : v;
}

static inline int32_t div_i32(int32_t x, int32_t y, const tff_clamp* c) {
  const int32_t v = y == -1 ? (int32_t)(0u - (uint32_t)x) : x / y;
  return v < c->i.lo ? c->i.lo : (v > c->i.hi ? c->i.hi : v);
}

/* gemmlowp RoundingDivideByPOT as TFLite's x86 build computes it for any
 * exponent: the mask from a 64-bit shift (count mod 64) truncated to 32 bits,
 * the arithmetic shift's count mod 32, the sum wrapping. */
static inline int32_t rdbpot_x86(int32_t x, int e) {
  const int32_t mask = (int32_t)(uint32_t)((1ull << (e & 63)) - 1);
  const int32_t thr = (mask >> 1) + (x < 0);
  return (int32_t)((uint32_t)(x >> (e & 31)) + ((x & mask) > thr));
}

/* The quotient of d1 by a divisor d2 of sign `neg` whose |d2| has
 * reciprocal (recip, r). */
static inline int32_t div_q(int32_t d1, int neg, int32_t recip, int r, const DivQ* p) {
  if (neg) d1 = -d1;
  const int h = tff_clrsb32(d1);
  const int32_t q = tff_srdhm((int32_t)((uint32_t)d1 << h), recip);
  const int32_t v = (int32_t)((uint32_t)p->zo + (uint32_t)rdbpot_x86(tff_srdhm(q, p->m),
                                                                     h + r - p->e));
  return v < p->lo ? p->lo : (v > p->hi ? p->hi : v);
}

#define DIV_Q8(T)                                                                   \
  static inline T div_##T(T x, T y, const DivQ* p) {                                \
    const uint8_t c = (uint8_t)y;                                                   \
    return (T)div_q((int32_t)x - p->za, y < p->zb, p->recip[c], p->bits[c], p);     \
  }
DIV_Q8(int8_t)
DIV_Q8(uint8_t)

static inline int16_t div_int16_t(int16_t x, int16_t y, const DivQ* p) {
  const int32_t d2 = (int32_t)y - p->zb;
  int r;
  const int32_t recip = tff_reciprocal(d2 < 0 ? -d2 : d2, 31, &r);
  return (int16_t)div_q((int32_t)x - p->za, d2 < 0, recip, r, p);
}

TFF_BINARY_ROW(div_f32_row, float, tff_clamp, div_f32)
TFF_BINARY_ROW(div_i32_row, int32_t, tff_clamp, div_i32)
TFF_BINARY_ROW(div_i8_row, int8_t, DivQ, div_int8_t)
TFF_BINARY_ROW(div_u8_row, uint8_t, DivQ, div_uint8_t)
TFF_BINARY_ROW(div_i16_row, int16_t, DivQ, div_int16_t)
static const tff_binary_rows rows = {div_f32_row, div_i8_row, div_u8_row, div_i16_row,
                                     div_i32_row, NULL, "float32, int32, int8, uint8, int16"};

static TfLiteStatus prepare_q(TfLiteContext* ctx, TfLiteFusedActivation act,
                              const TfLiteTensor* a, const TfLiteTensor* b,
                              const TfLiteTensor* out, DivQ* p) {
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, "DIV", "input 1", a));
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, "DIV", "input 2", b));
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, "DIV", "output", out));
  const float real = tff_scale(a) / (tff_scale(b) * tff_scale(out));
  TF_LITE_ENSURE_MSG(ctx, isfinite(real) && real > 0.0f,
                     "DIV: scales %g / (%g·%g) give no finite multiplier", (double)tff_scale(a),
                     (double)tff_scale(b), (double)tff_scale(out));
  tff_quantize_multiplier((double)real, &p->m, &p->e);
  p->za = tff_zero_point(a);
  p->zb = tff_zero_point(b);
  p->zo = tff_zero_point(out);
  for (int c = 0; c < 256 && b->type != kTfLiteInt16; ++c) {
    const int32_t d2 = (b->type == kTfLiteInt8 ? (int32_t)(int8_t)c : c) - p->zb;
    int r = 0;
    p->recip[c] = d2 == 0 ? 0 : tff_reciprocal(d2 < 0 ? -d2 : d2, 31, &r);
    p->bits[c] = (int8_t)r; /* d2 == 0 fails invoke before use */
  }
  return tff_binary_act_q8(ctx, "DIV", act, out, &p->lo, &p->hi);
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  TF_LITE_ENSURE_MSG(ctx, d != NULL, "DIV: out of memory");
  TF_LITE_ENSURE_OK(ctx, tff_binary_typed_prepare(ctx, node, "DIV", &d->op, &rows, &d->p));
  const TfLiteDivParams* params = (const TfLiteDivParams*)node->builtin_data;
  const TfLiteFusedActivation act = params ? params->activation : kTfLiteActNone;
  const TfLiteTensor* out = tff_output(ctx, node, 0);
  switch (out->type) {
    case kTfLiteFloat32: tff_binary_f32_bounds(ctx, act, &d->p.c); break;
    case kTfLiteInt32: tff_act_range_i32(act, &d->p.c.i.lo, &d->p.c.i.hi); break;
    default:
      return prepare_q(ctx, act, tff_input(ctx, node, 0), tff_input(ctx, node, 1), out, &d->p.q);
  }
  return kTfLiteOk;
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* b = tff_input(ctx, node, 1);
  TF_LITE_ENSURE_MSG(ctx, b->type == kTfLiteFloat32 || !tff_any_equal(b, tff_zero_point(b)),
                     "DIV: a divisor equals its zero point %d (division by zero)",
                     (int)tff_zero_point(b));
  return tff_binary_node_invoke(ctx, node);
}

TFF_ZEROED_INIT(init, OpData)

const TfLiteRegistration* tff_register_DIV(void) {
  static const TfLiteRegistration r = {.init = init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinDiv,
                                       .version = 1};
  return &r;
}
