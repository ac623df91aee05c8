/* f32-vbinary, 8 lanes; the clamp as in the sse41 variant. */
#include "ukernels/simd/f32-avx2.h"

#define TFF_CLAMP(v, lo, hi) _mm256_min_ps((hi), _mm256_max_ps((lo), (v)))
#include "f32-vbinary-impl.h"
