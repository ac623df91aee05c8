/* f32-vbinary scalar twin: the oracle of the SIMD variants (one element per
 * step of the shared body). */
#include "ukernels/simd/f32-scalar.h"

#define TFF_CLAMP(v, lo, hi) tff_f32_vbinary_clamp((v), p)
#include "f32-vbinary-impl.h"
