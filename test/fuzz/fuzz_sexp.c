/* fuzz_sexp.c -- libFuzzer target: arbitrary bytes through sexp_parse, called again from
 * *end until the datagram is used up, then the node helpers on each result.
 * Build: clang -fsanitize=fuzzer,address,undefined -Icommon -Ishm fuzz_sexp.c common/[*].c -lm */
#include <stddef.h>
#include <stdint.h>
#include "sexp.h"

#define FUZZ_NODES 64

static void walk(const sexp_t *n, int depth)
{
    char buf[16];
    double d;
    long l;
    for (; n && depth <= SEXP_MAX_DEPTH + 1; n = n->next) {
        (void)sexp_is(n, "dash");
        (void)sexp_number(n, &d);
        (void)sexp_int(n, &l);
        (void)sexp_copy(n, buf, sizeof buf);
        (void)sexp_nth(n, 2);
        (void)sexp_count(n);
        if (n->is_list)
            walk(n->child, depth + 1);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static sexp_t nodes[FUZZ_NODES];
    sexp_arena_t a = { nodes, FUZZ_NODES, 0 };
    const char *s = (const char *)data;
    size_t off = 0;
    char err[64];
    while (off < size) {
        size_t end = 0;
        a.used = 0;
        sexp_t *root = sexp_parse(&a, s + off, size - off, &end, err, sizeof err);
        if (!root || end == 0)
            break;
        walk(root, 0);
        off += end;
    }
    return 0;
}
