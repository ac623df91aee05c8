/* FULLY_CONNECTED: y[b] = W·x[b] + bias over the input flattened to rows of
 * the filter's depth; float (constant or run-time weights), int8
 * (per-channel or per-tensor weights) and hybrid (float activations, int8
 * weights, rows quantized on the fly), keep_num_dims, optional bias. Only
 * the default weights format. The weights are packed once (per invoke when
 * float weights are not constant). Float and default-mode int8 run a SIMD
 * ukernel (tff_gemm; batch 1 its 1-row GEMV variant); reference int8 and
 * hybrid the portable GEMM. Numerics: conv_common.h; 16x8 (int16
 * activations, both modes the reference loop): conv_int16.h. */
#include "conv_common.h"
#include "conv_int16.h"
#include "ops.h"

#define OP "FULLY_CONNECTED"

typedef struct {
  tff_conv_kind kind;
  int batches, k, n;
  void* packed;        /* weights, tff_pack layout */
  int32_t* wsum;       /* portable path: Σ weights per output channel */
  int32_t* init;       /* portable path: bias − z·Σw per output channel */
  int32_t* acc;        /* one row of int32 accumulators */
  float* wscales;      /* hybrid: filter scales (one when per-tensor) */
  int per_channel;
  tff_requant rq;      /* int8 */
  tff_hybrid_quant hq; /* hybrid */
  float lo, hi;        /* float and hybrid clamp */
  int use_gemm;        /* float, default int8: the ukernel path */
  tff_gemm gemm;
  const void** rows;   /* [batches] input row pointers for the ukernel */
  int one_tile;        /* batch 1 in one tile: tff_gemm_row at one thread */
  int int16;           /* 16x8 */
  int acc32;           /* 16x8 without bias: int32 sums */
  tff_rq16 rq16;
} OpData;

static void release(TfLiteContext* ctx, OpData* d) {
  tff_persistent_free(ctx, d->packed);
  free(d->wsum);
  free(d->init);
  free(d->acc);
  free(d->wscales);
  free(d->rows);
  tff_gemm_free(ctx, &d->gemm);
  tff_requant_free(&d->rq);
  tff_rq16_free(&d->rq16);
  memset(d, 0, sizeof(*d));
}

TFF_ZEROED_INIT(init, OpData)

static void free_data(TfLiteContext* ctx, void* data) {
  if (data) release(ctx, (OpData*)data);
  free(data);
}

/* The ukernel path: kernel, packed weights (and bias or folded zero point
 * when constant), row pointers. */
static TfLiteStatus alloc_gemm(TfLiteContext* ctx, OpData* d, const TfLiteTensor* in,
                               const TfLiteTensor* filter, const TfLiteTensor* bias) {
  const int is_f32 = d->kind == TFF_CONV_FLOAT;
  TF_LITE_ENSURE_OK(ctx, tff_gemm_prepare(ctx, OP, &d->gemm, is_f32, (size_t)d->batches, 1,
                                          (size_t)d->n, 1, (size_t)d->k, filter->data.data));
  d->rows = malloc((size_t)d->batches * sizeof(void*));
  TF_LITE_ENSURE_MSG(ctx, d->rows, OP ": out of memory");
  TF_LITE_ENSURE_OK(ctx,
                    tff_gemm_pack(ctx, OP, &d->gemm, in, filter, bias, &d->rq, d->lo, d->hi));
  d->one_tile = tff_gemm_one_tile(&d->gemm, (size_t)d->batches);
  return kTfLiteOk;
}

