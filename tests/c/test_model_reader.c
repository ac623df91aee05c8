/* Model reader test driver (see tests/c/README.md).
 *
 *   test_model_reader summary [--misalign] FILE...   print a summary per model
 *   test_model_reader fuzz [--iters N] [--seed S] FILE...
 *       every truncation (a stride of them for big files), then N random
 *       byte flips and N random 4-byte overwrites, biased away from weight
 *       bytes; every input must parse or fail with a message, and a parsed
 *       model is walked completely (ASan catches any bad pointer)
 *   test_model_reader bench FILE...                   best parse time
 *
 * The summary is compared with one computed from the schema in Python by
 * tests/c/compare_reader.py.
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../csrc/runtime/model.h"
#include "tflite_fast/builtin_op_data.h"
#include "tflite_fast/builtin_ops.h"

static uint8_t* read_file(const char* path, size_t* size) {
  FILE* f = fopen(path, "rb");
  if (f == NULL) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t* buf = (uint8_t*)malloc(n > 0 ? (size_t)n : 1);
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  *size = (size_t)n;
  return buf;
}

static uint32_t crc32_bytes(const uint8_t* p, size_t n) {
  static uint32_t table[256];
  if (table[1] == 0) {
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      table[i] = c;
    }
  }
  uint32_t c = 0xFFFFFFFFu;
  for (size_t i = 0; i < n; ++i) c = table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

static uint32_t fbits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof(u));
  return u;
}

/* Names as printable ASCII; anything else as \xNN. */
static void put_name(const char* s) {
  if (s == NULL) {
    fputs("-", stdout);
    return;
  }
  for (; *s; ++s) {
    const unsigned char c = (unsigned char)*s;
    if (c > 32 && c < 127 && c != '\\')
      putchar(c);
    else
      printf("\\x%02x", c);
  }
}

static void put_ints(const TfLiteIntArray* a) {
  if (a == NULL) {
    fputs("-", stdout);
    return;
  }
  putchar('[');
  for (int i = 0; i < a->size; ++i) printf(i ? ",%d" : "%d", a->data[i]);
  putchar(']');
}

