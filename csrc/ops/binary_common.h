/* Shared by ADD, SUB and MUL: prepare checks, the broadcast walk, and the
 * ADD/SUB kernels (SUB is ADD with the second input negated, in both
 * numerics modes, so add.c and sub.c only name themselves).
 *
 * The walk: tff_bcast_prepare's shape is collapsed at prepare (size-1 dims
 * dropped, neighbours merged where both inputs step through them alike), so
 * same-shape inputs become one row and a per-channel operand becomes rows of
 * C. A row kernel gets each input either as a full row or as one repeated
 * value, one loop per case, so each loop vectorizes.
 *
 * SIMD: float32 ADD/SUB/MUL and the default-mode int8 ADD/SUB (XNNPACK's
 * formula) run ukernels (csrc/ukernels/f32-vbinary, qs8-vadd; MUL's int8 in
 * mul.c uses qs8-vmul) chosen at prepare from tff_cpu_effective(): a row of
 * two full operands takes the v kernel, a row against one repeated value the
 * c kernel (operands swapped when the first one repeats). The reference
 * int8 formula and int32 stay portable loops.
 *
 * Constant folding: when every input is constant at prepare, the output is
 * made kTfLitePersistentRo and computed there; invoke then has nothing to do.
 */
#ifndef TFLITE_FAST_OPS_BINARY_COMMON_H_
#define TFLITE_FAST_OPS_BINARY_COMMON_H_

#include <float.h>
#include <limits.h>
#include <stdlib.h>

#include "cpu/cpu.h"
#include "kernel_util.h"
#include "threadpool.h"
#include "ukernels/f32-vbinary/f32-vbinary.h"
#include "ukernels/qs8-vadd/qs8-vadd.h"

/* out[i] = f(a[i or 0], b[i or 0]) for i < n; a_row/b_row say which. */
typedef void (*tff_row_fn)(const void* a, const void* b, void* out, size_t n, int a_row,
                           int b_row, const void* params);

/* Defines `static inline void NAME(...)` with output parameter type OPT
 * writing OT elements: ELEM(x, y, params) (x of type T, y of type TB, params
 * of type const P*) over one row, where either operand may repeat its first
 * element. */
#define TFF_ROW_OF2(NAME, T, TB, OT, OPT, P, ELEM)                                       \
  static inline void NAME(const void* a_, const void* b_, OPT o_, size_t n, int a_row,   \
                          int b_row, const void* p_) {                                   \
    const T* a = (const T*)a_;                                                           \
    const TB* b = (const TB*)b_;                                                         \
    OT* o = (OT*)o_;                                                                     \
    const P* p = (const P*)p_;                                                           \
    (void)p;                                                                             \
    if (a_row && b_row) {                                                                \
      for (size_t i = 0; i < n; ++i) o[i] = ELEM(a[i], b[i], p);                         \
    } else if (b_row) {                                                                  \
      const T x = a[0];                                                                  \
      for (size_t i = 0; i < n; ++i) o[i] = ELEM(x, b[i], p);                            \
    } else if (a_row) {                                                                  \
      const TB y = b[0];                                                                 \
      for (size_t i = 0; i < n; ++i) o[i] = ELEM(a[i], y, p);                            \
    } else {                                                                             \
      const OT v = ELEM(a[0], b[0], p);                                                  \
      for (size_t i = 0; i < n; ++i) o[i] = v;                                           \
    }                                                                                    \
  }

#define TFF_ROW_OF(NAME, T, OT, OPT, P, ELEM) TFF_ROW_OF2(NAME, T, T, OT, OPT, P, ELEM)

/* A tff_row_fn: T in, T out. */
#define TFF_BINARY_ROW(NAME, T, P, ELEM) TFF_ROW_OF(NAME, T, T, void*, P, ELEM)

/* A prepared binary op: the collapsed walk, the row kernel and its params. */
typedef struct tff_binary {
  tff_bcast bc;      /* rank >= 1; the last dim is the row */
  size_t elsize;     /* bytes per element of every tensor... */
  size_t elsize_b;   /* ...but input 2's when not 0 (PRELU's int8 alpha of int16) */
  tff_row_fn row;
  const void* params;
  const char* kernel; /* the same-shape ukernel's name, or NULL (portable row) */
  int allow_int16;    /* set by an op with an int16 kernel before prepare */
  int any_type;       /* set by an op that checks its types itself (tff_binary_rows) */
} tff_binary;

/* profiling_string of ADD, SUB and MUL (whose OpData begins with tff_binary). */
static inline const char* tff_binary_kernel_name(const TfLiteContext* ctx, const TfLiteNode* node) {
  (void)ctx;
  const tff_binary* op = (const tff_binary*)node->user_data;
  return op && op->kernel ? op->kernel : "";
}

