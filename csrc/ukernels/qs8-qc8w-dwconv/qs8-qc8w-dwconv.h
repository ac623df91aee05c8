/* qs8-qc8w-dwconv: int8 depthwise convolution (depth multiplier 1) with
 * per-channel int8 weights and XNNPACK's fp32 requantization.
 *
 * Kernel names: tff_qs8_qc8w_dwconv_minmax_fp32_ukernel_<T>p<C>c__<isa>,
 * T taps ("any": the tap count is an argument), C channels per tile.
 * Every kernel computes, for each output pixel p and channel c,
 *   acc = bias'[c] + Σ_t x_t[c]·w[t][c]          (int32, wrapping)
 *   out = int8(lrintf(clamp(f32(acc)·scale[c], min_less_zp, max_less_zp)) + zp)
 * where bias' = bias − z_x·Σ_t w[t][c] is folded at packing, so padding taps
 * must read the input's zero point (the `zero` buffer) to be exact.
 *
 * Arguments (all kernels of the family share them):
 *   channels        C ≥ 1 channels of input and output.
 *   output_width    ≥ 1 output pixels to compute.
 *   kernel_size     taps per pixel; must equal T for a T-tap kernel.
 *   input           indirection buffer: kernel_size pointers per output
 *                   pixel, consecutive, in filter (ky, kx) order; each
 *                   points at C int8 channels of one input pixel, or is
 *                   `zero` for a tap in the padding.
 *   weights         packed by tff_qs8_qc8w_dwconv_pack for this kernel
 *                   (layout below).
 *   output          int8, C values per pixel; after each pixel the pointer
 *                   advances by C + output_increment bytes.
 *   input_offset    bytes added to every input pointer except `zero`
 *                   (selects the batch image).
 *   zero            C bytes holding the input zero point.
 *   params          output bounds and zero point.
 * Reads and writes only the C bytes of each pixel, so no guard bytes are
 * needed: when C is not a multiple of the tile, the last tile is the window
 * of channels [C − tile, C), recomputing (and rewriting with the same
 * values) some channels of the tile before; when C < tile, the channels go
 * through a zero-padded stack tile.
 *
 * Packed weights, per tile of `tile` channels starting at channel
 * start = C < tile ? 0 : min(k·tile, C − tile) for tile k (zero past C):
 *   int32 bias'[tile]; the weights; float scale[tile].
 * The weights are, for a kernel without `pairs`, int8 w[taps][tile] padded
 * to a multiple of 4 bytes; with `pairs`, int16 w[⌈taps/2⌉][tile][2]: taps
 * 2i and 2i+1 of a channel side by side (0 for the tap past an odd count),
 * the operand of one int16 pair multiply-add (pmaddwd) per channel.
 * With `split` (16-channel tiles), tile positions 0-7 hold channels 0-3 and
 * 8-11 and positions 8-15 channels 4-7 and 12-15 (of bias', weights and
 * scale alike): the order AVX2's in-lane unpacks produce, which its in-lane
 * packs undo. */
#ifndef TFLITE_FAST_UKERNELS_QS8_QC8W_DWCONV_H_
#define TFLITE_FAST_UKERNELS_QS8_QC8W_DWCONV_H_

#include <stddef.h>
#include <stdint.h>

typedef struct {
  float min_less_zp; /* lower output bound minus the zero point, integral */
  float max_less_zp; /* upper output bound minus the zero point, integral */
  int32_t zero_point;
} tff_qs8_dwconv_params;

typedef void (*tff_qs8_qc8w_dwconv_ukernel_fn)(
    size_t channels, size_t output_width, size_t kernel_size, const int8_t** input,
    const void* weights, int8_t* output, size_t output_increment, size_t input_offset,
    const int8_t* zero, const tff_qs8_dwconv_params* params);

/* The column kernel tff_qs8_qc8w_dwconv_minmax_fp32_ukernel_colp<C>c__<isa>:
 * one output pixel whose `taps` taps are input + t·tap_stride (t = 0..taps-1,
 * none in the padding), weights packed as for the ISA's other kernels;
 * channels ≥ C (the tile). */
