/* AVX2, 5 rows x 16 channels, KR = 2: w sign-extended to int16 holds 8
 * channels x one pair of k per vector; vpmaddwd adds the pair's two products
 * (|x·w| <= 2^14, so the pair fits int32). Each lane is one channel, so
 * nothing is reduced across lanes at the end, and a tap's kc is padded to 2,
 * not 8.
 * The tile's rows are first widened to int16 into a stack buffer, all taps
 * of a row end to end (ks·kcp values, hence the config's xmax): every
 * channel block then takes each x pair by a broadcast load (no shuffle), so
 * a pair costs 2 weight widenings and 10 madd+add. 10 accumulators, 2
 * weights, the pair and a product fit the 16 registers; 6 rows (12
 * accumulators) made GCC spill and measured slower (bench/bench_ukernels.py,
 * AMD Zen 3). At the end: the GEMV of the same packing, 1x64c2, and the
 * sign-step GEMV of the avx512vnni packing, 1x64c4_sign. */
#include <immintrin.h>

#include "qs8-qc8w-gemm.h"

#define TFF_UNROLL _Pragma("GCC unroll 5")

/* Writes kc int8 of x as int16 at d, then zeros up to a multiple of 16
 * (d has room for it; the zeros pad the tap to kcp). Never reads past kc. */
static inline void widen_row(int16_t* d, const int8_t* x, size_t kc) {
  size_t k = 0;
  for (; k + 16 <= kc; k += 16)
    _mm256_storeu_si256((__m256i*)(d + k),
                        _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i*)(x + k))));
  if (k < kc) {
    const size_t left = kc - k;
    uint64_t lo, hi = 0;
    if (left >= 8) {
      memcpy(&lo, x + k, 8);
      hi = tff_qs8_load_tail8(x + k + 8, left - 8);
    } else {
      lo = tff_qs8_load_tail8(x + k, left);
    }
    _mm256_storeu_si256((__m256i*)(d + k),
                        _mm256_cvtepi8_epi16(_mm_set_epi64x((long long)hi, (long long)lo)));
  }
}

/* GCC reassociates the unrolled integer sums into a tree of all products
 * first, which spills most of them to the stack; an empty asm on each
 * accumulator after each step keeps the running sums in registers. */
#define TFF_KEEP(v) __asm__("" : "+x"(v))

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

/* Adds every row's x pair at kk times the pair's channels: all 16 (W = 2)
 * or, in a last block of at most 8 channels, the first 8 (W = 1). */
#define TFF_C2_PAIR(W, kk)                                                            \
  do {                                                                                 \
    const __m256i w0 = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i*)pw));    \
    const __m256i w1 = (W) == 2 ? _mm256_cvtepi8_epi16(_mm_loadu_si128(               \
                                      (const __m128i*)(pw + 16)))                      \
                                : w0;                                                  \
    pw += 32;                                                                          \
    TFF_UNROLL                                                                         \
    for (size_t i = 0; i < MR; ++i) {                                                  \
      int32_t pair;                                                                    \
      memcpy(&pair, xr[i] + (kk), 4);                                                  \
      const __m256i xp = _mm256_set1_epi32(pair);                                      \
      acc[i][0] = _mm256_add_epi32(acc[i][0], _mm256_madd_epi16(xp, w0));             \
      TFF_KEEP(acc[i][0]);                                                             \
      if ((W) == 2) {                                                                  \
        acc[i][1] = _mm256_add_epi32(acc[i][1], _mm256_madd_epi16(xp, w1));           \
        TFF_KEEP(acc[i][1]);                                                           \
      }                                                                                \
    }                                                                                  \
  } while (0)

/* The pairs of one channel block: kp pairs of every row. */
#define TFF_C2_BLOCK(W)                                                               \
  do {                                                                                 \
    size_t kk = 0;                                                                     \
    for (; kk + 4 <= kp; kk += 4) {                                                    \
      TFF_C2_PAIR(W, 2 * kk);                                                          \
      TFF_C2_PAIR(W, 2 * kk + 2);                                                      \
      TFF_C2_PAIR(W, 2 * kk + 4);                                                      \
      TFF_C2_PAIR(W, 2 * kk + 6);                                                      \
    }                                                                                  \
    for (; kk < kp; ++kk) TFF_C2_PAIR(W, 2 * kk);                                      \
  } while (0)

typedef struct {
  __m256 hi;
  __m256i zp, lo, order;
} requant_consts;