/* Defines NAME, a tff_row_fn over ukernels held in a struct K with members
 * p and swapped (params) and vv, vc, cv (kernels of elements T): vv for two
 * rows, vc for a row and a repeated second operand, cv (arguments: the row,
 * then the value; params `swapped`) for a repeated first operand. */
#define TFF_UKERNEL_ROW(NAME, K, T)                                                         \
  static inline void NAME(const void* a, const void* b, void* o, size_t n, int a_row,       \
                          int b_row, const void* params) {                                  \
    const K* k = (const K*)params;                                                          \
    if (a_row && b_row) {                                                                   \
      k->vv(n, (const T*)a, (const T*)b, (T*)o, &k->p);                                     \
    } else if (a_row) {                                                                     \
      k->vc(n, (const T*)a, (const T*)b, (T*)o, &k->p);                                     \
    } else if (b_row) {                                                                     \
      k->cv(n, (const T*)b, (const T*)a, (T*)o, &k->swapped);                               \
    } else {                                                                                \
      T* out = (T*)o;                                                                       \
      k->vv(1, (const T*)a, (const T*)b, out, &k->p);                                       \
      for (size_t i = 1; i < n; ++i) out[i] = out[0];                                       \
    }                                                                                       \
  }

/* float32: cv is vaddc/vmulc (commutative) or vrsubc; swapped == p. */
typedef struct tff_vbin_f32 {
  tff_f32_minmax_params p, swapped;
  tff_f32_vbinary_fn vv, vc, cv;
} tff_vbin_f32;
TFF_UKERNEL_ROW(tff_vbin_f32_row, tff_vbin_f32, float)

/* Default-mode int8 ADD/SUB: cv is vaddc with the operands' multipliers
 * exchanged in `swapped`. */
typedef struct tff_vadd_q8 {
  tff_qs8_add_minmax_params p, swapped;
  tff_qs8_vadd_fn vv, vc, cv;
} tff_vadd_q8;
TFF_UKERNEL_ROW(tff_vadd_q8_row, tff_vadd_q8, int8_t)

/* Drops size-1 dims and merges neighbouring dims that both inputs step
 * through contiguously, or both broadcast. Keeps rank >= 1. */
static inline void tff_bcast_collapse(tff_bcast* bc) {
  tff_bcast c = {0};
  for (int i = 0; i < bc->rank; ++i) {
    if (bc->shape[i] == 1) continue;
    const int r = c.rank - 1;
    /* int64: a zero-size tensor may have other dims whose product passes
     * INT_MAX (a fuzzed model did); such dims are left unmerged. */
    if (r >= 0 && (int64_t)bc->stride_a[i] * bc->shape[i] == c.stride_a[r] &&
        (int64_t)bc->stride_b[i] * bc->shape[i] == c.stride_b[r] &&
        (int64_t)c.shape[r] * bc->shape[i] <= INT32_MAX) {
      c.shape[r] *= bc->shape[i];
      c.stride_a[r] = bc->stride_a[i];
      c.stride_b[r] = bc->stride_b[i];
      continue;
    }
    c.shape[c.rank] = bc->shape[i];
    c.stride_a[c.rank] = bc->stride_a[i];
    c.stride_b[c.rank] = bc->stride_b[i];
    ++c.rank;
  }
  if (c.rank == 0) { /* one element */
    c.rank = 1;
    c.shape[0] = 1;
    c.stride_a[0] = c.stride_b[0] = 1;
  }
  *bc = c;
}

/* Runs the op over the whole output: one row call per innermost row,
 * with an odometer over the outer dims. */
static inline void tff_binary_run(const tff_binary* op, const void* a, const void* b, void* out) {
  const tff_bcast* bc = &op->bc;
  const int last = bc->rank - 1;
  const size_t inner = (size_t)bc->shape[last];
  size_t rows = 1;
  for (int d = 0; d < last; ++d) rows *= (size_t)bc->shape[d];
  const char* pa = (const char*)a;
  const char* pb = (const char*)b;
  char* po = (char*)out;
  const int a_row = bc->stride_a[last] != 0, b_row = bc->stride_b[last] != 0;
  const size_t elsize_b = op->elsize_b ? op->elsize_b : op->elsize;
  int idx[TFF_MAX_BCAST_DIMS] = {0};
  size_t ia = 0, ib = 0;
  for (size_t r = 0; r < rows; ++r) {
    op->row(pa + ia * op->elsize, pb + ib * elsize_b, po + r * inner * op->elsize, inner,
            a_row, b_row, op->params);
    for (int d = last - 1; d >= 0; --d) {
      ia += (size_t)bc->stride_a[d];
      ib += (size_t)bc->stride_b[d];
      if (++idx[d] < bc->shape[d]) break;
      ia -= (size_t)bc->stride_a[d] * (size_t)bc->shape[d];
      ib -= (size_t)bc->stride_b[d] * (size_t)bc->shape[d];
      idx[d] = 0;
    }
  }
}

