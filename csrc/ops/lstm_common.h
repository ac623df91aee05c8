/* The full LSTM kernel shared by LSTM (one step, input [batch, input]) and
 * UNIDIRECTIONAL_SEQUENCE_LSTM (input [time, batch, input] or [batch, time,
 * input]): TFLite's lstm_eval, one kernel for both numerics modes. Inputs (TFLite's layout; 20 in the
 * old layout without layer norm, 24 with it):
 *   0 input, 1-4 input-to-{input,forget,cell,output} weights [cell, input],
 *   5-8 recurrent-to-{i,f,c,o} weights [cell, output], 9-11 peephole
 *   cell-to-{i,f,o} [cell], 12-15 gate biases [cell], 16 projection weights
 *   [output, cell], 17 projection bias [output], 18 output state and 19 cell
 *   state (variable tensors: they carry h and c across invokes), 20-23
 *   layer-norm coefficients of the {i,f,c,o} gates [cell].
 * Optional: the input gate (CIFG: 1, 5, 12, 20 absent, i = 1 − f), the
 * peephole, the projection (and its bias), layer norm.
 * Per step:  gate = act(W·x + R·h + p⊙c + b)  (layer norm: act(ln⊙norm(W·x +
 * R·h + p⊙c) + b)), sigmoid for i, f, o and the fused activation for the
 * cell gate g; c = clip(f⊙c + i⊙g); m = o⊙act(c) (o's peephole sees the new
 * c); h = clip(P·m + pb) with a projection, else m; the output row is h.
 * Kinds:
 *  - float32: float math; matrix products within 1e-5 of TFLite's (another
 *    summation order), sigmoid and tanh Eigen's (eigen_math.h).
 *  - hybrid (float input and states, int8 weights with one scale): x, h and
 *    m quantized per row as TFLite's tensor_utils (symmetric, or asymmetric
 *    with asymmetric_quantize_inputs), int8 dot products scaled back to
 *    float. Bit-exact: a 1-ulp float difference would flip a quantized code,
 *    so the float steps follow TFLite's order and Eigen's functions.
 *  - int8 (8x8_16, int16 cell state): lstm_integer.h.
 * Not supported (prepare fails): diagonal recurrent weights, the integer
 * 8x8_8 kernel (12 intermediates), integer peepholes with a projection to
 * another size, sparse weights. */
#ifndef TFLITE_FAST_OPS_LSTM_COMMON_H_
#define TFLITE_FAST_OPS_LSTM_COMMON_H_

#include <limits.h>

#include "conv_common.h"
#include "eigen_math.h"
#include "kernel_util.h"
#include "lstm_integer.h"

enum { TFF_G_I, TFF_G_F, TFF_G_C, TFF_G_O, TFF_NUM_GATES };
enum {
  TFF_LSTM_INPUT = 0,
  TFF_LSTM_W = 1,    /* + gate */
  TFF_LSTM_R = 5,    /* + gate */
  TFF_LSTM_BIAS = 12, /* + gate */
  TFF_LSTM_PROJ_W = 16,
  TFF_LSTM_PROJ_B = 17,
  TFF_LSTM_H = 18,
  TFF_LSTM_C = 19,
  TFF_LSTM_LN = 20, /* + gate */
};
/* Peephole input of each gate (the cell gate has none). */
static const int tff_lstm_peep[TFF_NUM_GATES] = {9, 10, -1, 11};
static const char* const tff_gate_names[TFF_NUM_GATES] = {"input", "forget", "cell", "output"};

typedef struct {
  int batch, time, n_input, n_cell, n_output;
  int time_major; /* input rows ordered [time, batch] (else [batch, time]) */
  size_t row_t, row_b; /* row (t, b) of input and output: t·row_t + b·row_b */
  int cifg, peephole, layer_norm, projection;
  TfLiteFusedActivation act;
  float cell_clip, proj_clip;
  int hybrid;                /* float activations, int8 weights */
  tff_hybrid_quant hq;       /* hybrid: TFLite's symmetric or asymmetric rows */
  int32_t* row_sums[TFF_LSTM_PROJ_W + 1]; /* asymmetric hybrid: Σw per row of input i */
  int integer;               /* int8 input and output state, int16 cell state */
  tff_lstm_int q;
} tff_lstm;

static inline void tff_lstm_release(tff_lstm* d) {
  for (int i = 0; i <= TFF_LSTM_PROJ_W; ++i) free(d->row_sums[i]);
  for (int g = 0; g < TFF_NUM_GATES; ++g) {
    free(d->q.in_bias[g]);
    free(d->q.rec_bias[g]);
  }
  free(d->q.proj_bias);
  memset(d, 0, sizeof(*d));
}

/* init / free of both ops. */
TFF_ZEROED_INIT(tff_lstm_init, tff_lstm)
static inline void tff_lstm_free(TfLiteContext* ctx, void* data) {
  (void)ctx;
  if (data) tff_lstm_release((tff_lstm*)data);
  free(data);
}

/* A present input must have rank `rank`, dims d0 (and d1) and type `type`;
 * int8/int16 weights are constant with one scale, int32 biases constant. */
