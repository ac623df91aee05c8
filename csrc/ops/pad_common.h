/* The PAD kernel (pad.c), which TFLite also registers for PADV2. */
#ifndef TFLITE_FAST_OPS_PAD_COMMON_H_
#define TFLITE_FAST_OPS_PAD_COMMON_H_

#include "kernel_util.h"

void* tff_pad_init(TfLiteContext* ctx, const char* buf, size_t len);
TfLiteStatus tff_pad_prepare(TfLiteContext* ctx, TfLiteNode* node);
TfLiteStatus tff_pad_invoke(TfLiteContext* ctx, TfLiteNode* node);

#endif /* TFLITE_FAST_OPS_PAD_COMMON_H_ */
