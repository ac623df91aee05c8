/* UNIDIRECTIONAL_SEQUENCE_LSTM: the full LSTM kernel (lstm_common.h: float32,
 * hybrid, int8) over every step of an input [time, batch, input]
 * (time_major) or [batch, time, input]; the output has the input's layout
 * with `output` features. The state carried between steps and invokes lives
 * in the variable tensors. Diagonal recurrent weights are not supported. */
#include "lstm_common.h"
#include "ops.h"

#define OP "UNIDIRECTIONAL_SEQUENCE_LSTM"

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  tff_lstm* d = (tff_lstm*)node->user_data;
  const TfLiteUnidirectionalSequenceLSTMParams* p =
      (const TfLiteUnidirectionalSequenceLSTMParams*)node->builtin_data;
  TF_LITE_ENSURE_MSG(ctx, p != NULL, OP ": missing options");
  TF_LITE_ENSURE_MSG(ctx, !p->diagonal_recurrent_tensors,
                     OP ": diagonal recurrent weights are not supported");
  TF_LITE_ENSURE_MSG(ctx, tff_num_inputs(node) == 20 || tff_num_inputs(node) == 24,
                     OP ": expected 20 or 24 inputs, got %d", tff_num_inputs(node));
  TF_LITE_ENSURE_MSG(ctx, tff_num_outputs(node) == 1, OP ": expected 1 output, got %d",
                     tff_num_outputs(node));
  const TfLiteTensor* in = tff_input(ctx, node, TFF_LSTM_INPUT);
  TF_LITE_ENSURE_MSG(ctx, in && tff_rank(in) == 3, OP ": input must be 3-D, got rank %d",
                     in ? tff_rank(in) : 0);
  const int tm = p->time_major;
  tff_lstm_release(d);
  *d = (tff_lstm){.batch = tff_dim(in, tm ? 1 : 0), .time = tff_dim(in, tm ? 0 : 1),
                  .n_input = tff_dim(in, 2), .time_major = tm, .act = p->activation,
                  .cell_clip = p->cell_clip, .proj_clip = p->proj_clip,
                  .hq = p->asymmetric_quantize_inputs ? TFF_HYB_TFL_ASYM : TFF_HYB_TFL_SYM};
  TF_LITE_ENSURE_OK(ctx, tff_lstm_prepare(ctx, node, OP, d));
  const int shape[3] = {tff_dim(in, 0), tff_dim(in, 1), d->n_output};
  TF_LITE_ENSURE_OK(ctx, tff_resize_output(ctx, tff_output(ctx, node, 0), 3, shape));
  return tff_lstm_scratch(ctx, node, d);
}

const TfLiteRegistration* tff_register_UNIDIRECTIONAL_SEQUENCE_LSTM(void) {
  static const TfLiteRegistration r = {.init = tff_lstm_init,
                                       .free = tff_lstm_free,
                                       .prepare = prepare,
                                       .invoke = tff_lstm_invoke,
                                       .builtin_code = kTfLiteBuiltinUnidirectionalSequenceLstm,
                                       .version = 1};
  return &r;
}
