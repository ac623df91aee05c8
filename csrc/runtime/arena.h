/* A bump allocator for what lives exactly as long as its owner and is never
 * freed or resized alone (the model reader's descriptors: names, shapes,
 * quantization arrays, op index lists). One release frees everything; a
 * model's ~1500 small blocks cost a few chunk allocations instead of as
 * many malloc/free pairs. Under AddressSanitizer blocks are poisoned apart
 * (arena.c), so overflows between neighbours are still caught.
 *
 * A zeroed tff_arena is empty and ready; blocks are aligned as malloc's. */
#ifndef TFLITE_FAST_RUNTIME_ARENA_H_
#define TFLITE_FAST_RUNTIME_ARENA_H_

#include <stddef.h>

typedef struct tff_arena {
  struct tff_arena_chunk* chunks;
  char* next;    /* free space of the newest chunk */
  size_t left;
  size_t grow;   /* size of the next chunk */
} tff_arena;

/* Uninitialised; NULL when out of memory. */
void* tff_arena_alloc(tff_arena* a, size_t bytes);
/* n zeroed elements of `size` bytes (calloc's contract); n = 0 gives one. */
void* tff_arena_zalloc(tff_arena* a, size_t n, size_t size);
/* Frees every block; the arena is empty again. */
void tff_arena_release(tff_arena* a);

#endif /* TFLITE_FAST_RUNTIME_ARENA_H_ */
