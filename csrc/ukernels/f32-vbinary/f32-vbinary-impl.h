/* The body of every f32-vbinary kernel, instantiated once per ISA: a vector
 * loop of TFF_W lanes, then the scalar twin's element for the remainder.
 * Before including, define TFF_ISA (name suffix), TFF_W, TFF_V (vector type),
 * TFF_LOAD, TFF_STORE, TFF_SPLAT, TFF_ADD, TFF_SUB, TFF_MUL and
 * TFF_CLAMP(v, lo, hi) with the scalar twin's clamp semantics. */
#include "f32-vbinary.h"

#define TFF_CAT2(a, b) a##b
#define TFF_CAT(a, b) TFF_CAT2(a, b)
#define TFF_KERNEL(op) TFF_CAT(tff_f32_##op##_minmax_ukernel__, TFF_ISA)

/* out[i] = clamp(X OP Y); X and Y name a[i], b[i] or the splat c. */
#define TFF_VBINARY_BODY(NAME, VX, VY, SX, SY, VOP, SOP)                                   \
  void NAME(size_t n, const float* a, const float* b, float* out,                         \
            const tff_f32_minmax_params* p) {                                             \
    const TFF_V lo = TFF_SPLAT(p->min), hi = TFF_SPLAT(p->max);                           \
    const float c = b[0];                                                                 \
    const TFF_V vc = TFF_SPLAT(c);                                                        \
    (void)lo, (void)hi, (void)vc; /* the scalar twin's clamp reads p */                  \
    size_t i = 0;                                                                         \
    for (; i + TFF_W <= n; i += TFF_W) {                                                  \
      const TFF_V va = TFF_LOAD(a + i);                                                   \
      (void)va;                                                                           \
      TFF_STORE(out + i, TFF_CLAMP(VOP(VX, VY), lo, hi));                                 \
    }                                                                                     \
    for (; i < n; ++i) out[i] = tff_f32_vbinary_clamp(SX SOP SY, p);                      \
  }

#define TFF_VB_ROW TFF_LOAD(b + i)
TFF_VBINARY_BODY(TFF_KERNEL(vadd), va, TFF_VB_ROW, a[i], b[i], TFF_ADD, +)
TFF_VBINARY_BODY(TFF_KERNEL(vsub), va, TFF_VB_ROW, a[i], b[i], TFF_SUB, -)
TFF_VBINARY_BODY(TFF_KERNEL(vmul), va, TFF_VB_ROW, a[i], b[i], TFF_MUL, *)
TFF_VBINARY_BODY(TFF_KERNEL(vaddc), va, vc, a[i], c, TFF_ADD, +)
TFF_VBINARY_BODY(TFF_KERNEL(vsubc), va, vc, a[i], c, TFF_SUB, -)
TFF_VBINARY_BODY(TFF_KERNEL(vrsubc), vc, va, c, a[i], TFF_SUB, -)
TFF_VBINARY_BODY(TFF_KERNEL(vmulc), va, vc, a[i], c, TFF_MUL, *)
