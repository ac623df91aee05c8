/* SVDF: a fully connected layer factored into a feature matrix and a time
 * filter (TFLite's reference svdf.h, the one kernel of both modes). Inputs:
 * input [batch, input], weights_feature [filters, input], weights_time
 * [filters, memory], optional bias [units], state [batch, filters·memory]
 * (a variable tensor: each filter's last `memory` activations); filters =
 * units·rank. Per invoke the state shifts left by one, its last column
 * becomes weights_feature·x, the output is Σ over each unit's `rank`
 * filters of weights_time·state, plus bias, then the activation.
 * Types: float; hybrid (float input, int8 weights: the input row quantized
 * as TFLite's tensor_utils, weights_time dequantized, state float); int8
 * (int8 input/output, int16 weights_time and state, int32 bias, RELU only,
 * which the kernel does not apply: the output is just clamped to int8). */
#include "conv_common.h"
#include "lstm_common.h"
#include "ops.h"

#define OP "SVDF"

enum { IN, W_FEATURE, W_TIME, BIAS, STATE };
typedef enum { SVDF_FLOAT, SVDF_HYBRID, SVDF_INT8 } svdf_kind;

typedef struct {
  svdf_kind kind;
  int batch, n_input, n_filter, n_unit, n_memory, rank;
  TfLiteFusedActivation act;
  float* wtime;      /* hybrid: dequantized weights_time */
  int32_t* row_sums; /* hybrid: Σ weights_feature per filter */
  float wf_scale;
  tff_hybrid_quant hq;
  int32_t m1, m2; /* int8: input·feature → state, state·time → output */
  int s1, s2;
  int32_t in_zp, out_zp;
} OpData;

static void release(OpData* d) {
  free(d->wtime);
  free(d->row_sums);
  memset(d, 0, sizeof(*d));
}

TFF_ZEROED_INIT(init, OpData)

static void free_data(TfLiteContext* ctx, void* data) {
  (void)ctx;
  if (data) release((OpData*)data);
  free(data);
}

/* Input i has type `type` and shape [d0] or [d0, d1] (d1 < 0: any). */
static TfLiteStatus check(TfLiteContext* ctx, const TfLiteTensor* t, int i, TfLiteType type,
                          int rank, int d0, int d1) {
  TF_LITE_ENSURE_MSG(ctx, t->type == type, OP ": input %d has type %s, expected %s", i,
                     TfLiteTypeGetName(t->type), TfLiteTypeGetName(type));
  TF_LITE_ENSURE_MSG(ctx, tff_rank(t) == rank, OP ": input %d has rank %d, expected %d", i,
                     tff_rank(t), rank);
  TF_LITE_ENSURE_MSG(ctx, t->sparsity == NULL, OP ": input %d is sparse, which is not supported",
                     i);
  TF_LITE_ENSURE_MSG(ctx, tff_dim(t, 0) == d0 && (rank == 1 || d1 < 0 || tff_dim(t, 1) == d1),
                     OP ": input %d has dims [%d%s], expected [%d, %d]", i, tff_dim(t, 0),
                     rank == 2 ? ", ..." : "", d0, d1);
  return kTfLiteOk;
}

/* Per-tensor scale of an int8 operand (TFLite reads scale[0]). */
static float qscale(const TfLiteTensor* t) {
  const TfLiteAffineQuantization* q = tff_affine(t);
  return q && q->scale && q->scale->size > 0 ? q->scale->data[0] : 0.0f;
}

static TfLiteStatus prepare_int8(TfLiteContext* ctx, OpData* d, const TfLiteTensor* in,
                                 const TfLiteTensor* wf, const TfLiteTensor* wt,
                                 const TfLiteTensor* state, const TfLiteTensor* out) {
  TF_LITE_ENSURE_MSG(ctx, d->act == kTfLiteActRelu,
                     OP ": int8 supports only the RELU activation, got %d", (int)d->act);
  const float s_in = qscale(in), s_wf = qscale(wf), s_st = qscale(state), s_wt = qscale(wt),
              s_out = qscale(out);
  TF_LITE_ENSURE_MSG(ctx, s_in > 0 && s_wf > 0 && s_st > 0 && s_wt > 0 && s_out > 0,
                     OP ": int8 needs positive scales on input, weights, state and output");
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, OP, "input", in));
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, OP, "output", out));
  /* TFLite computes both in float32, then converts to double. */
  const float e1 = s_in * s_wf / s_st, e2 = s_st * s_wt / s_out;
  tff_quantize_multiplier((double)e1, &d->m1, &d->s1);
  tff_quantize_multiplier((double)e2, &d->m2, &d->s2);
  d->in_zp = in->params.zero_point;
  d->out_zp = out->params.zero_point;
  return kTfLiteOk;
}

