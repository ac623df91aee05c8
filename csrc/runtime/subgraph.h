/* What control-flow and resource-variable kernels need from the runtime:
 * the other subgraphs of the same interpreter, and its resource variables.
 * Kernels only see TfLiteContext*, so every call goes through it. */
#ifndef TFLITE_FAST_RUNTIME_SUBGRAPH_H_
#define TFLITE_FAST_RUNTIME_SUBGRAPH_H_

#include "tflite_fast/common.h"

/* Number of subgraphs in the interpreter that owns ctx. */
int tff_num_subgraphs(const TfLiteContext* ctx);
/* Context of subgraph `index`, or NULL when out of range. */
TfLiteContext* tff_subgraph_context(const TfLiteContext* ctx, int index);
/* Subgraph inputs / outputs (tensor indices of that subgraph). */
const TfLiteIntArray* tff_subgraph_input_indices(const TfLiteContext* sub);
const TfLiteIntArray* tff_subgraph_output_indices(const TfLiteContext* sub);
/* The execution plan and the node at plan position `step` (kernels cannot
 * use the delegate-only GetExecutionPlan / GetNodeAndRegistration). */
const TfLiteIntArray* tff_subgraph_plan(const TfLiteContext* sub);
const TfLiteNode* tff_subgraph_plan_node(const TfLiteContext* sub, int step);
/* Resize input tensor `tensor` of `sub` (copies dims); marks it unallocated
 * when the shape changes. */
TfLiteStatus tff_subgraph_resize(TfLiteContext* sub, int tensor, const TfLiteIntArray* dims);
/* Prepare + plan `sub` if needed, then run it. Errors go to the owning
 * interpreter's message buffer. Recursion into a subgraph that is already
 * running is an error (a model cannot make us overflow the stack). */
TfLiteStatus tff_subgraph_allocate(TfLiteContext* sub);
TfLiteStatus tff_subgraph_invoke(TfLiteContext* sub);

/* The interpreter's resource-variable table (csrc/runtime/resources.c). */
struct tff_resources;
struct tff_resources** tff_context_resources(const TfLiteContext* ctx);
void tff_resources_free(struct tff_resources* r);
/* Forgets every variable's value and every CALL_ONCE (ids stay): the next
 * invoke starts from the model's initial state. NULL is a no-op. */
void tff_resources_reset(struct tff_resources* r);

/* Id of the variable (container, shared_name) (NULL reads as ""), created on
 * first use; ids are dense from 0. -1 when out of memory. */
int tff_resource_id(TfLiteContext* ctx, const char* container, const char* shared_name);
/* The variable's value (type, dims, params, data.raw, bytes), or NULL when
 * `id` is unknown or was never assigned. Valid until the next assign/reset. */
const TfLiteTensor* tff_resource_value(const TfLiteContext* ctx, int id);
/* Copies `value` (type, shape, params, data) into variable `id`, resizing
 * its storage. Errors (unknown id, out of memory) are reported on ctx. */
TfLiteStatus tff_resource_assign(TfLiteContext* ctx, int id, const TfLiteTensor* value);
/* A variable whose current bytes live in a streaming window (window.h):
 * `cur` points at them (value's type and shape), `held` is cleared when the
 * variable stops being the window's (an assign elsewhere, a reset). */
typedef struct tff_held {
  const char* cur;
  int held;
} tff_held;
/* Variable `id` (assigned, of `like`'s type and shape) is held by h from now
 * on, with `like`'s quantization params; a previous holder lets go. */
void tff_resource_hold(TfLiteContext* ctx, int id, tff_held* h, const TfLiteTensor* like);
/* If h holds variable `id`, its bytes are copied back into the variable. */
void tff_resource_release(TfLiteContext* ctx, int id, tff_held* h);
/* CALL_ONCE: whether init subgraph `index` ran since creation or the last
 * reset, and marking it so. */
int tff_resource_init_done(const TfLiteContext* ctx, int index);
TfLiteStatus tff_resource_set_init_done(TfLiteContext* ctx, int index);

#endif /* TFLITE_FAST_RUNTIME_SUBGRAPH_H_ */
