/* MEAN: float32 and int8 over any set of axes (negative and repeated axes
 * allowed), keep_dims or not (TFLite reduce.cc). The axis tensor must hold
 * its values at prepare: a model constant or an output computed at prepare.
 *
 * int8 has three formulas (docs/numerics.md §1.11); which one runs is what
 * ai-edge-litert runs:
 *  - REF: TFLite's QuantizedMeanOrSum, (M, e) = QM(s_in/s_out) with 1/N folded
 *    into M, double-rounding MBQM. BUILTIN_REF, and AUTO when neither below.
 *  - XNN: XNNPACK's reduce (AUTO with a model-constant axis tensor): an int32
 *    sum of raw codes converted in float, rint(sum*scale + zp') with
 *    scale = f32(s_in/s_out) * (1/N) and zp' = z_out - (N*z_in)*scale.
 *  - OPT: TFLite's optimized 4-D mean over H and W with keep_dims (AUTO when
 *    XNNPACK declines, i.e. the axes were computed by another op): the rows
 *    of 16 channels use NEON rounding (ties up), the tail the scalar MBQM, on
 *    a single thread. */
#include "kernel_util.h"
#include "ops.h"

#define MEAN_MAX_DIMS 8

enum { kMeanFloat, kMeanRef, kMeanXnn, kMeanOpt };

typedef struct OpData {
  int kind;
  int rank;                       /* of the input, >= 1 (a scalar is [1]) */
  int dims[MEAN_MAX_DIMS];
  size_t ostride[MEAN_MAX_DIMS];  /* output element stride per input dim, 0 if reduced */
  int last_reduced;
  size_t in_count, out_count;
  int32_t n;                      /* elements reduced into each output */
  int32_t in_zp, out_zp, mult;
  int shift;
  int32_t bias;                   /* OPT: z_out minus the rounded input zero point term */
  int channels16;                 /* OPT: channels handled 16 at a time */
  int channels;
  float scale, zp_f;              /* XNN */
} OpData;

/* Folds one input row of the innermost dim into the accumulators at acc. */
static void row_f32(const void* in, void* acc, int n, int reduced) {
  const float* x = (const float*)in;
  float* a = (float*)acc;
  if (reduced) {
    for (int i = 0; i < n; ++i) a[0] += x[i];
  } else {
    for (int i = 0; i < n; ++i) a[i] += x[i];
  }
}

static void row_s8(const void* in, void* acc, int n, int reduced) {
  const int8_t* x = (const int8_t*)in;
  int32_t* a = (int32_t*)acc;
  if (reduced) {
    int32_t s = 0;
    for (int i = 0; i < n; ++i) s += x[i];
    a[0] += s;
  } else {
    for (int i = 0; i < n; ++i) a[i] += x[i];
  }
}

/* Sums the input into zeroed accumulators (acc_elem bytes each) in input
 * order, as TFLite's reference ReduceSumImpl does. */
static void reduce_sum(const OpData* d, const char* in, size_t elem, char* acc, size_t acc_elem,
                       void (*row)(const void*, void*, int, int)) {
  const int inner = d->dims[d->rank - 1];
  const size_t rows = inner ? d->in_count / (size_t)inner : 0;
  int idx[MEAN_MAX_DIMS] = {0};
  size_t off = 0;
  for (size_t r = 0; r < rows; ++r) {
    row(in + r * (size_t)inner * elem, acc + off * acc_elem, inner, d->last_reduced);
    for (int k = d->rank - 2; k >= 0; --k) {
      off += d->ostride[k];
      if (++idx[k] < d->dims[k]) break;
      off -= d->ostride[k] * (size_t)d->dims[k];
      idx[k] = 0;
    }
  }
}

/* TFLite's NEON MultiplyByQuantizedMultiplier4Rows: vqrdmulh then a rounding
 * right shift, both rounding ties up. */
static int32_t mbqm_ties_up(int32_t x, int32_t m, int shift) {
  const int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
  const int64_t p = (int64_t)(int32_t)((uint32_t)x << left) * m;
  const int64_t h = (p + (1LL << 30)) >> 31;
  return (int32_t)(right ? (h + (1LL << (right - 1))) >> right : h);
}

static int32_t clamp_s8(int32_t v) { return v < -128 ? -128 : (v > 127 ? 127 : v); }

