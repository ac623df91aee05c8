/* IF: input 0 is one BOOL; true runs the then subgraph, false the else
 * subgraph, on inputs 1..n; their outputs are the node's outputs.
 *
 * Prepare gives both branches the input shapes and allocates them. When
 * neither has a dynamic tensor and both give every output the same shape,
 * the outputs get that shape at prepare (static); otherwise they are dynamic
 * and follow the branch that ran (as TFLite). Values move by copy
 * (control_flow.h). */
#include "control_flow.h"
#include "ops.h"

typedef struct {
  int dynamic;
} OpData;

TFF_ZEROED_INIT(init, OpData)

static TfLiteStatus prepare_branch(TfLiteContext* ctx, TfLiteNode* node, TfLiteContext* sub,
                                   int index) {
  const int n = tff_num_inputs(node) - 1;
  const TfLiteIntArray* in = tff_subgraph_input_indices(sub);
  const TfLiteIntArray* out = tff_subgraph_output_indices(sub);
  TF_LITE_ENSURE_MSG(ctx, in->size == n && out->size == tff_num_outputs(node),
                     "IF: subgraph %d has %d inputs and %d outputs, the node %d and %d", index,
                     in->size, out->size, n, tff_num_outputs(node));
  for (int i = 0; i < n; ++i) {
    const TfLiteTensor* src = tff_input(ctx, node, i + 1);
    TF_LITE_ENSURE_MSG(ctx, src != NULL, "IF: input %d is missing", i + 1);
    TF_LITE_ENSURE_OK(ctx, tff_cf_shape_into(ctx, "IF", "input", i + 1, src, sub, in->data[i]));
  }
  TF_LITE_ENSURE_OK(ctx, tff_subgraph_allocate(sub));
  for (int i = 0; i < tff_num_outputs(node); ++i) {
    const TfLiteTensor* o = tff_output(ctx, node, i);
    const TfLiteTensor* so = &sub->tensors[out->data[i]];
    TF_LITE_ENSURE_MSG(ctx, o != NULL, "IF: output %d is missing", i);
    TF_LITE_ENSURE_MSG(ctx, so->type == o->type,
                       "IF: output %d is %s but subgraph %d returns %s", i,
                       TfLiteTypeGetName(o->type), index, TfLiteTypeGetName(so->type));
  }
  return kTfLiteOk;
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  const TfLiteIfParams* p = (const TfLiteIfParams*)node->builtin_data;
  TF_LITE_ENSURE_MSG(ctx, d != NULL && p != NULL, "IF: out of memory or missing options");
  TF_LITE_ENSURE_MSG(ctx, tff_num_inputs(node) >= 1, "IF: the condition input is missing");
  const TfLiteTensor* c = tff_input(ctx, node, 0);
  TF_LITE_ENSURE_MSG(ctx, c != NULL && c->type == kTfLiteBool && tff_num_elements(c->dims) == 1,
                     "IF: the condition must be one BOOL");
  TfLiteContext* then_sg = tff_cf_subgraph(ctx, "IF", "then", p->then_subgraph_index);
  TfLiteContext* else_sg = tff_cf_subgraph(ctx, "IF", "else", p->else_subgraph_index);
  if (then_sg == NULL || else_sg == NULL) return kTfLiteError;
  TF_LITE_ENSURE_OK(ctx, prepare_branch(ctx, node, then_sg, p->then_subgraph_index));
  TF_LITE_ENSURE_OK(ctx, prepare_branch(ctx, node, else_sg, p->else_subgraph_index));
  d->dynamic = tff_cf_has_dynamic(then_sg) || tff_cf_has_dynamic(else_sg);
  const TfLiteIntArray* tout = tff_subgraph_output_indices(then_sg);
  const TfLiteIntArray* eout = tff_subgraph_output_indices(else_sg);
  for (int i = 0; i < tout->size && !d->dynamic; ++i)
    d->dynamic = !TfLiteIntArrayEqual(then_sg->tensors[tout->data[i]].dims,
                                      else_sg->tensors[eout->data[i]].dims);
  for (int i = 0; i < tout->size; ++i) {
    TfLiteTensor* out = tff_output(ctx, node, i);
    if (d->dynamic) {
      out->allocation_type = kTfLiteDynamic;
    } else {
      const TfLiteIntArray* dims = then_sg->tensors[tout->data[i]].dims;
      TF_LITE_ENSURE_OK(ctx, tff_resize_output(ctx, out, dims->size, dims->data));
    }
  }
  return kTfLiteOk;
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteIfParams* p = (const TfLiteIfParams*)node->builtin_data;
  const int index = tff_input(ctx, node, 0)->data.b[0] ? p->then_subgraph_index
                                                       : p->else_subgraph_index;
  TfLiteContext* sub = tff_subgraph_context(ctx, index);
  const TfLiteIntArray* in = tff_subgraph_input_indices(sub);
  const TfLiteIntArray* out = tff_subgraph_output_indices(sub);
  for (int i = 0; i < in->size; ++i)
    TF_LITE_ENSURE_OK(ctx, tff_cf_shape_into(ctx, "IF", "input", i + 1, tff_input(ctx, node, i + 1),
                                             sub, in->data[i]));
  TF_LITE_ENSURE_OK(ctx, tff_subgraph_allocate(sub));
  for (int i = 0; i < in->size; ++i) tff_cf_copy_into(tff_input(ctx, node, i + 1), sub, in->data[i]);
  TF_LITE_ENSURE_OK(ctx, tff_subgraph_invoke(sub));
  for (int i = 0; i < out->size; ++i)
    TF_LITE_ENSURE_OK(ctx, tff_cf_copy_out(ctx, tff_output(ctx, node, i),
                                           &sub->tensors[out->data[i]]));
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_IF(void) {
  static const TfLiteRegistration r = {.init = init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinIf,
                                       .version = 1};
  return &r;
}