/* The params fields of the ops compare_reader.py knows, in struct order. */
static void put_params(int code, const void* p) {
  if (p == NULL) {
    fputs("-", stdout);
    return;
  }
  switch (code) {
    case kTfLiteBuiltinConv2d: {
      const TfLiteConvParams* c = p;
      printf("pad=%d,sw=%d,sh=%d,act=%d,dw=%d,dh=%d,qbt=%d", c->padding, c->stride_width,
             c->stride_height, c->activation, c->dilation_width_factor,
             c->dilation_height_factor, c->quantized_bias_type);
      break;
    }
    case kTfLiteBuiltinDepthwiseConv2d: {
      const TfLiteDepthwiseConvParams* c = p;
      printf("pad=%d,sw=%d,sh=%d,dm=%d,act=%d,dw=%d,dh=%d", c->padding, c->stride_width,
             c->stride_height, c->depth_multiplier, c->activation, c->dilation_width_factor,
             c->dilation_height_factor);
      break;
    }
    case kTfLiteBuiltinTransposeConv: {
      const TfLiteTransposeConvParams* c = p;
      printf("pad=%d,sw=%d,sh=%d,act=%d,qbt=%d", c->padding, c->stride_width, c->stride_height,
             c->activation, c->quantized_bias_type);
      break;
    }
    case kTfLiteBuiltinAveragePool2d:
    case kTfLiteBuiltinMaxPool2d:
    case kTfLiteBuiltinL2Pool2d: {
      const TfLitePoolParams* c = p;
      printf("pad=%d,sw=%d,sh=%d,fw=%d,fh=%d,act=%d", c->padding, c->stride_width,
             c->stride_height, c->filter_width, c->filter_height, c->activation);
      break;
    }
    case kTfLiteBuiltinFullyConnected: {
      const TfLiteFullyConnectedParams* c = p;
      printf("act=%d,wf=%d,keep=%d,asym=%d,qbt=%d", c->activation, c->weights_format,
             c->keep_num_dims, c->asymmetric_quantize_inputs, c->quantized_bias_type);
      break;
    }
    case kTfLiteBuiltinAdd:
    case kTfLiteBuiltinSub: {
      const TfLiteAddParams* c = p; /* same layout as TfLiteSubParams */
      printf("act=%d,pot=%d", c->activation, c->pot_scale_int16);
      break;
    }
    case kTfLiteBuiltinMul:
    case kTfLiteBuiltinDiv:
    case kTfLiteBuiltinL2Normalization:
      printf("act=%d", ((const TfLiteMulParams*)p)->activation);
      break;
    case kTfLiteBuiltinConcatenation: {
      const TfLiteConcatenationParams* c = p;
      printf("axis=%d,act=%d", c->axis, c->activation);
      break;
    }
    case kTfLiteBuiltinSoftmax:
      printf("beta=%08x", fbits(((const TfLiteSoftmaxParams*)p)->beta));
      break;
    case kTfLiteBuiltinLeakyRelu:
      printf("alpha=%08x", fbits(((const TfLiteLeakyReluParams*)p)->alpha));
      break;
    case kTfLiteBuiltinReshape: {
      const TfLiteReshapeParams* c = p;
      printf("n=%d,shape=[", c->num_dimensions);
      for (int i = 0; i < c->num_dimensions; ++i) printf(i ? ",%d" : "%d", c->shape[i]);
      putchar(']');
      break;
    }
    case kTfLiteBuiltinSqueeze: {
      const TfLiteSqueezeParams* c = p;
      printf("n=%d,dims=[", c->num_squeeze_dims);
      for (int i = 0; i < c->num_squeeze_dims; ++i) printf(i ? ",%d" : "%d", c->squeeze_dims[i]);
      putchar(']');
      break;
    }
    case kTfLiteBuiltinMean:
    case kTfLiteBuiltinSum:
    case kTfLiteBuiltinReduceMax:
    case kTfLiteBuiltinReduceMin:
    case kTfLiteBuiltinReduceProd:
    case kTfLiteBuiltinReduceAny:
    case kTfLiteBuiltinReduceAll:
      printf("keep=%d", ((const TfLiteReducerParams*)p)->keep_dims);
      break;
    case kTfLiteBuiltinStridedSlice: {
      const TfLiteStridedSliceParams* c = p;
      printf("b=%d,e=%d,el=%d,na=%d,sa=%d,off=%d", c->begin_mask, c->end_mask, c->ellipsis_mask,
             c->new_axis_mask, c->shrink_axis_mask, c->offset);
      break;
    }
    case kTfLiteBuiltinPack: {
      const TfLitePackParams* c = p;
      printf("n=%d,axis=%d", c->values_count, c->axis);
      break;
    }
    case kTfLiteBuiltinUnpack: {
      const TfLiteUnpackParams* c = p;
      printf("n=%d,axis=%d", c->num, c->axis);
      break;
    }
    case kTfLiteBuiltinSplit:
    case kTfLiteBuiltinSplitV:
      printf("n=%d", ((const TfLiteSplitParams*)p)->num_splits);
      break;
    case kTfLiteBuiltinGather: {
      const TfLiteGatherParams* c = p;
      printf("axis=%d,bd=%d", c->axis, c->batch_dims);
      break;
    }
    case kTfLiteBuiltinShape:
      printf("t=%d", ((const TfLiteShapeParams*)p)->out_type);
      break;
    case kTfLiteBuiltinCast: {
      const TfLiteCastParams* c = p;
      printf("in=%d,out=%d", c->in_data_type, c->out_data_type);
      break;
    }
    case kTfLiteBuiltinArgMax:
    case kTfLiteBuiltinArgMin:
      printf("t=%d", ((const TfLiteArgMaxParams*)p)->output_type);
      break;
    case kTfLiteBuiltinResizeBilinear:
    case kTfLiteBuiltinResizeNearestNeighbor: {
      const TfLiteResizeBilinearParams* c = p;
      printf("ac=%d,hp=%d", c->align_corners, c->half_pixel_centers);
      break;
    }
    case kTfLiteBuiltinMirrorPad:
      printf("mode=%d", ((const TfLiteMirrorPaddingParams*)p)->mode);
      break;
    case kTfLiteBuiltinDepthToSpace:
    case kTfLiteBuiltinSpaceToDepth:
      printf("bs=%d", ((const TfLiteDepthToSpaceParams*)p)->block_size);
      break;
    case kTfLiteBuiltinBatchMatmul: {
      const TfLiteBatchMatMulParams* c = p;
      printf("ax=%d,ay=%d,asym=%d", c->adj_x, c->adj_y, c->asymmetric_quantize_inputs);
      break;
    }
    case kTfLiteBuiltinCumsum: {
      const TfLiteCumsumParams* c = p;
      printf("ex=%d,rev=%d", c->exclusive, c->reverse);
      break;
    }
    case kTfLiteBuiltinGelu:
      printf("approx=%d", ((const TfLiteGeluParams*)p)->approximate);
      break;
    case kTfLiteBuiltinWhile: {
      const TfLiteWhileParams* c = p;
      printf("cond=%d,body=%d", c->cond_subgraph_index, c->body_subgraph_index);
      break;
    }
    case kTfLiteBuiltinIf: {
      const TfLiteIfParams* c = p;
      printf("then=%d,else=%d", c->then_subgraph_index, c->else_subgraph_index);
      break;
    }
    case kTfLiteBuiltinCallOnce:
      printf("init=%d", ((const TfLiteCallOnceParams*)p)->init_subgraph_index);
      break;
    case kTfLiteBuiltinVarHandle: {
      const TfLiteVarHandleParams* c = p;
      fputs("container=", stdout);
      put_name(c->container);
      fputs(",shared=", stdout);
      put_name(c->shared_name);
      break;
    }
    case kTfLiteBuiltinLstm: {
      const TfLiteLSTMParams* c = p;
      printf("act=%d,cc=%08x,pc=%08x,kt=%d,asym=%d", c->activation, fbits(c->cell_clip),
             fbits(c->proj_clip), c->kernel_type, c->asymmetric_quantize_inputs);
      break;
    }
    case kTfLiteBuiltinUnidirectionalSequenceLstm: {
      const TfLiteUnidirectionalSequenceLSTMParams* c = p;
      printf("act=%d,cc=%08x,pc=%08x,tm=%d,asym=%d,diag=%d", c->activation, fbits(c->cell_clip),
             fbits(c->proj_clip), c->time_major, c->asymmetric_quantize_inputs,
             c->diagonal_recurrent_tensors);
      break;
    }
    case kTfLiteBuiltinSvdf: {
      const TfLiteSVDFParams* c = p;
      printf("rank=%d,act=%d,asym=%d", c->rank, c->activation, c->asymmetric_quantize_inputs);
      break;
    }
    case kTfLiteBuiltinLocalResponseNormalization: {
      const TfLiteLocalResponseNormParams* c = p;
      printf("r=%d,bias=%08x,alpha=%08x,beta=%08x", c->radius, fbits(c->bias), fbits(c->alpha),
             fbits(c->beta));
      break;
    }
    case kTfLiteBuiltinFakeQuant: {
      const TfLiteFakeQuantParams* c = p;
      printf("min=%08x,max=%08x,bits=%d,narrow=%d", fbits(c->min), fbits(c->max), c->num_bits,
             c->narrow_range);
      break;
    }
    case kTfLiteBuiltinOneHot:
      printf("axis=%d", ((const TfLiteOneHotParams*)p)->axis);
      break;
    case kTfLiteBuiltinUnique:
      printf("t=%d", ((const TfLiteUniqueParams*)p)->index_out_type);
      break;
    case kTfLiteBuiltinBucketize: {
      const TfLiteBucketizeParams* c = p;
      printf("n=%d,b=[", c->num_boundaries);
      for (int i = 0; i < c->num_boundaries; ++i) printf(i ? ",%08x" : "%08x", fbits(c->boundaries[i]));
      putchar(']');
      break;
    }
    case kTfLiteBuiltinRandomUniform:
    case kTfLiteBuiltinRandomStandardNormal:
    case kTfLiteBuiltinMultinomial: {
      const TfLiteRandomParams* c = p;
      printf("seed=%d,seed2=%d", c->seed, c->seed2);
      break;
    }
    default:
      fputs("?", stdout);
  }
}

