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
#include "cpu/cpu.h"
#include "ops.h"
#include "reduce_common.h"
#include "ukernels/f32-rsum/f32-rsum.h"
#include "ukernels/ftz.h"

enum { kMeanFloat, kMeanFloatXnn, kMeanRef, kMeanXnn, kMeanOpt };

typedef struct OpData {
  int kind;
  tff_reduce r;
  int32_t in_zp, out_zp, mult;
  int shift;
  int32_t bias;                   /* OPT: z_out minus the rounded input zero point term */
  int channels16;                 /* OPT: channels handled 16 at a time */
  int channels;
  float scale, zp_f;              /* XNN (and float XNN: scale = 1/N) */
  size_t xdims[6];                /* float XNN: the input as XNNPACK normalizes it */
  int contiguous;                 /* float XNN: the innermost dim is reduced */
  tff_f32_rsum_fn rsum;           /* float XNN, contiguous */
} OpData;

#define SUM_FOLD(a, x) ((a) + (x))
TFF_REDUCE_ROW(row_f32, float, float, SUM_FOLD)
TFF_REDUCE_ROW(row_s8, int8_t, int32_t, SUM_FOLD)

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

/* XNNPACK's reduce (xnn_normalize_reduction): runs of adjacent reduced or
 * kept dims merged into one, the result right-aligned in 6 dims padded with
 * 1s, so the dims alternate kept/reduced. When the last dim is reduced
 * (contiguous), dims 1, 3, 5 are reduced: each output is the sum, over dims
 * 1 then 3 in order, of f32-rsum(row of dim 5) * (1/N). Otherwise dims 0,
 * 2, 4 are reduced: each output sums, over dims 0 then 2, the plain
 * running sum down dim 4 times 1/N (its rdsum kernel). Under FTZ/DAZ. */
static void prepare_float_xnn(OpData* d) {
  const tff_reduce* r = &d->r;
  size_t merged[6];
  int nd = 0;
  for (int i = 0; i < r->rank; ++i) {
    if (i > 0 && r->reduced[i] == r->reduced[i - 1]) {
      merged[nd - 1] *= (size_t)r->dims[i];
    } else {
      merged[nd++] = (size_t)r->dims[i];
    }
  }
  for (int i = 0; i < 6; ++i) d->xdims[i] = i < 6 - nd ? 1 : merged[i - (6 - nd)];
  d->contiguous = r->last_reduced;
  d->scale = 1.0f / (float)r->n;
  d->rsum = tff_f32_rsum_select(tff_cpu_effective())->fn;
  d->kind = kMeanFloatXnn;
}

/* The rdsum order for nb channels: each sums `rows` rows `stride` apart
 * from 0, then o (0 when first) += sum * scale. nb == MEAN_CB is a constant
 * after inlining, so the compiler vectorizes across channels. */
enum { MEAN_CB = 64 };
static TFF_ALWAYS_INLINE void mean_rdsum(size_t nb, const float* p, size_t rows, size_t stride,
                                         float scale, float* o, int first) {
  float sum[MEAN_CB];
  for (size_t c = 0; c < nb; ++c) sum[c] = 0.0f;
  for (size_t k = 0; k < rows; ++k)
    for (size_t c = 0; c < nb; ++c) sum[c] += p[k * stride + c];
  for (size_t c = 0; c < nb; ++c) o[c] = (first ? 0.0f : o[c]) + sum[c] * scale;
}

static void mean_float_xnn(const OpData* d, const float* x, float* o) {
  const unsigned csr = tff_ftz_enter();
  const size_t* s = d->xdims;
  size_t st[6];
  st[5] = 1;
  for (int i = 4; i >= 0; --i) st[i] = st[i + 1] * s[i + 1];
  if (d->contiguous) {
    for (size_t a = 0; a < s[0]; ++a)
      for (size_t b = 0; b < s[2]; ++b)
        for (size_t c = 0; c < s[4]; ++c, ++o) {
          *o = 0.0f;
          for (size_t i = 0; i < s[1]; ++i)
            for (size_t j = 0; j < s[3]; ++j)
              d->rsum(s[5], x + a * st[0] + i * st[1] + b * st[2] + j * st[3] + c * st[4],
                      d->scale, o);
        }
    tff_ftz_leave(csr);
    return;
  }
  /* Dim 5 in blocks of MEAN_CB channels, so rows are read contiguously: a
   * 7x7x1280 global pool is 49 reads of 1280 floats, not 1280 columns at a
   * 5 KB stride. */
  for (size_t a = 0; a < s[1]; ++a)
    for (size_t b = 0; b < s[3]; ++b, o += s[5])
      for (size_t c0 = 0; c0 < s[5]; c0 += MEAN_CB) {
        const size_t nb = s[5] - c0;
        for (size_t i = 0; i < s[0]; ++i)
          for (size_t j = 0; j < s[2]; ++j) {
            const float* p = x + a * st[1] + b * st[3] + c0 + i * st[0] + j * st[2];
            if (nb >= MEAN_CB)
              mean_rdsum(MEAN_CB, p, s[4], st[4], d->scale, o + c0, i + j == 0);
            else
              mean_rdsum(nb, p, s[4], st[4], d->scale, o + c0, i + j == 0);
          }
      }
  tff_ftz_leave(csr);
}

