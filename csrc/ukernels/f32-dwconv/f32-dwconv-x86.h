/* The SSE4.1 and AVX2 kernels, which differ only in vector width: a tile
 * is two float vectors (mul then add: no FMA). The including file includes
 * its intrinsics header and defines
 *   DW_ISA, DW_CT                 name suffix; channels per tile (2 vectors)
 *   dw_v                          the float vector type
 *   DW_LD, DW_ST, DW_SET1         unaligned load/store, broadcast
 *   DW_ADD, DW_MUL, DW_MIN, DW_MAX  the vector operations
 * and gets the family's three kernels. */
#include "f32-dwconv.h"

typedef struct {
  dw_v lo, hi;
} dw_acc;
typedef struct {
  dw_v min, max;
} dw_prm;

#define DW_HALF (DW_CT / 2)

static inline dw_prm dw_params(const tff_f32_dwconv_params* p) {
  return (dw_prm){DW_SET1(p->min), DW_SET1(p->max)};
}
static inline dw_acc dw_init(const float* b) { return (dw_acc){DW_LD(b), DW_LD(b + DW_HALF)}; }
static inline dw_acc dw_mac(dw_acc acc, const float* x, const float* w) {
  acc.lo = DW_ADD(acc.lo, DW_MUL(DW_LD(x), DW_LD(w)));
  acc.hi = DW_ADD(acc.hi, DW_MUL(DW_LD(x + DW_HALF), DW_LD(w + DW_HALF)));
  return acc;
}
/* maxps/minps return the second operand when either is NaN or both are
 * equal: with the value second they match the scalar twin's comparisons. */
static inline void dw_store(dw_acc acc, const dw_prm* p, float* out) {
  DW_ST(out, DW_MIN(p->max, DW_MAX(p->min, acc.lo)));
  DW_ST(out + DW_HALF, DW_MIN(p->max, DW_MAX(p->min, acc.hi)));
}

#include "f32-dwconv-kernels.h"
