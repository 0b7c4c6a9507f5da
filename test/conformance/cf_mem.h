/* cf_mem.h -- the conformance tool's allocations: a tool that runs for minutes and then
 * exits, so running out of memory ends it with one line instead of being handled at
 * every call. */
#ifndef RCSS_CF_MEM_H
#define RCSS_CF_MEM_H

#include <stddef.h>

void *cf_xmalloc(size_t n);
void *cf_xrealloc(void *p, size_t n);
char *cf_xstrdup(const char *s);

#endif
