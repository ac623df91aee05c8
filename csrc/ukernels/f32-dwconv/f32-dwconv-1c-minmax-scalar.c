/* The scalar twins, one channel per tile: the oracles of the SIMD kernels,
 * __scalar multiplying then adding (each rounded), __scalar_fma fusing them
 * with fmaf (rounded once). */
#include <math.h>

#include "f32-dwconv.h"

#define DW_CT 1
typedef float dw_acc;
typedef tff_f32_dwconv_params dw_prm;

static inline dw_prm dw_params(const tff_f32_dwconv_params* p) { return *p; }
static inline dw_acc dw_init(const float* b) { return b[0]; }
static inline dw_acc dw_mac_plain(dw_acc acc, const float* x, const float* w) {
  const float prod = x[0] * w[0]; /* rounded on its own: no contraction */
  return acc + prod;
}
static inline dw_acc dw_mac_fused(dw_acc acc, const float* x, const float* w) {
  return fmaf(x[0], w[0], acc);
}
static inline void dw_store(dw_acc acc, const dw_prm* p, float* out) {
  acc = acc < p->min ? p->min : acc;
  out[0] = acc > p->max ? p->max : acc;
}

#define dw_mac dw_mac_plain
#define DW_ISA scalar
#include "f32-dwconv-kernels.h"
#undef dw_mac
#undef DW_ISA

#define dw_mac dw_mac_fused
#define DW_ISA scalar_fma
#include "f32-dwconv-kernels.h"