static inline TfLiteStatus tff_lstm_check(TfLiteContext* ctx, const char* op,
                                          const TfLiteNode* node, int i, const char* what,
                                          TfLiteType type, int rank, int d0, int d1) {
  const TfLiteTensor* t = tff_input(ctx, node, i);
  const int ok = tff_rank(t) == rank && tff_dim(t, 0) == d0 && (rank == 1 || tff_dim(t, 1) == d1);
  if (rank == 1)
    TF_LITE_ENSURE_MSG(ctx, ok, "%s: input %d (%s) must have shape [%d]", op, i, what, d0);
  TF_LITE_ENSURE_MSG(ctx, ok, "%s: input %d (%s) must have shape [%d, %d]", op, i, what, d0, d1);
  TF_LITE_ENSURE_MSG(ctx, t->type == type, "%s: input %d (%s) has type %s, expected %s", op, i,
                     what, TfLiteTypeGetName(t->type), TfLiteTypeGetName(type));
  TF_LITE_ENSURE_MSG(ctx, t->sparsity == NULL, "%s: input %d (%s) is sparse, which is not "
                     "supported", op, i, what);
  /* Integer biases are folded into effective biases at prepare. */
  if (type == kTfLiteInt32)
    TF_LITE_ENSURE_MSG(ctx, tff_is_constant(t) && t->data.data, "%s: input %d (%s) must be a "
                       "constant tensor", op, i, what);
  if (type != kTfLiteInt8 && type != kTfLiteInt16) return kTfLiteOk;
  const TfLiteAffineQuantization* q = tff_affine(t);
  TF_LITE_ENSURE_MSG(ctx, tff_is_constant(t) && t->data.data, "%s: input %d (%s) must be a "
                     "constant tensor", op, i, what);
  TF_LITE_ENSURE_MSG(ctx, q && q->scale && q->scale->size == 1 && isfinite(t->params.scale),
                     "%s: input %d (%s) needs one finite scale (per-tensor quantization)", op, i,
                     what);
  return kTfLiteOk;
}

/* Presence of input i as 0/1. */
static inline int tff_lstm_has(TfLiteContext* ctx, const TfLiteNode* node, int i) {
  return tff_input(ctx, node, i) != NULL;
}

/* Row sums of weights input i times `zp`, plus `bias` (NULL: none), wrapping
 * as TFLite's int32 PrecomputeZeroPointTimesWeightWithBias. */
static inline int32_t* tff_lstm_fold(TfLiteContext* ctx, const TfLiteNode* node, int i,
                                     int32_t zp, const TfLiteTensor* bias) {
  const TfLiteTensor* w = tff_input(ctx, node, i);
  const int rows = tff_dim(w, 0), cols = tff_dim(w, 1);
  int32_t* out = malloc((size_t)rows * sizeof(int32_t));
  if (out == NULL) return NULL;
  for (int r = 0; r < rows; ++r) {
    uint32_t sum = 0;
    for (int k = 0; k < cols; ++k) sum += (uint32_t)(int32_t)w->data.int8[(size_t)r * cols + k];
    out[r] = (int32_t)((bias ? (uint32_t)bias->data.i32[r] : 0u) + sum * (uint32_t)zp);
  }
  return out;
}

/* Integer8x8_16: TFLite's PopulateQuantizedLstmParams8x8_16 (effective
 * scales in float32, as it computes them) and the zero points folded into
 * effective biases. */
