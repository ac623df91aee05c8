/* AVX2 (without FMA): 16 channels per tile as two float8 accumulators. */
#include <immintrin.h>

#include "f32-dwconv.h"

#define DW_CT 16
typedef struct {
  __m256 lo, hi;
} dw_acc;
typedef struct {
  __m256 min, max;
} dw_prm;

static inline dw_prm dw_params(const tff_f32_dwconv_params* p) {
  return (dw_prm){_mm256_set1_ps(p->min), _mm256_set1_ps(p->max)};
}
static inline dw_acc dw_init(const float* b) {
  return (dw_acc){_mm256_loadu_ps(b), _mm256_loadu_ps(b + 8)};
}
static inline dw_acc dw_mac(dw_acc acc, const float* x, const float* w) {
  acc.lo = _mm256_add_ps(acc.lo, _mm256_mul_ps(_mm256_loadu_ps(x), _mm256_loadu_ps(w)));
  acc.hi = _mm256_add_ps(acc.hi, _mm256_mul_ps(_mm256_loadu_ps(x + 8), _mm256_loadu_ps(w + 8)));
  return acc;
}
/* maxps/minps return the second operand when either is NaN or both are
 * equal: with the value second they match the scalar twin's comparisons. */
static inline void dw_store(dw_acc acc, const dw_prm* p, float* out) {
  _mm256_storeu_ps(out, _mm256_min_ps(p->max, _mm256_max_ps(p->min, acc.lo)));
  _mm256_storeu_ps(out + 8, _mm256_min_ps(p->max, _mm256_max_ps(p->min, acc.hi)));
}

#define DW_ISA avx2
#include "f32-dwconv-kernels.h"
