/* qs8-packw: the kernels this build has, and their selection. */
#include "qs8-packw.h"

#include "cpu/cpu.h"

const tff_qs8_packw_config tff_qs8_packw_configs[] = {
    {tff_qs8_packw_ukernel_x16__scalar, "tff_qs8_packw_ukernel_x16__scalar", TFF_ISA_SCALAR},
#if TFF_BUILD_SSE41
    {tff_qs8_packw_ukernel_x16__sse41, "tff_qs8_packw_ukernel_x16__sse41", TFF_ISA_SSE41},
#endif
};
const int tff_qs8_packw_num_configs =
    (int)(sizeof(tff_qs8_packw_configs) / sizeof(tff_qs8_packw_configs[0]));

const tff_qs8_packw_config* tff_qs8_packw_select(uint32_t isa_mask) {
  const tff_qs8_packw_config* best = &tff_qs8_packw_configs[0];
  for (int i = 1; i < tff_qs8_packw_num_configs; ++i) {
    const tff_qs8_packw_config* c = &tff_qs8_packw_configs[i];
    if ((isa_mask & c->isa) == c->isa && c->isa > best->isa) best = c;
  }
  return best;
}
