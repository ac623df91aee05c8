/* The scalar twin, one channel per tile: the oracle for the SIMD kernels. */
#include "f32-dwconv.h"

#define DW_CT 1
typedef float dw_acc;
typedef tff_f32_dwconv_params dw_prm;

static inline dw_prm dw_params(const tff_f32_dwconv_params* p) { return *p; }
static inline dw_acc dw_init(const float* b) { return b[0]; }
static inline dw_acc dw_mac(dw_acc acc, const float* x, const float* w) {
  const float prod = x[0] * w[0]; /* rounded on its own: no contraction */
  return acc + prod;
}
static inline void dw_store(dw_acc acc, const dw_prm* p, float* out) {
  acc = acc < p->min ? p->min : acc;
  out[0] = acc > p->max ? p->max : acc;
}

#define DW_ISA scalar
#include "f32-dwconv-kernels.h"