static void print_summary(const char* path, const tff_model* m) {
  printf("file %s\n", path);
  printf("model version=%u opcodes=%d subgraphs=%d buffers=%d description=", m->version,
         m->num_opcodes, m->num_subgraphs, m->num_buffers);
  put_name(m->description);
  putchar('\n');
  for (int i = 0; i < m->num_opcodes; ++i) {
    printf("opcode %d code=%d version=%d custom=", i, m->opcodes[i].builtin_code,
           m->opcodes[i].version);
    put_name(m->opcodes[i].custom_name);
    putchar('\n');
  }
  for (int s = 0; s < m->num_subgraphs; ++s) {
    const tff_subgraph_desc* sg = &m->subgraphs[s];
    printf("subgraph %d tensors=%d ops=%d inputs=", s, sg->num_tensors, sg->num_ops);
    put_ints(sg->inputs);
    fputs(" outputs=", stdout);
    put_ints(sg->outputs);
    fputs(" name=", stdout);
    put_name(sg->name);
    putchar('\n');
    for (int i = 0; i < sg->num_tensors; ++i) {
      const tff_tensor_desc* d = &sg->tensors[i];
      printf("tensor %d.%d type=%d shape=", s, i, d->type);
      put_ints(d->dims);
      fputs(" sig=", stdout);
      put_ints(d->dims_signature);
      printf(" buffer=%d var=%d has_rank=%d", d->buffer, d->is_variable, d->has_rank);
      if (d->data)
        printf(" const=%zu:%08x", d->bytes, crc32_bytes(d->data, d->bytes));
      else
        fputs(" const=-", stdout);
      if (d->affine) {
        const TfLiteAffineQuantization* a = d->affine;
        printf(" q=%d:%d:%08x/%d", a->scale->size, a->quantized_dimension,
               crc32_bytes((const uint8_t*)a->scale->data, 4 * (size_t)a->scale->size),
               a->zero_point->size);
        for (int k = 0; k < a->zero_point->size && k < 4; ++k) printf(",%d", a->zero_point->data[k]);
        printf(" params=%08x,%d", fbits(d->params.scale), d->params.zero_point);
      } else {
        printf(" q=- params=%08x,%d", fbits(d->params.scale), d->params.zero_point);
      }
      printf(" sparse=%d name=", d->sparsity != NULL);
      put_name(d->name);
      putchar('\n');
    }
    for (int i = 0; i < sg->num_ops; ++i) {
      const tff_op_desc* op = &sg->ops[i];
      const int code = m->opcodes[op->opcode_index].builtin_code;
      printf("op %d.%d opcode=%d in=", s, i, op->opcode_index);
      put_ints(op->inputs);
      fputs(" out=", stdout);
      put_ints(op->outputs);
      fputs(" inter=", stdout);
      put_ints(op->intermediates);
      if (op->custom_options)
        printf(" custom=%zu:%08x", op->custom_options_size,
               crc32_bytes(op->custom_options, op->custom_options_size));
      else
        fputs(" custom=-", stdout);
      printf(" otype=%d params=", op->builtin_options_type);
      put_params(code, op->builtin_data);
      putchar('\n');
    }
  }
  for (int i = 0; i < m->num_signatures; ++i) {
    const tff_signature* sig = &m->signatures[i];
    printf("signature %d subgraph=%d key=", i, sig->subgraph);
    put_name(sig->key);
    fputs(" in=", stdout);
    for (int k = 0; k < sig->num_inputs; ++k) {
      if (k) putchar(',');
      put_name(sig->inputs[k].name);
      printf(":%d", sig->inputs[k].tensor);
    }
    fputs(" out=", stdout);
    for (int k = 0; k < sig->num_outputs; ++k) {
      if (k) putchar(',');
      put_name(sig->outputs[k].name);
      printf(":%d", sig->outputs[k].tensor);
    }
    putchar('\n');
  }
  for (int i = 0; i < m->num_metadata; ++i) {
    printf("metadata %d size=%zu crc=%08x name=", i, m->metadata[i].size,
           crc32_bytes(m->metadata[i].data, m->metadata[i].size));
    put_name(m->metadata[i].name);
    putchar('\n');
  }
}

