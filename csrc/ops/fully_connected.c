/* FULLY_CONNECTED: y[b] = W·x[b] + bias over the input flattened to rows of
 * the filter's depth; float (constant or run-time weights), int8
 * (per-channel or per-tensor weights) and hybrid (float activations, int8
 * weights, rows quantized on the fly), keep_num_dims, optional bias. Only
 * the default weights format. The weights are packed once (per invoke when
 * float weights are not constant). Numerics: conv_common.h. */
#include "conv_common.h"
#include "ops.h"

#define OP "FULLY_CONNECTED"

typedef struct {
  tff_conv_kind kind;
  int batches, k, n;
  int pack_at_invoke;  /* float weights that are not constant */
  void* packed;        /* weights, tff_pack layout */
  int32_t* wsum;       /* per output channel: Σ weights (int8, hybrid) */
  int32_t* init;       /* per output channel: bias − z·Σw (int8, hybrid) */
  int32_t* acc;        /* one row of int32 accumulators */
  float* wscales;      /* hybrid: filter scales (one when per-tensor) */
  int per_channel;
  tff_requant rq;      /* int8 */
  tff_hybrid_quant hq; /* hybrid */
  float lo, hi;        /* float and hybrid clamp */
} OpData;

static void release(OpData* d) {
  free(d->packed);
  free(d->wsum);
  free(d->init);
  free(d->acc);
  free(d->wscales);
  tff_requant_free(&d->rq);
  memset(d, 0, sizeof(*d));
}

static void* init(TfLiteContext* ctx, const char* buf, size_t len) {
  (void)ctx, (void)buf, (void)len;
  return calloc(1, sizeof(OpData));
}

static void free_data(TfLiteContext* ctx, void* data) {
  (void)ctx;
  if (data) release((OpData*)data);
  free(data);
}

static TfLiteStatus alloc_buffers(TfLiteContext* ctx, OpData* d, const TfLiteTensor* filter) {
  const size_t esz = d->kind == TFF_CONV_FLOAT ? sizeof(float) : 1;
  d->packed = malloc(tff_packed_elems(d->n, d->k) * esz);
  TF_LITE_ENSURE_MSG(ctx, d->packed, OP ": out of memory");
  if (d->kind == TFF_CONV_FLOAT) {
    if (!d->pack_at_invoke) tff_pack_f32(d->n, d->k, filter->data.f, (float*)d->packed);
    return kTfLiteOk;
  }
  tff_pack_s8(d->n, d->k, filter->data.int8, (int8_t*)d->packed);
  d->wsum = malloc((size_t)d->n * sizeof(int32_t));
  d->init = malloc((size_t)d->n * sizeof(int32_t));
  d->acc = malloc((size_t)d->n * sizeof(int32_t));
  TF_LITE_ENSURE_MSG(ctx, d->wsum && d->init && d->acc, OP ": out of memory");
  tff_row_sums_s8(d->n, d->k, filter->data.int8, d->wsum);
  return kTfLiteOk;
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  const TfLiteFullyConnectedParams* p = (const TfLiteFullyConnectedParams*)node->builtin_data;
  release(d);
  TF_LITE_ENSURE_MSG(ctx, tff_num_inputs(node) == 2 || tff_num_inputs(node) == 3,
                     OP ": expected 2 or 3 inputs, got %d", tff_num_inputs(node));
  TF_LITE_ENSURE_MSG(ctx, p != NULL, OP ": missing options");
  TF_LITE_ENSURE_MSG(ctx, p->weights_format == kTfLiteFullyConnectedWeightsFormatDefault,
                     OP ": weights format %d (shuffled) is not supported, only the default",
                     (int)p->weights_format);
  TF_LITE_ENSURE_MSG(ctx, tff_num_outputs(node) == 1, OP ": expected 1 output, got %d",
                     tff_num_outputs(node));
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* filter = tff_input(ctx, node, 1);
  const TfLiteTensor* bias = tff_input(ctx, node, 2);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE_MSG(ctx, in && filter && out, OP ": input, weights and output are required");
  TF_LITE_ENSURE_MSG(ctx, tff_rank(filter) == 2, OP ": weights must be 2-D [units, depth], got "
                     "rank %d", tff_rank(filter));
  TF_LITE_ENSURE_MSG(ctx, tff_rank(in) >= 1, OP ": input must have at least one dimension");
  TF_LITE_ENSURE_OK(ctx, tff_conv_kind_of(ctx, OP, in, filter, out, &d->kind));
  TF_LITE_ENSURE_OK(ctx, tff_check_activation(ctx, OP, p->activation));
  const int constant = tff_is_constant(filter) && filter->data.data;
  TF_LITE_ENSURE_MSG(ctx, constant || d->kind == TFF_CONV_FLOAT,
                     OP ": int8 weights must be a constant tensor");
  d->pack_at_invoke = !constant;

  d->n = tff_dim(filter, 0);
  d->k = tff_dim(filter, 1);
  TF_LITE_ENSURE_MSG(ctx, d->n > 0 && d->k > 0, OP ": weights shape [%d, %d] is empty", d->n,
                     d->k);
  TF_LITE_ENSURE_MSG(ctx, d->k <= INT_MAX / TFF_NR, OP ": weights depth %d is too large", d->k);
  const size_t in_size = tff_num_elements(in->dims);
  TF_LITE_ENSURE_MSG(ctx, in_size % (size_t)d->k == 0 && in_size / d->k <= INT_MAX,
                     OP ": input of %zu elements is not a whole number of rows of %d", in_size,
                     d->k);
  d->batches = (int)(in_size / d->k);
  if (bias) TF_LITE_ENSURE_OK(ctx, tff_check_bias(ctx, OP, bias, d->kind, d->n));

  if (d->kind == TFF_CONV_FLOAT) {
    tff_act_range_float(p->activation, &d->lo, &d->hi);
  } else {
    const float* scales;
    TF_LITE_ENSURE_OK(ctx, tff_filter_scales(ctx, OP, filter, d->n, 0, &scales, &d->per_channel));
    const int ref = tff_numerics_ref(ctx);
    if (d->kind == TFF_CONV_INT8) {
      TF_LITE_ENSURE_OK(ctx, tff_check_act_quant(ctx, OP, "input", in));
      TF_LITE_ENSURE_OK(ctx, tff_check_act_quant(ctx, OP, "output", out));
      TF_LITE_ENSURE_OK(ctx, tff_requant_prepare(ctx, OP, &d->rq,
                                                 ref ? TFF_RQ_DOUBLE : TFF_RQ_FP32, d->n, in,
                                                 scales, d->per_channel, out, p->activation));
    } else {
      const int n = d->per_channel ? d->n : 1;
      d->wscales = malloc((size_t)n * sizeof(float));
      TF_LITE_ENSURE_MSG(ctx, d->wscales, OP ": out of memory");
      memcpy(d->wscales, scales, (size_t)n * sizeof(float));
      d->hq = !ref ? TFF_HYB_XNN_QD8
                   : (p->asymmetric_quantize_inputs ? TFF_HYB_TFL_ASYM : TFF_HYB_TFL_SYM);
      tff_act_range_float(p->activation, &d->lo, &d->hi);
    }
  }

  if (p->keep_num_dims) {
    const int rank = tff_rank(in);
    TF_LITE_ENSURE_MSG(ctx, tff_dim(in, rank - 1) == d->k,
                       OP ": keep_num_dims needs the input's last dimension %d to equal the "
                       "weights depth %d", tff_dim(in, rank - 1), d->k);
    int shape[16];
    TF_LITE_ENSURE_MSG(ctx, rank <= 16, OP ": input rank %d is too large", rank);
    for (int i = 0; i < rank - 1; ++i) shape[i] = tff_dim(in, i);
    shape[rank - 1] = d->n;
    TF_LITE_ENSURE_OK(ctx, tff_resize_output(ctx, out, rank, shape));
  } else {
    const int shape[2] = {d->batches, d->n};
    TF_LITE_ENSURE_OK(ctx, tff_resize_output(ctx, out, 2, shape));
  }
  TF_LITE_ENSURE_OK(ctx, alloc_buffers(ctx, d, filter));
  /* Last: AddTensors may move the tensor array under in/filter/out. */
  if (d->kind != TFF_CONV_HYBRID) return kTfLiteOk;
  return tff_scratch_request(ctx, node, 0, (size_t)d->k);
}

