/* agw3d_cmd.c -- effector messages of 3D agents (docs/protocol/3d.md §2.1-§2.5) into command
 * records: (create), (init (unum N) (teamname NAME)), (beam X Y Z), (drive X Y Z),
 * (kick ANGLE POWER), and (syn) of synch mode. A message may hold several expressions.
 * What cannot be understood is answered "(error EFFECTOR REASON)"; the name is echoed
 * only if it is a plain word. Pure: no I/O. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "agw3d.h"
#include "sexp.h"

#define AGW3D_NODES     512
#define AGW3D_EXPR_MAX  32   /* expressions in one message: more is a flood */

static void err_reply(const agw3d_sink_t *k, const char *eff, const char *reason)
{
    char text[160];
    snprintf(text, sizeof text, "(error %s %s)", eff, reason);
    k->error(k->ctx, text);
}

/* the effector name as echoed back: a word of letters, digits, _ and - */
static void safe_name(const sexp_t *n, char *buf, size_t len)
{
    size_t k = 0;
    if (n && !n->is_list && !n->quoted && n->len > 0 && n->len < 32) {
        for (; k < n->len && k + 1 < len; k++) {
            char c = n->text[k];
            if (!isalnum((unsigned char)c) && c != '_' && c != '-') {
                k = 0;
                break;
            }
            buf[k] = c;
        }
    }
    if (k == 0)
        snprintf(buf, len, "unknown");
    else
        buf[k] = '\0';
}

/* n numbers after the head of list e into d; 0 or -1 */
static int numbers(const sexp_t *e, double *d, int n)
{
    if ((int)sexp_count(e) != n + 1)
        return -1;
    const sexp_t *a = e->child->next;
    for (int i = 0; i < n; i++, a = a->next) {
        if (sexp_number(a, &d[i]) < 0)
            return -1;
    }
    return 0;
}

/* (init (unum N) (teamname NAME)) in any order; unum may be left out (0: the next free) */
static int parse_init(const sexp_t *e, shm3d_cmd_sh_t *c)
{
    int have_team = 0;
    c->i = 0;
    for (const sexp_t *a = e->child->next; a; a = a->next) {
        if (!a->is_list || sexp_count(a) != 2)
            return -1;
        const sexp_t *v = a->child->next;
        if (sexp_is(a->child, "unum")) {
            long u;
            if (sexp_int(v, &u) < 0 || u < 0 || u > SHM3D_TEAM_SIZE)
                return -1;
            c->i = (int16_t)u;
        } else if (sexp_is(a->child, "teamname")) {
            if (v->is_list || v->len == 0 || v->len >= SHM3D_TEAM_NAME_LEN)
                return -1;
            memcpy(c->text, v->text, v->len);
            c->len = (uint16_t)v->len;
            have_team = 1;
        } else {
            return -1;
        }
    }
    return have_team ? 0 : -1;
}

/* One expression: 1 understood, 0 not (error sent). */
static int parse_one(const sexp_t *e, const agw3d_sink_t *k)
{
    char name[40];
    if (!e->is_list || !e->child || e->child->is_list) {
        err_reply(k, "parse", "illegal_expression");
        return 0;
    }
    const sexp_t *h = e->child;
    shm3d_cmd_sh_t c;
    memset(&c, 0, sizeof c);
    if (sexp_is(h, "syn")) {
        k->syn(k->ctx);
        return 1;
    }
    if (sexp_is(h, "create")) {
        c.kind = SHM3D_CMD_CREATE; /* the parameters are ignored (docs/protocol/3d.md §2.1) */
    } else if (sexp_is(h, "init")) {
        c.kind = SHM3D_CMD_INIT;
        if (parse_init(e, &c) < 0) {
            err_reply(k, "init", "bad_arguments");
            return 0;
        }
    } else if (sexp_is(h, "beam") || sexp_is(h, "drive")) {
        c.kind = sexp_is(h, "beam") ? SHM3D_CMD_BEAM : SHM3D_CMD_DRIVE;
        if (numbers(e, c.d, 3) < 0) {
            err_reply(k, c.kind == SHM3D_CMD_BEAM ? "beam" : "drive", "bad_arguments");
            return 0;
        }
    } else if (sexp_is(h, "kick")) {
        c.kind = SHM3D_CMD_KICK;
        if (numbers(e, c.d, 2) < 0) {
            err_reply(k, "kick", "bad_arguments");
            return 0;
        }
    } else {
        safe_name(h, name, sizeof name);
        err_reply(k, name, "unknown_effector");
        return 0;
    }
    k->record(k->ctx, &c);
    return 1;
}

int agw3d_cmd_parse(const char *msg, size_t len, const agw3d_sink_t *sink)
{
    static sexp_t nodes[AGW3D_NODES];
    size_t pos = 0;
    int ok = 0, n = 0;
    while (pos < len) {
        while (pos < len && (isspace((unsigned char)msg[pos]) || msg[pos] == '\0'))
            pos++;
        if (pos >= len)
            break;
        sexp_arena_t a = { nodes, AGW3D_NODES, 0 };
        char err[96];
        size_t end = 0;
        sexp_t *e = sexp_parse(&a, msg + pos, len - pos, &end, err, sizeof err);
        if (!e || !e->is_list) {
            err_reply(sink, "parse", e ? "illegal_expression" : "illegal_sexp");
            return ok; /* the rest cannot be trusted */
        }
        if (++n > AGW3D_EXPR_MAX) {
            err_reply(sink, "parse", "too_many_expressions");
            return ok;
        }
        ok += parse_one(e, sink);
        pos += end > 0 ? end : 1;
    }
    return ok;
}
