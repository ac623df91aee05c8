/* Views: a tensor placed inside another tensor's arena buffer at a byte
 * offset, so the op between them moves nothing. A CONCATENATION whose inputs
 * are contiguous pieces of its output lets their producers write in place;
 * a STRIDED_SLICE of one contiguous run reads its input where it lies. A
 * streaming model's state chains (READ_VARIABLE -> CONCATENATION ->
 * STRIDED_SLICE -> ASSIGN_VARIABLE) then copy the state twice, not four
 * times. TFLite does not do this; the views stay invisible because the
 * kernels move nothing only when the bytes are already where they belong
 * (an op whose view was refused copies as before).
 *
 * Kernels offer views at prepare; the planner accepts the safe ones: both
 * arena tensors of steps prepared before the arena is planned, the view no
 * subgraph input or output and outside activation fusion (fuse.h), the view
 * inside the base, no cycle; no views at all with preserve_all_tensors or a
 * delegate. An accepted view has no arena entry: its root (the end of its
 * chain of bases) lives across the union of their lifetimes. Arena tensors
 * are written by their producer alone, so every byte of the root's buffer
 * is written once per invoke and stays until its last reader. */
#ifndef TFLITE_FAST_RUNTIME_ALIAS_H_
#define TFLITE_FAST_RUNTIME_ALIAS_H_

#include <stddef.h>

#include "tflite_fast/common.h"

/* From a kernel's prepare: tensor `view` may be the bytes of tensor `base`
 * from byte `offset`. The first offer for a view counts; offers outside
 * the subgraph's allocation are ignored. */
void tff_view_offer(TfLiteContext* ctx, int view, int base, size_t offset);

struct tff_subgraph;
/* allocate_subgraph, before prepare: forgets every offer. */
void tff_views_reset(struct tff_subgraph* sg);
/* plan_memory, after fusion's lifetimes: drops unsafe offers, extends each
 * root's lifetime over its views' and takes the views out (first = -1). */
void tff_views_lifetimes(struct tff_subgraph* sg, int* first, int* last);
/* plan_memory, after offsets: points each view into its root's buffer. */
void tff_views_bind(struct tff_subgraph* sg);
/* After planning: 1 when node ni moves nothing now (a CONCATENATION whose
 * inputs are all in place, a STRIDED_SLICE whose output is a view), so the
 * plan loop may leave it out. */
int tff_views_noop(const struct tff_subgraph* sg, int ni);

#endif /* TFLITE_FAST_RUNTIME_ALIAS_H_ */
