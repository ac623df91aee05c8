/* See arena.h. */
#include "arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TFF_ARENA_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define TFF_ARENA_ASAN 1
#endif

enum { kAlign = 16, kFirstChunk = 16 << 10, kMaxChunk = 1 << 20 };

/* The header keeps the blocks after it 16-byte aligned. */
typedef struct tff_arena_chunk {
  struct tff_arena_chunk* next;
  _Alignas(kAlign) char data[];
} tff_arena_chunk;

static char* new_chunk(tff_arena* a, size_t bytes) {
  tff_arena_chunk* c = (tff_arena_chunk*)malloc(sizeof(tff_arena_chunk) + bytes);
  if (c == NULL) return NULL;
  c->next = a->chunks;
  a->chunks = c;
  return c->data;
}

void* tff_arena_alloc(tff_arena* a, size_t bytes) {
  if (bytes > SIZE_MAX / 2) return NULL;
  const size_t need = bytes ? (bytes + kAlign - 1) & ~(size_t)(kAlign - 1) : kAlign;
#ifdef TFF_ARENA_ASAN
  return new_chunk(a, need);
#else
  if (need > a->left) {
    /* A large block gets a chunk of its own; the current one keeps filling. */
    if (need > kMaxChunk / 4) return new_chunk(a, need);
    size_t size = a->grow ? a->grow : kFirstChunk;
    if (size < need) size = need; /* a block bigger than the chunk due */
    char* p = new_chunk(a, size);
    if (p == NULL) return NULL;
    a->next = p;
    a->left = size;
    a->grow = size < kMaxChunk ? 2 * size : size;
  }
  char* p = a->next;
  a->next += need;
  a->left -= need;
  return p;
#endif
}

void* tff_arena_zalloc(tff_arena* a, size_t n, size_t size) {
  if (n == 0) n = 1;
  if (size && n > SIZE_MAX / 2 / size) return NULL;
  void* p = tff_arena_alloc(a, n * size);
  if (p) memset(p, 0, n * size);
  return p;
}

void tff_arena_release(tff_arena* a) {
  while (a->chunks) {
    tff_arena_chunk* c = a->chunks;
    a->chunks = c->next;
    free(c);
  }
  memset(a, 0, sizeof(*a));
}
