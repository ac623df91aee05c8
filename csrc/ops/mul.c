/* MUL: float32, int32 and int8, every fused activation, broadcasting up to
 * 6 dims (the walk is binary_common.h's). int8 numerics
 * (docs/numerics.md §1.7), both from the float32 real scale
 * r = f32(f32(s_a·s_b)/s_out) that TFLite and XNNPACK compute alike:
 *  - reference: o = MBQM((a−za)(b−zb), QM(r)) + zo, double rounding;
 *  - default, when AUTO delegates to XNNPACK (r in [2^-16, 2^8), activation
 *    at most RELU6): o = rint(clamp(f32((a−za)(b−zb))·r)) + zo (fp32). */
#include <string.h>

#include "binary_common.h"
#include "ops.h"

typedef struct MulQ8 {
  int32_t za, zb, zo;
  int32_t lo, hi, m; /* reference: bounds and multiplier */
  int e;
  float scale, flo, fhi; /* XNNPACK: r and bounds less zo */
} MulQ8;

typedef struct OpData {
  tff_binary op;
  union {
    MulQ8 q8;
    tff_clamp c;
  } p;
} OpData;

static inline int8_t mul_q8_ref(int8_t a, int8_t b, const MulQ8* p) {
  const int32_t o = tff_mbqm((a - p->za) * (b - p->zb), p->m, p->e) + p->zo;
  return (int8_t)(o < p->lo ? p->lo : (o > p->hi ? p->hi : o));
}

/* Adding 1.5·2^23 rounds the clamped value to an integer ties-to-even in the
 * low mantissa bits (XNNPACK's magic bias); no FMA can form: the product
 * goes through the clamp first. */
static inline int8_t mul_q8_xnn(int8_t a, int8_t b, const MulQ8* p) {
  float v = (float)((a - p->za) * (b - p->zb)) * p->scale;
  v = v < p->flo ? p->flo : v;
  v = v > p->fhi ? p->fhi : v;
  const float biased = v + 12582912.0f;
  int32_t bits;
  memcpy(&bits, &biased, sizeof bits);
  return (int8_t)(bits - 0x4B400000 + p->zo);
}

static inline float mul_f32(float a, float b, const tff_clamp* c) {
  const float v = a * b;
  return v < c->f.lo ? c->f.lo : (v > c->f.hi ? c->f.hi : v);
}

static inline int32_t mul_i32(int32_t a, int32_t b, const tff_clamp* c) {
  const int32_t v = (int32_t)((uint32_t)a * (uint32_t)b);
  return v < c->i.lo ? c->i.lo : (v > c->i.hi ? c->i.hi : v);
}

TFF_BINARY_ROW(mul_q8_ref_row, int8_t, MulQ8, mul_q8_ref)
TFF_BINARY_ROW(mul_q8_xnn_row, int8_t, MulQ8, mul_q8_xnn)
TFF_BINARY_ROW(mul_f32_row, float, tff_clamp, mul_f32)
TFF_BINARY_ROW(mul_i32_row, int32_t, tff_clamp, mul_i32)

static TfLiteStatus prepare_q8(TfLiteContext* ctx, TfLiteFusedActivation act,
                               const TfLiteTensor* a, const TfLiteTensor* b,
                               const TfLiteTensor* out, OpData* d) {
  MulQ8* p = &d->p.q8;
  TF_LITE_ENSURE_OK(ctx, tff_check_q8(ctx, "MUL", "input 1", a));
  TF_LITE_ENSURE_OK(ctx, tff_check_q8(ctx, "MUL", "input 2", b));
  TF_LITE_ENSURE_OK(ctx, tff_check_q8(ctx, "MUL", "output", out));
  p->za = tff_zero_point(a);
  p->zb = tff_zero_point(b);
  p->zo = tff_zero_point(out);
  const float r = tff_scale(a) * tff_scale(b) / tff_scale(out);
  if (!tff_numerics_ref(ctx) && r >= 0x1p-16f && r < 0x1p8f && act <= kTfLiteActRelu6) {
    p->scale = r;
    tff_act_range_quant_xnn(act, tff_scale(out), p->zo, INT8_MIN, INT8_MAX, &p->lo, &p->hi);
    p->flo = (float)(p->lo - p->zo);
    p->fhi = (float)(p->hi - p->zo);
    d->op.row = mul_q8_xnn_row;
    return kTfLiteOk;
  }
  tff_quantize_multiplier((double)r, &p->m, &p->e);
  TF_LITE_ENSURE_MSG(ctx, isfinite(r) && p->e <= 30,
                     "MUL: real scale %g (input scales %g, %g; output %g) is too large",
                     (double)r, (double)tff_scale(a), (double)tff_scale(b),
                     (double)tff_scale(out));
  TF_LITE_ENSURE_OK(ctx, tff_binary_act_q8(ctx, "MUL", act, out, &p->lo, &p->hi));
  d->op.row = mul_q8_ref_row;
  return kTfLiteOk;
}

static void* init(TfLiteContext* ctx, const char* buf, size_t len) {
  (void)ctx, (void)buf, (void)len;
  return calloc(1, sizeof(OpData));
}

static void release(TfLiteContext* ctx, void* data) {
  (void)ctx;
  free(data);
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  TF_LITE_ENSURE_MSG(ctx, d != NULL, "MUL: out of memory");
  TfLiteFusedActivation act;
  TF_LITE_ENSURE_OK(ctx, tff_binary_prepare_common(ctx, node, "MUL", &d->op, &d->p.c,
                                                   mul_f32_row, mul_i32_row, &act));
  if (d->op.row == NULL) {
    d->op.params = &d->p.q8;
    TF_LITE_ENSURE_OK(ctx, prepare_q8(ctx, act, tff_input(ctx, node, 0), tff_input(ctx, node, 1),
                                      tff_output(ctx, node, 0), d));
  }
  return tff_binary_fold(ctx, node, &d->op);
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  return tff_binary_invoke(ctx, node, &((const OpData*)node->user_data)->op);
}

const TfLiteRegistration* tff_register_MUL(void) {
  static const TfLiteRegistration r = {.init = init,
                                       .free = release,
                                       .prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinMul,
                                       .version = 1};
  return &r;
}
