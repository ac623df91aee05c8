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
 * and gets one kernel per inclusion. */
#include <string.h>

/* Fixed tap counts: unroll the tap loops (-O2 does not), which drops the
 * loop control. */
#define DW_UNROLL _Pragma("GCC unroll 32")

void DW_NAME(size_t channels, size_t output_width, size_t kernel_size, const float** input,
             const void* weights, float* output, size_t output_increment, size_t input_offset,
             const float* zero, const tff_f32_dwconv_params* params) {
  const size_t taps = DW_TAPS ? DW_TAPS : kernel_size;
  const dw_prm prm = dw_params(params);
  (void)kernel_size;
#define DW_OFF(p) (p == zero ? zero : (const float*)((const char*)p + input_offset))
  do {
#if DW_TAPS
    /* Fixed tap count: resolve the pointers once per pixel. */
    const float* x[DW_TAPS];
    DW_UNROLL
    for (size_t t = 0; t < DW_TAPS; ++t) x[t] = DW_OFF(input[t]);
#define DW_X(t) x[t]
#else
#define DW_X(t) DW_OFF(input[t])
#endif
    const float* w = (const float*)weights;
    size_t c0 = 0;
    /* Two whole tiles per pass while they last: their add chains are
     * independent, so they overlap (each output keeps its order). */
    for (; c0 + 2 * DW_CT <= channels; c0 += 2 * DW_CT) {
      const float* w1 = w + DW_CT * (1 + taps);
      dw_acc a0 = dw_init(w), a1 = dw_init(w1);
      DW_UNROLL
      for (size_t t = 0; t < taps; ++t) {
        a0 = dw_mac(a0, DW_X(t) + c0, w + DW_CT + t * DW_CT);
        a1 = dw_mac(a1, DW_X(t) + c0 + DW_CT, w1 + DW_CT + t * DW_CT);
      }
      dw_store(a0, &prm, output + c0);
      dw_store(a1, &prm, output + c0 + DW_CT);
      w = w1 + DW_CT * (1 + taps);
    }
    for (; c0 < channels; c0 += DW_CT) {
      const float* wt = w + DW_CT;
#ifdef DW_HALF
      if (channels >= DW_CT && channels - c0 <= DW_HALF) {
        /* At most half a tile left: the upper half of the window tile
         * [C − tile, C) covers it, at half the work. */
        dw_half acc = dw_init_half(w + DW_HALF);
        DW_UNROLL
        for (size_t t = 0; t < taps; ++t)
          acc = dw_mac_half(acc, DW_X(t) + channels - DW_HALF, wt + t * DW_CT + DW_HALF);
        dw_store_half(acc, &prm, output + channels - DW_HALF);
        w += DW_CT * (1 + taps);
        continue;
      }
#endif
      dw_acc acc = dw_init(w);
      if (channels >= DW_CT) {
        /* A partial last tile is the window ending at the last channel. */
        const size_t s = c0 + DW_CT <= channels ? c0 : channels - DW_CT;
        DW_UNROLL
        for (size_t t = 0; t < taps; ++t) acc = dw_mac(acc, DW_X(t) + s, wt + t * DW_CT);
        dw_store(acc, &prm, output + s);
      } else {
        /* Fewer channels than one tile: through zero-padded stack tiles. */
        float tile[DW_CT] = {0};
        for (size_t t = 0; t < taps; ++t) {
          memcpy(tile, DW_X(t), channels * sizeof(float));
          acc = dw_mac(acc, tile, wt + t * DW_CT);
        }
        dw_store(acc, &prm, tile);
        memcpy(output, tile, channels * sizeof(float));
      }
      w += DW_CT * (1 + taps);
    }
#undef DW_X
    input += taps;
    output = (float*)((char*)(output + channels) + output_increment);
  } while (--output_width != 0);
#undef DW_OFF
}