/* Requantized rows a and b of 16 channels (two accumulators each) as
 * int8, row a in the low 128 bits, row b in the high: bytes [a0-3 a8-11
 * b0-3 b8-11 | a4-7 a12-15 b4-7 b12-15] permuted. */
static inline __m256i requant2(const __m256i* a, const __m256i* b, __m256 s0, __m256 s1,
                               const requant_consts* q) {
  const __m256i ra = requant16(a[0], a[1], s0, s1, q->hi, q->zp);
  const __m256i rb = b == a ? ra : requant16(b[0], b[1], s0, s1, q->hi, q->zp);
  return _mm256_permutevar8x32_epi32(_mm256_max_epi8(_mm256_packs_epi16(ra, rb), q->lo),
                                     q->order);
}

/* The first n channels of a row (all 16 when n >= 16). */
static inline void store_row(int8_t* c, __m128i v, size_t n) {
  if (n >= 16)
    _mm_storeu_si128((__m128i*)c, v);
  else
    store_part(c, v, n);
}

/* MR rows (a constant after inlining); rows past mr alias row mr-1. */
TFF_QS8_QC8W_GEMM_BODY(gemm) {
  const int8_t* const* ar[5];
  int8_t* cr[5];
  tff_qs8_gemm_rows(MR, mr, a, ks, c, cm_stride, ar, cr);
  const size_t kcp = (kc + 1) & ~(size_t)1, kp = ks * kcp / 2;
  int16_t xb[5][TFF_QS8_C2_XMAX + 16]; /* + the zeros widen_row writes past kc */
  const int16_t* xr[5];
  for (size_t i = 0; i < MR; ++i) {
    if (i < mr)
      for (size_t t = 0; t < ks; ++t) widen_row(xb[i] + t * kcp, ar[i][t] + a_offset, kc);
    xr[i] = xb[i < mr ? i : mr - 1];
  }
  const requant_consts rq = {_mm256_set1_ps(p->max_less_zp),
                            _mm256_set1_epi16((int16_t)p->zp),
                            _mm256_set1_epi8((int8_t)((int32_t)p->min_less_zp + p->zp)),
                            _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7)};
  const int8_t* pw = (const int8_t*)w;
  for (size_t n0 = 0; n0 < nc; n0 += 16) {
    __m256i acc[5][2];
    acc[0][0] = _mm256_loadu_si256((const __m256i*)pw);
    acc[0][1] = _mm256_loadu_si256((const __m256i*)pw + 1);
    TFF_UNROLL
    for (size_t i = 1; i < MR; ++i) acc[i][0] = acc[0][0], acc[i][1] = acc[0][1];
    pw += 16 * sizeof(int32_t);
    const size_t n = nc - n0;
    if (n > 8)
      TFF_C2_BLOCK(2);
    else
      TFF_C2_BLOCK(1);
    const __m256 s0 = _mm256_loadu_ps((const float*)pw), s1 = _mm256_loadu_ps((const float*)pw + 8);
    pw += 16 * sizeof(float);
    /* Rows in pairs from the highest (4 and 3, 2 and 1), then row 0 alone
     * when MR is odd; aliased rows past mr hold their row's values. */
    TFF_UNROLL
    for (size_t i = MR; i >= 2; i -= 2) {
      const __m256i r = requant2(acc[i - 1], acc[i - 2], s0, s1, &rq);
      store_row(cr[i - 1] + n0, _mm256_castsi256_si128(r), n);
      store_row(cr[i - 2] + n0, _mm256_extracti128_si256(r, 1), n);
    }
    if (MR & 1)
      store_row(cr[0] + n0, _mm256_castsi256_si128(requant2(acc[0], acc[0], s0, s1, &rq)), n);
  }
}

TFF_QS8_QC8W_GEMM_DEFINE(tff_qs8_qc8w_gemm_minmax_fp32_ukernel_5x16c2__avx2, 5, gemm)

/* Adds PROD(weights) of one k group to channels 16b..16b+15 of each of NB
 * blocks `bs` bytes apart at pw (the last block's first 8 when WL is 1):
 * PROD maps the 8 channels' weights at a pointer to their int32 products,
 * the second 8 at pw + H. */
#define TFF_GEMV_GROUP(PROD, pw, H)                                             \
  do {                                                                          \
    TFF_UNROLL                                                                  \
    for (size_t b = 0; b < NB; ++b) {                                           \
      const int8_t* wb = (pw) + b * bs;                                         \
      acc[b][0] = _mm256_add_epi32(acc[b][0], PROD(wb));                        \
      TFF_KEEP(acc[b][0]);                                                      \
      if (b + 1 < NB || WL == 2) {                                              \
        acc[b][1] = _mm256_add_epi32(acc[b][1], PROD(wb + (H)));                \
        TFF_KEEP(acc[b][1]);                                                    \
      }                                                                         \
    }                                                                           \
  } while (0)

