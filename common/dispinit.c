/* dispinit.c -- the monitor init datagram (docs/protocol/monitor.md §1): parsed by the
 * netgw that receives it on the player port (to refuse bad versions from that port, as
 * the reference does) and again by monitorgw when it registers the monitor. */
#include <math.h>
#include <stddef.h>
#include "dispinit.h"
#include "sexp.h"

int dispinit_parse(const char *text, size_t len, int *version)
{
    sexp_t nodes[16];
    sexp_arena_t a = { nodes, 16, 0 };
    char err[64];
    size_t end = 0;
    const sexp_t *root = sexp_parse(&a, text, len, &end, err, sizeof err);
    if (!root || !root->is_list || !root->child || !sexp_is(root->child, "dispinit"))
        return -1;
    size_t n = sexp_count(root);
    if (n == 1) {
        *version = 1;
        return 0;
    }
    double v;
    if (n != 3 || !sexp_is(sexp_nth(root, 1), "version") || sexp_number(sexp_nth(root, 2), &v) < 0
        || fabs(v) > 1e6)
        return -1;
    *version = (int)v; /* truncated toward zero */
    return 0;
}

int dispinit_version_known(int version)
{
    return (version >= 1 && version <= 5) || version == -1;
}

int dispinit_version_served(int version)
{
    return dispinit_version_known(version);
}
