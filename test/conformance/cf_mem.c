/* cf_mem.c -- allocations that end the tool with one line when memory runs out. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cf_mem.h"

static void *cf_need(void *p, const char *what)
{
    if (!p) {
        fprintf(stderr, "rcss-conform: out of memory (%s)\n", what);
        exit(1);
    }
    return p;
}

void *cf_xmalloc(size_t n)
{
    return cf_need(malloc(n ? n : 1), "malloc");
}

void *cf_xrealloc(void *p, size_t n)
{
    return cf_need(realloc(p, n ? n : 1), "realloc");
}

char *cf_xstrdup(const char *s)
{
    return cf_need(strdup(s), "strdup");
}