/* c2: 8 channels x one pair of k, widened to int16, times the x pair xp. */
#define TFF_C2_PROD(wb) \
  _mm256_madd_epi16(xp, _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i*)(wb))))

/* c4 (8 channels x 4 k a vector) by the sign step: the weights take the sign
 * of their x (vpsignb) and vpmaddubsw multiplies them by |x| as uint8,
 * adding pairs in int16 - exact because |x| <= 128 and |w| <= 127 (a pair's
 * sum <= 32512; a -128 weight would break both steps, hence the config's
 * wsym) - and vpmaddwd by ones adds the pairs to int32: 4 uops per 32
 * products where the c2 step takes 6. xs: the x quad, xa: |xs|. */
#define TFF_C4S_PROD(wb)                                                                     \
  _mm256_madd_epi16(                                                                         \
      _mm256_maddubs_epi16(xa, _mm256_sign_epi8(_mm256_loadu_si256((const __m256i*)(wb)), xs)), \
      ones)

/* One pass of the GEMV over NB (1..4) consecutive blocks at w, of n
 * channels (16·(NB−1) < n <= 16·NB; WL = 1 when the last holds at most 8),
 * for KR = 2 (x: the row widened to int16) or KR = 4 (x: the row as int8,
 * the sign step above); kg groups of KR k. Each x group is broadcast once
 * for all NB blocks, whose 2·NB accumulator chains run side by side, and
 * their requantization overlaps the next pass's loads. */
static TFF_ALWAYS_INLINE void gemv_pass(const size_t NB, const size_t WL, const size_t KR,
                                        const void* x, size_t kg, const int8_t* w, size_t bs,
                                        int8_t* c, size_t n, const requant_consts* q) {
  __m256i acc[4][2];
  TFF_UNROLL
  for (size_t b = 0; b < NB; ++b) {
    acc[b][0] = _mm256_loadu_si256((const __m256i*)(w + b * bs));
    acc[b][1] = _mm256_loadu_si256((const __m256i*)(w + b * bs) + 1);
  }
  const int8_t* pw = w + 16 * sizeof(int32_t);
  size_t kk = 0;
  if (KR == 2) {
    const int16_t* x16 = (const int16_t*)x;
    for (; kk + 2 <= kg; kk += 2, pw += 64) {
      int32_t p0, p1;
      memcpy(&p0, x16 + 2 * kk, 4);
      memcpy(&p1, x16 + 2 * kk + 2, 4);
      __m256i xp = _mm256_set1_epi32(p0);
      TFF_GEMV_GROUP(TFF_C2_PROD, pw, 16);
      xp = _mm256_set1_epi32(p1);
      TFF_GEMV_GROUP(TFF_C2_PROD, pw + 32, 16);
    }
    if (kk < kg) {
      int32_t p0;
      memcpy(&p0, x16 + 2 * kk, 4);
      const __m256i xp = _mm256_set1_epi32(p0);
      TFF_GEMV_GROUP(TFF_C2_PROD, pw, 16);
      pw += 32;
    }
  } else {
    const int8_t* x8 = (const int8_t*)x;
    const __m256i ones = _mm256_set1_epi16(1);
    for (; kk < kg; ++kk, pw += 64) {
      int32_t q;
      memcpy(&q, x8 + 4 * kk, 4);
      const __m256i xs = _mm256_set1_epi32(q), xa = _mm256_abs_epi8(xs);
      TFF_GEMV_GROUP(TFF_C4S_PROD, pw, 32);
    }
  }
  /* Blocks in pairs: both requantized to one vector, block b in the low
   * 128 bits, b + 1 in the high, stored as 32 bytes when whole. */
  TFF_UNROLL
  for (size_t b = 0; b < NB; b += 2) {
    const float* s = (const float*)(pw + b * bs);
    const __m256i r0 = requant16(acc[b][0], acc[b][1], _mm256_loadu_ps(s),
                                 _mm256_loadu_ps(s + 8), q->hi, q->zp);
    __m256i r1 = r0;
    if (b + 1 < NB) {
      const float* s1 = (const float*)(pw + (b + 1) * bs);
      r1 = requant16(acc[b + 1][0], acc[b + 1][1], _mm256_loadu_ps(s1),
                     _mm256_loadu_ps(s1 + 8), q->hi, q->zp);
    }
    const __m256i r = _mm256_permutevar8x32_epi32(
        _mm256_max_epi8(_mm256_packs_epi16(r0, r1), q->lo), q->order);
    const size_t left = n - 16 * b;
    if (left >= 32) {
      _mm256_storeu_si256((__m256i*)(c + 16 * b), r);
    } else {
      store_row(c + 16 * b, _mm256_castsi256_si128(r), left);
      if (left > 16) store_part(c + 16 * b + 16, _mm256_extracti128_si256(r, 1), left - 16);
    }
  }
}