static int cmd_summary(int argc, char** argv) {
  int misalign = 0, rc = 0;
  for (int a = 0; a < argc; ++a) {
    if (strcmp(argv[a], "--misalign") == 0) {
      misalign = 1;
      continue;
    }
    size_t size;
    uint8_t* buf = read_file(argv[a], &size);
    if (buf == NULL) {
      fprintf(stderr, "cannot read %s\n", argv[a]);
      return 2;
    }
    /* --misalign: parse from an odd address to exercise the aligned copies. */
    uint8_t* mem = buf;
    if (misalign) {
      mem = (uint8_t*)malloc(size + 1);
      memcpy(mem + 1, buf, size);
    }
    tff_model* m = NULL;
    char err[512];
    const tff_status st = tff_model_parse(mem + misalign, size, &m, err, sizeof(err));
    if (st != TFF_OK) {
      printf("file %s\nerror %d %s\n", argv[a], st, err);
      rc = 1;
    } else {
      print_summary(argv[a], m);
    }
    tff_model_free(m);
    if (mem != buf) free(mem);
    free(buf);
  }
  return rc;
}

/* ---- fuzzing ---- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rng(void) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 0x2545F4914F6CDD1Dull;
}

static volatile uint32_t sink;

/* Touches everything a parsed model exposes, so ASan sees any bad pointer. */
static void walk(const tff_model* m) {
  uint32_t h = 0;
  const uint8_t* p;
  for (int i = 0; i < m->num_opcodes; ++i)
    h += m->opcodes[i].custom_name ? (uint32_t)strlen(m->opcodes[i].custom_name) : 0;
  h += (uint32_t)strlen(m->description);
  for (int s = 0; s < m->num_subgraphs; ++s) {
    const tff_subgraph_desc* sg = &m->subgraphs[s];
    h += (uint32_t)strlen(sg->name);
    for (int i = 0; i < sg->inputs->size; ++i) h += (uint32_t)sg->inputs->data[i];
    for (int i = 0; i < sg->outputs->size; ++i) h += (uint32_t)sg->outputs->data[i];
    for (int i = 0; i < sg->num_tensors; ++i) {
      const tff_tensor_desc* d = &sg->tensors[i];
      h += (uint32_t)strlen(d->name);
      for (int k = 0; k < d->dims->size; ++k) h += (uint32_t)d->dims->data[k];
      if (d->dims_signature)
        for (int k = 0; k < d->dims_signature->size; ++k) h += (uint32_t)d->dims_signature->data[k];
      if (d->data && d->bytes) {
        p = d->data;
        h += p[0] + p[d->bytes - 1];
      }
      if (d->affine) {
        for (int k = 0; k < d->affine->scale->size; ++k) h += fbits(d->affine->scale->data[k]);
        for (int k = 0; k < d->affine->zero_point->size; ++k)
          h += (uint32_t)d->affine->zero_point->data[k];
      }
      if (d->sparsity) {
        const TfLiteSparsity* sp = d->sparsity;
        h += (uint32_t)sp->traversal_order->size;
        for (int k = 0; k < sp->dim_metadata_size; ++k)
          if (sp->dim_metadata[k].array_indices) h += (uint32_t)sp->dim_metadata[k].array_indices->size;
      }
    }
    for (int i = 0; i < sg->num_ops; ++i) {
      const tff_op_desc* op = &sg->ops[i];
      h += (uint32_t)m->opcodes[op->opcode_index].builtin_code;
      for (int k = 0; k < op->inputs->size; ++k) h += (uint32_t)op->inputs->data[k];
      for (int k = 0; k < op->outputs->size; ++k) h += (uint32_t)op->outputs->data[k];
      for (int k = 0; k < op->intermediates->size; ++k) h += (uint32_t)op->intermediates->data[k];
      if (op->custom_options && op->custom_options_size)
        h += op->custom_options[0] + op->custom_options[op->custom_options_size - 1];
      if (op->builtin_data) h += *(const uint8_t*)op->builtin_data;
      if (op->builtin_data && m->opcodes[op->opcode_index].builtin_code == kTfLiteBuiltinVarHandle) {
        const TfLiteVarHandleParams* v = op->builtin_data;
        if (v->container) h += (uint32_t)strlen(v->container);
        if (v->shared_name) h += (uint32_t)strlen(v->shared_name);
      }
    }
  }
  for (int i = 0; i < m->num_buffers; ++i)
    if (m->buffers[i].data && m->buffers[i].size)
      h += m->buffers[i].data[0] + m->buffers[i].data[m->buffers[i].size - 1];
  for (int i = 0; i < m->num_signatures; ++i) {
    h += (uint32_t)strlen(m->signatures[i].key);
    for (int k = 0; k < m->signatures[i].num_inputs; ++k)
      h += (uint32_t)strlen(m->signatures[i].inputs[k].name);
    for (int k = 0; k < m->signatures[i].num_outputs; ++k)
      h += (uint32_t)strlen(m->signatures[i].outputs[k].name);
  }
  for (int i = 0; i < m->num_metadata; ++i) {
    h += (uint32_t)strlen(m->metadata[i].name);
    h += m->metadata[i].data[0] + m->metadata[i].data[m->metadata[i].size - 1];
  }
  sink += h;
}