TFF_ZEROED_INIT(init, OpData)

/* Marks the reduced dims of d (rank and dims set) from the axis values and
 * sizes the output. */
static TfLiteStatus resolve_axes(TfLiteContext* ctx, const TfLiteTensor* axis, int keep_dims,
                                 OpData* d, int* reduced, int* num_reduced, TfLiteTensor* out,
                                 int in_rank) {
  const size_t count = tff_num_elements(axis->dims);
  for (size_t i = 0; i < count; ++i) {
    const int a = axis->data.i32[i];
    TF_LITE_ENSURE_MSG(ctx, (in_rank == 0 && a == 0) || (a >= -in_rank && a < in_rank),
                       "axis %d out of range for an input of rank %d", a, in_rank);
    if (in_rank > 0 && !reduced[a < 0 ? a + in_rank : a]) {
      reduced[a < 0 ? a + in_rank : a] = 1;
      ++*num_reduced;
    }
  }
  int out_dims[MEAN_MAX_DIMS], out_rank = 0;
  for (int i = 0; i < in_rank; ++i) {
    if (!reduced[i]) {
      out_dims[out_rank++] = d->dims[i];
    } else if (keep_dims) {
      out_dims[out_rank++] = 1;
    }
  }
  size_t stride = 1, n = 1;
  for (int i = d->rank - 1; i >= 0; --i) {
    d->ostride[i] = reduced[i] ? 0 : stride;
    stride *= reduced[i] ? 1 : (size_t)d->dims[i];
    n *= reduced[i] ? (size_t)d->dims[i] : 1;
  }
  TF_LITE_ENSURE_MSG(ctx, d->in_count < (size_t)INT32_MAX, "input of %zu elements is too large",
                     d->in_count);
  d->n = (int32_t)n;
  d->out_count = stride;
  d->last_reduced = reduced[d->rank - 1];
  return tff_resize_output(ctx, out, out_rank, out_dims);
}

static void prepare_int8(TfLiteContext* ctx, const TfLiteTensor* in, const TfLiteTensor* axis,
                         const TfLiteTensor* out, const int* reduced, int num_reduced,
                         int keep_dims, OpData* d) {
  const float s_in = tff_scale(in), s_out = tff_scale(out);
  d->in_zp = tff_zero_point(in);
  d->out_zp = tff_zero_point(out);
  const int rank = tff_rank(in);
  /* XNNPACK needs the axes in the model (kTfLiteMmapRo) as a vector, at most 6 dims. */
  if (!tff_numerics_ref(ctx) && axis->allocation_type == kTfLiteMmapRo && tff_rank(axis) <= 1 &&
      tff_num_elements(axis->dims) > 0 && tff_num_elements(axis->dims) <= 6 && rank >= 1 &&
      rank <= 6) {
    d->kind = kMeanXnn;
    d->scale = (s_in / s_out) * (1.0f / (float)d->n);
    d->zp_f = (float)d->out_zp - ((float)d->n * (float)d->in_zp) * d->scale;
    return;
  }
  if (!tff_numerics_ref(ctx) && rank == 4 && keep_dims && num_reduced == 2 && reduced[1] &&
      reduced[2]) {
    d->kind = kMeanOpt;
    float t = (float)d->in_zp * s_in / s_out;
    t = t > 0 ? t + 0.5f : t - 0.5f;
    t = t < -1e9f ? -1e9f : (t > 1e9f ? 1e9f : t); /* absurd scales: keep the cast defined */
    d->bias = d->out_zp - (int32_t)t;
    tff_quantize_multiplier((double)(s_in / ((float)d->n * s_out)), &d->mult, &d->shift);
    d->channels = d->dims[3];
    d->channels16 = d->channels / 16 * 16;
    return;
  }
  /* QuantizedMeanOrSum: fold 1/N into the multiplier, keeping e' >= -31. */
  d->kind = kMeanRef;
  int32_t m;
  int e;
  tff_quantize_multiplier((double)s_in / (double)s_out, &m, &e);
  int k = 0;
  while (k < 62 && ((int64_t)1 << (k + 1)) <= (int64_t)d->n) ++k;
  k = k < 32 ? k : 32;
  k = k < 31 + e ? k : 31 + e;
  d->mult = d->n ? (int32_t)(((int64_t)m << k) / d->n) : 0;
  d->shift = e - k;
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  TF_LITE_ENSURE(ctx, d != NULL);
  TF_LITE_ENSURE_EQ(ctx, tff_num_inputs(node), 2);
  TF_LITE_ENSURE_EQ(ctx, tff_num_outputs(node), 1);
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* axis = tff_input(ctx, node, 1);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE(ctx, in != NULL && axis != NULL && out != NULL);
  TF_LITE_ENSURE_MSG(ctx, in->type == kTfLiteFloat32 || in->type == kTfLiteInt8,
                     "type %s not supported (float32, int8)", TfLiteTypeGetName(in->type));
  TF_LITE_ENSURE_TYPES_EQ(ctx, in->type, out->type);
  TF_LITE_ENSURE_TYPES_EQ(ctx, axis->type, kTfLiteInt32);
  TF_LITE_ENSURE_MSG(ctx, tff_is_constant(axis),
                     "axis tensor %d is not constant; dynamic shapes are not supported yet",
                     node->inputs->data[1]);
  const int in_rank = tff_rank(in);
  TF_LITE_ENSURE_MSG(ctx, in_rank <= MEAN_MAX_DIMS, "input rank %d exceeds %d", in_rank,
                     MEAN_MAX_DIMS);
  /* A scalar is reduced as the vector [1] with nothing to reduce. */
  d->rank = in_rank > 0 ? in_rank : 1;
  for (int i = 0; i < d->rank; ++i) d->dims[i] = in_rank > 0 ? tff_dim(in, i) : 1;
  d->in_count = tff_num_elements(in->dims);
  const TfLiteReducerParams* p = (const TfLiteReducerParams*)node->builtin_data;
  const int keep_dims = p != NULL && p->keep_dims;
  int reduced[MEAN_MAX_DIMS] = {0}, num_reduced = 0;
  TF_LITE_ENSURE_OK(ctx, resolve_axes(ctx, axis, keep_dims, d, reduced, &num_reduced, out,
                                      in_rank));
  if (in->type == kTfLiteFloat32) {
    d->kind = kMeanFloat;
    return kTfLiteOk;
  }
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, "MEAN", "input", in));
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, "MEAN", "output", out));
  prepare_int8(ctx, in, axis, out, reduced, num_reduced, keep_dims, d);
  return tff_scratch_request(ctx, node, 0, d->out_count * sizeof(int32_t));
}