static void prepare_int8(TfLiteContext* ctx, TfLiteNode* node, const TfLiteTensor* in,
                         const TfLiteTensor* out, int keep_dims, OpData* d) {
  const tff_reduce* r = &d->r;
  const float s_in = tff_scale(in), s_out = tff_scale(out);
  d->in_zp = tff_zero_point(in);
  d->out_zp = tff_zero_point(out);
  if (tff_reduce_xnn(ctx, node)) {
    d->kind = kMeanXnn;
    d->scale = (s_in / s_out) * (1.0f / (float)r->n);
    d->zp_f = (float)d->out_zp - ((float)r->n * (float)d->in_zp) * d->scale;
    return;
  }
  if (!tff_numerics_ref(ctx) && tff_rank(in) == 4 && keep_dims && r->num_reduced == 2 &&
      r->reduced[1] && r->reduced[2]) {
    d->kind = kMeanOpt;
    float t = (float)d->in_zp * s_in / s_out;
    t = t > 0 ? t + 0.5f : t - 0.5f;
    t = t < -1e9f ? -1e9f : (t > 1e9f ? 1e9f : t); /* absurd scales: keep the cast defined */
    d->bias = d->out_zp - (int32_t)t;
    tff_quantize_multiplier((double)(s_in / ((float)r->n * s_out)), &d->mult, &d->shift);
    d->channels = r->dims[3];
    d->channels16 = d->channels / 16 * 16;
    return;
  }
  /* QuantizedMeanOrSum: fold 1/N into the multiplier, keeping e' >= -31. */
  d->kind = kMeanRef;
  int32_t m;
  int e;
  tff_quantize_multiplier((double)s_in / (double)s_out, &m, &e);
  int k = 0;
  while (k < 62 && ((int64_t)1 << (k + 1)) <= (int64_t)r->n) ++k;
  k = k < 32 ? k : 32;
  k = k < 31 + e ? k : 31 + e;
  d->mult = r->n ? (int32_t)(((int64_t)m << k) / r->n) : 0;
  d->shift = e - k;
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  TF_LITE_ENSURE(ctx, d != NULL);
  TF_LITE_ENSURE_OK(ctx, tff_reduce_prepare(ctx, node, "MEAN", &d->r));
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE_MSG(ctx, in->type == kTfLiteFloat32 || in->type == kTfLiteInt8,
                     "type %s not supported (float32, int8)", TfLiteTypeGetName(in->type));
  if (in->type == kTfLiteFloat32) {
    d->kind = kMeanFloat;
    if (tff_reduce_xnn(ctx, node) && d->r.in_count > 0) prepare_float_xnn(d);
    return kTfLiteOk;
  }
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, "MEAN", "input", in));
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, "MEAN", "output", out));
  const TfLiteReducerParams* p = (const TfLiteReducerParams*)node->builtin_data;
  prepare_int8(ctx, node, in, out, p != NULL && p->keep_dims, d);
  return tff_scratch_request(ctx, node, 0, d->r.out_count * sizeof(int32_t));
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
      const int32_t x = (int32_t)((uint32_t)sum - (uint32_t)d->in_zp * (uint32_t)d->r.n);
      return clamp_s8(tff_mbqm(x, d->mult, d->shift) + d->out_zp);
    }
  }
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const OpData* d = (const OpData*)node->user_data;
  const tff_reduce* r = &d->r;
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  if (d->kind == kMeanFloatXnn) {
    mean_float_xnn(d, in->data.f, out->data.f);
    return kTfLiteOk;
  }
  if (d->kind == kMeanFloat) {
    float* o = out->data.f;
    memset(o, 0, r->out_count * sizeof(float));
    tff_reduce_walk(r, in->data.raw_const, sizeof(float), o, sizeof(float), row_f32, NULL);
    /* An empty reduction is 0/0: NaN, as in TFLite. */
    for (size_t i = 0; i < r->out_count; ++i) o[i] = r->in_count ? o[i] / (float)r->n : NAN;
    return kTfLiteOk;
  }
  int32_t* acc = (int32_t*)tff_scratch(ctx, node, 0);
  memset(acc, 0, r->out_count * sizeof(int32_t));
  tff_reduce_walk(r, in->data.raw_const, 1, acc, sizeof(int32_t), row_s8, NULL);
  for (size_t i = 0; i < r->out_count; ++i) {
    out->data.int8[i] = r->in_count ? (int8_t)mean_s8(d, acc[i], i) : 0;
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
