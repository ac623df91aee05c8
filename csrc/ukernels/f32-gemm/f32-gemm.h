/* f32-gemm: float GEMM with bias and min/max clamp. Each output is one
 * sequential sum, bias first, then taps and channels in order; each step is
 * a multiply rounded on its own, then an add, or, in a kernel whose config
 * says `fma` (ISAs that guarantee it: our avx2), one fused multiply-add.
 * Every kernel gives the bits of the scalar twin of its kind (2x4__scalar,
 * 2x4__scalar_fma); float outputs may thus differ between ISA levels, within
 * the oracle's tolerance. SIMD kernels vectorize across output channels
 * only.
 *
 * The A operand is indirect, as in qs8-qc8w-gemm.h: row m reads, for each of
 * ks taps t, kc floats at (const char*)a[m*ks + t] + a_offset.
 *
 * Kernel parameters (every kernel of the family):
 *   mr        rows in this tile, 1..MR. Rows past mr alias row mr-1.
 *   nc        output channels, >= 1, walked NR at a time.
 *   kc        input channels per tap, >= 1.
 *   ks        taps per row, >= 1.
 *   a         [mr][ks] pointers to float rows.
 *   a_offset  bytes added to every pointer (the group's first channel).
 *   w         packed, tff_f32_gemm_pack layout for this kernel's NR: per block
 *             of NR channels  float bias[NR] (0 without bias, past nc)
 *                             float w[ks][kc][NR] (0 past nc)
 *   c         output row 0; row m at c + m*cm_stride bytes; nc floats written.
 *   p         clamp bounds: out = min(max(acc, lo), hi), NaN kept. */
#ifndef TFLITE_FAST_UKERNELS_F32_GEMM_H_
#define TFLITE_FAST_UKERNELS_F32_GEMM_H_

#include <stddef.h>
#include <stdint.h>

#include "cpu/portable.h"

typedef struct {
  float min, max;
} tff_f32_minmax_params;

typedef void (*tff_f32_gemm_fn)(size_t mr, size_t nc, size_t kc, size_t ks,
                                const float* const* a, size_t a_offset, const float* w, float* c,
                                size_t cm_stride, const tff_f32_minmax_params* p);

#define TFF_DECLARE_F32_GEMM(name)                                                          \
  void name(size_t mr, size_t nc, size_t kc, size_t ks, const float* const* a,              \
            size_t a_offset, const float* w, float* c, size_t cm_stride,                    \
            const tff_f32_minmax_params* p);

TFF_DECLARE_F32_GEMM(tff_f32_gemm_minmax_ukernel_2x4__scalar)
TFF_DECLARE_F32_GEMM(tff_f32_gemm_minmax_ukernel_2x4__scalar_fma)
TFF_DECLARE_F32_GEMM(tff_f32_gemm_minmax_ukernel_4x8__sse41)
TFF_DECLARE_F32_GEMM(tff_f32_gemm_minmax_ukernel_6x16__avx2)
TFF_DECLARE_F32_GEMM(tff_f32_gemm_minmax_ukernel_4x24__avx2)
TFF_DECLARE_F32_GEMM(tff_f32_gemm_minmax_ukernel_1x8__sse41)
TFF_DECLARE_F32_GEMM(tff_f32_gemm_minmax_ukernel_1x16__avx2)
TFF_DECLARE_F32_GEMM(tff_f32_gemm_minmax_ukernel_4x8__neon)
TFF_DECLARE_F32_GEMM(tff_f32_gemm_minmax_ukernel_1x8__neon)

/* Packs k [nc][ks][kc] for NR = nr; the bias slots are written by
 * tff_f32_gemm_pack_bias. */
typedef void (*tff_f32_gemm_pack_fn)(size_t nc, size_t ks, size_t kc, size_t nr, const float* k,
                                     float* packed);

typedef struct {
  tff_f32_gemm_fn fn;
  const char* name;
  uint32_t isa; /* TFF_ISA_* bit, 0 for scalar */
  uint8_t mr, nr;
  tff_f32_gemm_pack_fn pack; /* the same bytes as tff_f32_gemm_pack, faster */
  uint8_t fma;               /* fused multiply-add: bit-exact with the fma twin */
} tff_f32_gemm_config;

extern const tff_f32_gemm_config tff_f32_gemm_configs[];
extern const int tff_f32_gemm_num_configs;
/* The scalar twin of the fused kernels: their oracle, never selected. */
extern const tff_f32_gemm_config tff_f32_gemm_fma_twin;
/* As tff_qs8_qc8w_gemm_select: best ISA, the 1-row variant when m is 1;
 * for more rows the tallest tile, or a 24-channel one when nc is whole
 * 24-channel blocks but not 16-channel ones. */
const tff_f32_gemm_config* tff_f32_gemm_select(uint32_t isa_mask, size_t m, size_t nc);

/* Floats of packed weights for nc channels of ks taps of kc. */
size_t tff_f32_gemm_packed_size(size_t nc, size_t ks, size_t kc, size_t nr);
/* The scalar twin of the packing (tff_f32_gemm_pack_fn); the SIMD ones
 * transpose 4x4 (nr a multiple of 4). */
void tff_f32_gemm_pack(size_t nc, size_t ks, size_t kc, size_t nr, const float* k,
                       float* packed);
void tff_f32_gemm_pack__sse41(size_t nc, size_t ks, size_t kc, size_t nr, const float* k,
                              float* packed);
void tff_f32_gemm_pack__neon(size_t nc, size_t ks, size_t kc, size_t nr, const float* k,
                             float* packed);
/* Writes bias[nc] (NULL: zeros) into the packed blocks. */
void tff_f32_gemm_pack_bias(size_t nc, size_t ks, size_t kc, size_t nr, const float* bias,
                            float* packed);

/* Taps [i0, kk) of one block: rows (<= nr) channels from k (row-major
 * [rows][kk]), zeros past them, to w[i][nr]. */
static inline void tff_f32_gemm_pack_taps(size_t kk, size_t nr, size_t rows, size_t i0,
                                          const float* k, float* w) {
  for (size_t i = i0; i < kk; ++i)
    for (size_t j = 0; j < nr; ++j) w[i * nr + j] = j < rows ? k[j * kk + i] : 0.0f;
}

/* Row pointers of a tile of MR rows (MR a constant after inlining): rows
 * past mr alias row mr-1, so they compute and store its values again.
 * Unrolled: as a loop, GCC keeps the pointers in memory and reloads them,
 * and the short tiles of 1x1 convs over many pixels run 5-8% slower. */
static TFF_ALWAYS_INLINE void tff_f32_gemm_rows(
    size_t MR, size_t mr, const float* const* a, size_t ks, float* c, size_t cm_stride,
    const float* const** ar, float** cr) {
  ar[0] = a;
  cr[0] = c;
  _Pragma("GCC unroll 8")
  for (size_t i = 1; i < MR; ++i) {
    ar[i] = mr > i ? ar[i - 1] + ks : ar[i - 1];
    cr[i] = mr > i ? (float*)((char*)cr[i - 1] + cm_stride) : cr[i - 1];
  }
}

/* Clamp as every kernel does it: a NaN sum stays NaN. */
static inline float tff_f32_clamp(float v, float lo, float hi) {
  v = v < lo ? lo : v;
  return v > hi ? hi : v;
}

#endif /* TFLITE_FAST_UKERNELS_F32_GEMM_H_ */
