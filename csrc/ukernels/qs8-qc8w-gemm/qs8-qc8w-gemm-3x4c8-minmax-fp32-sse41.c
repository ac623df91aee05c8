/* SSE4.1, 3 rows x 4 channels, KR = 8: x and w sign-extended to int16,
 * pmaddwd sums pairs into one accumulator per row and channel, reduced by
 * two hadds at the end. */
#include <smmintrin.h>

#include "qs8-qc8w-gemm.h"

static inline __m128i load_x(const int8_t* x, size_t left) {
  const __m128i v = left >= 8 ? _mm_loadl_epi64((const __m128i*)x)
                              : _mm_cvtsi64_si128((long long)tff_qs8_load_tail8(x, left));
  return _mm_cvtepi8_epi16(v);
}

static inline void finish(int8_t* c, const __m128i* acc, __m128 scale, __m128 lo, __m128 hi,
                          __m128i zp, size_t n) {
  const __m128i s = _mm_hadd_epi32(_mm_hadd_epi32(acc[0], acc[1]), _mm_hadd_epi32(acc[2], acc[3]));
  __m128 f = _mm_mul_ps(_mm_cvtepi32_ps(s), scale);
  f = _mm_min_ps(_mm_max_ps(f, lo), hi);
  const __m128i q = _mm_add_epi32(_mm_cvtps_epi32(f), zp);
  const __m128i s16 = _mm_packs_epi32(q, q);
  const int32_t out = _mm_cvtsi128_si32(_mm_packs_epi16(s16, s16));
  memcpy(c, &out, n >= 4 ? 4 : n);
}

void tff_qs8_qc8w_gemm_minmax_fp32_ukernel_3x4c8__sse41(size_t mr, size_t nc, size_t kc,
                                                        size_t ks, const int8_t* const* a,
                                                        size_t a_offset, const void* w,
                                                        int8_t* c, size_t cm_stride,
                                                        const tff_qs8_minmax_fp32_params* p) {
  const int8_t* const* a0 = a;
  const int8_t* const* a1 = mr > 1 ? a0 + ks : a0;
  const int8_t* const* a2 = mr > 2 ? a1 + ks : a1;
  int8_t* c0 = c;
  int8_t* c1 = mr > 1 ? c0 + cm_stride : c0;
  int8_t* c2 = mr > 2 ? c1 + cm_stride : c1;
  const __m128 lo = _mm_set1_ps(p->min_less_zp), hi = _mm_set1_ps(p->max_less_zp);
  const __m128i zp = _mm_set1_epi32(p->zp);
  const int8_t* pw = (const int8_t*)w;
  for (size_t n0 = 0; n0 < nc; n0 += 4) {
    const int32_t* b = (const int32_t*)pw;
    __m128i acc0[4], acc1[4], acc2[4];
    for (int j = 0; j < 4; ++j) acc0[j] = acc1[j] = acc2[j] = _mm_cvtsi32_si128(b[j]);
    pw += 4 * sizeof(int32_t);
    for (size_t t = 0; t < ks; ++t) {
      const int8_t* x0 = a0[t] + a_offset;
      const int8_t* x1 = a1[t] + a_offset;
      const int8_t* x2 = a2[t] + a_offset;
      for (size_t k = 0; k < kc; k += 8, pw += 32) {
        const size_t left = kc - k;
        const __m128i v0 = load_x(x0 + k, left), v1 = load_x(x1 + k, left);
        const __m128i v2 = load_x(x2 + k, left);
        for (int j = 0; j < 4; ++j) {
          const __m128i wj = _mm_cvtepi8_epi16(_mm_loadl_epi64((const __m128i*)(pw + 8 * j)));
          acc0[j] = _mm_add_epi32(acc0[j], _mm_madd_epi16(v0, wj));
          acc1[j] = _mm_add_epi32(acc1[j], _mm_madd_epi16(v1, wj));
          acc2[j] = _mm_add_epi32(acc2[j], _mm_madd_epi16(v2, wj));
        }
      }
    }
    const __m128 scale = _mm_loadu_ps((const float*)pw);
    pw += 4 * sizeof(float);
    const size_t n = nc - n0;
    finish(c2 + n0, acc2, scale, lo, hi, zp, n);
    finish(c1 + n0, acc1, scale, lo, hi, zp, n);
    finish(c0 + n0, acc0, scale, lo, hi, zp, n);
  }
}
