/* The body of every pooling kernel (see pool.h), instantiated once per
 * family and ISA. Each pixel's channels go in blocks of 4 vectors of TFF_W,
 * then the 1-3 vectors left in one walk of the taps, then the last 1..W-1
 * channels as the vector ending at the last channel (its other lanes are
 * recomputed with the same bits) or, with fewer than TFF_W channels, by
 * TFF_POOL_NARROW (a narrower kernel) when defined, else by the scalar twin's
 * element. Before including, define:
 *   TFF_POOL_KERNEL   the kernel's name
 *   TFF_T, TFF_P      element and params types
 *   TFF_W             channels per vector
 *   TFF_POOL_ELEM     the scalar twin's element, tff_*_pool_elem of pool.h
 *   TFF_POOL_NARROW   optional: the kernel for channels < TFF_W
 * and either a function
 *   tff_pool_block(taps, input, c, nv, output, params): nv (1..4, constant
 *   after inlining) vectors of channels from c on, one pixel
 * (defining TFF_POOL_CUSTOM_BLOCK), or the vector names TFF_V, TFF_LOAD,
 * TFF_STORE, TFF_SPLAT, TFF_MAX(a, b) (a > b ? a : b per lane, b when either
 * is NaN), TFF_MIN(a, b) (a < b ? a : b) and the fold:
 *   TFF_POOL_INIT            the accumulator's first value
 *   TFF_POOL_FOLD(acc, x)    one tap into acc
 *   TFF_POOL_FINISH(acc, n)  the pooled value of n taps, before the clamp */
#include "cpu/portable.h"
#include "ukernels/pool.h"

#ifndef TFF_POOL_CUSTOM_BLOCK
static TFF_ALWAYS_INLINE void tff_pool_block(size_t taps, const TFF_T* const* input, size_t c,
                                             const int nv, TFF_T* output, const TFF_P* p) {
  TFF_V acc[4];
  _Pragma("GCC unroll 4")
  for (int j = 0; j < nv; ++j) acc[j] = TFF_SPLAT(TFF_POOL_INIT);
  for (size_t t = 0; t < taps; ++t) {
    const TFF_T* x = input[t] + c;
    _Pragma("GCC unroll 4")
    for (int j = 0; j < nv; ++j) acc[j] = TFF_POOL_FOLD(acc[j], TFF_LOAD(x + j * TFF_W));
  }
  const TFF_V lo = TFF_SPLAT(p->min), hi = TFF_SPLAT(p->max);
  _Pragma("GCC unroll 4")
  for (int j = 0; j < nv; ++j) {
    /* v < min ? min : v, then v > max ? max : v */
    TFF_STORE(output + c + j * TFF_W, TFF_MIN(hi, TFF_MAX(lo, TFF_POOL_FINISH(acc[j], taps))));
  }
}
#endif

void TFF_POOL_KERNEL(size_t pixels, size_t taps, size_t channels, const TFF_T* const* input,
                     TFF_T* output, const TFF_P* params) {
#ifdef TFF_POOL_NARROW
  if (channels < TFF_W) {
    TFF_POOL_NARROW(pixels, taps, channels, input, output, params);
    return;
  }
#endif
  for (; pixels != 0; --pixels, input += taps, output += channels) {
    size_t c = 0;
    for (; c + 4 * TFF_W <= channels; c += 4 * TFF_W) tff_pool_block(taps, input, c, 4, output, params);
    const size_t nv = (channels - c) / TFF_W;
    if (nv == 3) tff_pool_block(taps, input, c, 3, output, params);
    if (nv == 2) tff_pool_block(taps, input, c, 2, output, params);
    if (nv == 1) tff_pool_block(taps, input, c, 1, output, params);
    c += nv * TFF_W;
    if (c < channels && channels >= TFF_W) {
      tff_pool_block(taps, input, channels - TFF_W, 1, output, params);
      c = channels;
    }
    for (; c < channels; ++c) output[c] = TFF_POOL_ELEM(taps, input, c, params);
  }
}
