/* AVX2, 4 rows x 16 channels, KR = 2: w sign-extended to int16 holds 8
 * channels x one pair of k per vector, x's pair is broadcast to every lane
 * (vpshufd of the row's 8 int16), vpmaddwd adds the pair's two products
 * (|x·w| <= 2^14, so the pair fits int32). Each lane is one channel, so
 * nothing is reduced across lanes at the end, and a tap's kc is padded to 2,
 * not 8: cheaper than 4x8c8 when kc is small (1x1 convs of few channels,
 * the 3-channel first conv; tff_qs8_qc8w_gemm_select). */
#include <immintrin.h>

#include "qs8-qc8w-gemm.h"

#define TFF_UNROLL _Pragma("GCC unroll 4")

/* 8 int8 of x (a zero-filled tail when fewer remain) as int16, in both
 * 128-bit lanes. */
static inline __m256i load_x(const int8_t* x, size_t left) {
  const __m128i v = left >= 8 ? _mm_loadl_epi64((const __m128i*)x)
                              : _mm_cvtsi64_si128((long long)tff_qs8_load_tail8(x, left));
  return _mm256_broadcastsi128_si256(_mm_cvtepi8_epi16(v));
}

/* 8 channels x one pair of k, as int16. */
static inline __m256i load_w(const int8_t* w) {
  return _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i*)w));
}

/* GCC reassociates the unrolled integer sums into a tree of all products
 * first, which spills most of them to the stack; an empty asm on each
 * accumulator after each step keeps the running sums in registers. MSVC has
 * no x64 inline asm (and does not reassociate so). */
#if defined(__GNUC__)
#define TFF_KEEP(v) __asm__("" : "+x"(v))
#else
#define TFF_KEEP(v) ((void)0)
#endif

/* Adds pair q (0..3) of every row's xv times the next 16 channels' pair. */
#define TFF_C2_STEP(q)                                                              \
  do {                                                                               \
    const __m256i w0 = load_w(pw), w1 = load_w(pw + 16);                            \
    pw += 32;                                                                        \
    TFF_UNROLL                                                                       \
    for (size_t i = 0; i < MR; ++i) {                                                \
      const __m256i xp = _mm256_shuffle_epi32(xv[i], (q) * 0x55);                    \
      acc[i][0] = _mm256_add_epi32(acc[i][0], _mm256_madd_epi16(xp, w0));           \
      acc[i][1] = _mm256_add_epi32(acc[i][1], _mm256_madd_epi16(xp, w1));           \
      TFF_KEEP(acc[i][0]);                                                           \
      TFF_KEEP(acc[i][1]);                                                           \
    }                                                                                \
  } while (0)

/* 16 channels of int32 requantized to int16 [c0-3 c8-11 | c4-7 c12-15],
 * clamped above only: rounding is monotonic and the lower bound an integer,
 * so the lower clamp can follow in int8 (the scalar twin clamps both in
 * float; the results are the same). */
static inline __m256i requant16(__m256i acc0, __m256i acc1, __m256 s0, __m256 s1, __m256 hi,
                                __m256i zp) {
  const __m256 f0 = _mm256_min_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(acc0), s0), hi);
  const __m256 f1 = _mm256_min_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(acc1), s1), hi);
  return _mm256_adds_epi16(_mm256_packs_epi32(_mm256_cvtps_epi32(f0), _mm256_cvtps_epi32(f1)),
                           zp);
}

/* Stores the first n (< 16) bytes of v. */
static inline void store_part(int8_t* c, __m128i v, size_t n) {
  if (n & 8) {
    _mm_storel_epi64((__m128i*)c, v);
    v = _mm_unpackhi_epi64(v, v);
    c += 8;
  }
  if (n & 4) {
    const int32_t t = _mm_cvtsi128_si32(v);
    memcpy(c, &t, 4);
    v = _mm_srli_epi64(v, 32);
    c += 4;
  }
  if (n & 2) {
    const int16_t t = (int16_t)_mm_extract_epi16(v, 0);
    memcpy(c, &t, 2);
    v = _mm_srli_epi32(v, 16);
    c += 2;
  }
  if (n & 1) *c = (int8_t)_mm_extract_epi8(v, 0);
}