static inline TfLiteStatus tff_lstm_prepare_int(TfLiteContext* ctx, TfLiteNode* node,
                                                const char* op, tff_lstm* d) {
  tff_lstm_int* q = &d->q;
  TF_LITE_ENSURE_MSG(ctx, !d->peephole || d->n_output == d->n_cell, "%s: integer peepholes with "
                     "output size %d != cell size %d are not supported", op, d->n_output,
                     d->n_cell);
  const TfLiteIntArray* im = node->intermediates;
  TF_LITE_ENSURE_MSG(ctx, im && im->size == 5 && im->data[4] >= 0, "%s: integer LSTM needs 5 "
                     "intermediate tensors, got %d (the 12-intermediate 8x8_8 variant is not "
                     "supported)", op, im ? im->size : 0);
  const TfLiteTensor* in = tff_input(ctx, node, TFF_LSTM_INPUT);
  const TfLiteTensor* h = tff_input(ctx, node, TFF_LSTM_H);
  const TfLiteTensor* c = tff_input(ctx, node, TFF_LSTM_C);
  const TfLiteTensor* out = tff_output(ctx, node, 0);
  const TfLiteAffineQuantization* hq = tff_affine(&ctx->tensors[im->data[4]]);
  TF_LITE_ENSURE_MSG(ctx, hq && hq->scale && hq->scale->size >= 1 && hq->zero_point &&
                     hq->zero_point->size >= 1, "%s: intermediate 4 (hidden) is not quantized",
                     op);
  const float s_x = in->params.scale, s_h = h->params.scale, s_hid = hq->scale->data[0];
  TF_LITE_ENSURE_MSG(ctx, s_x > 0 && s_h > 0 && s_hid > 0 && c->params.scale > 0 &&
                     out->params.scale > 0, "%s: input, state, hidden and output scales must "
                     "be positive", op);
  /* TFLite's CheckedLog2: the cell scale is 2^k, k <= -9 (and >= -15: tanh of
   * the cell state then has 15 + k >= 0 integer bits). */
  const float l2 = logf(c->params.scale) * (1.0f / logf(2.0f));
  q->cell_shift = (int)roundf(l2);
  TF_LITE_ENSURE_MSG(ctx, fabsf(l2 - roundf(l2)) < 1e-3f && q->cell_shift <= -9 &&
                     q->cell_shift >= -15, "%s: cell state scale %g must be 2^k with -15 <= k "
                     "<= -9", op, c->params.scale);
  const int32_t zx = in->params.zero_point, zh = h->params.zero_point;
  for (int g = 0; g < TFF_NUM_GATES; ++g) {
    if (g == TFF_G_I && d->cifg) continue;
    /* The gate's scale: intermediate g with layer norm, else Q3.12. */
    float inter = 1.0f / 4096.0f;
    if (d->layer_norm) {
      const TfLiteAffineQuantization* iq =
          im->data[g] >= 0 ? tff_affine(&ctx->tensors[im->data[g]]) : NULL;
      TF_LITE_ENSURE_MSG(ctx, iq && iq->scale && iq->scale->size >= 1 && iq->scale->data[0] > 0,
                         "%s: intermediate %d needs a positive scale with layer norm", op, g);
      inter = iq->scale->data[0];
      const float sl = tff_input(ctx, node, TFF_LSTM_LN + g)->params.scale;
      q->ln[g] = tff_qmul_of((double)sl);
      const float guard = 10000 * sl;
      q->variance_guard[g] = guard > 1.0f ? (int32_t)guard : 1;
    }
    const float sw = tff_input(ctx, node, TFF_LSTM_W + g)->params.scale;
    const float sr = tff_input(ctx, node, TFF_LSTM_R + g)->params.scale;
    q->in[g] = tff_qmul_of((double)(float)(sw * s_x / inter));
    q->rec[g] = tff_qmul_of((double)(float)(sr * s_h / inter));
    if (d->peephole && tff_lstm_peep[g] >= 0) {
      const float sp = tff_input(ctx, node, tff_lstm_peep[g])->params.scale;
      q->peep[g] = tff_qmul_of((double)(float)(pow(2.0, q->cell_shift) * sp / inter));
    }
    /* With layer norm the gate bias is added after it. */
    q->in_bias[g] = tff_lstm_fold(ctx, node, TFF_LSTM_W + g, -zx,
                                  d->layer_norm ? NULL : tff_input(ctx, node, TFF_LSTM_BIAS + g));
    q->rec_bias[g] = tff_lstm_fold(ctx, node, TFF_LSTM_R + g, -zh, NULL);
    TF_LITE_ENSURE_MSG(ctx, q->in_bias[g] && q->rec_bias[g], "%s: out of memory", op);
  }
  q->hidden = tff_qmul_of((double)(float)(pow(2.0, -15) / s_hid * pow(2.0, -15)));
  q->hidden_zp = hq->zero_point->data[0];
  q->h_zp = zh;
  if (d->projection) {
    const float sp = tff_input(ctx, node, TFF_LSTM_PROJ_W)->params.scale;
    q->proj = tff_qmul_of((double)(float)(sp * s_hid / s_h));
    q->proj_bias = tff_lstm_fold(ctx, node, TFF_LSTM_PROJ_W, q->hidden_zp,
                                 tff_input(ctx, node, TFF_LSTM_PROJ_B));
    TF_LITE_ENSURE_MSG(ctx, q->proj_bias, "%s: out of memory", op);
  }
  const float cc = d->cell_clip / c->params.scale, pc = d->proj_clip / out->params.scale;
  q->cell_clip = d->cell_clip > 0 ? (int16_t)(cc < -32768.0f ? -32768.0f
                                              : (cc > 32767.0f ? 32767.0f : cc)) : 0;
  q->proj_clip = d->proj_clip > 0 ? (int8_t)(pc < -128.0f ? -128.0f : (pc > 127.0f ? 127.0f : pc))
                                  : 0;
  return kTfLiteOk;
}

/* Checks the node (d->batch, time, n_input, time_major, act, clips and hq
 * set by the op) and sets n_cell, n_output and the variant flags; hybrid
 * with asymmetric inputs, the row sums. */
