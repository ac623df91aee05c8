/* f32-vbinary: elementwise float32 ADD/SUB/MUL with a min/max clamp.
 *
 * Kernels (all: out[i] = clamp(op(x, y)), i < n, clamp(v) = v < min ? min :
 * (v > max ? max : v), so NaN passes through and -0.0 is kept):
 *   vadd/vsub/vmul    x = a[i], y = b[i]   (same-shape operands)
 *   vaddc/vsubc/vmulc x = a[i], y = b[0]   (b broadcast from one value)
 *   vrsubc            x = b[0], y = a[i]   (SUB with its first operand broadcast)
 * ADD and MUL are commutative in IEEE arithmetic, so a broadcast first
 * operand uses vaddc/vmulc with the operands swapped.
 *
 * Parameters:
 *   n       number of elements (>= 1)
 *   a       n floats, any alignment
 *   b       n floats (vadd/vsub/vmul) or 1 float (the c kernels)
 *   out     n floats; may alias a or b exactly; nothing past out[n-1] is written
 *   params  the clamp bounds (-INFINITY/INFINITY for none)
 * Every ISA computes each element with one IEEE operation and the same clamp
 * (no FMA, no reassociation), so all variants give the scalar twin's bits. */
#ifndef TFF_UKERNELS_F32_VBINARY_H_
#define TFF_UKERNELS_F32_VBINARY_H_

#include <stddef.h>
#include <stdint.h>

typedef struct tff_f32_minmax_params {
  float min, max;
} tff_f32_minmax_params;

typedef void (*tff_f32_vbinary_fn)(size_t n, const float* a, const float* b, float* out,
                                   const tff_f32_minmax_params* params);

#define TFF_DECLARE_F32_VBINARY(ISA)                                                     \
  void tff_f32_vadd_minmax_ukernel__##ISA(size_t, const float*, const float*, float*,    \
                                          const tff_f32_minmax_params*);                 \
  void tff_f32_vsub_minmax_ukernel__##ISA(size_t, const float*, const float*, float*,    \
                                          const tff_f32_minmax_params*);                 \
  void tff_f32_vmul_minmax_ukernel__##ISA(size_t, const float*, const float*, float*,    \
                                          const tff_f32_minmax_params*);                 \
  void tff_f32_vaddc_minmax_ukernel__##ISA(size_t, const float*, const float*, float*,   \
                                           const tff_f32_minmax_params*);                \
  void tff_f32_vsubc_minmax_ukernel__##ISA(size_t, const float*, const float*, float*,   \
                                           const tff_f32_minmax_params*);                \
  void tff_f32_vrsubc_minmax_ukernel__##ISA(size_t, const float*, const float*, float*,  \
                                            const tff_f32_minmax_params*);               \
  void tff_f32_vmulc_minmax_ukernel__##ISA(size_t, const float*, const float*, float*,   \
                                           const tff_f32_minmax_params*);

TFF_DECLARE_F32_VBINARY(scalar)
TFF_DECLARE_F32_VBINARY(sse41)
TFF_DECLARE_F32_VBINARY(avx2)
TFF_DECLARE_F32_VBINARY(neon)

/* The kernels of one ISA, in the order of the enum (each c kernel sits
 * TFF_VADDC − TFF_VADD after its v kernel). */
enum { TFF_VADD, TFF_VSUB, TFF_VMUL, TFF_VADDC, TFF_VSUBC, TFF_VMULC, TFF_VRSUBC, TFF_VBINARY_N };

typedef struct tff_f32_vbinary_config {
  uint32_t isa;
  tff_f32_vbinary_fn fn[TFF_VBINARY_N];
  const char* name[TFF_VBINARY_N];
} tff_f32_vbinary_config;

/* Every ISA this build has (scalar first), and the best one in isa_mask. */
extern const tff_f32_vbinary_config tff_f32_vbinary_configs[];
extern const int tff_f32_vbinary_num_configs;
const tff_f32_vbinary_config* tff_f32_vbinary_select(uint32_t isa_mask);

/* The scalar twin's element, shared by every ISA's remainder loop. */
static inline float tff_f32_vbinary_clamp(float v, const tff_f32_minmax_params* p) {
  return v < p->min ? p->min : (v > p->max ? p->max : v);
}

#endif /* TFF_UKERNELS_F32_VBINARY_H_ */