/* MR rows (a constant after inlining); rows past mr alias row mr-1. */
TFF_QS8_QC8W_GEMM_BODY(gemm) {
  const int8_t* const* ar[4];
  int8_t* cr[4];
  tff_qs8_gemm_rows(MR, mr, a, ks, c, cm_stride, ar, cr);
  const __m256 hi = _mm256_set1_ps(p->max_less_zp);
  const __m256i zp = _mm256_set1_epi16((int16_t)p->zp);
  const __m256i lo = _mm256_set1_epi8((int8_t)((int32_t)p->min_less_zp + p->zp));
  const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
  const int8_t* pw = (const int8_t*)w;
  for (size_t n0 = 0; n0 < nc; n0 += 16) {
    __m256i acc[4][2];
    acc[0][0] = _mm256_loadu_si256((const __m256i*)pw);
    acc[0][1] = _mm256_loadu_si256((const __m256i*)pw + 1);
    TFF_UNROLL
    for (size_t i = 1; i < MR; ++i) acc[i][0] = acc[0][0], acc[i][1] = acc[0][1];
    pw += 16 * sizeof(int32_t);
    for (size_t t = 0; t < ks; ++t) {
      const int8_t* x[4];
      TFF_UNROLL
      for (size_t i = 0; i < MR; ++i) x[i] = ar[i][t] + a_offset;
      __m256i xv[4];
      size_t k = 0;
      for (; k + 8 <= kc; k += 8) {
        TFF_UNROLL
        for (size_t i = 0; i < MR; ++i) xv[i] = load_x(x[i] + k, 8);
        TFF_C2_STEP(0);
        TFF_C2_STEP(1);
        TFF_C2_STEP(2);
        TFF_C2_STEP(3);
      }
      if (k < kc) { /* 1..7 left: 1..4 pairs, weights past kc are zero */
        const size_t left = kc - k;
        TFF_UNROLL
        for (size_t i = 0; i < MR; ++i) xv[i] = load_x(x[i] + k, left);
        TFF_C2_STEP(0);
        if (left > 2) TFF_C2_STEP(1);
        if (left > 4) TFF_C2_STEP(2);
        if (left > 6) TFF_C2_STEP(3);
      }
    }
    const __m256 s0 = _mm256_loadu_ps((const float*)pw), s1 = _mm256_loadu_ps((const float*)pw + 8);
    pw += 16 * sizeof(float);
    const size_t n = nc - n0;
    /* Two rows at a time, highest first: aliased rows past mr hold the same
     * values. Bytes [a0-3 a8-11 b0-3 b8-11 | a4-7 a12-15 b4-7 b12-15]
     * permuted to row a, then row b. */
    TFF_UNROLL
    for (size_t i = MR; i >= 2; i -= 2) {
      const __m256i a = requant16(acc[i - 1][0], acc[i - 1][1], s0, s1, hi, zp);
      const __m256i b = requant16(acc[i - 2][0], acc[i - 2][1], s0, s1, hi, zp);
      const __m256i ab = _mm256_permutevar8x32_epi32(
          _mm256_max_epi8(_mm256_packs_epi16(a, b), lo), order);
      if (n >= 16) {
        _mm_storeu_si128((__m128i*)(cr[i - 1] + n0), _mm256_castsi256_si128(ab));
        _mm_storeu_si128((__m128i*)(cr[i - 2] + n0), _mm256_extracti128_si256(ab, 1));
      } else {
        store_part(cr[i - 1] + n0, _mm256_castsi256_si128(ab), n);
        store_part(cr[i - 2] + n0, _mm256_extracti128_si256(ab, 1), n);
      }
    }
  }
}

TFF_QS8_QC8W_GEMM_DEFINE(tff_qs8_qc8w_gemm_minmax_fp32_ukernel_4x16c2__avx2, 4, gemm)