static inline TfLiteStatus tff_lstm_prepare(TfLiteContext* ctx, TfLiteNode* node,
                                            const char* op, tff_lstm* d) {
  const TfLiteTensor* in = tff_input(ctx, node, TFF_LSTM_INPUT);
  TF_LITE_ENSURE_MSG(ctx, in->type == kTfLiteFloat32 || in->type == kTfLiteInt8,
                     "%s: input type %s is not supported (float32, int8)", op,
                     TfLiteTypeGetName(in->type));
  d->integer = in->type == kTfLiteInt8;
  TF_LITE_ENSURE_MSG(ctx, d->cell_clip >= 0.0f && d->proj_clip >= 0.0f,
                     "%s: cell_clip %g and proj_clip %g must be >= 0", op, d->cell_clip,
                     d->proj_clip);
  TF_LITE_ENSURE_MSG(ctx, d->act != kTfLiteActNone && (int)d->act >= 1 && (int)d->act <= 6,
                     "%s: fused activation %d is not supported (RELU, RELU_N1_TO_1, RELU6, TANH, "
                     "SIGN_BIT, SIGMOID are)", op, (int)d->act);
  static const int required[] = {2, 3, 4, 6, 7, 8, 13, 14, 15};
  for (size_t k = 0; k < sizeof(required) / sizeof(required[0]); ++k)
    TF_LITE_ENSURE_MSG(ctx, tff_lstm_has(ctx, node, required[k]), "%s: required input %d is "
                       "missing", op, required[k]);
  const TfLiteTensor* wo = tff_input(ctx, node, TFF_LSTM_W + TFF_G_O);
  const TfLiteTensor* ro = tff_input(ctx, node, TFF_LSTM_R + TFF_G_O);
  TF_LITE_ENSURE_MSG(ctx, tff_rank(wo) == 2 && tff_rank(ro) == 2, "%s: the output gate weights "
                     "must be 2-D (diagonal recurrent weights are not supported)", op);
  d->n_cell = tff_dim(wo, 0);
  d->n_output = tff_dim(ro, 1);
  d->row_t = d->time_major ? (size_t)d->batch : 1;
  d->row_b = d->time_major ? 1 : (size_t)d->time;
  d->hybrid = !d->integer && wo->type == kTfLiteInt8;
  /* Types of the weights, biases, peepholes and layer norm of each kind. */
  const TfLiteType wt = d->hybrid || d->integer ? kTfLiteInt8 : kTfLiteFloat32;
  const TfLiteType bt = d->integer ? kTfLiteInt32 : kTfLiteFloat32;
  const TfLiteType pt = d->integer ? kTfLiteInt16 : wt;
  const TfLiteType lt = d->integer ? kTfLiteInt16 : kTfLiteFloat32;
  TF_LITE_ENSURE_MSG(ctx, d->n_cell > 0 && d->n_output > 0 && d->n_input > 0,
                     "%s: empty sizes (input %d, cell %d, output %d)", op, d->n_input, d->n_cell,
                     d->n_output);

  d->cifg = !tff_lstm_has(ctx, node, TFF_LSTM_W + TFF_G_I);
  TF_LITE_ENSURE_MSG(ctx, d->cifg == !tff_lstm_has(ctx, node, TFF_LSTM_R + TFF_G_I) &&
                     d->cifg == !tff_lstm_has(ctx, node, TFF_LSTM_BIAS + TFF_G_I),
                     "%s: the input gate weights (1, 5) and bias (12) must be all present or all "
                     "absent (CIFG)", op);
  d->peephole = tff_lstm_has(ctx, node, 10);
  TF_LITE_ENSURE_MSG(ctx, d->peephole == tff_lstm_has(ctx, node, 11) &&
                     (d->peephole && !d->cifg) == tff_lstm_has(ctx, node, 9),
                     "%s: the peephole weights (9, 10, 11) must be all present or all absent "
                     "(9 absent with CIFG)", op);
  d->projection = tff_lstm_has(ctx, node, TFF_LSTM_PROJ_W);
  TF_LITE_ENSURE_MSG(ctx, d->projection || !tff_lstm_has(ctx, node, TFF_LSTM_PROJ_B),
                     "%s: a projection bias needs projection weights", op);
  d->layer_norm = tff_num_inputs(node) == 24 && tff_lstm_has(ctx, node, TFF_LSTM_LN + TFF_G_F);
  for (int g = 0; g < TFF_NUM_GATES; ++g) {
    const int used = g != TFF_G_I || !d->cifg;
    const char* name = tff_gate_names[g];
    if (tff_num_inputs(node) == 24)
      TF_LITE_ENSURE_MSG(ctx, tff_lstm_has(ctx, node, TFF_LSTM_LN + g) == (d->layer_norm && used),
                         "%s: layer-norm coefficients (20-23) must be present for every used "
                         "gate or for none", op);
    if (!used) continue;
    const int nc = d->n_cell;
    TF_LITE_ENSURE_OK(ctx, tff_lstm_check(ctx, op, node, TFF_LSTM_W + g, name, wt, 2, nc,
                                          d->n_input));
    TF_LITE_ENSURE_OK(ctx, tff_lstm_check(ctx, op, node, TFF_LSTM_R + g, name, wt, 2, nc,
                                          d->n_output));
    TF_LITE_ENSURE_OK(ctx, tff_lstm_check(ctx, op, node, TFF_LSTM_BIAS + g, "gate bias", bt,
                                          1, nc, 0));
    if (d->peephole && tff_lstm_peep[g] >= 0)
      TF_LITE_ENSURE_OK(ctx, tff_lstm_check(ctx, op, node, tff_lstm_peep[g], "peephole", pt, 1,
                                            nc, 0));
    if (d->layer_norm)
      TF_LITE_ENSURE_OK(ctx, tff_lstm_check(ctx, op, node, TFF_LSTM_LN + g, "layer norm", lt,
                                            1, nc, 0));
  }
  if (d->projection) {
    TF_LITE_ENSURE_OK(ctx, tff_lstm_check(ctx, op, node, TFF_LSTM_PROJ_W, "projection", wt, 2,
                                          d->n_output, d->n_cell));
    if (tff_lstm_has(ctx, node, TFF_LSTM_PROJ_B))
      TF_LITE_ENSURE_OK(ctx, tff_lstm_check(ctx, op, node, TFF_LSTM_PROJ_B, "projection bias",
                                            bt, 1, d->n_output, 0));
  } else {
    TF_LITE_ENSURE_MSG(ctx, d->n_output == d->n_cell, "%s: without projection the output size "
                       "%d must equal the cell size %d", op, d->n_output, d->n_cell);
  }

  const TfLiteTensor* h = tff_input(ctx, node, TFF_LSTM_H);
  const TfLiteTensor* c = tff_input(ctx, node, TFF_LSTM_C);
  TF_LITE_ENSURE_MSG(ctx, h && c && h->is_variable && c->is_variable,
                     "%s: the output state (18) and cell state (19) must be variable tensors", op);
  const TfLiteType ht = d->integer ? kTfLiteInt8 : kTfLiteFloat32;
  const TfLiteType ct = d->integer ? kTfLiteInt16 : kTfLiteFloat32;
  TF_LITE_ENSURE_MSG(ctx, h->type == ht && c->type == ct, "%s: output and cell state types %s "
                     "and %s, expected %s and %s", op, TfLiteTypeGetName(h->type),
                     TfLiteTypeGetName(c->type), TfLiteTypeGetName(ht), TfLiteTypeGetName(ct));
  TF_LITE_ENSURE_MSG(ctx, tff_num_elements(h->dims) == (size_t)d->batch * d->n_output &&
                     tff_num_elements(c->dims) == (size_t)d->batch * d->n_cell,
                     "%s: output state of %zu and cell state of %zu elements, expected %d x %d "
                     "and %d x %d", op, tff_num_elements(h->dims), tff_num_elements(c->dims),
                     d->batch, d->n_output, d->batch, d->n_cell);
  const TfLiteTensor* out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE_MSG(ctx, out && out->type == ht, "%s: the output must be %s", op,
                     TfLiteTypeGetName(ht));
  if (d->integer) return tff_lstm_prepare_int(ctx, node, op, d);
  if (!d->hybrid || d->hq != TFF_HYB_TFL_ASYM) return kTfLiteOk;
  /* Asymmetric inputs: Σw per row of every weight matrix, for the zero point. */
  for (int i = TFF_LSTM_W; i <= TFF_LSTM_PROJ_W; ++i) {
    const TfLiteTensor* w = tff_input(ctx, node, i);
    if (i >= TFF_LSTM_R + TFF_NUM_GATES && i != TFF_LSTM_PROJ_W) continue;
    if (w == NULL) continue;
    d->row_sums[i] = malloc((size_t)tff_dim(w, 0) * sizeof(int32_t));
    TF_LITE_ENSURE_MSG(ctx, d->row_sums[i], "%s: out of memory", op);
    tff_row_sums_s8(tff_dim(w, 0), tff_dim(w, 1), w->data.int8, d->row_sums[i]);
  }
  return kTfLiteOk;
}

