/* BATCH_MATMUL: out[..., i, j] = Σ_k lhs[..., i, k]·rhs[..., k, j], with
 * adj_x / adj_y transposing the last two dims of lhs / rhs, ranks 2 to 5 and
 * the batch dims broadcast (a dim of 1 against any size).
 *
 * Types and numerics (TFLite batch_matmul.cc; since 2025 its only kernel is
 * the reference one, so AUTO runs either that or XNNPACK):
 *  - float32: Σ in k order, per output, from 0; reference: separate
 *    multiply and add; default: fused multiply-adds, as XNNPACK's GEMM does
 *    (bit-exact with both, which matters when the product feeds a hybrid
 *    FULLY_CONNECTED that quantizes it on the fly).
 *  - int8 x int8 -> int8, per-tensor: acc = Σ (l − z_l)(r − z_r), exact.
 *      reference: y = clamp(MBQM(acc, QM((double)f32(s_l·s_r) / s_out)) + z_out)
 *      default, when AUTO's XNNPACK takes the node (rhs zero point 0):
 *               y = clamp(rint(f32(acc)·f32(f32(s_l·s_r)/s_out)) + z_out)
 *  - int8 x int8 -> int32: Σ l·r without zero points (TFLite's kernel).
 * Hybrid (float lhs, int8 rhs) and int16 are refused. */
#include <limits.h>
#include <math.h>

#include "kernel_util.h"
#include "ops.h"

#define BMM_MAX_DIMS 5

enum { KIND_F32, KIND_Q8, KIND_I32 };

typedef struct OpData {
  int kind, adj_x, adj_y;
  int fused;                       /* float: XNNPACK's fused multiply-adds */
  int m, n, k;
  int batch_rank;                  /* output batch dims */
  int batch[BMM_MAX_DIMS];         /* their sizes */
  size_t lstride[BMM_MAX_DIMS];    /* matrices to step per batch index; 0 = broadcast */
  size_t rstride[BMM_MAX_DIMS];
  /* int8 */
  int xnn;
  int32_t zl, zr, zo, mult;
  int shift;
  float scale;
} OpData;

TFF_ZEROED_INIT(init, OpData)

enum { SCRATCH_RHS_T = 0, SCRATCH_ACC = 1 };

/* r [n][k] -> rt [k][n] (the rhs of adj_y, so rows of the product stream). */
#define TRANSPOSE_RHS(T)                                                          \
  static void transpose_##T(const T* r, int n, int k, T* rt) {                    \
    for (int j = 0; j < n; ++j)                                                   \
      for (int p = 0; p < k; ++p) rt[(size_t)p * n + j] = r[(size_t)j * k + p];   \
  }
TRANSPOSE_RHS(float)
TRANSPOSE_RHS(int8_t)
#undef TRANSPOSE_RHS

/* Element (i, p) of the lhs matrix, stored [m][k] or, with adj_x, [k][m]. */
static inline size_t lhs_at(const OpData* d, int i, int p) {
  return d->adj_x ? (size_t)p * d->m + i : (size_t)i * d->k + p;
}

/* One product: l [m][k] (or [k][m]), r as [k][n]; out [m][n]. Each output
 * accumulates over k in order, from 0: the reference kernel with separate
 * multiply and add, XNNPACK's GEMM (AUTO) with fused multiply-adds. */
static void matmul_f32(const OpData* d, const float* l, const float* r, float* out) {
  const int n = d->n;
  for (int i = 0; i < d->m; ++i) {
    float* o = out + (size_t)i * n;
    for (int j = 0; j < n; ++j) o[j] = 0.0f;
    for (int p = 0; p < d->k; ++p) {
      const float a = l[lhs_at(d, i, p)];
      const float* b = r + (size_t)p * n;
      if (d->fused) {
        for (int j = 0; j < n; ++j) o[j] = fmaf(a, b[j], o[j]);
      } else {
        for (int j = 0; j < n; ++j) o[j] += a * b[j];
      }
    }
  }
}

/* Integer sums wrap in uint32, as TFLite's int32 does in practice. */
static void matmul_s8(const OpData* d, const int8_t* l, const int8_t* r, uint32_t* acc,
                      int32_t zl, int32_t zr, void* out) {
  const int n = d->n;
  for (int i = 0; i < d->m; ++i) {
    for (int j = 0; j < n; ++j) acc[j] = 0;
    for (int p = 0; p < d->k; ++p) {
      const int32_t a = l[lhs_at(d, i, p)] - zl;
      const int8_t* b = r + (size_t)p * n;
      for (int j = 0; j < n; ++j) acc[j] += (uint32_t)(a * (b[j] - zr));
    }
    if (d->kind == KIND_I32) {
      int32_t* o = (int32_t*)out + (size_t)i * n;
      for (int j = 0; j < n; ++j) o[j] = (int32_t)acc[j];
    } else if (d->xnn) {
      int8_t* o = (int8_t*)out + (size_t)i * n;
      const float lo = (float)(INT8_MIN - d->zo), hi = (float)(INT8_MAX - d->zo);
      for (int j = 0; j < n; ++j) o[j] = (int8_t)tff_requant_fp32((int32_t)acc[j], d->scale, lo, hi, d->zo);
    } else {
      int8_t* o = (int8_t*)out + (size_t)i * n;
      for (int j = 0; j < n; ++j) {
        const int32_t v = tff_mbqm((int32_t)acc[j], d->mult, d->shift) + d->zo;
        o[j] = (int8_t)(v < INT8_MIN ? INT8_MIN : (v > INT8_MAX ? INT8_MAX : v));
      }
    }
  }
}