typedef struct stats {
  long tried, parsed, failed;
} stats;

static void try_parse(const uint8_t* buf, size_t size, stats* st) {
  tff_model* m = NULL;
  char err[512];
  err[0] = '\0';
  const tff_status s = tff_model_parse(buf, size, &m, err, sizeof(err));
  st->tried++;
  if (s == TFF_OK) {
    st->parsed++;
    walk(m);
    tff_model_free(m);
  } else {
    st->failed++;
    if (m != NULL || err[0] == '\0') {
      fprintf(stderr, "FAIL: status %d with %s\n", s, m ? "a model" : "an empty message");
      abort();
    }
  }
}

/* Bytes that are weight data (flipping them cannot change parsing). */
static uint8_t* data_mask(const uint8_t* buf, size_t size) {
  uint8_t* mask = (uint8_t*)calloc(size ? size : 1, 1);
  tff_model* m = NULL;
  char err[256];
  if (tff_model_parse(buf, size, &m, err, sizeof(err)) != TFF_OK) return mask;
  for (int i = 0; i < m->num_buffers; ++i) {
    const tff_buffer* b = &m->buffers[i];
    if (b->data && b->data >= buf && b->data + b->size <= buf + size)
      memset(mask + (b->data - buf), 1, b->size);
  }
  tff_model_free(m);
  return mask;
}