/* Scratch: slot 0 the float step (4 gates [batch, cell], one [batch,
 * max(cell, output)] block); hybrid slot 1 the quantized x, h and m rows with
 * their per-row scales and zero points. Call last in prepare. */
static inline TfLiteStatus tff_lstm_scratch(TfLiteContext* ctx, TfLiteNode* node,
                                            const tff_lstm* d) {
  const size_t wide = (size_t)(d->n_cell > d->n_output ? d->n_cell : d->n_output);
  const size_t floats = (size_t)d->batch * (4 * (size_t)d->n_cell + wide);
  TF_LITE_ENSURE_MSG(ctx, floats < (size_t)INT_MAX / sizeof(float), "LSTM: scratch too large");
  /* Integer: 5 int16 blocks [batch, cell] (gates, tanh of c), one int8. */
  const size_t bytes = d->integer ? (size_t)d->batch * d->n_cell * 11 : floats * sizeof(float);
  TF_LITE_ENSURE_OK(ctx, tff_scratch_request(ctx, node, 0, bytes));
  if (!d->hybrid) return kTfLiteOk;
  const size_t q = (size_t)d->batch * (6 * 4 + d->n_input + d->n_output + d->n_cell);
  return tff_scratch_request(ctx, node, 1, q);
}

/* The fused activation of the cell gate and of the cell state (SVDF's too). */
static inline float tff_lstm_act(TfLiteFusedActivation act, float x) {
  switch (act) {
    case kTfLiteActRelu: return x > 0.0f ? x : 0.0f;
    case kTfLiteActReluN1To1: return x < -1.0f ? -1.0f : (x > 1.0f ? 1.0f : x);
    case kTfLiteActRelu6: return x < 0.0f ? 0.0f : (x > 6.0f ? 6.0f : x);
    case kTfLiteActTanh: return tff_eigen_tanh(x);
    case kTfLiteActSignBit: return signbit(x) ? 1.0f : 0.0f;
    default: return tff_eigen_logistic(x);
  }
}

static inline float tff_lstm_dot(const float* a, const float* b, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; ++i) s += a[i] * b[i];
  return s;
}