static TfLiteStatus prepare_hybrid(TfLiteContext* ctx, TfLiteNode* node, OpData* d,
                                   const TfLiteTensor* wf, const TfLiteTensor* wt) {
  const TfLiteSVDFParams* p = (const TfLiteSVDFParams*)node->builtin_data;
  TF_LITE_ENSURE_MSG(ctx, tff_is_constant(wf) && wf->data.data && tff_is_constant(wt) &&
                     wt->data.data, OP ": hybrid weights must be constant tensors");
  d->hq = p->asymmetric_quantize_inputs ? TFF_HYB_TFL_ASYM : TFF_HYB_TFL_SYM;
  d->wf_scale = wf->params.scale;
  const size_t nt = (size_t)d->n_filter * d->n_memory;
  d->wtime = malloc(nt * sizeof(float));
  d->row_sums = malloc((size_t)d->n_filter * sizeof(int32_t));
  TF_LITE_ENSURE_MSG(ctx, d->wtime && d->row_sums, OP ": out of memory");
  for (size_t i = 0; i < nt; ++i) d->wtime[i] = wt->data.int8[i] * wt->params.scale;
  tff_row_sums_s8(d->n_filter, d->n_input, wf->data.int8, d->row_sums);
  return kTfLiteOk;
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  const TfLiteSVDFParams* p = (const TfLiteSVDFParams*)node->builtin_data;
  release(d);
  TF_LITE_ENSURE_MSG(ctx, p != NULL, OP ": missing options");
  TF_LITE_ENSURE_MSG(ctx, tff_num_inputs(node) == 5, OP ": expected 5 inputs, got %d",
                     tff_num_inputs(node));
  TF_LITE_ENSURE_MSG(ctx, tff_num_outputs(node) == 1, OP ": expected 1 output, got %d",
                     tff_num_outputs(node));
  const TfLiteTensor* in = tff_input(ctx, node, IN);
  const TfLiteTensor* wf = tff_input(ctx, node, W_FEATURE);
  const TfLiteTensor* wt = tff_input(ctx, node, W_TIME);
  const TfLiteTensor* bias = tff_input(ctx, node, BIAS);
  const TfLiteTensor* state = tff_input(ctx, node, STATE);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE_MSG(ctx, in && wf && wt && state && out,
                     OP ": input, weights_feature, weights_time, state and output are required");
  TF_LITE_ENSURE_MSG(ctx, tff_rank(in) == 2, OP ": input must be 2-D, got rank %d", tff_rank(in));
  TF_LITE_ENSURE_MSG(ctx, tff_rank(wf) == 2 && tff_rank(wt) == 2,
                     OP ": weights_feature and weights_time must be 2-D");
  d->rank = p->rank;
  d->act = p->activation;
  d->batch = tff_dim(in, 0);
  d->n_input = tff_dim(in, 1);
  d->n_filter = tff_dim(wf, 0);
  d->n_memory = tff_dim(wt, 1);
  TF_LITE_ENSURE_MSG(ctx, d->rank > 0 && d->n_filter % d->rank == 0,
                     OP ": rank %d must be positive and divide the %d filters", d->rank,
                     d->n_filter);
  TF_LITE_ENSURE_MSG(ctx, d->n_filter > 0 && d->n_memory > 0,
                     OP ": empty weights ([%d, %d] filters x memory)", d->n_filter, d->n_memory);
  TF_LITE_ENSURE_MSG(ctx, (int)d->act >= 0 && (int)d->act <= 6,
                     OP ": fused activation %d is not supported", (int)d->act);
  d->n_unit = d->n_filter / d->rank;
  if (in->type == kTfLiteInt8)
    d->kind = SVDF_INT8;
  else
    d->kind = wf->type == kTfLiteInt8 ? SVDF_HYBRID : SVDF_FLOAT;
  TF_LITE_ENSURE_MSG(ctx, in->type == kTfLiteFloat32 || in->type == kTfLiteInt8,
                     OP ": input type %s is not supported", TfLiteTypeGetName(in->type));
  const int i8 = d->kind == SVDF_INT8;
  const TfLiteType act_t = i8 ? kTfLiteInt8 : kTfLiteFloat32;
  TF_LITE_ENSURE_OK(ctx, check(ctx, wf, W_FEATURE, d->kind == SVDF_FLOAT ? kTfLiteFloat32
                               : kTfLiteInt8, 2, d->n_filter, d->n_input));
  TF_LITE_ENSURE_OK(ctx, check(ctx, wt, W_TIME, i8 ? kTfLiteInt16 : wf->type, 2, d->n_filter,
                               -1));
  if (bias)
    TF_LITE_ENSURE_OK(ctx, check(ctx, bias, BIAS, i8 ? kTfLiteInt32 : kTfLiteFloat32, 1,
                                 d->n_unit, 0));
  TF_LITE_ENSURE_MSG(ctx, state->is_variable, OP ": the state (input 4) must be a variable tensor");
  TF_LITE_ENSURE_MSG(ctx, (size_t)d->n_memory * d->n_filter <= INT_MAX,
                     OP ": state too large");
  TF_LITE_ENSURE_OK(ctx, check(ctx, state, STATE, i8 ? kTfLiteInt16 : kTfLiteFloat32, 2,
                               d->batch, d->n_memory * d->n_filter));
  TF_LITE_ENSURE_MSG(ctx, out->type == act_t, OP ": output type %s, expected %s",
                     TfLiteTypeGetName(out->type), TfLiteTypeGetName(act_t));
  if (i8) TF_LITE_ENSURE_OK(ctx, prepare_int8(ctx, d, in, wf, wt, state, out));
  if (d->kind == SVDF_HYBRID) TF_LITE_ENSURE_OK(ctx, prepare_hybrid(ctx, node, d, wf, wt));
  const int shape[2] = {d->batch, d->n_unit};
  TF_LITE_ENSURE_OK(ctx, tff_resize_output(ctx, out, 2, shape));
  /* Last: AddTensors may move the tensor array. Slot 0: one value per
   * (batch, filter), then (int8) per (batch, unit); hybrid slot 1: the
   * quantized input rows. */
  const size_t cells = (size_t)d->batch * d->n_filter + (i8 ? (size_t)d->batch * d->n_unit : 0);
  TF_LITE_ENSURE_OK(ctx, tff_scratch_request(ctx, node, 0, cells * 4));
  if (d->kind != SVDF_HYBRID) return kTfLiteOk;
  return tff_scratch_request(ctx, node, 1, (size_t)d->batch * d->n_input);
}

