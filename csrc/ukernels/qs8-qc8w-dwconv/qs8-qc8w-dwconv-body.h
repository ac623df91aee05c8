/* The loop nest every qs8-qc8w-dwconv kernel shares (the arithmetic is the
 * ISA's). The including file defines, before each inclusion:
 *   DW_CT                         channels per tile
 *   dw_acc, dw_prm                accumulator tile and broadcast params types
 *   dw_prm dw_params(const tff_qs8_dwconv_params*)
 *   dw_acc dw_init(const int32_t* bias)              tile of bias'
 *   DW_PAIRS                      1: weights as int16 tap pairs, else int8
 *   dw_acc dw_mac(dw_acc, const int8_t* x, const int8_t* w)   acc += x·w
 *     (DW_PAIRS: dw_mac(dw_acc, const int8_t* x0, const int8_t* x1,
 *      const int16_t* w)   acc += x0·w[.][0] + x1·w[.][1])
 *   void dw_store(dw_acc, const float* scale, const dw_prm*, int8_t* out)
 *   DW_NAME, DW_TAPS              kernel name; taps (0: kernel_size)
 *   DW_WBYTES(taps)               bytes of a tile's weights (kernels.h)
 * and gets one kernel per inclusion. */
#include <string.h>

/* Fixed tap counts: unroll the tap loops (-O2 does not), which drops the
 * loop control and folds the odd-tap test away. */
#define DW_UNROLL _Pragma("GCC unroll 32")

void DW_NAME(size_t channels, size_t output_width, size_t kernel_size, const int8_t** input,
             const void* weights, int8_t* output, size_t output_increment, size_t input_offset,
             const int8_t* zero, const tff_qs8_dwconv_params* params) {
  const size_t taps = DW_TAPS ? DW_TAPS : kernel_size;
  const size_t wbytes = DW_WBYTES(taps);
  const dw_prm prm = dw_params(params);
  (void)kernel_size;
  do {
#if DW_TAPS
    /* Fixed tap count: resolve the pointers once per pixel. */
    const int8_t* x[DW_TAPS];
    DW_UNROLL
    for (size_t t = 0; t < DW_TAPS; ++t)
      x[t] = input[t] == zero ? zero : input[t] + input_offset;
#define DW_X(t) x[t]
#else
#define DW_X(t) (input[t] == zero ? zero : input[t] + input_offset)
#endif
    const char* w = (const char*)weights;
    for (size_t c0 = 0; c0 < channels; c0 += DW_CT) {
      dw_acc acc = dw_init((const int32_t*)w);
      const int8_t* wt = (const int8_t*)(w + DW_CT * sizeof(int32_t));
      const float* scale = (const float*)(w + DW_CT * sizeof(int32_t) + wbytes);
      if (channels >= DW_CT) {
        /* A partial last tile is the window ending at the last channel. */
        const size_t s = c0 + DW_CT <= channels ? c0 : channels - DW_CT;
#if DW_PAIRS
        /* An odd last tap pairs with itself; its partner's weight is 0. */
        DW_UNROLL
        for (size_t t = 0; t < taps; t += 2)
          acc = dw_mac(acc, DW_X(t) + s, DW_X(t + 1 < taps ? t + 1 : t) + s,
                       (const int16_t*)wt + t * DW_CT);
#else
        DW_UNROLL
        for (size_t t = 0; t < taps; ++t) acc = dw_mac(acc, DW_X(t) + s, wt + t * DW_CT);
#endif
        dw_store(acc, scale, &prm, output + s);
      } else {
        /* Fewer channels than one tile: through zero-padded stack tiles. */
        int8_t tile[DW_CT] = {0};
#if DW_PAIRS
        int8_t tile1[DW_CT] = {0};
        for (size_t t = 0; t < taps; t += 2) {
          memcpy(tile, DW_X(t), channels);
          memcpy(tile1, DW_X(t + 1 < taps ? t + 1 : t), channels);
          acc = dw_mac(acc, tile, tile1, (const int16_t*)wt + t * DW_CT);
        }
#else
        for (size_t t = 0; t < taps; ++t) {
          memcpy(tile, DW_X(t), channels);
          acc = dw_mac(acc, tile, wt + t * DW_CT);
        }
#endif
        dw_store(acc, scale, &prm, tile);
        memcpy(output, tile, channels);
      }
      w += DW_CT * (sizeof(int32_t) + sizeof(float)) + wbytes;
    }
#undef DW_X
    input += taps;
    output += channels + output_increment;
  } while (--output_width != 0);
}