/* Shapes out from a and b (any rank when their shapes are equal, else
 * broadcast up to 6 dims) and sets the collapsed walk *bc. */
static inline TfLiteStatus tff_binary_shape(TfLiteContext* ctx, const char* name,
                                            const TfLiteTensor* a, const TfLiteTensor* b,
                                            TfLiteTensor* out, tff_bcast* bc) {
  if (TfLiteIntArrayEqual(a->dims, b->dims)) {
    const size_t n = tff_num_elements(a->dims);
    TF_LITE_ENSURE_MSG(ctx, n <= INT_MAX, "%s: %zu elements is too many", name, n);
    *bc = (tff_bcast){.rank = 1, .shape = {(int)n}, .stride_a = {1}, .stride_b = {1}};
    return tff_resize_output(ctx, out, a->dims->size, a->dims->data);
  }
  TF_LITE_ENSURE_OK(ctx, tff_bcast_prepare(ctx, a->dims, b->dims, bc));
  TF_LITE_ENSURE_OK(ctx, tff_resize_output(ctx, out, bc->rank, bc->shape));
  tff_bcast_collapse(bc);
  return kTfLiteOk;
}

/* Checks arity, presence and matching types; shapes the output (any rank
 * when the input shapes are equal, else broadcast up to 6 dims) and sets
 * op->bc and op->elsize. The caller fills op->row and op->params. */
static inline TfLiteStatus tff_binary_prepare(TfLiteContext* ctx, TfLiteNode* node,
                                              const char* name, tff_binary* op) {
  TF_LITE_ENSURE_MSG(ctx, tff_num_inputs(node) == 2 && tff_num_outputs(node) == 1,
                     "%s: expected 2 inputs and 1 output, got %d and %d", name,
                     tff_num_inputs(node), tff_num_outputs(node));
  const TfLiteTensor* a = tff_input(ctx, node, 0);
  const TfLiteTensor* b = tff_input(ctx, node, 1);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE_MSG(ctx, a && b && out, "%s: an input or the output is missing", name);
  TF_LITE_ENSURE_MSG(ctx, a->type == b->type && a->type == out->type,
                     "%s: input types %s and %s and output type %s must be equal", name,
                     TfLiteTypeGetName(a->type), TfLiteTypeGetName(b->type),
                     TfLiteTypeGetName(out->type));
  TF_LITE_ENSURE_OK(ctx, tff_binary_shape(ctx, name, a, b, out, &op->bc));
  if (op->any_type) {
    op->elsize = tff_type_size(a->type);
    return kTfLiteOk;
  }
  switch (a->type) {
    case kTfLiteFloat32: case kTfLiteInt32: op->elsize = 4; break;
    case kTfLiteInt8: op->elsize = 1; break;
    case kTfLiteInt16:
      if (op->allow_int16) {
        op->elsize = 2;
        break;
      }
      /* fall through */
    default:
      TF_LITE_KERNEL_LOG(ctx, "%s: type %s is not supported (float32, int32, int8)", name,
                         TfLiteTypeGetName(a->type));
      return kTfLiteError;
  }
  return kTfLiteOk;
}

/* Ends prepare: with every input constant, the output becomes persistent
 * and is computed now (TFLite folds MUL alike). */
static inline TfLiteStatus tff_binary_fold(TfLiteContext* ctx, TfLiteNode* node,
                                           const tff_binary* op) {
  if (!tff_inputs_constant(ctx, node)) return kTfLiteOk;
  TfLiteTensor* out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE_OK(ctx, tff_resize_output_persistent(ctx, out, out->dims->size, out->dims->data));
  tff_binary_run(op, tff_input(ctx, node, 0)->data.data, tff_input(ctx, node, 1)->data.data,
                 out->data.data);
  return kTfLiteOk;
}

/* Same-shape operands on several threads: blocks of elements, at least
 * two (8K elements, microseconds of work) a chunk. */
enum { kTffBinaryBlock = 4096, kTffBinaryGrain = 2 };
typedef struct {
  const tff_binary* op;
  const char *a, *b;
  char* out;
} tff_binary_split;

static void tff_binary_blocks(void* arg, int begin, int end) {
  const tff_binary_split* s = (const tff_binary_split*)arg;
  const tff_binary* op = s->op;
  const size_t n = (size_t)op->bc.shape[0], i0 = (size_t)begin * kTffBinaryBlock;
  const size_t i1 = (size_t)end * kTffBinaryBlock < n ? (size_t)end * kTffBinaryBlock : n;
  const size_t elsize_b = op->elsize_b ? op->elsize_b : op->elsize;
  op->row(s->a + i0 * op->elsize, s->b + i0 * elsize_b, s->out + i0 * op->elsize, i1 - i0, 1,
          1, op->params);
}

