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
 * is written once per invoke and stays until its last reader.
 *
 * A SPLIT_V along an axis with rows before it offers each output as a
 * strided view: every row's chunk of the input (a channel view, when the
 * axis is the channels). Only its readers can tell, so such a view is
 * accepted only when every reader is either a view of it in whole rows (a
 * STRIDED_SLICE of rows, itself strided) or a kernel that declared it steps
 * through that input a whole number of rows at a time (the int8 depthwise
 * column kernel): the planner then sets the kernel's step to the base's row
 * pitch. A SPLIT_V's outputs are views all or none (its copy would write
 * into the others' base), there is one strided link per chain, and plan
 * loops that call every node skip the no-ops (their kernels could not tell
 * a strided view from a misplaced output). */
#ifndef TFLITE_FAST_RUNTIME_ALIAS_H_
#define TFLITE_FAST_RUNTIME_ALIAS_H_

#include <stddef.h>

#include "tflite_fast/common.h"

/* From a kernel's prepare: tensor `view` may be the bytes of tensor `base`
 * from byte `offset`. The first offer for a view counts; offers outside
 * the subgraph's allocation are ignored. */
void tff_view_offer(TfLiteContext* ctx, int view, int base, size_t offset);

/* From SPLIT_V's prepare: tensor `view` may be `run` bytes at `offset` in
 * every `pitch` bytes (row) of tensor `base` (run + offset <= pitch). */
void tff_view_offer_rows(TfLiteContext* ctx, int view, int base, size_t offset, size_t run,
                         size_t pitch);
/* From a kernel's prepare: `node` reads input tensor `tensor` only as rows of
 * `run` bytes, `*step` bytes (= `rows` rows) apart, from its start. If the
 * tensor becomes a strided view, the planner sets *step = rows·pitch; the
 * kernel keeps *step valid until its next prepare. */
void tff_view_strided_reader(TfLiteContext* ctx, const TfLiteNode* node, int tensor, size_t run,
                             size_t rows, size_t* step);

struct tff_subgraph;
/* destroy_subgraph: frees the view state. */
void tff_views_free(struct tff_subgraph* sg);
/* allocate_subgraph, before prepare: forgets every offer. */
void tff_views_reset(struct tff_subgraph* sg);
/* plan_memory, after fusion's lifetimes: drops unsafe offers, extends each
 * root's lifetime over its views' and takes the views out (first = -1). */
void tff_views_lifetimes(struct tff_subgraph* sg, int* first, int* last);
/* plan_memory, after offsets: points each view into its root's buffer. */
void tff_views_bind(struct tff_subgraph* sg);
/* After planning: 1 when node ni moves nothing now (a CONCATENATION whose
 * inputs are all in place, a STRIDED_SLICE whose output is a view, a
 * SPLIT_V whose outputs are strided views), so plan loops leave it out. */
int tff_views_noop(const struct tff_subgraph* sg, int ni);

#endif /* TFLITE_FAST_RUNTIME_ALIAS_H_ */
