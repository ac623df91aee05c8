/* f32-dwconv: float depthwise convolution (depth multiplier 1).
 *
 * Kernel names: tff_f32_dwconv_minmax_ukernel_<T>p<C>c__<isa>, T taps
 * ("any": the tap count is an argument), C channels per tile. For each
 * output pixel and channel c:
 *   acc = bias[c]; for t in filter order: acc = acc + x_t[c]·w[t][c]
 *   out = min(max(acc, min), max)        (NaN passes through)
 * with a separately rounded multiply and add, or, in a kernel whose config
 * says `fma` (ISAs that guarantee it: our avx2), one fused multiply-add.
 * Every kernel gives the bits of the scalar twin of its kind (__scalar,
 * __scalar_fma); float outputs may thus differ between ISA levels, within
 * the oracle's tolerance.
 *
 * Arguments (all kernels of the family share them):
 *   channels        C ≥ 1 channels of input and output.
 *   output_width    ≥ 1 output pixels to compute.
 *   kernel_size     taps per pixel; must equal T for a T-tap kernel.
 *   input           indirection buffer: kernel_size pointers per output
 *                   pixel, consecutive, in filter (ky, kx) order; each
 *                   points at C floats of one input pixel, or is `zero`
 *                   for a tap in the padding.
 *   weights         packed by tff_f32_dwconv_pack with this kernel's tile.
 *   output          C floats per pixel; after each pixel the pointer
 *                   advances by C floats + output_increment bytes.
 *   input_offset    bytes added to every input pointer except `zero`.
 *   zero            C zeros.
 *   params          output bounds.
 * Reads and writes only the C floats of each pixel: when C is not a
 * multiple of the tile, the last tile is the window of channels
 * [C − tile, C) (rewriting some channels with the same values); when
 * C < tile, the channels go through a zero-padded stack tile.
 *
 * Packed weights, per tile of `tile` channels starting at channel
 * start = C < tile ? 0 : min(k·tile, C − tile) for tile k (zero past C):
 *   float bias[tile]; float w[taps][tile]. */
#ifndef TFLITE_FAST_UKERNELS_F32_DWCONV_H_
#define TFLITE_FAST_UKERNELS_F32_DWCONV_H_

#include <stddef.h>
#include <stdint.h>

typedef struct {
  float min, max;
} tff_f32_dwconv_params;

typedef void (*tff_f32_dwconv_ukernel_fn)(size_t channels, size_t output_width,
                                          size_t kernel_size, const float** input,
                                          const void* weights, float* output,
                                          size_t output_increment, size_t input_offset,
                                          const float* zero,
                                          const tff_f32_dwconv_params* params);

/* A kernel this build has: `taps` is 9, 25, or 0 for any tap count. */
typedef struct {
  tff_f32_dwconv_ukernel_fn fn;
  const char* name;
  uint32_t isa; /* TFF_ISA_* bit the kernel needs (0: scalar) */
  size_t tile;  /* channels per tile: the packing's `tile` */
  size_t taps;
  int fma;      /* fused multiply-add: bit-exact with the __scalar_fma twin */
} tff_f32_dwconv_config;

extern const tff_f32_dwconv_config tff_f32_dwconv_configs[];
extern const int tff_f32_dwconv_num_configs;

/* The kernel for `taps` taps on the best ISA in isa_mask; a fixed-tap kernel
 * when one matches, else the any-tap one of that ISA. */
const tff_f32_dwconv_config* tff_f32_dwconv_select(uint32_t isa_mask, size_t taps);
/* The scalar twin of cfg for `taps` taps (fused when cfg is); the fused
 * twins are oracles only, never selected. */
const tff_f32_dwconv_config* tff_f32_dwconv_twin(const tff_f32_dwconv_config* cfg,
                                                 size_t taps);

/* Bytes of the packed weights for `channels` channels and `taps` taps. */
size_t tff_f32_dwconv_packed_size(size_t channels, size_t taps, size_t tile);

/* w: [taps][channels] (TFLite's [1, kh, kw, C] filter); bias: C or NULL. */
void tff_f32_dwconv_pack(size_t channels, size_t taps, size_t tile, const float* w,
                         const float* bias, void* packed);

#define TFF_F32_DW_DECLARE(tile, isa)                                                       \
  void tff_f32_dwconv_minmax_ukernel_9p##tile##c__##isa(                                    \
      size_t, size_t, size_t, const float**, const void*, float*, size_t, size_t,          \
      const float*, const tff_f32_dwconv_params*);                                          \
  void tff_f32_dwconv_minmax_ukernel_25p##tile##c__##isa(                                   \
      size_t, size_t, size_t, const float**, const void*, float*, size_t, size_t,          \
      const float*, const tff_f32_dwconv_params*);                                          \
  void tff_f32_dwconv_minmax_ukernel_anyp##tile##c__##isa(                                  \
      size_t, size_t, size_t, const float**, const void*, float*, size_t, size_t,          \
      const float*, const tff_f32_dwconv_params*);

TFF_F32_DW_DECLARE(1, scalar)
TFF_F32_DW_DECLARE(1, scalar_fma)
TFF_F32_DW_DECLARE(8, sse41)
TFF_F32_DW_DECLARE(16, avx2)
TFF_F32_DW_DECLARE(8, neon) /* aarch64 only: armv7 NEON flushes denormals */

#endif /* TFLITE_FAST_UKERNELS_F32_DWCONV_H_ */
