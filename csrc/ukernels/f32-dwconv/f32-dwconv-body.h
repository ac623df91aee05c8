/* The loop nest every f32-dwconv kernel shares (the arithmetic is the
 * ISA's). The including file defines, before each inclusion:
 *   DW_CT                         channels per tile
 *   dw_acc, dw_prm                accumulator tile and broadcast params types
 *   dw_prm dw_params(const tff_f32_dwconv_params*)
 *   dw_acc dw_init(const float* bias)
 *   dw_acc dw_mac(dw_acc, const float* x, const float* w)  acc + x·w
 *   void dw_store(dw_acc, const dw_prm*, float* out)        clamped
 *   DW_NAME, DW_TAPS              kernel name; taps (0: kernel_size)
 * and, optionally, DW_HALF (channels of half a tile) with dw_half,
 * dw_init_half, dw_mac_half and dw_store_half, the same on half a tile;
 * and gets one kernel per inclusion.
 *
 * Each output channel sums its taps in one dependent chain, so a pass
 * keeps several chains in flight: three output pixels at a time (sharing
 * the weight loads) over up to two tiles and a half. */
#include <string.h>

#include "cpu/portable.h"

/* Fixed tap counts: unroll the tap loops (-O2 does not), which drops the
 * loop control; the any-tap kernel keeps its loops (small code). */
#undef DW_UNROLL
#if DW_TAPS
#define DW_UNROLL _Pragma("GCC unroll 32")
#else
#define DW_UNROLL
#endif
#define DW_CAT_(a, b) a##b
#define DW_CAT(a, b) DW_CAT_(a, b)
#define DW_PASS DW_CAT(DW_NAME, _pass)
#define DW_WALK DW_CAT(DW_NAME, _walk)

#define DW_OFF(p) (p == zero ? zero : (const float*)((const char*)p + input_offset))

/* NP (1-3) pixels over NT (0-2) tiles at channels s0, s1 (packed at w0,
 * w1) and, with NH, the half tile at channel sh (packed from wh, a tile's
 * upper half): bias, then the taps in order. Constant NP, NT and NH. */
static TFF_ALWAYS_INLINE void DW_PASS(const int NP, const int NT, const int NH, size_t taps,
                                      const float** input, size_t input_offset, const float* zero,
                                      const float* w0, const float* w1, const float* wh,
                                      size_t s0, size_t s1, size_t sh, float* out,
                                      size_t out_step, const dw_prm* prm) {
  (void)wh, (void)sh;
  float* out1 = (float*)((char*)out + out_step);
  dw_acc a00 = dw_init(w0), a01 = dw_init(w1), a10 = a00, a11 = a01, a20 = a00, a21 = a01;
  float* out2 = (float*)((char*)out + 2 * out_step);
#ifdef DW_HALF
  dw_half h0 = dw_init_half(wh), h1 = h0, h2 = h0;
#endif
  DW_UNROLL
  for (size_t t = 0; t < taps; ++t) {
    /* Resolved here, not once per pixel: cheaper than a spilled array. */
    const float* p0 = DW_OFF(input[t]);
    const float* p1 = NP >= 2 ? DW_OFF(input[taps + t]) : p0;
    const float* p2 = NP >= 3 ? DW_OFF(input[2 * taps + t]) : p0;
    const size_t k = DW_CT + t * DW_CT; /* tap t's weights in a packed tile */
    if (NT >= 1) {
      a00 = dw_mac(a00, p0 + s0, w0 + k);
      if (NP >= 2) a10 = dw_mac(a10, p1 + s0, w0 + k);
      if (NP >= 3) a20 = dw_mac(a20, p2 + s0, w0 + k);
    }
    if (NT == 2) {
      a01 = dw_mac(a01, p0 + s1, w1 + k);
      if (NP >= 2) a11 = dw_mac(a11, p1 + s1, w1 + k);
      if (NP >= 3) a21 = dw_mac(a21, p2 + s1, w1 + k);
    }
#ifdef DW_HALF
    if (NH) {
      h0 = dw_mac_half(h0, p0 + sh, wh + k);
      if (NP >= 2) h1 = dw_mac_half(h1, p1 + sh, wh + k);
      if (NP >= 3) h2 = dw_mac_half(h2, p2 + sh, wh + k);
    }
#endif
  }
  if (NT >= 1) dw_store(a00, prm, out + s0);
  if (NT == 2) dw_store(a01, prm, out + s1);
  if (NP >= 2 && NT >= 1) dw_store(a10, prm, out1 + s0);
  if (NP >= 2 && NT == 2) dw_store(a11, prm, out1 + s1);
  if (NP >= 3 && NT >= 1) dw_store(a20, prm, out2 + s0);
  if (NP >= 3 && NT == 2) dw_store(a21, prm, out2 + s1);
#ifdef DW_HALF
  if (NH) dw_store_half(h0, prm, out + sh);
  if (NP >= 2 && NH) dw_store_half(h1, prm, out1 + sh);
  if (NP >= 3 && NH) dw_store_half(h2, prm, out2 + sh);
#endif
}