/* Per-tensor int8 quantization: one scale, finite and > 0, an int8 zero
 * point. */
static TfLiteStatus check_q8(TfLiteContext* ctx, const char* what, const TfLiteTensor* t) {
  const TfLiteAffineQuantization* q = tff_affine(t);
  TF_LITE_ENSURE_MSG(ctx, q == NULL || q->scale == NULL || q->scale->size <= 1,
                     "BATCH_MATMUL: %s has %d scales; per-channel quantization is not supported",
                     what, q && q->scale ? q->scale->size : 0);
  return tff_check_quant(ctx, "BATCH_MATMUL", what, t);
}

static TfLiteStatus prepare_q8(TfLiteContext* ctx, const TfLiteTensor* l, const TfLiteTensor* r,
                               const TfLiteTensor* out, OpData* d) {
  if (d->kind == KIND_I32) {
    /* TFLite's int32 output ignores the quantization. */
    d->zl = d->zr = 0;
    return kTfLiteOk;
  }
  TF_LITE_ENSURE_OK(ctx, check_q8(ctx, "lhs", l));
  TF_LITE_ENSURE_OK(ctx, check_q8(ctx, "rhs", r));
  TF_LITE_ENSURE_OK(ctx, check_q8(ctx, "output", out));
  d->zl = tff_zero_point(l);
  d->zr = tff_zero_point(r);
  d->zo = tff_zero_point(out);
  const float prod = tff_scale(l) * tff_scale(r);
  /* XNNPACK (AUTO) takes int8 batch matmuls whose rhs zero point is 0. */
  d->xnn = !tff_numerics_ref(ctx) && d->zr == 0;
  if (d->xnn) {
    d->scale = prod / tff_scale(out);
    return kTfLiteOk;
  }
  const double real = (double)prod / (double)tff_scale(out);
  tff_quantize_multiplier(real, &d->mult, &d->shift);
  TF_LITE_ENSURE_MSG(ctx, isfinite(real) && d->shift <= 30,
                     "BATCH_MATMUL: requantization scale %g (lhs %g, rhs %g, output %g) is too "
                     "large", real, (double)tff_scale(l), (double)tff_scale(r),
                     (double)tff_scale(out));
  return kTfLiteOk;
}

/* Shapes: validates ranks, the contraction and the batch broadcast; sets
 * m, n, k and the batch walk; sizes the output. */