/* An operand of the matrix products: `batch` float rows `stride` apart and,
 * hybrid, their int8 quantization q (rows of n) with per-row dq and zp. */
typedef struct {
  const float* f;
  size_t stride;
  int8_t* q;
  float* dq;
  int32_t* zp;
} tff_lstm_vec;

/* Hybrid: quantize v's rows of n as TFLite's BatchQuantizeFloats. */
static inline void tff_lstm_quantize(const tff_lstm* d, tff_lstm_vec* v, int n) {
  for (int b = 0; b < d->batch; ++b)
    tff_quantize_hybrid(d->hq, v->f + b * v->stride, (size_t)n, v->q + (size_t)b * n, &v->dq[b],
                        &v->zp[b]);
}

/* acc[b][j] += W[j]·v[b] with W input `wi` [rows, cols]. Hybrid: int8 dot
 * products, minus zp·Σw (asymmetric), times dq·s_w as TFLite. */
static inline void tff_lstm_mv(TfLiteContext* ctx, const TfLiteNode* node, const tff_lstm* d,
                               int wi, int rows, int cols, const tff_lstm_vec* v, float* acc) {
  const TfLiteTensor* w = tff_input(ctx, node, wi);
  for (int b = 0; b < d->batch; ++b, acc += rows) {
    if (!d->hybrid) {
      for (int j = 0; j < rows; ++j)
        acc[j] += tff_lstm_dot(w->data.f + (size_t)j * cols, v->f + b * v->stride, cols);
      continue;
    }
    const int8_t* q = v->q + (size_t)b * cols;
    const float s = v->dq[b] * w->params.scale;
    const int32_t* sums = d->row_sums[wi];
    for (int j = 0; j < rows; ++j) {
      const int8_t* wr = w->data.int8 + (size_t)j * cols;
      uint32_t dot = 0; /* wraps as TFLite's int32 sums */
      for (int i = 0; i < cols; ++i) dot += (uint32_t)(wr[i] * q[i]);
      if (sums) dot -= (uint32_t)sums[j] * (uint32_t)v->zp[b];
      acc[j] += (float)(int32_t)dot * s;
    }
  }
}

static inline void tff_lstm_clip(float* v, size_t n, float clip) {
  if (clip <= 0.0f) return;
  for (size_t i = 0; i < n; ++i) v[i] = v[i] < -clip ? -clip : (v[i] > clip ? clip : v[i]);
}

/* Offset of gate g in TFLite's scratch buffer (64-byte aligned), which holds
 * the gates [batch, cell] in the order input, cell, forget, output (CIFG: no
 * input gate). It decides which elements Eigen's sigmoid takes as packets. */
static inline size_t tff_lstm_gate_offset(const tff_lstm* d, int g) {
  const size_t slot = g == TFF_G_I ? 0 : (g == TFF_G_C ? 1 : (g == TFF_G_F ? 2 : 3)) - d->cifg;
  return slot * (size_t)d->batch * d->n_cell;
}

/* One gate for every batch row: act(W·x + R·h + p⊙c + b), layer norm between. */
static inline void tff_lstm_gate(TfLiteContext* ctx, const TfLiteNode* node, const tff_lstm* d,
                                 int g, const tff_lstm_vec* x, const tff_lstm_vec* h,
                                 const float* c, float* gate) {
  const int nc = d->n_cell;
  const float* bias = tff_input(ctx, node, TFF_LSTM_BIAS + g)->data.f;
  for (int b = 0; b < d->batch; ++b)
    for (int j = 0; j < nc; ++j) gate[b * nc + j] = d->layer_norm ? 0.0f : bias[j];
  tff_lstm_mv(ctx, node, d, TFF_LSTM_W + g, nc, d->n_input, x, gate);
  tff_lstm_mv(ctx, node, d, TFF_LSTM_R + g, nc, d->n_output, h, gate);
  if (d->peephole && tff_lstm_peep[g] >= 0) {
    const TfLiteTensor* p = tff_input(ctx, node, tff_lstm_peep[g]);
    for (int j = 0; j < nc; ++j) {
      /* Hybrid: TFLite dequantizes the weight first. */
      const float pj = d->hybrid ? p->data.int8[j] * p->params.scale : p->data.f[j];
      for (int b = 0; b < d->batch; ++b) gate[b * nc + j] += pj * c[b * nc + j];
    }
  }
  if (d->layer_norm) {
    /* TFLite's MeanStddevNormalization: population variance + 1e-8. */
    const float* ln = tff_input(ctx, node, TFF_LSTM_LN + g)->data.f;
    for (int b = 0; b < d->batch; ++b) {
      float* v = gate + (size_t)b * nc;
      float sum = 0.0f, sq = 0.0f;
      for (int j = 0; j < nc; ++j) sum += v[j];
      const float mean = sum / nc;
      for (int j = 0; j < nc; ++j) sq += (v[j] - mean) * (v[j] - mean);
      const float inv = 1.0f / sqrtf(sq / nc + 1e-8f);
      for (int j = 0; j < nc; ++j) v[j] = (v[j] - mean) * inv * ln[j] + bias[j];
    }
  }
  const size_t n = (size_t)d->batch * nc;
  if (g == TFF_G_C)
    for (size_t i = 0; i < n; ++i) gate[i] = tff_lstm_act(d->act, gate[i]);
  else if (d->time_major)
    tff_eigen_logistic_run(gate, n, tff_lstm_gate_offset(d, g));
  else
    for (int b = 0; b < d->batch; ++b)
      tff_eigen_logistic_run(gate + (size_t)b * nc, (size_t)nc,
                           tff_lstm_gate_offset(d, g) + (size_t)b * nc);
}