static TfLiteStatus eval(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* filter = tff_input(ctx, node, 1);
  const TfLiteTensor* bias = tff_input(ctx, node, 2);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  if (tff_num_elements(out->dims) == 0) return kTfLiteOk;
  if (d->pack_at_invoke) tff_pack_f32(d->n, d->k, filter->data.f, (float*)d->packed);
  const size_t k = (size_t)d->k, n = (size_t)d->n;
  if (d->kind == TFF_CONV_FLOAT) {
    const float* fbias = bias ? bias->data.f : NULL;
    for (int b = 0; b < d->batches; ++b) {
      const void* row = in->data.f + b * k;
      float* o = out->data.f + b * n;
      tff_igemm_f32(d->n, 1, d->k, &row, 0, (const float*)d->packed, fbias, o);
      for (size_t c = 0; c < n; ++c) {
        const float v = o[c] < d->lo ? d->lo : o[c];
        o[c] = v > d->hi ? d->hi : v;
      }
    }
  } else if (d->kind == TFF_CONV_INT8) {
    tff_fold_zero_point(d->n, bias ? bias->data.i32 : NULL, in->params.zero_point, d->wsum,
                        d->init);
    for (int b = 0; b < d->batches; ++b) {
      const void* row = in->data.int8 + b * k;
      tff_igemm_s8(d->n, 1, d->k, &row, 0, (const int8_t*)d->packed, d->init, d->acc);
      tff_requant_row(&d->rq, d->acc, d->n, out->data.int8 + b * n);
    }
  } else {
    int8_t* q = (int8_t*)tff_scratch(ctx, node, 0);
    const void* row = q;
    for (int b = 0; b < d->batches; ++b) {
      float dq = 1.0f;
      int32_t zp = 0;
      tff_quantize_hybrid(d->hq, in->data.f + b * k, k, q, &dq, &zp);
      tff_fold_zero_point(d->n, NULL, zp, d->wsum, d->init);
      tff_igemm_s8(d->n, 1, d->k, &row, 0, (const int8_t*)d->packed, d->init, d->acc);
      tff_hybrid_row(d->hq, d->acc, d->n, dq, d->wscales, d->per_channel,
                     bias ? bias->data.f : NULL, d->lo, d->hi, out->data.f + b * n);
    }
  }
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_FULLY_CONNECTED(void) {
  static const TfLiteRegistration r = {.init = init,
                                       .free = free_data,
                                       .prepare = prepare,
                                       .invoke = eval,
                                       .builtin_code = kTfLiteBuiltinFullyConnected,
                                       .version = 1};
  return &r;
}
