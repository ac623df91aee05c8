/* The AVX-512 intrinsics our avx512vnni kernels call, written lane by lane
 * in C, so those kernels' logic (lanes, tails, masks, the +128 of vpdpbusd,
 * the packing they read) is checked against their scalar twins on CPUs
 * without AVX-512 (this project's AMD dev machine and CI). Force-included
 * (-include) into the kernel files of the "x86_64-avx512emu" test target,
 * which builds them with the avx2 flags; each macro below renames a kernel's
 * call to its emulation. Semantics from Intel's intrinsics guide: wrapping
 * integer adds and dot products, MXCSR rounding (nearest even) for
 * cvtps2dq with 0x80000000 for NaN and out-of-range values, minps/maxps
 * returning the second operand unless the first compares less/greater,
 * saturating vpmovsdb, byte-masked stores that touch nothing else. On a CPU
 * with AVX-512 VNNI the native x86_64 target runs the real instructions. */
#ifndef TFF_TESTS_AVX512_EMU_H_
#define TFF_TESTS_AVX512_EMU_H_

#include <immintrin.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

/* GCC's headers declare the types for every target; only the functions
 * need AVX-512, and none of theirs is called once the names below map to
 * these. Built without AVX-512 flags, no AVX-512 instruction can appear. */
typedef union {
  int8_t i8[64];
  uint8_t u8[64];
  int16_t i16[32];
  int32_t i32[16];
  float f32[16];
} tff_emu_v512;

static inline tff_emu_v512 tff_emu_get(const void* v) {
  tff_emu_v512 r;
  memcpy(&r, v, 64);
  return r;
}
#define TFF_EMU_RET(T, r) \
  do {                    \
    T out_;               \
    memcpy(&out_, &(r), sizeof(out_)); \
    return out_;          \
  } while (0)

static inline __m512i tff_emu_set1_epi32(int v) {
  tff_emu_v512 r;
  for (int i = 0; i < 16; ++i) r.i32[i] = v;
  TFF_EMU_RET(__m512i, r);
}
static inline __m512 tff_emu_set1_ps(float v) {
  tff_emu_v512 r;
  for (int i = 0; i < 16; ++i) r.f32[i] = v;
  TFF_EMU_RET(__m512, r);
}
static inline __m512i tff_emu_loadu_si512(const void* p) {
  tff_emu_v512 r = tff_emu_get(p);
  TFF_EMU_RET(__m512i, r);
}
static inline __m512 tff_emu_loadu_ps(const void* p) {
  tff_emu_v512 r = tff_emu_get(p);
  TFF_EMU_RET(__m512, r);
}
static inline __m512i tff_emu_add_epi32(__m512i a, __m512i b) {
  tff_emu_v512 x = tff_emu_get(&a), y = tff_emu_get(&b), r;
  for (int i = 0; i < 16; ++i) r.i32[i] = (int32_t)((uint32_t)x.i32[i] + (uint32_t)y.i32[i]);
  TFF_EMU_RET(__m512i, r);
}
static inline __m512i tff_emu_mullo_epi16(__m512i a, __m512i b) {
  tff_emu_v512 x = tff_emu_get(&a), y = tff_emu_get(&b), r;
  for (int i = 0; i < 32; ++i)
    r.i16[i] = (int16_t)(uint16_t)((uint32_t)(int32_t)x.i16[i] * (uint32_t)(int32_t)y.i16[i]);
  TFF_EMU_RET(__m512i, r);
}
/* vpdpbusd: each int32 lane + Σ of 4 (unsigned byte of a) x (signed byte
 * of b), without saturation. */