static int32_t mean_s8(const OpData* d, int32_t sum, size_t o) {
  switch (d->kind) {
    case kMeanXnn: {
      const float v = (float)sum * d->scale + d->zp_f;
      return v <= -128.0f ? -128 : (v >= 127.0f ? 127 : (int32_t)nearbyintf(v));
    }
    case kMeanOpt: {
      const int c = (int)(o % (size_t)d->channels);
      const int32_t v = c < d->channels16 ? mbqm_ties_up(sum, d->mult, d->shift)
                                          : tff_mbqm(sum, d->mult, d->shift);
      return clamp_s8(v + d->bias);
    }
    default: {
      const int32_t x = (int32_t)((uint32_t)sum - (uint32_t)d->in_zp * (uint32_t)d->n);
      return clamp_s8(tff_mbqm(x, d->mult, d->shift) + d->out_zp);
    }
  }
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const OpData* d = (const OpData*)node->user_data;
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  if (d->kind == kMeanFloat) {
    float* o = out->data.f;
    memset(o, 0, d->out_count * sizeof(float));
    reduce_sum(d, in->data.raw_const, sizeof(float), (char*)o, sizeof(float), row_f32);
    /* An empty reduction is 0/0: NaN, as in TFLite. */
    for (size_t i = 0; i < d->out_count; ++i) o[i] = d->in_count ? o[i] / (float)d->n : NAN;
    return kTfLiteOk;
  }
  int32_t* acc = (int32_t*)tff_scratch(ctx, node, 0);
  memset(acc, 0, d->out_count * sizeof(int32_t));
  reduce_sum(d, in->data.raw_const, 1, (char*)acc, sizeof(int32_t), row_s8);
  for (size_t i = 0; i < d->out_count; ++i) {
    out->data.int8[i] = d->in_count ? (int8_t)mean_s8(d, acc[i], i) : 0;
  }
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_MEAN(void) {
  static const TfLiteRegistration r = {.init = init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinMean,
                                       .version = 1};
  return &r;
}
