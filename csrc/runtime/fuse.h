/* Activation fusion: a float32 CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED,
 * ADD, SUB or MUL whose output only a RELU or RELU6 reads takes that
 * activation, and the RELU's output shares the op's buffer, so the RELU
 * finds its input already in place and does nothing (unary_common.h).
 * XNNPACK fuses the same way; a clamp inside the op gives the same bits as
 * the clamp after it, in both numerics modes.
 *
 * The graph everyone sees stays the model's: nodes, their inputs and
 * outputs and the plan are untouched; only the op's params block (this
 * interpreter's own parsed copy) gets the activation, which the RELU would
 * apply again to the same values if the sharing ever stops. */
#ifndef TFLITE_FAST_RUNTIME_FUSE_H_
#define TFLITE_FAST_RUNTIME_FUSE_H_

struct tff_subgraph;

/* Before the nodes of sg are prepared (every allocate: a delegate applied
 * since then turns fusion off): picks the pairs, sets the activations and
 * sg->alias. */
void tff_fuse_activations(struct tff_subgraph* sg);
/* plan_memory, between lifetimes and offsets: each fused pair whose two
 * tensors are still arena tensors of the same size gets one buffer living
 * across both lifetimes (the RELU output gets no entry of its own); other
 * pairs are dropped. */
void tff_fuse_lifetimes(struct tff_subgraph* sg, int* first, int* last);
/* plan_memory, after offsets: the RELU outputs point at their op's buffer. */
void tff_fuse_bind(struct tff_subgraph* sg);

#endif /* TFLITE_FAST_RUNTIME_FUSE_H_ */
