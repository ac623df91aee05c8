/* PRELU: x >= 0 ? x : x·alpha, alpha broadcast into x's shape (the output
 * has x's shape; binary_common.h's walk, up to 6 dims).
 * - float32: as written; XNNPACK (AUTO, constant alpha) computes the same
 *   single product.
 * - int8, uint8 (alpha of the same type) and int16 (int8 alpha), TFLite's
 *   reference formula in both modes, with d = x − zx, da = alpha − za:
 *     o = clamp(zo + (d >= 0 ? MBQM(d, QM(s_x/s_o)) : MBQM(d·da, QM(s_x·s_a/s_o))))
 *   both real multipliers computed in float32 as TFLite. */
#include "binary_common.h"
#include "ops.h"

typedef struct PreluQ {
  int32_t zx, za, zo, lo, hi, m1, m2;
  int e1, e2;
} PreluQ;

typedef struct OpData {
  tff_binary op;
  PreluQ q;
} OpData;

static inline float prelu_f32(float x, float a, const void* p) {
  (void)p;
  return x >= 0.0f ? x : x * a;
}

/* The zero point is added wrapping, as TFLite's int32 sum does on x86. */
static inline int32_t prelu_q(int32_t d, int32_t alpha, const PreluQ* p) {
  const int32_t u = d >= 0 ? tff_mbqm(d, p->m1, p->e1)
                           : tff_mbqm(d * (alpha - p->za), p->m2, p->e2);
  const int32_t v = (int32_t)((uint32_t)p->zo + (uint32_t)u);
  return v < p->lo ? p->lo : (v > p->hi ? p->hi : v);
}

#define PRELU_Q(T, TA)                                            \
  static inline T prelu_##T(T x, TA alpha, const PreluQ* p) {     \
    return (T)prelu_q((int32_t)x - p->zx, alpha, p);              \
  }
PRELU_Q(int8_t, int8_t)
PRELU_Q(uint8_t, uint8_t)
PRELU_Q(int16_t, int8_t)

TFF_BINARY_ROW(prelu_f32_row, float, void, prelu_f32)
TFF_BINARY_ROW(prelu_i8_row, int8_t, PreluQ, prelu_int8_t)
TFF_BINARY_ROW(prelu_u8_row, uint8_t, PreluQ, prelu_uint8_t)
TFF_ROW_OF2(prelu_i16_row, int16_t, int8_t, int16_t, void*, PreluQ, prelu_int16_t)

static TfLiteStatus prepare_q(TfLiteContext* ctx, const TfLiteTensor* x,
                              const TfLiteTensor* alpha, const TfLiteTensor* out, PreluQ* p) {
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, "PRELU", "input", x));
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, "PRELU", "alpha", alpha));
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, "PRELU", "output", out));
  const float r1 = tff_scale(x) / tff_scale(out);
  const float r2 = tff_scale(x) * tff_scale(alpha) / tff_scale(out);
  TF_LITE_ENSURE_MSG(ctx, isfinite(r1) && isfinite(r2) && r2 > 0.0f,
                     "PRELU: scales %g, %g and output %g give no finite multipliers",
                     (double)tff_scale(x), (double)tff_scale(alpha), (double)tff_scale(out));
  tff_quantize_multiplier((double)r1, &p->m1, &p->e1);
  tff_quantize_multiplier((double)r2, &p->m2, &p->e2);
  p->zx = tff_zero_point(x);
  p->za = tff_zero_point(alpha);
  p->zo = tff_zero_point(out);
  return tff_act_range_quant(ctx, kTfLiteActNone, out, &p->lo, &p->hi);
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  TF_LITE_ENSURE_MSG(ctx, d != NULL, "PRELU: out of memory");
  TF_LITE_ENSURE_MSG(ctx, tff_num_inputs(node) == 2 && tff_num_outputs(node) == 1,
                     "PRELU: expected 2 inputs and 1 output, got %d and %d",
                     tff_num_inputs(node), tff_num_outputs(node));
  const TfLiteTensor* x = tff_input(ctx, node, 0);
  const TfLiteTensor* alpha = tff_input(ctx, node, 1);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE_MSG(ctx, x && alpha && out, "PRELU: an input or the output is missing");
  const TfLiteType alpha_type = x->type == kTfLiteInt16 ? kTfLiteInt8 : x->type;
  TF_LITE_ENSURE_MSG(ctx, alpha->type == alpha_type && out->type == x->type,
                     "PRELU: input %s needs alpha %s and output %s, got %s and %s",
                     TfLiteTypeGetName(x->type), TfLiteTypeGetName(alpha_type),
                     TfLiteTypeGetName(x->type), TfLiteTypeGetName(alpha->type),
                     TfLiteTypeGetName(out->type));
  TF_LITE_ENSURE_OK(ctx, tff_binary_shape(ctx, "PRELU", x, alpha, out, &d->op.bc));
  TF_LITE_ENSURE_MSG(ctx, TfLiteIntArrayEqual(out->dims, x->dims),
                     "PRELU: alpha's shape must broadcast into the input's");
  d->op.elsize = tff_type_size(x->type);
  d->op.elsize_b = tff_type_size(alpha->type);
  d->op.params = &d->q;
  switch (x->type) {
    case kTfLiteFloat32: d->op.row = prelu_f32_row; return kTfLiteOk;
    case kTfLiteInt8: d->op.row = prelu_i8_row; break;
    case kTfLiteUInt8: d->op.row = prelu_u8_row; break;
    case kTfLiteInt16: d->op.row = prelu_i16_row; break;
    default:
      TF_LITE_KERNEL_LOG(ctx, "PRELU: type %s is not supported (float32, int8, uint8, int16)",
                         TfLiteTypeGetName(x->type));
      return kTfLiteError;
  }
  return prepare_q(ctx, x, alpha, out, &d->q);
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  return tff_binary_invoke(ctx, node, &((const OpData*)node->user_data)->op);
}

TFF_ZEROED_INIT(init, OpData)

const TfLiteRegistration* tff_register_PRELU(void) {
  static const TfLiteRegistration r = {.init = init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinPrelu,
                                       .version = 1};
  return &r;
}