typedef void (*tff_qs8_qc8w_dwconv_col_fn)(size_t channels, size_t taps, const int8_t* input,
                                           size_t tap_stride, const void* weights,
                                           int8_t* output, const tff_qs8_dwconv_params* params);

/* A kernel this build has: `taps` is 9, 25, or 0 for any tap count. */
typedef struct {
  tff_qs8_qc8w_dwconv_ukernel_fn fn;
  const char* name;
  uint32_t isa; /* TFF_ISA_* bit the kernel needs (0: scalar) */
  size_t tile;  /* channels per tile: the packing's `tile` */
  size_t taps;
  int pairs;    /* weights as int16 tap pairs (else int8 per tap) */
  int split;    /* channels in AVX2's in-lane order (below) */
  tff_qs8_qc8w_dwconv_col_fn col; /* the ISA's column kernel (same packing) */
  const char* col_name;
} tff_qs8_qc8w_dwconv_config;

extern const tff_qs8_qc8w_dwconv_config tff_qs8_qc8w_dwconv_configs[];
extern const int tff_qs8_qc8w_dwconv_num_configs;

/* The kernel for `taps` taps and `channels` channels: the best ISA in
 * isa_mask whose tile the channels fill (AVX-512's 32 only from 32 channels
 * on), else the best ISA; a fixed-tap kernel when one matches, else the
 * any-tap one of that ISA. */
const tff_qs8_qc8w_dwconv_config* tff_qs8_qc8w_dwconv_select(uint32_t isa_mask, size_t taps,
                                                             size_t channels);

/* Bytes of the packed weights for `channels` channels and `taps` taps. */
size_t tff_qs8_qc8w_dwconv_packed_size(const tff_qs8_qc8w_dwconv_config* cfg, size_t channels,
                                       size_t taps);

/* w: [taps][channels] (TFLite's [1, kh, kw, C] filter); bias: C int32 or
 * NULL; input_zero_point: z_x; scales: C float requantization scales
 * s_x·s_w[c]/s_y. */
void tff_qs8_qc8w_dwconv_pack(const tff_qs8_qc8w_dwconv_config* cfg, size_t channels,
                              size_t taps, const int8_t* w, const int32_t* bias,
                              int32_t input_zero_point, const float* scales, void* packed);

#define TFF_QS8_DW_DECLARE(tile, isa)                                                   \
  void tff_qs8_qc8w_dwconv_minmax_fp32_ukernel_9p##tile##c__##isa(                     \
      size_t, size_t, size_t, const int8_t**, const void*, int8_t*, size_t, size_t,    \
      const int8_t*, const tff_qs8_dwconv_params*);                                     \
  void tff_qs8_qc8w_dwconv_minmax_fp32_ukernel_25p##tile##c__##isa(                    \
      size_t, size_t, size_t, const int8_t**, const void*, int8_t*, size_t, size_t,    \
      const int8_t*, const tff_qs8_dwconv_params*);                                     \
  void tff_qs8_qc8w_dwconv_minmax_fp32_ukernel_anyp##tile##c__##isa(                   \
      size_t, size_t, size_t, const int8_t**, const void*, int8_t*, size_t, size_t,    \
      const int8_t*, const tff_qs8_dwconv_params*);                                     \
  void tff_qs8_qc8w_dwconv_minmax_fp32_ukernel_colp##tile##c__##isa(                   \
      size_t, size_t, const int8_t*, size_t, const void*, int8_t*,                     \
      const tff_qs8_dwconv_params*);

TFF_QS8_DW_DECLARE(1, scalar)
TFF_QS8_DW_DECLARE(8, sse41)
TFF_QS8_DW_DECLARE(16, avx2)
TFF_QS8_DW_DECLARE(32, avx512vnni)
TFF_QS8_DW_DECLARE(16, neon)

#endif /* TFLITE_FAST_UKERNELS_QS8_QC8W_DWCONV_H_ */