/* Float and hybrid: every time step, updating the state tensors and writing
 * the output. */
static inline void tff_lstm_eval_float(TfLiteContext* ctx, const TfLiteNode* node,
                                       const tff_lstm* d) {
  const int nb = d->batch, nc = d->n_cell, no = d->n_output;
  const size_t bc = (size_t)nb * nc;
  float* gi = (float*)tff_scratch(ctx, node, 0);
  float *gf = gi + bc, *gc = gf + bc, *go = gc + bc, *m = go + bc;
  float* h = tff_input(ctx, node, TFF_LSTM_H)->data.f;
  float* c = tff_input(ctx, node, TFF_LSTM_C)->data.f;
  const float* in = tff_input(ctx, node, TFF_LSTM_INPUT)->data.f;
  float* out = tff_output(ctx, node, 0)->data.f;
  tff_lstm_vec vx = {.stride = d->row_b * d->n_input}, vh = {.f = h, .stride = (size_t)no},
               vm = {.f = m, .stride = (size_t)nc};
  if (d->hybrid) {
    char* s = (char*)tff_scratch(ctx, node, 1);
    tff_lstm_vec* vs[3] = {&vx, &vh, &vm};
    const int widths[3] = {d->n_input, no, nc};
    for (int k = 0; k < 3; ++k, s += (size_t)nb * 8) {
      vs[k]->dq = (float*)s;
      vs[k]->zp = (int32_t*)(s + (size_t)nb * 4);
    }
    for (int k = 0; k < 3; ++k) {
      vs[k]->q = (int8_t*)s;
      s += (size_t)nb * widths[k];
    }
  }
  for (int t = 0; t < d->time; ++t) {
    vx.f = in + t * d->row_t * d->n_input;
    if (d->hybrid) {
      tff_lstm_quantize(d, &vx, d->n_input);
      tff_lstm_quantize(d, &vh, no);
    }
    if (!d->cifg) tff_lstm_gate(ctx, node, d, TFF_G_I, &vx, &vh, c, gi);
    tff_lstm_gate(ctx, node, d, TFF_G_F, &vx, &vh, c, gf);
    tff_lstm_gate(ctx, node, d, TFF_G_C, &vx, &vh, c, gc);
    for (size_t i = 0; i < bc; ++i)
      c[i] = gf[i] * c[i] + (d->cifg ? 1.0f - gf[i] : gi[i]) * gc[i];
    tff_lstm_clip(c, bc, d->cell_clip);
    tff_lstm_gate(ctx, node, d, TFF_G_O, &vx, &vh, c, go);
    for (size_t i = 0; i < bc; ++i) m[i] = go[i] * tff_lstm_act(d->act, c[i]);
    if (d->projection) {
      const TfLiteTensor* pb = tff_input(ctx, node, TFF_LSTM_PROJ_B);
      for (int b = 0; b < nb; ++b)
        for (int j = 0; j < no; ++j) h[b * no + j] = pb ? pb->data.f[j] : 0.0f;
      if (d->hybrid) tff_lstm_quantize(d, &vm, nc);
      tff_lstm_mv(ctx, node, d, TFF_LSTM_PROJ_W, no, nc, &vm, h);
      tff_lstm_clip(h, (size_t)nb * no, d->proj_clip);
    } else {
      memcpy(h, m, bc * sizeof(float));
    }
    for (int b = 0; b < nb; ++b)
      memcpy(out + (t * d->row_t + b * d->row_b) * no, h + (size_t)b * no,
             (size_t)no * sizeof(float));
  }
}

/* One integer gate for every batch row (TFLite's CalculateLstmGateInteger8x8_16):
 * W·x and R·h requantized to the gate's scale and added with saturation, the
 * peephole likewise, layer norm to Q3.12, then sigmoid (tanh for the cell
 * gate). */
