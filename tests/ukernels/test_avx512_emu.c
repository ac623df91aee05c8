/* avx512_emu.h against the hardware: each emulated AVX-512 intrinsic with
 * an AVX2 counterpart must equal it on both 256-bit halves (vpdpbusd: the
 * same sums from vpmaddwd of widened bytes), over random lanes mixed with
 * the edges (NaN, ±0, ±2^31, .5 ties, int8/int16/int32 extremes). Prints
 * PASS or FAIL <intrinsic>; exits non-zero on a failure. */
#include "avx512_emu.h"
#include "ukernel_test.h"

static const uint32_t kEdges[] = {0x7fc00000u, 0x80000000u, 0x00000000u, 0x4f000000u,
                                  0xcf000000u, 0x3f000000u, 0x40200000u, 0xbfc00000u,
                                  0x7fffffffu, 0x00000080u, 0x0000007fu, 0xffffff80u,
                                  0x00007fffu, 0xffff8000u, 0x807f7f80u, 0x7f800000u};

static void fill(void* p) {
  uint32_t* w = p;
  for (int i = 0; i < 16; ++i) w[i] = rnd() % 3 == 0 ? kEdges[rnd() % 16] : rnd() * 2u + (rnd() & 1);
}

static int same(const char* what, const void* got, const void* want, size_t bytes) {
  if (memcmp(got, want, bytes) == 0) return 0;
  printf("FAIL %s\n", what);
  return 1;
}

static int same_512(const char* what, const void* got, const void* want) {
  return same(what, got, want, 64);
}

/* Floats: bit-exact, except that any NaN equals any NaN (which operand's
 * payload a NaN result carries is the compiler's operand order). */
static int same_f32(const char* what, const void* got, const void* want) {
  float g[16], w[16];
  memcpy(g, got, 64), memcpy(w, want, 64);
  for (int i = 0; i < 16; ++i)
    if (!(isnan(g[i]) && isnan(w[i])) && memcmp(&g[i], &w[i], 4) != 0) {
      printf("FAIL %s: lane %d got %a want %a\n", what, i, g[i], w[i]);
      return 1;
    }
  return 0;
}

