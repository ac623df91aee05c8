/* qs8-qc8w-gemm: int8 activations × per-channel int8 weights → int8, fp32
 * requantization (XNNPACK's, default numerics mode), min/max clamp.
 *
 * The A operand is indirect (XNNPACK's igemm): row m of the tile reads, for
 * each of `ks` taps t, kc int8 values at a[m*ks + t] + a_offset. A GEMM is
 * ks = 1 with one pointer per row; a KxK convolution passes each output
 * pixel's tap pointers (conv_common.h builds them; padding taps point at a
 * buffer of the input zero point).
 *
 * Kernel parameters (every kernel of the family):
 *   mr        rows in this tile, 1..MR. Rows past mr alias row mr-1.
 *   nc        output channels, >= 1; the kernel walks them NR at a time.
 *   kc        input channels per tap, >= 1 (any value; no read past kc).
 *   ks        taps per row, >= 1; ks·(kc rounded up to KR) <= the config's
 *             xmax when it has one.
 *   a         [mr][ks] pointers; a[m*ks+t] + a_offset -> kc int8 values.
 *   a_offset  bytes added to every pointer (the group's first channel).
 *   w         packed weights, tff_qs8_qc8w_gemm_pack layout for this kernel's
 *             NR and KR: per block of NR channels
 *               int32 init[NR]        bias − (z_x + izp_extra)·Σw
 *               int8  w[ks][kcp/KR][NR][KR], kcp = kc rounded up to KR,
 *                     zero past kc and past nc
 *               float scale[NR]       f32(f32(s_x·s_w[c]) / s_y)
 *   c         output row 0; row m at c + m*cm_stride; nc int8 written per
 *             row, nothing else.
 *   p         clamp bounds minus the output zero point, and that zero point.
 * Result: c[m][n] = lrintf(clamp(f32(acc)·scale[n])) + zp, acc wrapping mod
 * 2^32 like the scalar twin; every kernel is bit-exact with __scalar for any
 * int8 weights, -128 included (no kernel adds two products in int16), but
 * those whose config has wsym, exact for weights in [-127, 127] (TFLite's
 * int8 weight range) only. */
#ifndef TFLITE_FAST_UKERNELS_QS8_QC8W_GEMM_H_
#define TFLITE_FAST_UKERNELS_QS8_QC8W_GEMM_H_

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cpu/portable.h"

typedef struct {
  float min_less_zp, max_less_zp; /* (lo − zp), (hi − zp) as float */
  int32_t zp;
} tff_qs8_minmax_fp32_params;

typedef void (*tff_qs8_qc8w_gemm_fn)(size_t mr, size_t nc, size_t kc, size_t ks,
                                     const int8_t* const* a, size_t a_offset, const void* w,
                                     int8_t* c, size_t cm_stride,
                                     const tff_qs8_minmax_fp32_params* p);

#define TFF_DECLARE_QS8_QC8W_GEMM(name)                                                  \
  void name(size_t mr, size_t nc, size_t kc, size_t ks, const int8_t* const* a,          \
            size_t a_offset, const void* w, int8_t* c, size_t cm_stride,                 \
            const tff_qs8_minmax_fp32_params* p);

TFF_DECLARE_QS8_QC8W_GEMM(tff_qs8_qc8w_gemm_minmax_fp32_ukernel_2x4__scalar)
TFF_DECLARE_QS8_QC8W_GEMM(tff_qs8_qc8w_gemm_minmax_fp32_ukernel_3x4c8__sse41)
TFF_DECLARE_QS8_QC8W_GEMM(tff_qs8_qc8w_gemm_minmax_fp32_ukernel_4x8c8__avx2)
TFF_DECLARE_QS8_QC8W_GEMM(tff_qs8_qc8w_gemm_minmax_fp32_ukernel_1x8c8__avx2)
TFF_DECLARE_QS8_QC8W_GEMM(tff_qs8_qc8w_gemm_minmax_fp32_ukernel_5x16c2__avx2)
TFF_DECLARE_QS8_QC8W_GEMM(tff_qs8_qc8w_gemm_minmax_fp32_ukernel_1x64c2__avx2)
TFF_DECLARE_QS8_QC8W_GEMM(tff_qs8_qc8w_gemm_minmax_fp32_ukernel_1x64c4__avx2_sign)