static inline void tff_lstm_gate_int(TfLiteContext* ctx, const TfLiteNode* node,
                                     const tff_lstm* d, int g, const int8_t* x, size_t xs,
                                     const int8_t* h, const int16_t* c, int16_t* gate) {
  const tff_lstm_int* q = &d->q;
  const int nc = d->n_cell, nb = d->batch;
  memset(gate, 0, (size_t)nb * nc * sizeof(int16_t));
  tff_lstm_mv_int(tff_input(ctx, node, TFF_LSTM_W + g)->data.int8, q->in_bias[g], q->in[g], nb,
                  nc, d->n_input, x, xs, 0, INT16_MIN, INT16_MAX, gate, NULL);
  tff_lstm_mv_int(tff_input(ctx, node, TFF_LSTM_R + g)->data.int8, q->rec_bias[g], q->rec[g], nb,
                  nc, d->n_output, h, (size_t)d->n_output, 0, INT16_MIN, INT16_MAX, gate, NULL);
  const size_t n = (size_t)nb * nc;
  if (d->peephole && tff_lstm_peep[g] >= 0) {
    const int16_t* p = tff_input(ctx, node, tff_lstm_peep[g])->data.i16;
    for (size_t i = 0; i < n; ++i)
      gate[i] = (int16_t)tff_clamp32(tff_mbqm(p[i % nc] * c[i], q->peep[g].a, q->peep[g].b) +
                                     gate[i], INT16_MIN, INT16_MAX);
  }
  if (d->layer_norm)
    tff_lstm_layer_norm(gate, tff_input(ctx, node, TFF_LSTM_LN + g)->data.i16,
                        tff_input(ctx, node, TFF_LSTM_BIAS + g)->data.i32, q->ln[g],
                        q->variance_guard[g], nb, nc);
  for (size_t i = 0; i < n; ++i)
    gate[i] = g == TFF_G_C ? tff_fp16_tanh(gate[i], 3) : tff_fp16_logistic(gate[i], 3);
}

/* Integer8x8_16: every time step. */
static inline void tff_lstm_eval_int(TfLiteContext* ctx, const TfLiteNode* node,
                                     const tff_lstm* d) {
  const int nb = d->batch, nc = d->n_cell, no = d->n_output;
  const size_t bc = (size_t)nb * nc;
  const tff_lstm_int* q = &d->q;
  int16_t* gi = (int16_t*)tff_scratch(ctx, node, 0);
  int16_t *gf = gi + bc, *gc = gf + bc, *go = gc + bc, *th = go + bc;
  int8_t* hid = (int8_t*)(th + bc);
  int8_t* h = tff_input(ctx, node, TFF_LSTM_H)->data.int8;
  int16_t* c = tff_input(ctx, node, TFF_LSTM_C)->data.i16;
  const int8_t* in = tff_input(ctx, node, TFF_LSTM_INPUT)->data.int8;
  int8_t* out = tff_output(ctx, node, 0)->data.int8;
  for (int t = 0; t < d->time; ++t) {
    const int8_t* x = in + t * d->row_t * d->n_input;
    const size_t xs = d->row_b * d->n_input;
    if (!d->cifg) tff_lstm_gate_int(ctx, node, d, TFF_G_I, x, xs, h, c, gi);
    tff_lstm_gate_int(ctx, node, d, TFF_G_F, x, xs, h, c, gf);
    tff_lstm_gate_int(ctx, node, d, TFF_G_C, x, xs, h, c, gc);
    /* c = f·c/2^15 + i·g/2^(30 + k), saturated; CIFG: i = 1 − f. */
    for (size_t i = 0; i < bc; ++i) {
      const int16_t fc = (int16_t)tff_rdbpot(gf[i] * c[i], 15);
      const int32_t ig = d->cifg ? INT16_MAX - gf[i] : gi[i];
      const int16_t s = (int16_t)tff_rdbpot(ig * gc[i], 30 + q->cell_shift);
      int32_t v = tff_clamp32(fc + s, INT16_MIN, INT16_MAX);
      if (q->cell_clip > 0) v = tff_clamp32(v, -q->cell_clip, q->cell_clip);
      c[i] = (int16_t)v;
    }
    tff_lstm_gate_int(ctx, node, d, TFF_G_O, x, xs, h, c, go);
    for (size_t i = 0; i < bc; ++i) th[i] = tff_fp16_tanh(c[i], 15 + q->cell_shift);
    /* hidden = o·tanh(c) at the hidden scale; with projection its zero point
     * is subtracted (and folded into the projection bias). */
    const int32_t hz = d->projection ? -q->hidden_zp : q->hidden_zp;
    int8_t* dst = d->projection ? hid : h;
    for (size_t i = 0; i < bc; ++i)
      dst[i] = (int8_t)tff_clamp32(tff_mbqm(go[i] * th[i], q->hidden.a, q->hidden.b) + hz, -128,
                                   127);
    if (d->projection) {
      memset(h, 0, (size_t)nb * no);
      tff_lstm_mv_int(tff_input(ctx, node, TFF_LSTM_PROJ_W)->data.int8, q->proj_bias, q->proj,
                      nb, no, nc, hid, (size_t)nc, q->h_zp, -128, 127, NULL, h);
      if (q->proj_clip > 0)
        for (size_t i = 0; i < (size_t)nb * no; ++i)
          h[i] = (int8_t)tff_clamp32(h[i], -q->proj_clip, q->proj_clip);
    }
    for (int b = 0; b < nb; ++b)
      memcpy(out + (t * d->row_t + b * d->row_b) * no, h + (size_t)b * no, (size_t)no);
  }
}

/* The invoke of both ops (user_data is the tff_lstm prepare filled). */
static inline TfLiteStatus tff_lstm_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const tff_lstm* d = (const tff_lstm*)node->user_data;
  if (d->batch <= 0 || d->time <= 0) return kTfLiteOk;
  if (d->integer)
    tff_lstm_eval_int(ctx, node, d);
  else
    tff_lstm_eval_float(ctx, node, d);
  return kTfLiteOk;
}

#endif /* TFLITE_FAST_OPS_LSTM_COMMON_H_ */
