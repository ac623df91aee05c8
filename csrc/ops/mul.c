/* MUL: float32, int32, int8 and int16, every fused activation, broadcasting up to
 * 6 dims (the walk is binary_common.h's). int8 numerics
 * (docs/numerics.md §1.7), both from the float32 real scale
 * r = f32(f32(s_a·s_b)/s_out) that TFLite and XNNPACK compute alike:
 *  - reference: o = MBQM((a−za)(b−zb), QM(r)) + zo, double rounding;
 *  - default, when AUTO delegates to XNNPACK (r in [2^-16, 2^8), activation
 *    at most RELU6): o = rint(clamp(f32((a−za)(b−zb))·r)) + zo (fp32).
 * int16 (16x8 mode, zero points 0; XNNPACK takes no int16 MUL, so both modes
 * run TFLite's generic kernel, measured): o = clamp(MBQM(a·b, QM(r))). */
#include "binary_common.h"
#include "ops.h"
#include "ukernels/qs8-vmul/qs8-vmul.h"

typedef struct MulQ8 {
  int32_t za, zb, zo;
  int32_t lo, hi, m; /* reference: bounds and multiplier */
  int e;
  float scale, flo, fhi; /* XNNPACK: r and bounds less zo */
} MulQ8;

/* The qs8-vmul row; `swapped` exchanges the zero points for a repeated
 * first operand (the product of the centred inputs commutes). */
typedef struct VmulQ8 {
  tff_qs8_mul_minmax_fp32_params p, swapped;
  tff_qs8_vmul_fn vv, vc, cv;
} VmulQ8;

typedef struct OpData {
  tff_binary op;
  union {
    MulQ8 q8;
    tff_clamp c;
  } p;
  tff_vbin_f32 f; /* float32 */
  VmulQ8 xq;      /* int8, XNNPACK formula */
} OpData;

static inline int8_t mul_q8_ref(int8_t a, int8_t b, const MulQ8* p) {
  const int32_t o = tff_mbqm((a - p->za) * (b - p->zb), p->m, p->e) + p->zo;
  return (int8_t)(o < p->lo ? p->lo : (o > p->hi ? p->hi : o));
}

TFF_UKERNEL_ROW(vmul_q8_row, VmulQ8, int8_t)

static inline int32_t mul_i32(int32_t a, int32_t b, const tff_clamp* c) {
  const int32_t v = (int32_t)((uint32_t)a * (uint32_t)b);
  return v < c->i.lo ? c->i.lo : (v > c->i.hi ? c->i.hi : v);
}

static inline int16_t mul_q16(int16_t a, int16_t b, const MulQ8* p) {
  const int32_t o = tff_mbqm((int32_t)a * b, p->m, p->e);
  return (int16_t)(o < p->lo ? p->lo : (o > p->hi ? p->hi : o));
}

TFF_BINARY_ROW(mul_q8_ref_row, int8_t, MulQ8, mul_q8_ref)
TFF_BINARY_ROW(mul_q16_row, int16_t, MulQ8, mul_q16)
TFF_BINARY_ROW(mul_i32_row, int32_t, tff_clamp, mul_i32)

static TfLiteStatus prepare_q8(TfLiteContext* ctx, TfLiteFusedActivation act,
                               const TfLiteTensor* a, const TfLiteTensor* b,
                               const TfLiteTensor* out, OpData* d) {
  MulQ8* p = &d->p.q8;
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, "MUL", "input 1", a));
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, "MUL", "input 2", b));
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, "MUL", "output", out));
  p->za = tff_zero_point(a);
  p->zb = tff_zero_point(b);
  p->zo = tff_zero_point(out);
  const float r = tff_scale(a) * tff_scale(b) / tff_scale(out);
  if (!tff_numerics_ref(ctx) && r >= 0x1p-16f && r < 0x1p8f && act <= kTfLiteActRelu6) {
    p->scale = r;
    tff_act_range_quant_xnn(act, tff_scale(out), p->zo, INT8_MIN, INT8_MAX, &p->lo, &p->hi);
    p->flo = (float)(p->lo - p->zo);
    p->fhi = (float)(p->hi - p->zo);
    const tff_qs8_vmul_config* cfg = tff_qs8_vmul_select(tff_cpu_effective());
    VmulQ8* k = &d->xq;
    k->p = (tff_qs8_mul_minmax_fp32_params){.za = p->za, .zb = p->zb, .zo = p->zo,
                                            .scale = p->scale, .fmin = p->flo, .fmax = p->fhi};
    k->swapped = k->p;
    k->swapped.za = p->zb;
    k->swapped.zb = p->za;
    k->vv = cfg->vmul;
    k->vc = k->cv = cfg->vmulc;
    d->op.row = vmul_q8_row;
    d->op.params = k;
    d->op.kernel = cfg->vmul_name;
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

static TfLiteStatus prepare_q16(TfLiteContext* ctx, TfLiteFusedActivation act,
                                const TfLiteTensor* a, const TfLiteTensor* b,
                                const TfLiteTensor* out, OpData* d) {
  MulQ8* p = &d->p.q8;
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, "MUL", "input 1", a));
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, "MUL", "input 2", b));
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, "MUL", "output", out));
  TF_LITE_ENSURE_MSG(ctx, tff_zero_point(a) == 0 && tff_zero_point(b) == 0 &&
                              tff_zero_point(out) == 0,
                     "MUL: int16 zero points must be 0, got %d, %d and output %d",
                     (int)tff_zero_point(a), (int)tff_zero_point(b), (int)tff_zero_point(out));
  const float r = tff_scale(a) * tff_scale(b) / tff_scale(out);
  tff_quantize_multiplier((double)r, &p->m, &p->e);
  TF_LITE_ENSURE_MSG(ctx, isfinite(r) && p->e <= 30,
                     "MUL: real scale %g (input scales %g, %g; output %g) is too large",
                     (double)r, (double)tff_scale(a), (double)tff_scale(b),
                     (double)tff_scale(out));
  TF_LITE_ENSURE_OK(ctx, tff_act_range_quant(ctx, act, out, &p->lo, &p->hi));
  d->op.row = mul_q16_row;
  return kTfLiteOk;
}

TFF_ZEROED_INIT(init, OpData)

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  TF_LITE_ENSURE_MSG(ctx, d != NULL, "MUL: out of memory");
  TfLiteFusedActivation act;
  d->op.allow_int16 = 1;
  TF_LITE_ENSURE_OK(ctx, tff_binary_prepare_common(ctx, node, "MUL", &d->op, &d->p.c, &d->f,
                                                   TFF_VMUL, mul_i32_row, &act));
  if (d->op.row == NULL && tff_output(ctx, node, 0)->type == kTfLiteInt16) {
    d->op.params = &d->p.q8;
    TF_LITE_ENSURE_OK(ctx, prepare_q16(ctx, act, tff_input(ctx, node, 0),
                                       tff_input(ctx, node, 1), tff_output(ctx, node, 0), d));
  } else if (d->op.row == NULL) {
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
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = invoke,
                                       .profiling_string = tff_binary_kernel_name,
                                       .builtin_code = kTfLiteBuiltinMul,
                                       .version = 1};
  return &r;
}