/* out[o] = Σ_r in[o·rank + r]: the unit's filters. */
#define REDUCE(T, in, out, n, rank)                                      \
  for (int o_ = 0; o_ < (n); ++o_) {                                     \
    T s_ = 0;                                                            \
    for (int r_ = 0; r_ < (rank); ++r_) s_ += (in)[o_ * (rank) + r_];    \
    (out)[o_] = s_;                                                      \
  }

/* The float tail (float and hybrid): time filter, unit sums, bias, activation. */
static void time_float(const OpData* d, const float* wt, const float* state, const float* bias,
                       float* scratch, float* out) {
  const int nm = d->n_memory, nu = d->n_unit;
  for (int i = 0; i < d->batch * d->n_filter; ++i)
    scratch[i] = tff_lstm_dot(wt + (size_t)(i % d->n_filter) * nm, state + (size_t)i * nm, nm);
  REDUCE(float, scratch, out, d->batch * nu, d->rank)
  for (int b = 0; b < d->batch; ++b)
    for (int u = 0; u < nu; ++u) {
      float* v = &out[b * nu + u];
      if (bias) *v += bias[u];
      if (d->act != kTfLiteActNone) *v = tff_lstm_act(d->act, *v);
    }
}

static void eval_int8(const OpData* d, const int8_t* x, const int8_t* wf, const int16_t* wt,
                      const int32_t* bias, int16_t* state, int32_t* scratch, int8_t* out) {
  const int nm = d->n_memory, ni = d->n_input;
  for (int b = 0; b < d->batch; ++b)
    for (int f = 0; f < d->n_filter; ++f) {
      uint32_t acc = 0; /* wraps as TFLite's int32 sum would */
      for (int i = 0; i < ni; ++i)
        acc += (uint32_t)(wf[(size_t)f * ni + i] * (x[(size_t)b * ni + i] - d->in_zp));
      int32_t v = tff_mbqm((int32_t)acc, d->m1, d->s1);
      v = v < INT16_MIN ? INT16_MIN : (v > INT16_MAX ? INT16_MAX : v);
      state[((size_t)b * d->n_filter + f) * nm + nm - 1] = (int16_t)v;
    }
  for (int i = 0; i < d->batch * d->n_filter; ++i) {
    uint32_t acc = 0;
    const int16_t* w = wt + (size_t)(i % d->n_filter) * nm;
    for (int m = 0; m < nm; ++m) acc += (uint32_t)(w[m] * state[(size_t)i * nm + m]);
    scratch[i] = (int32_t)acc;
  }
  const int n = d->batch * d->n_unit;
  int32_t* sums = scratch + (size_t)d->batch * d->n_filter;
  REDUCE(uint32_t, (const uint32_t*)scratch, (uint32_t*)sums, n, d->rank)
  for (int i = 0; i < n; ++i) {
    const int32_t acc = bias ? (int32_t)((uint32_t)sums[i] + (uint32_t)bias[i % d->n_unit])
                             : sums[i];
    const int32_t v = tff_mbqm(acc, d->m2, d->s2) + d->out_zp;
    out[i] = (int8_t)(v < -128 ? -128 : (v > 127 ? 127 : v));
  }
}

