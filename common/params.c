/* params.c -- the parameter table built from params.def, lookup and table hash. */
#include <string.h>
#include "params.h"

const param_def_t param_defs[PARAM_COUNT] = {
#define PARAM(mod, name, type, def, tag) { #mod, #name, PARAM_##type, def, tag },
#include "params.def"
#undef PARAM
};

int param_lookup(const char *module, const char *name)
{
    for (int i = 0; i < PARAM_COUNT; i++) {
        if (strcmp(param_defs[i].name, name) == 0 && strcmp(param_defs[i].module, module) == 0)
            return i;
    }
    return -1;
}

static uint32_t fnv1a(uint32_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 16777619u;
    }
    return h;
}

uint32_t param_table_hash(void)
{
    uint32_t h = 2166136261u;
    for (int i = 0; i < PARAM_COUNT; i++) {
        const param_def_t *d = &param_defs[i];
        h = fnv1a(h, d->module, strlen(d->module) + 1);
        h = fnv1a(h, d->name, strlen(d->name) + 1);
        h = fnv1a(h, &d->type, sizeof d->type);
        h = fnv1a(h, &d->tag, sizeof d->tag);
    }
    return h;
}