/* want = the AVX2 op on each half of 512-bit a, b. */
#define HALVES(T, op, a, b, want)                                                  \
  do {                                                                             \
    T lo_ = op(_mm256_loadu_##T##_(a), _mm256_loadu_##T##_(b));                    \
    T hi_ = op(_mm256_loadu_##T##_((const char*)(a) + 32),                         \
               _mm256_loadu_##T##_((const char*)(b) + 32));                        \
    memcpy(want, &lo_, 32);                                                        \
    memcpy((char*)(want) + 32, &hi_, 32);                                          \
  } while (0)
#define _mm256_loadu___m256i_(p) _mm256_loadu_si256((const __m256i*)(p))
#define _mm256_loadu___m256_(p) _mm256_loadu_ps((const float*)(p))

int main(void) {
  if (!isa_runs(TFF_ISA_AVX2, "avx512_emu.h")) return 0;
  int bad = 0;
  for (int it = 0; it < 20000 && !bad; ++it) {
    uint8_t a[64], b[64], c[64], want[64], got[64];
    fill(a), fill(b), fill(c);
    __m512i va, vb, vc;
    __m512 fa, fb;
    memcpy(&va, a, 64), memcpy(&vb, b, 64), memcpy(&vc, c, 64);
    memcpy(&fa, a, 64), memcpy(&fb, b, 64);
#define CHECK512(name, T, avx2op, expr, eq) \
    HALVES(T, avx2op, a, b, want);           \
    {                                        \
      const __typeof__(expr) r_ = (expr);    \
      memcpy(got, &r_, 64);                  \
    }                                        \
    bad |= eq(name, got, want);
    CHECK512("_mm512_add_epi32", __m256i, _mm256_add_epi32, _mm512_add_epi32(va, vb), same_512)
    CHECK512("_mm512_mullo_epi16", __m256i, _mm256_mullo_epi16, _mm512_mullo_epi16(va, vb),
             same_512)
    CHECK512("_mm512_mul_ps", __m256, _mm256_mul_ps, _mm512_mul_ps(fa, fb), same_f32)
    CHECK512("_mm512_min_ps", __m256, _mm256_min_ps, _mm512_min_ps(fa, fb), same_512)
    CHECK512("_mm512_max_ps", __m256, _mm256_max_ps, _mm512_max_ps(fa, fb), same_512)
    {
      const __m256i lo = _mm256_cvtps_epi32(_mm256_loadu_ps((const float*)a));
      const __m256i hi = _mm256_cvtps_epi32(_mm256_loadu_ps((const float*)a + 8));
      memcpy(want, &lo, 32), memcpy(want + 32, &hi, 32);
      const __m512i r = _mm512_cvtps_epi32(fa);
      memcpy(got, &r, 64);
      bad |= same("_mm512_cvtps_epi32", got, want, 64);
    }
    {
      const __m256 lo = _mm256_cvtepi32_ps(_mm256_loadu_si256((const __m256i*)a));
      const __m256 hi = _mm256_cvtepi32_ps(_mm256_loadu_si256((const __m256i*)(a + 32)));
      memcpy(want, &lo, 32), memcpy(want + 32, &hi, 32);
      const __m512 r = _mm512_cvtepi32_ps(va);
      memcpy(got, &r, 64);
      bad |= same_f32("_mm512_cvtepi32_ps", got, want);
    }
    {
      /* int32 -> int8 saturating: two saturating packs, then lane order */
      const __m256i lo = _mm256_loadu_si256((const __m256i*)a);
      const __m256i hi = _mm256_loadu_si256((const __m256i*)(a + 32));
      const __m256i w16 = _mm256_permute4x64_epi64(_mm256_packs_epi32(lo, hi), 0xd8);
      const __m128i w8 = _mm_packs_epi16(_mm256_castsi256_si128(w16),
                                         _mm256_extracti128_si256(w16, 1));
      memcpy(want, &w8, 16);
      const __m128i r = _mm512_cvtsepi32_epi8(va);
      memcpy(got, &r, 16);
      bad |= same("_mm512_cvtsepi32_epi8", got, want, 16);
    }
    /* widening: the AVX2 form takes each 128-bit half */
#define CHECK_WIDEN(name, avx2op, expr)                                   \
    {                                                                     \
      const __m256i x = _mm256_loadu_si256((const __m256i*)a);            \
      const __m256i lo = avx2op(_mm256_castsi256_si128(x));               \
      const __m256i hi = avx2op(_mm256_extracti128_si256(x, 1));          \
      memcpy(want, &lo, 32), memcpy(want + 32, &hi, 32);                  \
      const __m512i r = expr;                                             \
      memcpy(got, &r, 64);                                                \
      bad |= same(name, got, want, 64);                                   \
    }
    CHECK_WIDEN("_mm512_cvtepi8_epi16", _mm256_cvtepi8_epi16, _mm512_cvtepi8_epi16(x))
    CHECK_WIDEN("_mm512_cvtepi16_epi32", _mm256_cvtepi16_epi32, _mm512_cvtepi16_epi32(x))
    {
      /* vpdpbusd: u8 x s8 in int16 (exact: |p| <= 255·128), pairs by
       * vpmaddwd with ones, pairs of pairs by vphaddd's lane order undone. */
      for (int h = 0; h < 2; ++h) {
        const __m256i x = _mm256_loadu_si256((const __m256i*)(a + 32 * h));
        const __m256i y = _mm256_loadu_si256((const __m256i*)(b + 32 * h));
        const __m256i one = _mm256_set1_epi16(1);
        const __m256i p0 = _mm256_madd_epi16(
            _mm256_mullo_epi16(_mm256_cvtepu8_epi16(_mm256_castsi256_si128(x)),
                               _mm256_cvtepi8_epi16(_mm256_castsi256_si128(y))), one);
        const __m256i p1 = _mm256_madd_epi16(
            _mm256_mullo_epi16(_mm256_cvtepu8_epi16(_mm256_extracti128_si256(x, 1)),
                               _mm256_cvtepi8_epi16(_mm256_extracti128_si256(y, 1))), one);
        const __m256i s = _mm256_permute4x64_epi64(_mm256_hadd_epi32(p0, p1), 0xd8);
        const __m256i r = _mm256_add_epi32(s, _mm256_loadu_si256((const __m256i*)(c + 32 * h)));
        memcpy(want + 32 * h, &r, 32);
      }
      const __m512i r = _mm512_dpbusd_epi32(vc, va, vb);
      memcpy(got, &r, 64);
      bad |= same("_mm512_dpbusd_epi32", got, want, 64);
    }
    {
      const __m256i lo = _mm512_castsi512_si256(va), hi = _mm512_extracti64x4_epi64(va, 1);
      memcpy(got, &lo, 32), memcpy(got + 32, &hi, 32);
      bad |= same("_mm512_castsi512_si256/_mm512_extracti64x4_epi64", got, a, 64);
    }
    {
      /* byte-masked store: only the mask's bytes change */
      memcpy(got, c, 16), memcpy(want, c, 16);
      const __mmask16 k = (__mmask16)rnd();
      for (int i = 0; i < 16; ++i)
        if ((k >> i) & 1) want[i] = a[i];
      _mm_mask_storeu_epi8(got, k, _mm_loadu_si128((const __m128i*)a));
      bad |= same("_mm_mask_storeu_epi8", got, want, 16);
    }
  }
  if (!bad) printf("PASS avx512_emu.h (20000 random vectors per intrinsic)\n");
  return bad;
}
