/* WHILE: loop state = the node's n inputs; while cond(state) is true,
 * state = body(state); the outputs are the final state.
 *
 * The node's outputs hold the state between iterations (TFLite's "dynamic"
 * scheme, used here for every loop): outputs = inputs; then each turn copies
 * the outputs into the cond inputs it reads, runs cond, copies the outputs
 * into the body inputs, runs the body and copies its outputs back. A copy
 * never stays inside one subgraph, so a body output that is a body input (a
 * pass-through) or two swapped state entries cannot clobber each other.
 *
 * Like TFLite, an entry the body passes through unchanged and that nothing
 * in this subgraph reads loses its node output (kTfLiteOptionalTensor, seen
 * in the op details): that state entry is the node's input throughout.
 *
 * Static shapes (the fast path): prepare gives cond and body the input
 * shapes and allocates them; when the body has no dynamic tensor and maps
 * every shape to itself, the outputs get those shapes at prepare and stay in
 * the arena, and invoke only copies bytes. Otherwise (the body has a tensor
 * sized at invoke, e.g. a SLICE with computed bounds, or it changes a shape)
 * the outputs are dynamic like TFLite's: each copy into a subgraph input whose
 * shape changed resizes it and re-allocates that subgraph, and the outputs
 * follow the body's output shapes. */
#include "control_flow.h"
#include "ops.h"

typedef struct {
  int dynamic;            /* outputs sized at invoke */
  int cond_dynamic;       /* cond output checked at invoke */
  unsigned char* cond_reads; /* per state entry: cond uses that input */
} OpData;

TFF_ZEROED_INIT(init, OpData)

static void free_data(TfLiteContext* ctx, void* p) {
  (void)ctx;
  if (p) free(((OpData*)p)->cond_reads);
  free(p);
}

/* A cond output must be one bool (TFLite: a scalar or shape [1]). */
static TfLiteStatus check_cond_output(TfLiteContext* ctx, const TfLiteTensor* c) {
  TF_LITE_ENSURE_MSG(ctx, c->type == kTfLiteBool && tff_num_elements(c->dims) == 1 &&
                              c->dims->size <= 1,
                     "WHILE: the cond output must be one BOOL, is %s with %d dims",
                     TfLiteTypeGetName(c->type), c->dims->size);
  return kTfLiteOk;
}

/* Which cond inputs some cond node reads (or cond returns): the others are
 * not copied each turn (TFLite drops them, RemoveUnusedInputs). */
static TfLiteStatus find_cond_reads(TfLiteContext* ctx, TfLiteContext* cond, OpData* d, int n) {
  const TfLiteIntArray* in = tff_subgraph_input_indices(cond);
  const TfLiteIntArray* outs = tff_subgraph_output_indices(cond);
  const TfLiteIntArray* plan = tff_subgraph_plan(cond);
  unsigned char* reads = (unsigned char*)realloc(d->cond_reads, (size_t)(n ? n : 1));
  TF_LITE_ENSURE_MSG(ctx, reads != NULL, "WHILE: out of memory");
  d->cond_reads = reads;
  for (int i = 0; i < n; ++i) {
    const int t = in->data[i];
    int used = 0;
    for (int k = 0; k < outs->size && !used; ++k) used = outs->data[k] == t;
    for (int s = 0; s < plan->size && !used; ++s) {
      const TfLiteNode* node = tff_subgraph_plan_node(cond, s);
      for (int k = 0; k < node->inputs->size && !used; ++k) used = node->inputs->data[k] == t;
    }
    reads[i] = (unsigned char)used;
  }
  return kTfLiteOk;
}