/* The portable path (constant int8 weights). */
static TfLiteStatus alloc_buffers(TfLiteContext* ctx, OpData* d, const TfLiteTensor* filter) {
  d->packed = tff_persistent_alloc(ctx, tff_packed_elems(d->n, d->k));
  d->wsum = malloc((size_t)d->n * sizeof(int32_t));
  d->init = malloc((size_t)d->n * sizeof(int32_t));
  d->acc = malloc((size_t)d->n * sizeof(int32_t));
  TF_LITE_ENSURE_MSG(ctx, d->packed && d->wsum && d->init && d->acc, OP ": out of memory");
  tff_pack_s8(ctx, d->n, d->k, filter->data.int8, (int8_t*)d->packed, d->wsum);
  return kTfLiteOk;
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  const TfLiteFullyConnectedParams* p = (const TfLiteFullyConnectedParams*)node->builtin_data;
  release(ctx, d);
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
  d->int16 = in->type == kTfLiteInt16;
  if (!d->int16) TF_LITE_ENSURE_OK(ctx, tff_conv_kind_of(ctx, OP, in, filter, out, &d->kind));
  TF_LITE_ENSURE_OK(ctx, tff_check_activation(ctx, OP, p->activation));
  const int constant = tff_is_constant(filter) && filter->data.data;
  TF_LITE_ENSURE_MSG(ctx, constant || (d->kind == TFF_CONV_FLOAT && !d->int16),
                     OP ": int8 weights must be a constant tensor");

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
  if (bias && !d->int16) TF_LITE_ENSURE_OK(ctx, tff_check_bias(ctx, OP, bias, d->kind, d->n));

  if (d->int16) {
    TF_LITE_ENSURE_OK(ctx, tff_rq16_prepare(ctx, OP, in, filter, bias, out, d->n, 0,
                                            p->activation, &d->rq16));
    d->acc32 = !bias;
  } else if (d->kind == TFF_CONV_FLOAT) {
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
      tff_requant_label(&d->rq, "tff_igemm_s8 (portable)");
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
  if (d->int16) return kTfLiteOk;
  d->use_gemm =
      d->kind == TFF_CONV_FLOAT || (d->kind == TFF_CONV_INT8 && !tff_numerics_ref(ctx));
  if (d->use_gemm) return alloc_gemm(ctx, d, in, filter, bias);
  TF_LITE_ENSURE_OK(ctx, alloc_buffers(ctx, d, filter));
  /* Last: AddTensors may move the tensor array under in/filter/out. */
  if (d->kind != TFF_CONV_HYBRID) return kTfLiteOk;
  return tff_scratch_request(ctx, node, 0, (size_t)d->k);
}

/* 16x8, TFLite's FullyConnected: int64 sums of each row (int32 without bias). */
static void eval_int16(const OpData* d, const int16_t* in, const int8_t* w, const int64_t* bias,
                       int16_t* out) {
  for (int b = 0; b < d->batches; ++b, in += d->k, out += d->n) {
    for (int o = 0; o < d->n; ++o) {
      const int8_t* wr = w + (size_t)o * d->k;
      if (d->acc32) {
        uint32_t acc = 0; /* wraps as TFLite's int32 sum would */
        for (int i = 0; i < d->k; ++i) acc += (uint32_t)((int32_t)in[i] * wr[i]);
        out[o] = tff_rq16_apply32(&d->rq16, (int32_t)acc, o);
        continue;
      }
      int64_t acc = 0;
      for (int i = 0; i < d->k; ++i) acc += (int32_t)in[i] * wr[i];
      if (bias) acc = (int64_t)((uint64_t)acc + (uint64_t)bias[o]);
      out[o] = tff_rq16_apply_full(&d->rq16, acc, o);
    }
  }
}

/* Everything but the fast path of eval below: out of line, so that path
 * runs without this one's register saves and stack frame. */
static TFF_NOINLINE TfLiteStatus eval_general(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* filter = tff_input(ctx, node, 1);
  const TfLiteTensor* bias = tff_input(ctx, node, 2);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  if (out->bytes == 0) return kTfLiteOk; /* an empty output */
  const size_t k = (size_t)d->k, n = (size_t)d->n;
  if (d->int16) {
    eval_int16(d, in->data.i16, filter->data.int8, bias ? bias->data.i64 : NULL, out->data.i16);
    return kTfLiteOk;
  }
  if (d->use_gemm) {
    tff_gemm_repack(ctx, &d->gemm, filter, bias);
    const size_t esz = d->gemm.esz;
    for (int b = 0; b < d->batches; ++b) d->rows[b] = in->data.raw + b * k * esz;
    tff_gemm_run(ctx, &d->gemm, (size_t)d->batches, d->rows, out->data.raw, n * esz);
    return kTfLiteOk;
  }
  if (d->kind == TFF_CONV_INT8) {
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

static TfLiteStatus eval(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  if (d->one_tile && tff_num_threads(ctx) == 1) { /* first: only the input and output read */
    d->rows[0] = tff_input(ctx, node, 0)->data.raw;
    tff_gemm_row(&d->gemm, d->rows, tff_output(ctx, node, 0)->data.raw);
    return kTfLiteOk;
  }
  return eval_general(ctx, node);
}

/* The kernel prepare chose, for profiling and show_config. */
static const char* kernel_name(const TfLiteContext* ctx, const TfLiteNode* node) {
  (void)ctx;
  const OpData* d = (const OpData*)node->user_data;
  if (d->int16) return "fully connected 16x8 (portable reference)";
  if (d->use_gemm) return tff_gemm_name(&d->gemm);
  return d->kind == TFF_CONV_INT8 ? d->rq.label : "tff_igemm_s8 (portable)";
}

const TfLiteRegistration* tff_register_FULLY_CONNECTED(void) {
  static const TfLiteRegistration r = {.init = init,
                                       .free = free_data,
                                       .prepare = prepare,
                                       .invoke = eval,
                                       .profiling_string = kernel_name,
                                       .builtin_code = kTfLiteBuiltinFullyConnected,
                                       .version = 1};
  return &r;
}
