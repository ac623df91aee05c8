/* qs8-rsum: the kernels this build has, and their selection. */
#include "qs8-rsum.h"

#include "cpu/cpu.h"

const tff_qs8_rsum_config tff_qs8_rsum_configs[] = {
    {tff_qs8_rsum_ukernel__scalar, "tff_qs8_rsum_ukernel__scalar", TFF_ISA_SCALAR},
#if TFF_BUILD_SSE41
    {tff_qs8_rsum_ukernel__sse41, "tff_qs8_rsum_ukernel__sse41", TFF_ISA_SSE41},
#endif
};
const int tff_qs8_rsum_num_configs =
    (int)(sizeof(tff_qs8_rsum_configs) / sizeof(tff_qs8_rsum_configs[0]));

const tff_qs8_rsum_config* tff_qs8_rsum_select(uint32_t isa_mask) {
  const tff_qs8_rsum_config* best = &tff_qs8_rsum_configs[0];
  for (int i = 1; i < tff_qs8_rsum_num_configs; ++i) {
    const tff_qs8_rsum_config* c = &tff_qs8_rsum_configs[i];
    if ((isa_mask & c->isa) == c->isa && c->isa > best->isa) best = c;
  }
  return best;
}
