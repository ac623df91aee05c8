/* Resource variables (VAR_HANDLE / READ_VARIABLE / ASSIGN_VARIABLE): one
 * table per interpreter, shared by its subgraphs. */
#include <stdlib.h>

#include "subgraph.h"

struct tff_resources {
  int count;
};

void tff_resources_free(struct tff_resources* r) { free(r); }

void tff_resources_reset(struct tff_resources* r) { (void)r; }
