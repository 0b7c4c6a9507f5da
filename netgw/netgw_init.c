/* netgw_init.c -- the first datagram of a player on the init port (spec player-sim.md
 * 1.1): (init TEAM [(version V)] [(goalie)]) or (reconnect TEAM UNUM), parsed into a
 * proto_init_t or refused with the reply the reference gives. Pure; called by the
 * gateway's init-port handler. */
#include <stdio.h>
#include <string.h>
#include "netgw_proto.h"
#include "sexp.h"

#define INIT_NODES        32
#define INIT_TEAM_MAX     (SHM_TEAM_NAME_LEN - 1)   /* 15 characters */
#define INIT_VERSION_MIN  1.0
#define INIT_VERSION_END  20.0                      /* protocols 1..19 exist */

#define ERR_FORM     "(error illegal_command_form)"
#define ERR_TEAM     "(error illegal_teamname)"
#define ERR_TEAMLEN  "(error illegal_teamname_or_too_long_teamname)"
#define ERR_VERSION  "(error no_more_player_or_goalie_or_illegal_client_version)"
#define ERR_UNKNOWN  "(error unknown_command)"
#define ERR_NOPLAYER "(error no_such_team_or_player)"

static int init_fail(char *err, size_t errlen, const char *msg)
{
    if (err && errlen)
        snprintf(err, errlen, "%s", msg);
    return -1;
}

static int init_team_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9')
        || ch == '-' || ch == '+' || ch == '_';
}

/* Team name: 1..15 characters from [-+_a-zA-Z0-9], strictly. The reference reads the
 * name with the scanf set "[+-_a-zA-Z0-9]", which glibc takes as the range '+'..'_' and
 * so also lets ",./:;<=>?@[\]^" through; we deliberately do not reproduce that quirk (such
 * names would break the (p "TEAM") forms and log files). As the reference, the leading
 * run of legal characters decides: longer than 15 -> too long, otherwise anything after
 * it that is not the end of the atom -> illegal. Returns NULL or the error reply. */
static const char *init_team(const sexp_t *a, char *team)
{
    if (!a || a->is_list || a->quoted || a->len == 0)
        return ERR_TEAM;
    size_t run = 0;
    while (run < a->len && init_team_char(a->text[run]))
        run++;
    if (run > INIT_TEAM_MAX)
        return ERR_TEAMLEN;
    if (run == 0 || run != a->len)
        return ERR_TEAM;
    memcpy(team, a->text, run);
    team[run] = '\0';
    return NULL;
}

/* (version V) or (goalie), in any order, each at most meaningful once */
static const char *init_option(const sexp_t *o, proto_init_t *out)
{
    if (!o->is_list || !o->child)
        return ERR_FORM;
    size_t n = sexp_count(o);
    if (sexp_is(o->child, "goalie") && n == 1) {
        out->goalie = 1;
        return NULL;
    }
    if (sexp_is(o->child, "version") && n == 2) {
        double v;
        if (sexp_number(o->child->next, &v) != 0)
            return ERR_FORM;
        if (v < INIT_VERSION_MIN || v >= INIT_VERSION_END)
            return ERR_VERSION;
        out->version = v;
        return NULL;
    }
    return ERR_FORM;
}

static const char *init_init(const sexp_t *root, proto_init_t *out)
{
    const sexp_t *name = root->child->next;
    const char *e = init_team(name, out->team);
    if (e)
        return e;
    out->version = 3.0;
    for (const sexp_t *o = name->next; o; o = o->next) {
        if ((e = init_option(o, out)) != NULL)
            return e;
    }
    return NULL;
}

/* (reconnect TEAM UNUM); the protocol version is the original init's (version = 0) */
static const char *init_reconnect(const sexp_t *root, proto_init_t *out)
{
    const sexp_t *name = root->child->next;
    const char *e = init_team(name, out->team);
    if (e)
        return e;
    long unum;
    if (sexp_count(root) != 3 || sexp_int(name->next, &unum) != 0)
        return ERR_FORM;
    if (unum < 1 || unum > SHM_TEAM_SIZE)
        return ERR_NOPLAYER;
    out->reconnect = 1;
    out->unum = (int)unum;
    return NULL;
}

/* only blanks, newlines and NULs may follow the expression */
static int init_rest_blank(const char *text, size_t len, size_t off)
{
    for (; off < len; off++) {
        char ch = text[off];
        if (ch != '\0' && ch != ' ' && ch != '\t' && ch != '\n' && ch != '\r')
            return 0;
    }
    return 1;
}

/* Parse an init-port datagram; see netgw_proto.h. Returns 0, or -1 with err set to the
 * reply for the client ("(error unknown_command)" if it is neither init nor reconnect). */
int proto_parse_init(const char *text, size_t len, proto_init_t *out, char *err, size_t errlen)
{
    sexp_t nodes[INIT_NODES];
    sexp_arena_t a = { nodes, INIT_NODES, 0 };
    char perr[64];
    size_t end = 0;
    if (!out)
        return init_fail(err, errlen, ERR_FORM);
    memset(out, 0, sizeof *out);
    if (err && errlen)
        err[0] = '\0';
    if (!text)
        return init_fail(err, errlen, ERR_UNKNOWN);
    const sexp_t *root = sexp_parse(&a, text, len, &end, perr, sizeof perr);
    int is_init = len >= 5 && memcmp(text, "(init", 5) == 0;
    int is_rec = len >= 10 && memcmp(text, "(reconnect", 10) == 0;
    if (!root || !root->is_list || !root->child)
        return init_fail(err, errlen, is_init || is_rec ? ERR_FORM : ERR_UNKNOWN);
    const char *e;
    if (sexp_is(root->child, "init"))
        e = init_init(root, out);
    else if (sexp_is(root->child, "reconnect"))
        e = init_reconnect(root, out);
    else
        return init_fail(err, errlen, ERR_UNKNOWN);
    if (!e && !init_rest_blank(text, len, end))
        e = ERR_FORM;
    if (e) {
        memset(out, 0, sizeof *out);
        return init_fail(err, errlen, e);
    }
    return 0;
}