static inline __m512i tff_emu_dpbusd_epi32(__m512i src, __m512i a, __m512i b) {
  tff_emu_v512 s = tff_emu_get(&src), x = tff_emu_get(&a), y = tff_emu_get(&b), r;
  for (int i = 0; i < 16; ++i) {
    uint32_t acc = (uint32_t)s.i32[i];
    for (int j = 0; j < 4; ++j) acc += (uint32_t)((int32_t)x.u8[4 * i + j] * y.i8[4 * i + j]);
    r.i32[i] = (int32_t)acc;
  }
  TFF_EMU_RET(__m512i, r);
}
static inline __m512 tff_emu_mul_ps(__m512 a, __m512 b) {
  tff_emu_v512 x = tff_emu_get(&a), y = tff_emu_get(&b), r;
  for (int i = 0; i < 16; ++i) r.f32[i] = x.f32[i] * y.f32[i];
  TFF_EMU_RET(__m512, r);
}
static inline __m512 tff_emu_min_ps(__m512 a, __m512 b) {
  tff_emu_v512 x = tff_emu_get(&a), y = tff_emu_get(&b), r;
  for (int i = 0; i < 16; ++i) r.f32[i] = x.f32[i] < y.f32[i] ? x.f32[i] : y.f32[i];
  TFF_EMU_RET(__m512, r);
}
static inline __m512 tff_emu_max_ps(__m512 a, __m512 b) {
  tff_emu_v512 x = tff_emu_get(&a), y = tff_emu_get(&b), r;
  for (int i = 0; i < 16; ++i) r.f32[i] = x.f32[i] > y.f32[i] ? x.f32[i] : y.f32[i];
  TFF_EMU_RET(__m512, r);
}
static inline __m512 tff_emu_cvtepi32_ps(__m512i a) {
  tff_emu_v512 x = tff_emu_get(&a), r;
  for (int i = 0; i < 16; ++i) r.f32[i] = (float)x.i32[i];
  TFF_EMU_RET(__m512, r);
}
static inline __m512i tff_emu_cvtps_epi32(__m512 a) {
  tff_emu_v512 x = tff_emu_get(&a), r;
  for (int i = 0; i < 16; ++i) {
    const float f = x.f32[i];
    r.i32[i] = f >= -2147483648.0f && f < 2147483648.0f ? (int32_t)nearbyintf(f) : INT32_MIN;
  }
  TFF_EMU_RET(__m512i, r);
}
static inline __m128i tff_emu_cvtsepi32_epi8(__m512i a) {
  tff_emu_v512 x = tff_emu_get(&a);
  int8_t r[16];
  for (int i = 0; i < 16; ++i)
    r[i] = (int8_t)(x.i32[i] < -128 ? -128 : x.i32[i] > 127 ? 127 : x.i32[i]);
  TFF_EMU_RET(__m128i, r);
}
/* Sign-extends the 256 bits of `a` (lanes of type From) to 512. */
#define TFF_EMU_WIDEN(name, From, field)    \
  static inline __m512i name(__m256i a) {   \
    From x[32 / sizeof(From)];              \
    memcpy(x, &a, 32);                      \
    tff_emu_v512 r;                         \
    for (size_t i = 0; i < 32 / sizeof(From); ++i) r.field[i] = x[i]; \
    TFF_EMU_RET(__m512i, r);                \
  }
TFF_EMU_WIDEN(tff_emu_cvtepi8_epi16, int8_t, i16)
TFF_EMU_WIDEN(tff_emu_cvtepi16_epi32, int16_t, i32)
static inline __m256i tff_emu_castsi512_si256(__m512i a) {
  __m256i r;
  memcpy(&r, &a, 32);
  return r;
}
static inline __m256i tff_emu_extracti64x4_epi64(__m512i a, int hi) {
  __m256i r;
  memcpy(&r, (const char*)&a + 32 * (hi & 1), 32);
  return r;
}
static inline void tff_emu_mask_storeu_epi8(void* p, __mmask16 k, __m128i a) {
  int8_t x[16];
  memcpy(x, &a, 16);
  for (int i = 0; i < 16; ++i)
    if ((k >> i) & 1) ((int8_t*)p)[i] = x[i];
}

#undef _mm512_set1_epi32
#undef _mm512_set1_ps
#undef _mm512_loadu_si512
#undef _mm512_loadu_ps
#undef _mm512_add_epi32
#undef _mm512_mullo_epi16
#undef _mm512_dpbusd_epi32
#undef _mm512_mul_ps
#undef _mm512_min_ps
#undef _mm512_max_ps
#undef _mm512_cvtepi32_ps
#undef _mm512_cvtps_epi32
#undef _mm512_cvtsepi32_epi8
#undef _mm512_cvtepi8_epi16
#undef _mm512_cvtepi16_epi32
#undef _mm512_castsi512_si256
#undef _mm512_extracti64x4_epi64
#undef _mm_mask_storeu_epi8
#define _mm512_set1_epi32 tff_emu_set1_epi32
#define _mm512_set1_ps tff_emu_set1_ps
#define _mm512_loadu_si512 tff_emu_loadu_si512
#define _mm512_loadu_ps tff_emu_loadu_ps
#define _mm512_add_epi32 tff_emu_add_epi32
#define _mm512_mullo_epi16 tff_emu_mullo_epi16
#define _mm512_dpbusd_epi32 tff_emu_dpbusd_epi32
#define _mm512_mul_ps tff_emu_mul_ps
#define _mm512_min_ps tff_emu_min_ps
#define _mm512_max_ps tff_emu_max_ps
#define _mm512_cvtepi32_ps tff_emu_cvtepi32_ps
#define _mm512_cvtps_epi32 tff_emu_cvtps_epi32
#define _mm512_cvtsepi32_epi8 tff_emu_cvtsepi32_epi8
#define _mm512_cvtepi8_epi16 tff_emu_cvtepi8_epi16
#define _mm512_cvtepi16_epi32 tff_emu_cvtepi16_epi32
#define _mm512_castsi512_si256 tff_emu_castsi512_si256
#define _mm512_extracti64x4_epi64 tff_emu_extracti64x4_epi64
#define _mm_mask_storeu_epi8 tff_emu_mask_storeu_epi8

#endif /* TFF_TESTS_AVX512_EMU_H_ */
