/* The SSE4.1 and AVX2 kernels, which differ only in vector width and in
 * fusing: a tile is two float vectors. The including file includes its
 * intrinsics header and defines
 *   DW_ISA, DW_CT                 name suffix; channels per tile (2 vectors)
 *   dw_v                          the float vector type
 *   DW_LD, DW_ST, DW_SET1         unaligned load/store, broadcast
 *   DW_ADD, DW_MUL, DW_MIN, DW_MAX  the vector operations
 *   DW_FMA(a, b, c)               a·b + c rounded once, if the ISA fuses
 * and gets the family's three kernels. */
#include "f32-dwconv.h"

#ifndef DW_FMA
#define DW_FMA(a, b, c) DW_ADD(c, DW_MUL(a, b))
#endif

typedef struct {
  dw_v lo, hi;
} dw_acc;
typedef dw_v dw_half; /* half a tile: the last tile when <= DW_HALF channels are left */
typedef struct {
  dw_v min, max;
} dw_prm;

#define DW_HALF (DW_CT / 2)

static inline dw_prm dw_params(const tff_f32_dwconv_params* p) {
  return (dw_prm){DW_SET1(p->min), DW_SET1(p->max)};
}
static inline dw_half dw_init_half(const float* b) { return DW_LD(b); }
static inline dw_half dw_mac_half(dw_half acc, const float* x, const float* w) {
  dw_v wv = DW_LD(w);
#if defined(__GNUC__)
  /* In a register: GCC would fold this load into each pixel's FMA as a
   * memory operand, and loads bound these kernels (~20% faster). */
  __asm__("" : "+x"(wv));
#endif
  return DW_FMA(DW_LD(x), wv, acc);
}
/* maxps/minps return the second operand when either is NaN or both are
 * equal: with the value second they match the scalar twin's comparisons. */
static inline void dw_store_half(dw_half acc, const dw_prm* p, float* out) {
  DW_ST(out, DW_MIN(p->max, DW_MAX(p->min, acc)));
}
static inline dw_acc dw_init(const float* b) {
  return (dw_acc){dw_init_half(b), dw_init_half(b + DW_HALF)};
}
static inline dw_acc dw_mac(dw_acc acc, const float* x, const float* w) {
  acc.lo = dw_mac_half(acc.lo, x, w);
  acc.hi = dw_mac_half(acc.hi, x + DW_HALF, w + DW_HALF);
  return acc;
}
static inline void dw_store(dw_acc acc, const dw_prm* p, float* out) {
  dw_store_half(acc.lo, p, out);
  dw_store_half(acc.hi, p, out + DW_HALF);
}

#include "f32-dwconv-kernels.h"
