/* The one status enum of the tflite_fast C API (not the TFLite ABI, which
 * uses TfLiteStatus). Messages go to the caller's error buffer; src/_core.pyx
 * maps each status to a Python exception in one place. */
#ifndef TFLITE_FAST_STATUS_H_
#define TFLITE_FAST_STATUS_H_

typedef enum tff_status {
  TFF_OK = 0,
  TFF_STATUS_INVALID_MODEL = 1,    /* malformed or inconsistent file -> ValueError */
  TFF_STATUS_INVALID_ARGUMENT = 2, /* bad index, shape, dtype -> ValueError */
  TFF_STATUS_UNSUPPORTED = 3,      /* op/type not implemented -> RuntimeError */
  TFF_STATUS_PREPARE_FAILED = 4,   /* a node's prepare failed -> RuntimeError */
  TFF_STATUS_INVOKE_FAILED = 5,    /* a node's invoke failed -> RuntimeError */
  TFF_STATUS_NOT_READY = 6,        /* invoke before allocate -> RuntimeError */
  TFF_STATUS_OUT_OF_MEMORY = 7,    /* -> MemoryError */
  TFF_STATUS_IO_ERROR = 8,         /* cannot open/map a file -> ValueError */
} tff_status;

#endif /* TFLITE_FAST_STATUS_H_ */
