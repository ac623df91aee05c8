/* SSE4.1: 8 channels per tile as two float4 accumulators. */
#include <smmintrin.h>

#include "f32-dwconv.h"

#define DW_CT 8
typedef struct {
  __m128 lo, hi;
} dw_acc;
typedef struct {
  __m128 min, max;
} dw_prm;

static inline dw_prm dw_params(const tff_f32_dwconv_params* p) {
  return (dw_prm){_mm_set1_ps(p->min), _mm_set1_ps(p->max)};
}
static inline dw_acc dw_init(const float* b) {
  return (dw_acc){_mm_loadu_ps(b), _mm_loadu_ps(b + 4)};
}
static inline dw_acc dw_mac(dw_acc acc, const float* x, const float* w) {
  acc.lo = _mm_add_ps(acc.lo, _mm_mul_ps(_mm_loadu_ps(x), _mm_loadu_ps(w)));
  acc.hi = _mm_add_ps(acc.hi, _mm_mul_ps(_mm_loadu_ps(x + 4), _mm_loadu_ps(w + 4)));
  return acc;
}
/* maxps/minps return the second operand when either is NaN or both are
 * equal: with the value second they match the scalar twin's comparisons. */
static inline void dw_store(dw_acc acc, const dw_prm* p, float* out) {
  _mm_storeu_ps(out, _mm_min_ps(p->max, _mm_max_ps(p->min, acc.lo)));
  _mm_storeu_ps(out + 4, _mm_min_ps(p->max, _mm_max_ps(p->min, acc.hi)));
}

#define DW_ISA sse41
#include "f32-dwconv-kernels.h"