/* The x values (ks · kc rounded up to KR) of a row that a kernel widening
 * its rows into a stack buffer first holds at most: its config's xmax. */
#define TFF_QS8_C2_XMAX 1024
/* The same for the sign-step GEMV, whose buffer holds int8: 4 KB of stack. */
#define TFF_QS8_C4S_XMAX 4096
TFF_DECLARE_QS8_QC8W_GEMM(tff_qs8_qc8w_gemm_minmax_fp32_ukernel_4x16c4__avx512vnni)
TFF_DECLARE_QS8_QC8W_GEMM(tff_qs8_qc8w_gemm_minmax_fp32_ukernel_1x64c4__avx512vnni)
TFF_DECLARE_QS8_QC8W_GEMM(tff_qs8_qc8w_gemm_minmax_fp32_ukernel_2x8c8__neon)
TFF_DECLARE_QS8_QC8W_GEMM(tff_qs8_qc8w_gemm_minmax_fp32_ukernel_1x8c8__neon)
TFF_DECLARE_QS8_QC8W_GEMM(tff_qs8_qc8w_gemm_minmax_fp32_ukernel_4x8c4__neondot)
TFF_DECLARE_QS8_QC8W_GEMM(tff_qs8_qc8w_gemm_minmax_fp32_ukernel_1x8c4__neondot)

/* Packs k [nc][ks][kc] and the scales (one per channel, or scale[0] for all
 * when per_channel is 0); init is written by ..._pack_init. */
typedef void (*tff_qs8_qc8w_gemm_pack_fn)(size_t nc, size_t ks, size_t kc, size_t nr, size_t kr,
                                          const int8_t* k, const float* scale, int per_channel,
                                          void* packed);

/* One kernel and what its packing needs. izp_extra is added to the input
 * zero point folded into init (128 for kernels reading x+128 as uint8). */
typedef struct {
  tff_qs8_qc8w_gemm_fn fn;
  const char* name;
  uint32_t isa; /* TFF_ISA_* bit, 0 for scalar */
  uint8_t mr, nr, kr;
  tff_qs8_qc8w_gemm_pack_fn pack; /* the same bytes as tff_qs8_qc8w_gemm_pack, faster */
  int32_t izp_extra;
  uint16_t xmax; /* 0: any shape; else ks·round_up(kc, kr) <= xmax */
  uint8_t wsym;  /* 1: exact only for weights in [-127, 127] */
} tff_qs8_qc8w_gemm_config;

/* Every kernel this build compiled, scalar first. */
extern const tff_qs8_qc8w_gemm_config tff_qs8_qc8w_gemm_configs[];
extern const int tff_qs8_qc8w_gemm_num_configs;
/* The kernel of the best ISA in `isa_mask` (scalar when none fits) for m
 * rows of ks taps of kc: its 1-row variant (GEMV) when m is 1, a wsym one
 * first when `wsym` says no weight is -128; else its kernel with an xmax when
 * the shape fits it, else its tallest. */
const tff_qs8_qc8w_gemm_config* tff_qs8_qc8w_gemm_select(uint32_t isa_mask, size_t m,
                                                         size_t ks, size_t kc, int wsym);

/* Bytes of packed weights for nc channels of ks taps of kc. */
size_t tff_qs8_qc8w_gemm_packed_size(size_t nc, size_t ks, size_t kc, size_t nr, size_t kr);
/* The scalar twin of the packing (tff_qs8_qc8w_gemm_pack_fn); the SIMD ones
 * write the same bytes. */