static size_t pick_pos(const uint8_t* mask, size_t size) {
  for (int tries = 0; tries < 64; ++tries) {
    const size_t pos = (size_t)(rng() % size);
    if (!mask[pos] || rng() % 16 == 0) return pos;
  }
  return (size_t)(rng() % size);
}

static int cmd_fuzz(int argc, char** argv) {
  long iters = 2000;
  stats total = {0, 0, 0};
  for (int a = 0; a < argc; ++a) {
    if (strcmp(argv[a], "--iters") == 0 && a + 1 < argc) {
      iters = atol(argv[++a]);
      continue;
    }
    if (strcmp(argv[a], "--seed") == 0 && a + 1 < argc) {
      rng_state = strtoull(argv[++a], NULL, 0) | 1;
      continue;
    }
    size_t size;
    uint8_t* orig = read_file(argv[a], &size);
    if (orig == NULL || size < 8) {
      fprintf(stderr, "cannot read %s\n", argv[a]);
      return 2;
    }
    stats st = {0, 0, 0};
    /* Truncations: every length for small files, ~2000 cuts for big ones,
     * each in an exact-size allocation so ASan sees a read past the end. */
    const size_t stride = size <= 65536 ? 1 : size / 2000;
    for (size_t n = 0;; n = n + stride < size ? n + stride : size) {
      uint8_t* cut = (uint8_t*)malloc(n ? n : 1);
      memcpy(cut, orig, n);
      try_parse(n ? cut : NULL, n, &st);
      free(cut);
      if (n == size) break;
    }
    uint8_t* mask = data_mask(orig, size);
    uint8_t* buf = (uint8_t*)malloc(size);
    memcpy(buf, orig, size);
    static const uint32_t kWords[] = {0u, 1u, 2u, 4u, 8u, 0x7fffffffu, 0x80000000u,
                                      0xffffffffu, 0xfffffffcu, 0x10000u, 0x7ffffff8u};
    for (long it = 0; it < 2 * iters; ++it) {
      size_t pos[8];
      int n = 0;
      if (it % 2 == 0) { /* flip 1..8 random bytes */
        n = 1 + (int)(rng() % 8);
        for (int k = 0; k < n; ++k) {
          pos[k] = pick_pos(mask, size);
          buf[pos[k]] ^= (uint8_t)(1 + rng() % 255);
        }
      } else { /* overwrite an aligned word with an interesting value */
        const size_t p = pick_pos(mask, size - 3) & ~(size_t)3;
        const uint32_t w = rng() % 3 ? kWords[rng() % (sizeof(kWords) / sizeof(kWords[0]))]
                                     : (uint32_t)rng() % (uint32_t)(size + 64);
        for (int k = 0; k < 4; ++k) {
          pos[n++] = p + (size_t)k;
          buf[p + (size_t)k] = (uint8_t)(w >> (8 * k));
        }
      }
      try_parse(buf, size, &st);
      for (int k = 0; k < n; ++k) buf[pos[k]] = orig[pos[k]];
    }
    printf("%s: %ld inputs, %ld parsed, %ld rejected with a message\n", argv[a], st.tried,
           st.parsed, st.failed);
    total.tried += st.tried;
    total.parsed += st.parsed;
    total.failed += st.failed;
    free(mask);
    free(buf);
    free(orig);
  }
  printf("total: %ld inputs, %ld parsed, %ld rejected, 0 crashes\n", total.tried, total.parsed,
         total.failed);
  return 0;
}

