/* f32-vbinary, 4 lanes. max(lo, v) then min(hi, v) return v itself when it
 * is NaN or equal to a bound (the second operand wins), as the scalar clamp. */
#include "ukernels/simd/f32-sse41.h"

#define TFF_CLAMP(v, lo, hi) _mm_min_ps((hi), _mm_max_ps((lo), (v)))
#include "f32-vbinary-impl.h"