void tff_qs8_qc8w_gemm_pack(size_t nc, size_t ks, size_t kc, size_t nr, size_t kr,
                            const int8_t* k, const float* scale, int per_channel, void* packed);
void tff_qs8_qc8w_gemm_pack__sse41(size_t nc, size_t ks, size_t kc, size_t nr, size_t kr,
                                   const int8_t* k, const float* scale, int per_channel,
                                   void* packed);
/* Moves, for a full block of nr rows `stride` bytes apart at s, the first
 * columns of one tap to w (layout above) and returns how many columns it
 * moved (a multiple of kr, <= kc); the packing copies the rest. */
typedef size_t (*tff_qs8_qc8w_gemm_pack_tiles_fn)(int8_t* w, const int8_t* s, size_t stride,
                                                  size_t kc, size_t nr, size_t kr);
/* tff_qs8_qc8w_gemm_pack with `tiles` (NULL: none) for full blocks. */
void tff_qs8_qc8w_gemm_pack_with(size_t nc, size_t ks, size_t kc, size_t nr, size_t kr,
                                 const int8_t* k, const float* scale, int per_channel,
                                 void* packed, tff_qs8_qc8w_gemm_pack_tiles_fn tiles);
/* Writes init[nc] into the packed blocks. */
void tff_qs8_qc8w_gemm_pack_init(size_t nc, size_t ks, size_t kc, size_t nr, size_t kr,
                                 const int32_t* init, void* packed);

/* Row pointers of a tile of MR rows (MR a constant after inlining): rows
 * past mr alias row mr-1, so they compute and store its values again. */
static TFF_ALWAYS_INLINE void tff_qs8_gemm_rows(
    size_t MR, size_t mr, const int8_t* const* a, size_t ks, int8_t* c, size_t cm_stride,
    const int8_t* const** ar, int8_t** cr) {
  ar[0] = a;
  cr[0] = c;
  for (size_t i = 1; i < MR; ++i) {
    ar[i] = mr > i ? ar[i - 1] + ks : ar[i - 1];
    cr[i] = mr > i ? cr[i - 1] + cm_stride : cr[i - 1];
  }
}

/* Declares a kernel body: the kernel's parameters after a constant MR. */
#define TFF_QS8_QC8W_GEMM_BODY(body)                                                    \
  static TFF_ALWAYS_INLINE void body(                                                   \
      const size_t MR, size_t mr, size_t nc, size_t kc, size_t ks, const int8_t* const* a, \
      size_t a_offset, const void* w, int8_t* c, size_t cm_stride,                       \
      const tff_qs8_minmax_fp32_params* p)

/* Defines kernel `name` as body(MR, the kernel's arguments...). */
#define TFF_QS8_QC8W_GEMM_DEFINE(name, MR, body)                                        \
  void name(size_t mr, size_t nc, size_t kc, size_t ks, const int8_t* const* a,          \
            size_t a_offset, const void* w, int8_t* c, size_t cm_stride,                 \
            const tff_qs8_minmax_fp32_params* p) {                                       \
    body(MR, mr, nc, kc, ks, a, a_offset, w, c, cm_stride, p);                           \
  }

/* The last n (< 8) values of a row, zero-filled, never reading past it,
 * little-endian: at most three loads (fixed-size memcpy compiles to a mov). */
static inline uint64_t tff_qs8_load_tail8(const int8_t* x, size_t n) {
  uint64_t v = 0;
  size_t o = 0;
  if (n & 4) {
    uint32_t t;
    memcpy(&t, x, 4);
    v = t;
    o = 4;
  }
  if (n & 2) {
    uint16_t t;
    memcpy(&t, x + o, 2);
    v |= (uint64_t)t << (8 * o);
    o += 2;
  }
  if (n & 1) v |= (uint64_t)(uint8_t)x[o] << (8 * o);
  return v;
}

#endif /* TFLITE_FAST_UKERNELS_QS8_QC8W_GEMM_H_ */