static inline TfLiteStatus tff_binary_invoke(TfLiteContext* ctx, TfLiteNode* node,
                                             const tff_binary* op) {
  TfLiteTensor* out = tff_output(ctx, node, 0);
  if (out->allocation_type == kTfLitePersistentRo) return kTfLiteOk; /* folded */
  const void* a = tff_input(ctx, node, 0)->data.data;
  const void* b = tff_input(ctx, node, 1)->data.data;
  const tff_bcast* bc = &op->bc;
  if (bc->rank == 1 && bc->stride_a[0] && bc->stride_b[0] && tff_num_threads(ctx) > 1) {
    tff_binary_split s = {op, (const char*)a, (const char*)b, (char*)out->data.data};
    const int blocks = (int)(((size_t)bc->shape[0] + kTffBinaryBlock - 1) / kTffBinaryBlock);
    tff_parallel_for(ctx, blocks, kTffBinaryGrain, tff_binary_blocks, &s);
    return kTfLiteOk;
  }
  tff_binary_run(op, a, b, out->data.data);
  return kTfLiteOk;
}

/* The row kernels of an op without quantization parameters, per type
 * (NULL: unsupported), and the supported types for the error message. */
typedef struct tff_binary_rows {
  tff_row_fn f32, i8, u8, i16, i32, i64;
  const char* types;
  tff_row_fn f16; /* last: only MAXIMUM and MINIMUM name it */
} tff_binary_rows;

/* Defines the rows P_f32 ... P_i64 of ELEM(x, y, p) (a type-generic
 * expression; params of type P). */
