/* The column kernel of an ISA (qs8-qc8w-dwconv.h): the body.h primitives
 * over taps at a constant stride from one pointer, so a single output pixel
 * needs no indirection buffer and no padding test per tap. The including
 * file defines DW_COL_NAME besides what qs8-qc8w-dwconv-body.h needs. */

void DW_COL_NAME(size_t channels, size_t taps, const int8_t* input, size_t tap_stride,
                 const void* weights, int8_t* output, const tff_qs8_dwconv_params* params) {
  const size_t wbytes = DW_WBYTES(taps);
  const dw_prm prm = dw_params(params);
  const char* w = (const char*)weights;
  for (size_t c0 = 0; c0 < channels; c0 += DW_CT) {
    dw_acc acc = dw_init((const int32_t*)w);
    const int8_t* wt = (const int8_t*)(w + DW_CT * sizeof(int32_t));
    /* A partial last tile is the window ending at the last channel. */
    const size_t s = c0 + DW_CT <= channels ? c0 : channels - DW_CT;
    const int8_t* x = input + s;
#if DW_PAIRS
    size_t t = 0;
    for (; t + 2 <= taps; t += 2, x += 2 * tap_stride)
      acc = dw_mac(acc, x, x + tap_stride, (const int16_t*)wt + t * DW_CT);
    if (t < taps) /* the odd last tap pairs with itself; its partner's weight is 0 */
      acc = dw_mac(acc, x, x, (const int16_t*)wt + t * DW_CT);
#else
    for (size_t t = 0; t < taps; ++t, x += tap_stride) acc = dw_mac(acc, x, wt + t * DW_CT);
#endif
    dw_store(acc, (const float*)(w + DW_CT * sizeof(int32_t) + wbytes), &prm, output + s);
    w += DW_CT * (sizeof(int32_t) + sizeof(float)) + wbytes;
  }
}