/* 1 when tensor t of ctx is read by a node of ctx or is one of its outputs. */
static int is_read(TfLiteContext* ctx, int t) {
  const TfLiteIntArray* outs = tff_subgraph_output_indices(ctx);
  const TfLiteIntArray* plan = tff_subgraph_plan(ctx);
  for (int k = 0; k < outs->size; ++k)
    if (outs->data[k] == t) return 1;
  for (int s = 0; s < plan->size; ++s) {
    const TfLiteNode* node = tff_subgraph_plan_node(ctx, s);
    for (int k = 0; k < node->inputs->size; ++k)
      if (node->inputs->data[k] == t) return 1;
  }
  return 0;
}

/* The current value of state entry i: the node's output, or its input when
 * the output was dropped. */
static const TfLiteTensor* state(TfLiteContext* ctx, const TfLiteNode* node, int i) {
  const TfLiteTensor* out = tff_output(ctx, node, i);
  return out ? out : tff_input(ctx, node, i);
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  const TfLiteWhileParams* p = (const TfLiteWhileParams*)node->builtin_data;
  TF_LITE_ENSURE_MSG(ctx, d != NULL && p != NULL, "WHILE: out of memory or missing options");
  const int n = tff_num_inputs(node);
  TF_LITE_ENSURE_MSG(ctx, tff_num_outputs(node) == n,
                     "WHILE: %d inputs but %d outputs (must be equal)", n, tff_num_outputs(node));
  TF_LITE_ENSURE_MSG(ctx, p->cond_subgraph_index != p->body_subgraph_index,
                     "WHILE: cond and body are the same subgraph %d", p->cond_subgraph_index);
  TfLiteContext* cond = tff_cf_subgraph(ctx, "WHILE", "cond", p->cond_subgraph_index);
  TfLiteContext* body = tff_cf_subgraph(ctx, "WHILE", "body", p->body_subgraph_index);
  if (cond == NULL || body == NULL) return kTfLiteError;
  const TfLiteIntArray* cin = tff_subgraph_input_indices(cond);
  const TfLiteIntArray* cout = tff_subgraph_output_indices(cond);
  const TfLiteIntArray* bin = tff_subgraph_input_indices(body);
  const TfLiteIntArray* bout = tff_subgraph_output_indices(body);
  TF_LITE_ENSURE_MSG(ctx, cin->size == n && cout->size == 1,
                     "WHILE: cond subgraph %d has %d inputs and %d outputs, needs %d and 1",
                     p->cond_subgraph_index, cin->size, cout->size, n);
  TF_LITE_ENSURE_MSG(ctx, bin->size == n && bout->size == n,
                     "WHILE: body subgraph %d has %d inputs and %d outputs, needs %d and %d",
                     p->body_subgraph_index, bin->size, bout->size, n, n);
  for (int i = 0; i < n; ++i) {
    const TfLiteTensor* in = tff_input(ctx, node, i);
    TF_LITE_ENSURE_MSG(ctx, in != NULL, "WHILE: input %d is missing", i);
    TF_LITE_ENSURE_OK(ctx, tff_cf_shape_into(ctx, "WHILE", "input", i, in, cond, cin->data[i]));
    TF_LITE_ENSURE_OK(ctx, tff_cf_shape_into(ctx, "WHILE", "input", i, in, body, bin->data[i]));
  }
  TF_LITE_ENSURE_OK(ctx, tff_subgraph_allocate(cond));
  TF_LITE_ENSURE_OK(ctx, find_cond_reads(ctx, cond, d, n));
  d->cond_dynamic = tff_cf_has_dynamic(cond);
  if (!d->cond_dynamic) TF_LITE_ENSURE_OK(ctx, check_cond_output(ctx, &cond->tensors[cout->data[0]]));
  for (int i = 0; i < n; ++i)
    if (bin->data[i] == bout->data[i] && node->outputs->data[i] >= 0 &&
        !is_read(ctx, node->outputs->data[i]))
      node->outputs->data[i] = kTfLiteOptionalTensor;
  TF_LITE_ENSURE_OK(ctx, tff_subgraph_allocate(body));
  d->dynamic = tff_cf_has_dynamic(body);
  for (int i = 0; i < n; ++i) {
    const TfLiteTensor* bo = &body->tensors[bout->data[i]];
    const TfLiteTensor* out = state(ctx, node, i);
    TF_LITE_ENSURE_MSG(ctx, bo->type == out->type && bo->type == tff_input(ctx, node, i)->type,
                       "WHILE: state %d is %s in, %s from the body and %s out", i,
                       TfLiteTypeGetName(tff_input(ctx, node, i)->type),
                       TfLiteTypeGetName(bo->type), TfLiteTypeGetName(out->type));
    if (!TfLiteIntArrayEqual(bo->dims, tff_input(ctx, node, i)->dims)) d->dynamic = 1;
  }
  for (int i = 0; i < n; ++i) {
    TfLiteTensor* out = tff_output(ctx, node, i);
    if (out == NULL) continue;
    if (d->dynamic) {
      out->allocation_type = kTfLiteDynamic;
      continue;
    }
    const TfLiteTensor* in = tff_input(ctx, node, i);
    TF_LITE_ENSURE_OK(ctx, tff_resize_output(ctx, out, in->dims->size, in->dims->data));
  }
  return kTfLiteOk;
}

