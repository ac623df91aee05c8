/* f16-f32-vcvt, 8 lanes: VCVTPH2PS. The instruction is exact for every
 * binary16, subnormals included (MXCSR's DAZ does not apply to binary16
 * sources), but it quiets a signalling NaN, whose payload TFLite keeps as it
 * is: a block of 8 holding any NaN goes to the scalar twin (weights have
 * none). The avx2 flags do not name F16C, so the function does. */
#include <immintrin.h>

#include "f16-f32-vcvt.h"
#include "ops/fp16.h"

#if defined(_MSC_VER) && !defined(__clang__)
#define TFF_TARGET_F16C /* /arch:AVX2 has F16C */
#else
#define TFF_TARGET_F16C __attribute__((target("f16c")))
#endif

TFF_TARGET_F16C void tff_f16_f32_vcvt_ukernel__avx2(size_t n, const uint16_t* x, float* y) {
  const __m128i abs_mask = _mm_set1_epi16(0x7FFF), inf = _mm_set1_epi16(0x7C00);
  size_t i = 0;
  for (; n - i >= 8; i += 8) {
    const __m128i h = _mm_loadu_si128((const __m128i*)(x + i));
    if (_mm_movemask_epi8(_mm_cmpgt_epi16(_mm_and_si128(h, abs_mask), inf)) != 0)
      tff_halves_to_floats(x + i, 8, y + i);
    else
      _mm256_storeu_ps(y + i, _mm256_cvtph_ps(h));
  }
  tff_halves_to_floats(x + i, n - i, y + i);
}