static TfLiteStatus prepare_shapes(TfLiteContext* ctx, const TfLiteTensor* l,
                                   const TfLiteTensor* r, TfLiteTensor* out, OpData* d) {
  const int lr = tff_rank(l), rr = tff_rank(r);
  TF_LITE_ENSURE_MSG(ctx, lr >= 2 && lr <= BMM_MAX_DIMS && rr >= 2 && rr <= BMM_MAX_DIMS,
                     "BATCH_MATMUL: ranks %d and %d must be between 2 and %d", lr, rr,
                     BMM_MAX_DIMS);
  const int rank = lr > rr ? lr : rr;
  d->m = tff_dim(l, lr - (d->adj_x ? 1 : 2));
  const int kl = tff_dim(l, lr - (d->adj_x ? 2 : 1));
  const int kr = tff_dim(r, rr - (d->adj_y ? 1 : 2));
  d->n = tff_dim(r, rr - (d->adj_y ? 2 : 1));
  TF_LITE_ENSURE_MSG(ctx, kl == kr,
                     "BATCH_MATMUL: lhs contracts over %d elements, rhs over %d", kl, kr);
  d->k = kl;
  int dims[BMM_MAX_DIMS];
  d->batch_rank = rank - 2;
  /* Matrices per step of each batch dim, computed innermost first. */
  size_t lm = 1, rm = 1;
  for (int i = rank - 3; i >= 0; --i) {
    const int il = i - (rank - lr), ir = i - (rank - rr);
    const int dl = il >= 0 ? tff_dim(l, il) : 1, dr = ir >= 0 ? tff_dim(r, ir) : 1;
    TF_LITE_ENSURE_MSG(ctx, dl == dr || dl == 1 || dr == 1,
                       "BATCH_MATMUL: batch dim %d is %d for lhs and %d for rhs", i, dl, dr);
    d->batch[i] = dims[i] = dl == 1 ? dr : dl;
    d->lstride[i] = dl == 1 ? 0 : lm;
    d->rstride[i] = dr == 1 ? 0 : rm;
    lm *= (size_t)dl;
    rm *= (size_t)dr;
  }
  dims[rank - 2] = d->m;
  dims[rank - 1] = d->n;
  return tff_resize_output(ctx, out, rank, dims);
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  TF_LITE_ENSURE_MSG(ctx, d != NULL, "BATCH_MATMUL: out of memory");
  TF_LITE_ENSURE_MSG(ctx, tff_num_inputs(node) == 2 && tff_num_outputs(node) == 1,
                     "BATCH_MATMUL: expected 2 inputs and 1 output, got %d and %d",
                     tff_num_inputs(node), tff_num_outputs(node));
  const TfLiteTensor* l = tff_input(ctx, node, 0);
  const TfLiteTensor* r = tff_input(ctx, node, 1);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE_MSG(ctx, l && r && out, "BATCH_MATMUL: an input or the output is missing");
  const TfLiteBatchMatMulParams* p = (const TfLiteBatchMatMulParams*)node->builtin_data;
  d->adj_x = p != NULL && p->adj_x;
  d->adj_y = p != NULL && p->adj_y;
  if (l->type == kTfLiteFloat32 && r->type == kTfLiteFloat32 && out->type == kTfLiteFloat32) {
    d->kind = KIND_F32;
  } else if (l->type == kTfLiteInt8 && r->type == kTfLiteInt8 &&
             (out->type == kTfLiteInt8 || out->type == kTfLiteInt32)) {
    d->kind = out->type == kTfLiteInt8 ? KIND_Q8 : KIND_I32;
  } else {
    TF_LITE_KERNEL_LOG(ctx,
                       "BATCH_MATMUL: lhs %s, rhs %s, output %s is not supported (float32 or "
                       "int8 inputs; int8 or int32 output for int8)",
                       TfLiteTypeGetName(l->type), TfLiteTypeGetName(r->type),
                       TfLiteTypeGetName(out->type));
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(ctx, prepare_shapes(ctx, l, r, out, d));
  d->fused = d->kind == KIND_F32 && !tff_numerics_ref(ctx);
  if (d->kind != KIND_F32) TF_LITE_ENSURE_OK(ctx, prepare_q8(ctx, l, r, out, d));
  const size_t es = d->kind == KIND_F32 ? sizeof(float) : 1;
  TF_LITE_ENSURE_OK(ctx, tff_scratch_request(ctx, node, SCRATCH_RHS_T,
                                             d->adj_y ? (size_t)d->k * d->n * es : 0));
  return tff_scratch_request(ctx, node, SCRATCH_ACC,
                             d->kind == KIND_F32 ? 0 : (size_t)d->n * sizeof(uint32_t));
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const OpData* d = (const OpData*)node->user_data;
  const TfLiteTensor* l = tff_input(ctx, node, 0);
  const TfLiteTensor* r = tff_input(ctx, node, 1);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  if (tff_num_elements(out->dims) == 0) return kTfLiteOk;
  const size_t es = d->kind == KIND_F32 ? sizeof(float) : 1;
  const size_t oes = d->kind == KIND_Q8 ? 1 : 4;
  const size_t lsize = (size_t)d->m * d->k * es, rsize = (size_t)d->k * d->n * es;
  const size_t osize = (size_t)d->m * d->n * oes;
  void* rt = tff_scratch(ctx, node, SCRATCH_RHS_T);
  uint32_t* acc = (uint32_t*)tff_scratch(ctx, node, SCRATCH_ACC);
  size_t batches = 1;
  for (int i = 0; i < d->batch_rank; ++i) batches *= (size_t)d->batch[i];
  int idx[BMM_MAX_DIMS] = {0};
  size_t li = 0, ri = 0;
  for (size_t b = 0; b < batches; ++b) {
    const char* lp = l->data.raw_const + li * lsize;
    const char* rp = r->data.raw_const + ri * rsize;
    char* op = out->data.raw + b * osize;
    if (d->adj_y) {
      if (d->kind == KIND_F32) {
        transpose_float((const float*)rp, d->n, d->k, (float*)rt);
      } else {
        transpose_int8_t((const int8_t*)rp, d->n, d->k, (int8_t*)rt);
      }
      rp = (const char*)rt;
    }
    if (d->kind == KIND_F32) {
      matmul_f32(d, (const float*)lp, (const float*)rp, (float*)op);
    } else {
      matmul_s8(d, (const int8_t*)lp, (const int8_t*)rp, acc, d->zl, d->zr, op);
    }
    for (int i = d->batch_rank - 1; i >= 0; --i) {
      li += d->lstride[i];
      ri += d->rstride[i];
      if (++idx[i] < d->batch[i]) break;
      li -= d->lstride[i] * (size_t)d->batch[i];
      ri -= d->rstride[i] * (size_t)d->batch[i];
      idx[i] = 0;
    }
  }
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_BATCH_MATMUL(void) {
  static const TfLiteRegistration r = {.init = init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinBatchMatmul,
                                       .version = 1};
  return &r;
}