/* Shapes then elements of the node's outputs (the state) into sub's inputs;
 * `only` (or NULL for all) selects the entries sub reads. */
static TfLiteStatus feed(TfLiteContext* ctx, TfLiteNode* node, TfLiteContext* sub,
                         const unsigned char* only) {
  const TfLiteIntArray* in = tff_subgraph_input_indices(sub);
  for (int i = 0; i < in->size; ++i)
    if (!only || only[i])
      TF_LITE_ENSURE_OK(ctx, tff_cf_shape_into(ctx, "WHILE", "state", i, state(ctx, node, i), sub,
                                               in->data[i]));
  TF_LITE_ENSURE_OK(ctx, tff_subgraph_allocate(sub));
  for (int i = 0; i < in->size; ++i)
    if (!only || only[i]) tff_cf_copy_into(state(ctx, node, i), sub, in->data[i]);
  return kTfLiteOk;
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const OpData* d = (const OpData*)node->user_data;
  const TfLiteWhileParams* p = (const TfLiteWhileParams*)node->builtin_data;
  TfLiteContext* cond = tff_subgraph_context(ctx, p->cond_subgraph_index);
  TfLiteContext* body = tff_subgraph_context(ctx, p->body_subgraph_index);
  const int n = tff_num_inputs(node);
  const int cond_out = tff_subgraph_output_indices(cond)->data[0];
  const TfLiteIntArray* bout = tff_subgraph_output_indices(body);
  for (int i = 0; i < n; ++i)
    if (tff_output(ctx, node, i))
      TF_LITE_ENSURE_OK(ctx, tff_cf_copy_out(ctx, tff_output(ctx, node, i), tff_input(ctx, node, i)));
  for (;;) {
    TF_LITE_ENSURE_OK(ctx, feed(ctx, node, cond, d->cond_reads));
    TF_LITE_ENSURE_OK(ctx, tff_subgraph_invoke(cond));
    const TfLiteTensor* c = &cond->tensors[cond_out];
    if (d->cond_dynamic) TF_LITE_ENSURE_OK(ctx, check_cond_output(ctx, c));
    if (!c->data.b[0]) return kTfLiteOk;
    TF_LITE_ENSURE_OK(ctx, feed(ctx, node, body, NULL));
    TF_LITE_ENSURE_OK(ctx, tff_subgraph_invoke(body));
    for (int i = 0; i < n; ++i)
      if (tff_output(ctx, node, i))
        TF_LITE_ENSURE_OK(ctx, tff_cf_copy_out(ctx, tff_output(ctx, node, i),
                                               &body->tensors[bout->data[i]]));
  }
}

const TfLiteRegistration* tff_register_WHILE(void) {
  static const TfLiteRegistration r = {.init = init,
                                       .free = free_data,
                                       .prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinWhile,
                                       .version = 1};
  return &r;
}
