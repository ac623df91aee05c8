/* The kernels this build has, their selection, and the weight packing
 * for f32-dwconv (layout in f32-dwconv.h). */
#include "f32-dwconv.h"

#include "cpu/cpu.h"
#include "ukernels/select.h"

/* The 9-, 25- and any-tap kernels of one ISA. */
#define ENTRY(taps, n, tile, isa, bit, fma) \
  {tff_f32_dwconv_minmax_ukernel_##taps##p##tile##c__##isa, \
   "tff_f32_dwconv_minmax_ukernel_" #taps "p" #tile "c__" #isa, bit, tile, n, fma}
#define ENTRIES(tile, isa, bit, fma)                                    \
  ENTRY(9, 9, tile, isa, bit, fma), ENTRY(25, 25, tile, isa, bit, fma), \
      ENTRY(any, 0, tile, isa, bit, fma)

const tff_f32_dwconv_config tff_f32_dwconv_configs[] = {
    ENTRIES(1, scalar, TFF_ISA_SCALAR, 0),
    ENTRIES(1, scalar_fma, TFF_ISA_SCALAR, 1),
#if defined(TFF_BUILD_SSE41)
    ENTRIES(8, sse41, TFF_ISA_SSE41, 0),
#endif
#if defined(TFF_BUILD_AVX2)
    ENTRIES(16, avx2, TFF_ISA_AVX2, 1),
#endif
#if TFF_BUILD_NEON64 /* aarch64 only (select.h) */
    ENTRIES(8, neon, TFF_ISA_NEON, 0),
#endif
};
#undef ENTRIES
#undef ENTRY

const int tff_f32_dwconv_num_configs =
    (int)(sizeof(tff_f32_dwconv_configs) / sizeof(tff_f32_dwconv_configs[0]));

const tff_f32_dwconv_config* tff_f32_dwconv_select(uint32_t isa_mask, size_t taps) {
  const tff_f32_dwconv_config* best = NULL;
  for (int i = 0; i < tff_f32_dwconv_num_configs; ++i) {
    const tff_f32_dwconv_config* c = &tff_f32_dwconv_configs[i];
    if ((isa_mask & c->isa) != c->isa || (c->taps != 0 && c->taps != taps)) continue;
    if (c->isa == TFF_ISA_SCALAR && c->fma) continue; /* an oracle only */
    /* Higher ISA first; within one ISA the fixed-tap kernel. */
    if (!best || c->isa > best->isa || (c->isa == best->isa && c->taps > best->taps)) best = c;
  }
  return best; /* never NULL: the scalar any-tap kernel always fits */
}

const tff_f32_dwconv_config* tff_f32_dwconv_twin(const tff_f32_dwconv_config* cfg,
                                                 size_t taps) {
  const tff_f32_dwconv_config* twin = NULL;
  for (int i = 0; i < tff_f32_dwconv_num_configs; ++i) {
    const tff_f32_dwconv_config* c = &tff_f32_dwconv_configs[i];
    if (c->isa != TFF_ISA_SCALAR || c->fma != cfg->fma) continue;
    if (c->taps == taps || (c->taps == 0 && !twin)) twin = c; /* fixed-tap first */
  }
  return twin;
}

size_t tff_f32_dwconv_packed_size(size_t channels, size_t taps, size_t tile) {
  return (channels + tile - 1) / tile * tile * (1 + taps) * sizeof(float);
}

void tff_f32_dwconv_pack(size_t channels, size_t taps, size_t tile, const float* w,
                         const float* bias, void* packed) {
  float* p = (float*)packed;
  for (size_t c0 = 0; c0 < channels; c0 += tile) {
    const size_t start = channels < tile ? 0 : (c0 + tile <= channels ? c0 : channels - tile);
    for (size_t j = 0; j < tile; ++j)
      *p++ = start + j < channels && bias ? bias[start + j] : 0.0f;
    for (size_t t = 0; t < taps; ++t) {
      for (size_t j = 0; j < tile; ++j)
        *p++ = start + j < channels ? w[t * channels + start + j] : 0.0f;
    }
  }
}