#define TFF_BINARY_ROWS(P, PT, ELEM)                \
  TFF_BINARY_ROW(P##_f32, float, PT, ELEM)          \
  TFF_BINARY_ROW(P##_i8, int8_t, PT, ELEM)          \
  TFF_BINARY_ROW(P##_u8, uint8_t, PT, ELEM)         \
  TFF_BINARY_ROW(P##_i16, int16_t, PT, ELEM)        \
  TFF_BINARY_ROW(P##_i32, int32_t, PT, ELEM)        \
  TFF_BINARY_ROW(P##_i64, int64_t, PT, ELEM)

/* tff_binary_prepare for the types of `rows`; op->params = params. */
static inline TfLiteStatus tff_binary_typed_prepare(TfLiteContext* ctx, TfLiteNode* node,
                                                    const char* name, tff_binary* op,
                                                    const tff_binary_rows* rows,
                                                    const void* params) {
  TF_LITE_ENSURE_MSG(ctx, op != NULL, "%s: out of memory", name);
  op->any_type = 1;
  TF_LITE_ENSURE_OK(ctx, tff_binary_prepare(ctx, node, name, op));
  const TfLiteType t = tff_input(ctx, node, 0)->type;
  switch (t) {
    case kTfLiteFloat32: op->row = rows->f32; break;
    case kTfLiteFloat16: op->row = rows->f16; break;
    case kTfLiteInt8: op->row = rows->i8; break;
    case kTfLiteUInt8: op->row = rows->u8; break;
    case kTfLiteInt16: op->row = rows->i16; break;
    case kTfLiteInt32: op->row = rows->i32; break;
    case kTfLiteInt64: op->row = rows->i64; break;
    default: op->row = NULL; break;
  }
  TF_LITE_ENSURE_MSG(ctx, op->row != NULL, "%s: type %s is not supported (%s)", name,
                     TfLiteTypeGetName(t), rows->types);
  op->params = params;
  op->kernel = NULL;
  return kTfLiteOk;
}

/* The registration of op NAME (builtin CODE) whose per-node state is a
 * zeroed tff_binary, with the file's PREPARE and INVOKE. */
#define TFF_BINARY_OP_REGISTRATION(NAME, CODE, PREPARE, INVOKE)                 \
  TFF_ZEROED_INIT(NAME##_init, tff_binary)                                      \
  const TfLiteRegistration* tff_register_##NAME(void) {                         \
    static const TfLiteRegistration r = {.init = NAME##_init,                   \
                                         .free = tff_free_user_data,            \
                                         .prepare = PREPARE,                    \
                                         .invoke = INVOKE,                      \
                                         .builtin_code = CODE,                  \
                                         .version = 1};                         \
    return &r;                                                                  \
  }

/* A whole op NAME (builtin CODE) of the rows `ROWS`, without params, run by
 * INVOKE; folded at prepare when FOLD and its inputs are constant (an op
 * with invoke-time checks does not fold, so they fail invoke as TFLite's). */
#define TFF_TYPED_BINARY_OP_WITH(NAME, CODE, ROWS, FOLD, INVOKE)                \
  static TfLiteStatus NAME##_prepare(TfLiteContext* ctx, TfLiteNode* node) {    \
    tff_binary* op = (tff_binary*)node->user_data;                              \
    TF_LITE_ENSURE_OK(ctx, tff_binary_typed_prepare(ctx, node, #NAME, op, &ROWS, NULL)); \
    return FOLD ? tff_binary_fold(ctx, node, op) : kTfLiteOk;                   \
  }                                                                             \
  TFF_BINARY_OP_REGISTRATION(NAME, CODE, NAME##_prepare, INVOKE)

#define TFF_TYPED_BINARY_OP(NAME, CODE, ROWS) \
  TFF_TYPED_BINARY_OP_WITH(NAME, CODE, ROWS, 1, tff_binary_node_invoke)

static inline TfLiteStatus tff_binary_node_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  return tff_binary_invoke(ctx, node, (const tff_binary*)node->user_data);
}

/* 1 when some element of t equals v: the invoke-time divisor checks of
 * DIV, FLOOR_DIV and FLOOR_MOD (TFLite fails the invoke, integer division
 * by zero would trap). */
static inline int tff_any_equal(const TfLiteTensor* t, int64_t v) {
  const size_t n = tff_num_elements(t->dims);
  for (size_t i = 0; i < n; ++i) {
    int64_t x;
    switch (t->type) {
      case kTfLiteFloat32:
        if (t->data.f[i] == (float)v) return 1;
        continue;
      case kTfLiteInt8: x = t->data.int8[i]; break;
      case kTfLiteUInt8: x = t->data.uint8[i]; break;
      case kTfLiteInt16: x = t->data.i16[i]; break;
      case kTfLiteInt32: x = t->data.i32[i]; break;
      default: x = t->data.i64[i]; break;
    }
    if (x == v) return 1;
  }
  return 0;
}

/* Fused-activation bounds of the float32 and int32 kernels. */
typedef union tff_clamp {
  struct { float lo, hi; } f;
  struct { int32_t lo, hi; } i;
} tff_clamp;

/* TFLite's CalculateActivationRange<int32_t>: RELU [0, max], RELU6 [0, 6],
 * RELU_N1_TO_1 [-1, 1], anything else unclamped. */
static inline void tff_act_range_i32(TfLiteFusedActivation act, int32_t* lo, int32_t* hi) {
  *lo = INT32_MIN;
  *hi = INT32_MAX;
  if (act == kTfLiteActRelu || act == kTfLiteActRelu6) *lo = 0;
  if (act == kTfLiteActRelu6) *hi = 6;
  if (act == kTfLiteActReluN1To1) *lo = -1, *hi = 1;
}

/* float32 bounds of `act` into c->f. TFLite's builtin kernels clamp even
 * without an activation, to the finite range (infinities become ±FLT_MAX);
 * XNNPACK, which AUTO gives float32 ADD/SUB/MUL/DIV with activations up to
 * RELU6, keeps infinities. */
static inline void tff_binary_f32_bounds(const TfLiteContext* ctx, TfLiteFusedActivation act,
                                         tff_clamp* c) {
  tff_act_range_float(act, &c->f.lo, &c->f.hi);
  if (tff_numerics_ref(ctx) || act > kTfLiteActRelu6) {
    c->f.lo = c->f.lo < -FLT_MAX ? -FLT_MAX : c->f.lo;
    c->f.hi = c->f.hi > FLT_MAX ? FLT_MAX : c->f.hi;
  }
}

/* The common head of ADD/SUB/MUL prepare: tff_binary_prepare, the fused
 * activation (the first member of TfLiteAddParams, TfLiteSubParams and
 * TfLiteMulParams alike), and for float32 the ukernels of `kind` (TFF_VADD,
 * TFF_VSUB or TFF_VMUL) with their bounds in *f, for int32 the bounds in *c
 * and i32_row. For int8 op->row stays NULL: the caller sets it up. */
static inline TfLiteStatus tff_binary_prepare_common(TfLiteContext* ctx, TfLiteNode* node,
                                                     const char* name, tff_binary* op,
                                                     tff_clamp* c, tff_vbin_f32* f, int kind,
                                                     tff_row_fn i32_row,
                                                     TfLiteFusedActivation* act) {
  TF_LITE_ENSURE_OK(ctx, tff_binary_prepare(ctx, node, name, op));
  const TfLiteMulParams* params = (const TfLiteMulParams*)node->builtin_data;
  *act = params ? params->activation : kTfLiteActNone;
  op->row = NULL;
  op->params = c;
  op->kernel = NULL;
  switch (tff_output(ctx, node, 0)->type) {
    case kTfLiteFloat32: {
      tff_binary_f32_bounds(ctx, *act, c);
      const tff_f32_vbinary_config* cfg = tff_f32_vbinary_select(tff_cpu_effective());
      f->p = f->swapped = (tff_f32_minmax_params){c->f.lo, c->f.hi};
      f->vv = cfg->fn[kind];
      f->vc = cfg->fn[kind + (TFF_VADDC - TFF_VADD)];
      f->cv = kind == TFF_VSUB ? cfg->fn[TFF_VRSUBC] : f->vc;
      op->row = tff_vbin_f32_row;
      op->params = f;
      op->kernel = cfg->name[kind];
      break;
    }
    case kTfLiteInt32:
      tff_act_range_i32(*act, &c->i.lo, &c->i.hi);
      op->row = i32_row;
      break;
    default:
      break;
  }
  return kTfLiteOk;
}

/* tff_check_quant of an int8 tensor (kept for the ops that name it). */
static inline TfLiteStatus tff_check_q8(TfLiteContext* ctx, const char* name, const char* what,
                                        const TfLiteTensor* t) {
  return tff_check_quant(ctx, name, what, t);
}

/* TFLite's bounds of a fused activation on a quantized output (half away
 * from zero). TANH, SIGN_BIT and SIGMOID are not applied by TFLite's
 * ADD/SUB/MUL/DIV: the type's range. Like TFLite's Quantize(), bounds past
 * int32 are an error. */
static inline TfLiteStatus tff_binary_act_q8(TfLiteContext* ctx, const char* name,
                                             TfLiteFusedActivation act, const TfLiteTensor* out,
                                             int32_t* lo, int32_t* hi) {
  if (act != kTfLiteActRelu && act != kTfLiteActRelu6 && act != kTfLiteActReluN1To1)
    return tff_act_range_quant(ctx, kTfLiteActNone, out, lo, hi);
  const float bound = act == kTfLiteActRelu6 ? 6.0f : 1.0f; /* RELU needs only Q(0) */
  TF_LITE_ENSURE_MSG(ctx, act == kTfLiteActRelu || bound / tff_scale(out) < 2147483648.0f,
                     "%s: output scale %g is too small for the fused activation", name,
                     (double)tff_scale(out));
  return tff_act_range_quant(ctx, act, out, lo, hi);
}

/* ---- ADD and SUB ---- */

/* int8 params. Reference (TFLite add.cc/sub.cc, docs/numerics.md §1.6):
 *   o = MBQM(MBQM(da·2^20, ma, ea) + MBQM(±db·2^20, mb, eb), mo, eo) + zo
 * with da = a − za, db = b − zb; MBQM is odd, so SUB negates db's shift.
 * XNNPACK (its qs8 vadd; SUB negates b's multiplier):
 *   o = ((xa·da + xb·db + 2^(S−1)) >> S) + zo. */
typedef struct tff_addsub_q8 {
  int32_t za, zb, zo, lo, hi;
  int32_t ma, mb, mo, shift_b; /* reference; shift_b = ±2^20 */
  int ea, eb, eo;
  int32_t xa, xb, round, s; /* XNNPACK */
} tff_addsub_q8;

typedef struct tff_addsub {
  tff_binary op;
  union {
    tff_addsub_q8 q8;
    tff_clamp c;
  } p;
  tff_vbin_f32 f;  /* float32 */
  tff_vadd_q8 xq;  /* int8, XNNPACK formula */
} tff_addsub;

static inline int8_t tff_addsub_q8_ref(int8_t a, int8_t b, const tff_addsub_q8* p) {
  const int32_t ua = tff_mbqm((a - p->za) * (1 << 20), p->ma, p->ea);
  const int32_t ub = tff_mbqm((b - p->zb) * p->shift_b, p->mb, p->eb);
  const int32_t o = tff_mbqm(ua + ub, p->mo, p->eo) + p->zo;
  return (int8_t)(o < p->lo ? p->lo : (o > p->hi ? p->hi : o));
}


/* int32 wraps, as TFLite's kernels do in practice (here without UB). */
static inline int32_t tff_add_i32(int32_t a, int32_t b, const tff_clamp* c) {
  const int32_t v = (int32_t)((uint32_t)a + (uint32_t)b);
  return v < c->i.lo ? c->i.lo : (v > c->i.hi ? c->i.hi : v);
}

static inline int32_t tff_sub_i32(int32_t a, int32_t b, const tff_clamp* c) {
  const int32_t v = (int32_t)((uint32_t)a - (uint32_t)b);
  return v < c->i.lo ? c->i.lo : (v > c->i.hi ? c->i.hi : v);
}

/* int16 (16x8 mode, zero points 0), TFLite's general-scale path: the int8
 * reference formula with 2^15 in place of 2^20 (shift_b = ±2^15). */
static inline int16_t tff_addsub_q16(int16_t a, int16_t b, const tff_addsub_q8* p) {
  const int32_t ua = tff_mbqm((int32_t)a * (1 << 15), p->ma, p->ea);
  const int32_t ub = tff_mbqm((int32_t)b * p->shift_b, p->mb, p->eb);
  const int32_t o = tff_mbqm(ua + ub, p->mo, p->eo);
  return (int16_t)(o < p->lo ? p->lo : (o > p->hi ? p->hi : o));
}

TFF_BINARY_ROW(tff_addsub_q8_ref_row, int8_t, tff_addsub_q8, tff_addsub_q8_ref)
TFF_BINARY_ROW(tff_addsub_q16_row, int16_t, tff_addsub_q8, tff_addsub_q16)
TFF_BINARY_ROW(tff_add_i32_row, int32_t, tff_clamp, tff_add_i32)
TFF_BINARY_ROW(tff_sub_i32_row, int32_t, tff_clamp, tff_sub_i32)

/* AUTO's XNNPACK delegate takes int8 ADD/SUB when each input/output scale
 * ratio (float) lies in [2^-10, 2^8) and the activation is at most RELU6;
 * otherwise TFLite's builtin kernel runs and we use the reference formula. */
static inline int tff_addsub_xnnpack(float ra, float rb, TfLiteFusedActivation act) {
  return ra >= 0x1p-10f && ra < 0x1p8f && rb >= 0x1p-10f && rb < 0x1p8f &&
         act <= kTfLiteActRelu6;
}

static inline TfLiteStatus tff_addsub_prepare_q8(TfLiteContext* ctx, const char* name, int sub,
                                                 TfLiteFusedActivation act,
                                                 const TfLiteTensor* a, const TfLiteTensor* b,
                                                 const TfLiteTensor* out, tff_addsub* d) {
  tff_addsub_q8* p = &d->p.q8;
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, name, "input 1", a));
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, name, "input 2", b));
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, name, "output", out));
  const float sa = tff_scale(a), sb = tff_scale(b), so = tff_scale(out);
  p->za = tff_zero_point(a);
  p->zb = tff_zero_point(b);
  p->zo = tff_zero_point(out);
  const float ra = sa / so, rb = sb / so;
  if (!tff_numerics_ref(ctx) && tff_addsub_xnnpack(ra, rb, act)) {
    /* S = 20 − floor(log2(max ratio)), from the float's exponent field; the
     * multipliers are ratio·2^S rounded to nearest even (~21 bits). */
    const float mx = ra > rb ? ra : rb;
    p->s = 20 - ilogbf(mx);
    p->xa = (int32_t)lrintf(ldexpf(ra, p->s));
    p->xb = (int32_t)lrintf(ldexpf(rb, p->s)) * (sub ? -1 : 1);
    p->round = (int32_t)1 << (p->s - 1);
    tff_act_range_quant_xnn(act, so, p->zo, INT8_MIN, INT8_MAX, &p->lo, &p->hi);
    /* qs8-vadd folds the zero points into the rounding constant:
     * xa·(a−za) + xb·(b−zb) + round = bias + xa·a + xb·b, same integers. */
    const tff_qs8_vadd_config* cfg = tff_qs8_vadd_select(tff_cpu_effective());
    tff_vadd_q8* k = &d->xq;
    k->p = (tff_qs8_add_minmax_params){.bias = p->round - p->xa * p->za - p->xb * p->zb,
                                       .a_mul = p->xa, .b_mul = p->xb, .shift = (uint32_t)p->s,
                                       .zo = p->zo, .lo = p->lo, .hi = p->hi};
    k->swapped = k->p;
    k->swapped.a_mul = p->xb;
    k->swapped.b_mul = p->xa;
    k->vv = cfg->vadd;
    k->vc = k->cv = cfg->vaddc;
    d->op.row = tff_vadd_q8_row;
    d->op.params = k;
    d->op.kernel = cfg->vadd_name;
    return kTfLiteOk;
  }
  /* 2·max in float, the divisions in double, as TFLite. */
  const double twice_max = (double)(2.0f * (sa > sb ? sa : sb));
  const double real_out = twice_max / (double)(ldexpf(so, 20));
  tff_quantize_multiplier((double)sa / twice_max, &p->ma, &p->ea);
  tff_quantize_multiplier((double)sb / twice_max, &p->mb, &p->eb);
  tff_quantize_multiplier(real_out, &p->mo, &p->eo);
  /* TFLite aborts on an ADD output multiplier >= 1 (CHECK); a SUB one may
   * exceed 1, within the 31-bit left shift MBQM can do. */
  TF_LITE_ENSURE_MSG(ctx, isfinite(twice_max) && real_out > 0.0 &&
                          (sub ? p->eo <= 30 : real_out < 1.0),
                     "%s: output scale %g does not fit input scales %g and %g", name,
                     (double)so, (double)sa, (double)sb);
  p->shift_b = sub ? -(1 << 20) : (1 << 20);
  TF_LITE_ENSURE_OK(ctx, tff_binary_act_q8(ctx, name, act, out, &p->lo, &p->hi));
  d->op.row = tff_addsub_q8_ref_row;
  return kTfLiteOk;
}

/* 1 when s is a power of two (TFLite's CheckedLog2). */
static inline int tff_scale_is_pot(float s) {
  const double l = log2((double)s);
  return fabs(l - round(l)) < 1e-3;
}

/* int16 ADD/SUB, both numerics modes (XNNPACK takes no int16): the general
 * path; the power-of-two path TFLite takes when pot_scale_int16 is set and
 * every scale is a power of two is not implemented, and rejected. */
static inline TfLiteStatus tff_addsub_prepare_q16(TfLiteContext* ctx, const char* name, int sub,
                                                  TfLiteFusedActivation act, int pot_option,
                                                  const TfLiteTensor* a, const TfLiteTensor* b,
                                                  const TfLiteTensor* out, tff_addsub* d) {
  tff_addsub_q8* p = &d->p.q8;
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, name, "input 1", a));
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, name, "input 2", b));
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, name, "output", out));
  TF_LITE_ENSURE_MSG(ctx, tff_zero_point(a) == 0 && tff_zero_point(b) == 0 &&
                              tff_zero_point(out) == 0,
                     "%s: int16 zero points must be 0, got %d, %d and output %d", name,
                     (int)tff_zero_point(a), (int)tff_zero_point(b), (int)tff_zero_point(out));
  const float sa = tff_scale(a), sb = tff_scale(b), so = tff_scale(out);
  TF_LITE_ENSURE_MSG(ctx, !(pot_option && tff_scale_is_pot(sa) && tff_scale_is_pot(sb) &&
                            tff_scale_is_pot(so)),
                     "%s: int16 with power-of-two scales and pot_scale_int16 is not supported "
                     "yet (general scales are)", name);
  const double twice_max = (double)(2.0f * (sa > sb ? sa : sb));
  const double real_out = twice_max / (double)(ldexpf(so, 15));
  tff_quantize_multiplier((double)sa / twice_max, &p->ma, &p->ea);
  tff_quantize_multiplier((double)sb / twice_max, &p->mb, &p->eb);
  tff_quantize_multiplier(real_out, &p->mo, &p->eo);
  TF_LITE_ENSURE_MSG(ctx, isfinite(twice_max) && real_out > 0.0 &&
                          (sub ? p->eo <= 30 : real_out < 1.0),
                     "%s: output scale %g does not fit input scales %g and %g", name,
                     (double)so, (double)sa, (double)sb);
  p->shift_b = sub ? -(1 << 15) : (1 << 15);
  TF_LITE_ENSURE_OK(ctx, tff_act_range_quant(ctx, act, out, &p->lo, &p->hi));
  d->op.row = tff_addsub_q16_row;
  return kTfLiteOk;
}