static TfLiteStatus eval(TfLiteContext* ctx, TfLiteNode* node) {
  const OpData* d = (const OpData*)node->user_data;
  const TfLiteTensor* in = tff_input(ctx, node, IN);
  const TfLiteTensor* wf = tff_input(ctx, node, W_FEATURE);
  const TfLiteTensor* wt = tff_input(ctx, node, W_TIME);
  const TfLiteTensor* bias = tff_input(ctx, node, BIAS);
  TfLiteTensor* state = tff_input(ctx, node, STATE);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  const size_t cells = (size_t)d->batch * d->n_filter * d->n_memory;
  if (cells == 0) return kTfLiteOk;
  const size_t esz = d->kind == SVDF_INT8 ? sizeof(int16_t) : sizeof(float);
  /* Shift every filter's history left by one (the rows run on into each other;
   * each row's last entry is overwritten next). */
  memmove(state->data.raw, state->data.raw + esz, (cells - 1) * esz);
  void* scratch = tff_scratch(ctx, node, 0);
  if (d->kind == SVDF_INT8) {
    eval_int8(d, in->data.int8, wf->data.int8, wt->data.i16, bias ? bias->data.i32 : NULL,
              state->data.i16, (int32_t*)scratch, out->data.int8);
    return kTfLiteOk;
  }
  const int nm = d->n_memory, ni = d->n_input;
  float* st = state->data.f;
  int8_t* q = d->kind == SVDF_HYBRID ? (int8_t*)tff_scratch(ctx, node, 1) : NULL;
  for (int b = 0; b < d->batch; ++b) {
    const float* x = in->data.f + (size_t)b * ni;
    float dq = 1.0f;
    int32_t zp = 0;
    if (q) {
      tff_quantize_hybrid(d->hq, x, (size_t)ni, q, &dq, &zp);
      dq *= d->wf_scale;
    }
    for (int f = 0; f < d->n_filter; ++f) {
      float v;
      if (q) {
        int32_t acc = 0;
        for (int i = 0; i < ni; ++i) acc += (int32_t)wf->data.int8[(size_t)f * ni + i] * q[i];
        v = (float)(acc - zp * d->row_sums[f]) * dq;
      } else {
        v = tff_lstm_dot(wf->data.f + (size_t)f * ni, x, ni);
      }
      st[((size_t)b * d->n_filter + f) * nm + nm - 1] = v;
    }
  }
  time_float(d, q ? d->wtime : wt->data.f, st, bias ? bias->data.f : NULL, (float*)scratch,
             out->data.f);
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_SVDF(void) {
  static const TfLiteRegistration r = {.init = init,
                                       .free = free_data,
                                       .prepare = prepare,
                                       .invoke = eval,
                                       .builtin_code = kTfLiteBuiltinSvdf,
                                       .version = 1};
  return &r;
}