/* All channels (>= DW_CT) of NP pixels: pairs of whole tiles, then one
 * pass over what is left, whose last tile is the window [C − tile, C) or
 * the upper half of it. */
static TFF_ALWAYS_INLINE void DW_WALK(const int NP, size_t channels, size_t taps,
                                      const float** input, size_t input_offset,
                                      const float* zero, const float* w,
                                      float* out, size_t out_step, const dw_prm* prm) {
  const size_t ws = DW_CT * (1 + taps); /* floats of one packed tile */
  const size_t last = channels - DW_CT;
#define DW_GO(nt, nh, s0, w1, s1, wh, sh) \
  DW_PASS(NP, nt, nh, taps, input, input_offset, zero, w, w1, wh, s0, s1, sh, out, out_step, prm)
  size_t c0 = 0;
  for (; c0 + 2 * DW_CT <= channels; c0 += 2 * DW_CT, w += 2 * ws)
    DW_GO(2, 0, c0, w + ws, c0 + DW_CT, w, 0);
  const size_t rem = channels - c0;
#ifdef DW_HALF
  if (rem > DW_CT && rem <= DW_CT + DW_HALF)
    DW_GO(1, 1, c0, w, 0, w + ws + DW_HALF, channels - DW_HALF);
  else if (rem != 0 && rem <= DW_HALF)
    DW_GO(0, 1, 0, w, 0, w + DW_HALF, channels - DW_HALF);
  else
#endif
  if (rem > DW_CT)
    DW_GO(2, 0, c0, w + ws, last, w, 0);
  else if (rem != 0)
    DW_GO(1, 0, last, w, 0, w, 0);
#undef DW_GO
}

void DW_NAME(size_t channels, size_t output_width, size_t kernel_size, const float** input,
             const void* weights, float* output, size_t output_increment, size_t input_offset,
             const float* zero, const tff_f32_dwconv_params* params) {
  const size_t taps = DW_TAPS ? DW_TAPS : kernel_size;
  const dw_prm prm = dw_params(params);
  const size_t out_step = channels * sizeof(float) + output_increment;
  const float* w = (const float*)weights;
  (void)kernel_size;
  if (channels < DW_CT) {
    /* Fewer channels than one tile: through zero-padded stack tiles. */
    do {
      float tile[DW_CT] = {0};
      dw_acc acc = dw_init(w);
      for (size_t t = 0; t < taps; ++t) {
        memcpy(tile, DW_OFF(input[t]), channels * sizeof(float));
        acc = dw_mac(acc, tile, w + DW_CT + t * DW_CT);
      }
      dw_store(acc, &prm, tile);
      memcpy(output, tile, channels * sizeof(float));
      input += taps;
      output = (float*)((char*)output + out_step);
    } while (--output_width != 0);
    return;
  }
  for (; output_width >= 3; output_width -= 3) {
    DW_WALK(3, channels, taps, input, input_offset, zero, w, output, out_step, &prm);
    input += 3 * taps;
    output = (float*)((char*)output + 3 * out_step);
  }
  /* The last one or two pixels one at a time: a row's tail is too short
   * to pay for a third unrolled copy of every pass. */
  for (; output_width != 0; --output_width) {
    DW_WALK(1, channels, taps, input, input_offset, zero, w, output, out_step, &prm);
    input += taps;
    output = (float*)((char*)output + out_step);
  }
}

#undef DW_OFF
#undef DW_WALK
#undef DW_PASS