/* The GEMV over nc channels of packed blocks of 16 (KR k per group, kg
 * groups), 64 channels a pass (fewer in the last). */
static TFF_ALWAYS_INLINE void gemv(const size_t KR, const void* x, size_t kg, const void* w,
                                   int8_t* c, size_t nc, const tff_qs8_minmax_fp32_params* p) {
  const requant_consts rq = {_mm256_set1_ps(p->max_less_zp),
                            _mm256_set1_epi16((int16_t)p->zp),
                            _mm256_set1_epi8((int8_t)((int32_t)p->min_less_zp + p->zp)),
                            _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7)};
  const size_t bs = 16 * (sizeof(int32_t) + KR * kg + sizeof(float));
  const int8_t* pw = (const int8_t*)w;
  for (size_t n0 = 0; n0 < nc; n0 += 64, pw += 4 * bs) {
    const size_t n = nc - n0 < 64 ? nc - n0 : 64;
    switch ((n + 15) / 16) {
      case 1:
        if (n > 8)
          gemv_pass(1, 2, KR, x, kg, pw, bs, c + n0, n, &rq);
        else
          gemv_pass(1, 1, KR, x, kg, pw, bs, c + n0, n, &rq);
        break;
      case 2: gemv_pass(2, 2, KR, x, kg, pw, bs, c + n0, n, &rq); break;
      case 3: gemv_pass(3, 2, KR, x, kg, pw, bs, c + n0, n, &rq); break;
      default: gemv_pass(4, 2, KR, x, kg, pw, bs, c + n0, n, &rq); break;
    }
  }
}

/* The GEMV of the same packing (blocks of 16 channels), 64 channels a pass
 * (fewer in the last): one row widened once, no cross-lane reduction (1x8c8
 * does three hadds per 8 channels). */
TFF_QS8_QC8W_GEMM_BODY(gemv_c2) {
  (void)MR, (void)mr, (void)cm_stride;
  const size_t kcp = (kc + 1) & ~(size_t)1;
  int16_t xb[TFF_QS8_C2_XMAX + 16]; /* + the zeros widen_row writes past kc */
  for (size_t t = 0; t < ks; ++t) widen_row(xb + t * kcp, a[t] + a_offset, kc);
  gemv(2, xb, ks * kcp / 2, w, c, nc, p);
}

TFF_QS8_QC8W_GEMM_DEFINE(tff_qs8_qc8w_gemm_minmax_fp32_ukernel_1x64c2__avx2, 1, gemv_c2)

/* The GEMV of the avx512vnni kernels' packing (KR = 4) by the sign step,
 * for weights in [-127, 127] only: 4-6% faster than 1x64c2 on okay_nabu's
 * GEMVs (both issue two multiplies per 32 products; this one saves the
 * widenings, 11% of a bare 64x64 inner loop), and with its int8 buffer's
 * larger xmax it takes mobilenet_v2's 1280-wide FC from 1x8c8, 1.47x
 * (bench/bench_ukernels.py, AMD Zen 3). The taps are copied end to end, each
 * padded to kcp with zeros (their weights are zero: a product of 0). */
TFF_QS8_QC8W_GEMM_BODY(gemv_c4s) {
  (void)MR, (void)mr, (void)cm_stride;
  const size_t kcp = (kc + 3) & ~(size_t)3;
  int8_t xb[TFF_QS8_C4S_XMAX];
  for (size_t t = 0; t < ks; ++t) {
    memcpy(xb + t * kcp, a[t] + a_offset, kc);
    memset(xb + t * kcp + kc, 0, kcp - kc);
  }
  gemv(4, xb, ks * kcp / 4, w, c, nc, p);
}

TFF_QS8_QC8W_GEMM_DEFINE(tff_qs8_qc8w_gemm_minmax_fp32_ukernel_1x64c4__avx2_sign, 1, gemv_c4s)