static double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmd_bench(int argc, char** argv) {
  for (int a = 0; a < argc; ++a) {
    size_t size;
    uint8_t* buf = read_file(argv[a], &size);
    if (buf == NULL) return 2;
    double best = 1e30;
    for (int rep = 0; rep < 200; ++rep) {
      tff_model* m = NULL;
      char err[256];
      const double t0 = now_us();
      const tff_status st = tff_model_parse(buf, size, &m, err, sizeof(err));
      tff_model_free(m);
      const double t = now_us() - t0;
      if (st != TFF_OK) {
        printf("%s: %s\n", argv[a], err);
        break;
      }
      if (t < best) best = t;
    }
    printf("%s: %zu bytes, best parse+free %.1f us\n", argv[a], size, best);
    free(buf);
  }
  return 0;
}

int main(int argc, char** argv) {
  if (argc >= 2 && strcmp(argv[1], "summary") == 0) return cmd_summary(argc - 2, argv + 2);
  if (argc >= 2 && strcmp(argv[1], "fuzz") == 0) return cmd_fuzz(argc - 2, argv + 2);
  if (argc >= 2 && strcmp(argv[1], "bench") == 0) return cmd_bench(argc - 2, argv + 2);
  fprintf(stderr, "usage: %s summary|fuzz|bench [options] FILE...\n", argv[0]);
  return 2;
}