/* Whole prepare of ADD (sub = 0) and SUB (sub = 1). */
static inline TfLiteStatus tff_addsub_prepare(TfLiteContext* ctx, TfLiteNode* node,
                                              const char* name, int sub) {
  tff_addsub* d = (tff_addsub*)node->user_data;
  TF_LITE_ENSURE_MSG(ctx, d != NULL, "%s: out of memory", name);
  TfLiteFusedActivation act;
  d->op.allow_int16 = 1;
  TF_LITE_ENSURE_OK(ctx, tff_binary_prepare_common(ctx, node, name, &d->op, &d->p.c, &d->f,
                                                   sub ? TFF_VSUB : TFF_VADD,
                                                   sub ? tff_sub_i32_row : tff_add_i32_row, &act));
  if (d->op.row == NULL && tff_output(ctx, node, 0)->type == kTfLiteInt16) {
    /* TfLiteAddParams and TfLiteSubParams share this layout. */
    const TfLiteAddParams* params = (const TfLiteAddParams*)node->builtin_data;
    d->op.params = &d->p.q8;
    TF_LITE_ENSURE_OK(ctx, tff_addsub_prepare_q16(ctx, name, sub, act,
                                                  params ? params->pot_scale_int16 : 1,
                                                  tff_input(ctx, node, 0),
                                                  tff_input(ctx, node, 1),
                                                  tff_output(ctx, node, 0), d));
  } else if (d->op.row == NULL) {
    d->op.params = &d->p.q8;
    TF_LITE_ENSURE_OK(ctx, tff_addsub_prepare_q8(ctx, name, sub, act, tff_input(ctx, node, 0),
                                                 tff_input(ctx, node, 1),
                                                 tff_output(ctx, node, 0), d));
  }
  return tff_binary_fold(ctx, node, &d->op);
}

static inline TfLiteStatus tff_addsub_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  return tff_binary_invoke(ctx, node, &((const tff_addsub*)node->user_data)->op);
}

TFF_ZEROED_INIT(tff_addsub_init, tff_addsub)

#endif /* TFLITE_FAST_OPS_BINARY_COMMON_H_ */
