/* The kernels this build has, their selection, and the weight packing
 * for qs8-qc8w-dwconv (layout in qs8-qc8w-dwconv.h). */
#include <string.h>

#include "qs8-qc8w-dwconv.h"

#include "cpu/cpu.h"

/* The 9-, 25- and any-tap kernels of one ISA. */
#define ENTRY(taps, n, tile, isa, bit, pairs, split)                                    \
  {tff_qs8_qc8w_dwconv_minmax_fp32_ukernel_##taps##p##tile##c__##isa,                  \
   "tff_qs8_qc8w_dwconv_minmax_fp32_ukernel_" #taps "p" #tile "c__" #isa, bit, tile, n, \
   pairs, split, tff_qs8_qc8w_dwconv_minmax_fp32_ukernel_colp##tile##c__##isa,          \
   "tff_qs8_qc8w_dwconv_minmax_fp32_ukernel_colp" #tile "c__" #isa}
#define ENTRIES(tile, isa, bit, pairs, split)                                                \
  ENTRY(9, 9, tile, isa, bit, pairs, split), ENTRY(25, 25, tile, isa, bit, pairs, split), \
      ENTRY(any, 0, tile, isa, bit, pairs, split)

const tff_qs8_qc8w_dwconv_config tff_qs8_qc8w_dwconv_configs[] = {
    ENTRIES(1, scalar, TFF_ISA_SCALAR, 0, 0),
#if defined(TFF_BUILD_SSE41)
    ENTRIES(8, sse41, TFF_ISA_SSE41, 1, 0),
#endif
#if defined(TFF_BUILD_AVX2)
    ENTRIES(16, avx2, TFF_ISA_AVX2, 1, 1),
#endif
#if defined(TFF_BUILD_AVX512VNNI)
    ENTRIES(32, avx512vnni, TFF_ISA_AVX512VNNI, 0, 0),
#endif
#if defined(TFF_BUILD_NEON)
    ENTRIES(16, neon, TFF_ISA_NEON, 0, 0),
#endif
};
#undef ENTRIES
#undef ENTRY

const int tff_qs8_qc8w_dwconv_num_configs =
    (int)(sizeof(tff_qs8_qc8w_dwconv_configs) / sizeof(tff_qs8_qc8w_dwconv_configs[0]));

/* A SIMD kernel whose tile the channels fill: a wider tile's lanes would run
 * partly empty, and the column kernel needs channels >= tile. */
static int fills(const tff_qs8_qc8w_dwconv_config* c, size_t channels) {
  return c->isa != TFF_ISA_SCALAR && c->tile <= channels;
}

const tff_qs8_qc8w_dwconv_config* tff_qs8_qc8w_dwconv_select(uint32_t isa_mask, size_t taps,
                                                             size_t channels) {
  const tff_qs8_qc8w_dwconv_config* best = NULL;
  for (int i = 0; i < tff_qs8_qc8w_dwconv_num_configs; ++i) {
    const tff_qs8_qc8w_dwconv_config* c = &tff_qs8_qc8w_dwconv_configs[i];
    if ((isa_mask & c->isa) != c->isa || (c->taps != 0 && c->taps != taps)) continue;
    /* One whose tile the channels fill first, then the higher ISA, then
     * within one ISA the fixed-tap kernel. */
    const int f = fills(c, channels), fb = best ? fills(best, channels) : 0;
    if (!best || f > fb ||
        (f == fb && (c->isa > best->isa || (c->isa == best->isa && c->taps > best->taps))))
      best = c;
  }
  return best; /* never NULL: the scalar any-tap kernel always fits */
}

/* Bytes of one tile's weights. */
static size_t weight_bytes(const tff_qs8_qc8w_dwconv_config* cfg, size_t taps) {
  if (cfg->pairs) return (taps + 1) / 2 * cfg->tile * 2 * sizeof(int16_t);
  return (taps * cfg->tile + 3) & ~(size_t)3;
}

size_t tff_qs8_qc8w_dwconv_packed_size(const tff_qs8_qc8w_dwconv_config* cfg, size_t channels,
                                       size_t taps) {
  const size_t tile = cfg->tile, tiles = (channels + tile - 1) / tile;
  return tiles * (tile * (sizeof(int32_t) + sizeof(float)) + weight_bytes(cfg, taps));
}

void tff_qs8_qc8w_dwconv_pack(const tff_qs8_qc8w_dwconv_config* cfg, size_t channels,
                              size_t taps, const int8_t* w, const int32_t* bias,
                              int32_t input_zero_point, const float* scales, void* packed) {
  const size_t tile = cfg->tile, wbytes = weight_bytes(cfg, taps);
  char* p = (char*)packed;
  for (size_t c0 = 0; c0 < channels; c0 += tile) {
    int32_t* b = (int32_t*)p;
    int8_t* pw = (int8_t*)(p + tile * sizeof(int32_t));
    int16_t* pw16 = (int16_t*)pw;
    float* s = (float*)(p + tile * sizeof(int32_t) + wbytes);
    memset(pw, 0, wbytes);
    const size_t start = channels < tile ? 0 : (c0 + tile <= channels ? c0 : channels - tile);
    for (size_t j = 0; j < tile; ++j) {
      const size_t c = start + (cfg->split ? j / 4 % 2 * 8 + j / 8 * 4 + j % 4 : j);
      if (c >= channels) {
        b[j] = 0;
        s[j] = 0.0f;
        continue;
      }
      /* uint32: the fold wraps like the accumulation does. */
      uint32_t sum = 0;
      for (size_t t = 0; t < taps; ++t) {
        const int8_t v = w[t * channels + c];
        if (cfg->pairs)
          pw16[(t / 2 * tile + j) * 2 + t % 2] = v;
        else
          pw[t * tile + j] = v;
        sum += (uint32_t)(int32_t)v;
      }
      b[j] = (int32_t)((bias ? (uint32_t)bias[c] : 0u) - (uint32_t)input_zero_point * sum);
      s[j] = scales[c];
    }
    p += tile * (sizeof(int32_t) + sizeof(float)) + wbytes;
  }
}
