/* LSTM: one step of the full LSTM kernel (lstm_common.h: float32, hybrid,
 * int8) on an input [batch, input]; the output [batch, output] is the new
 * output state. The basic 5-input kernel is not supported. */
#include "lstm_common.h"
#include "ops.h"

#define OP "LSTM"

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  tff_lstm* d = (tff_lstm*)node->user_data;
  const TfLiteLSTMParams* p = (const TfLiteLSTMParams*)node->builtin_data;
  TF_LITE_ENSURE_MSG(ctx, p != NULL, OP ": missing options");
  TF_LITE_ENSURE_MSG(ctx, p->kernel_type == kTfLiteLSTMFullKernel,
                     OP ": the basic kernel (kernel_type %d) is not supported",
                     (int)p->kernel_type);
  TF_LITE_ENSURE_MSG(ctx, tff_num_inputs(node) == 20 || tff_num_inputs(node) == 24,
                     OP ": the full kernel expects 20 or 24 inputs, got %d", tff_num_inputs(node));
  TF_LITE_ENSURE_MSG(ctx, tff_num_outputs(node) == 1, OP ": expected 1 output, got %d",
                     tff_num_outputs(node));
  const TfLiteTensor* in = tff_input(ctx, node, TFF_LSTM_INPUT);
  TF_LITE_ENSURE_MSG(ctx, in && tff_rank(in) == 2, OP ": input must be 2-D [batch, input], got "
                     "rank %d", in ? tff_rank(in) : 0);
  tff_lstm_release(d);
  *d = (tff_lstm){.batch = tff_dim(in, 0), .time = 1, .n_input = tff_dim(in, 1),
                  .time_major = 1, .act = p->activation, .cell_clip = p->cell_clip,
                  .proj_clip = p->proj_clip,
                  .hq = p->asymmetric_quantize_inputs ? TFF_HYB_TFL_ASYM : TFF_HYB_TFL_SYM};
  TF_LITE_ENSURE_OK(ctx, tff_lstm_prepare(ctx, node, OP, d));
  const int shape[2] = {d->batch, d->n_output};
  TF_LITE_ENSURE_OK(ctx, tff_resize_output(ctx, tff_output(ctx, node, 0), 2, shape));
  return tff_lstm_scratch(ctx, node, d);
}

const TfLiteRegistration* tff_register_LSTM(void) {
  static const TfLiteRegistration r = {.init = tff_lstm_init,
                                       .free = tff_lstm_free,
                                       .prepare = prepare,
                                       .invoke = tff_lstm_invoke,
                                       .builtin_code = kTfLiteBuiltinLstm,
                                       .version = 1};
  return &r;
}
