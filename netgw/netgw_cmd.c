/* netgw_cmd.c -- player datagrams parsed into command records (spec player-sim.md 2).
 * Pure: each command of a datagram, in textual order, becomes an shm_cmd_sh_t for the
 * sim or a field of proto_parsed_t for the gateway (view, ear, compression, replies).
 * An unknown or ill-formed command appends "(error illegal_command_form)" and stops the
 * parse; what was parsed before stays. Called by netgw_client for every datagram. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "netgw_proto.h"
#include "sexp.h"

#define CMD_NODES 128              /* sexp nodes per command (a dash needs 9) */

typedef struct cmd_ctx {
    proto_parsed_t *out;
    int             side;          /* SHM_SIDE_* of the sender */
    const char     *own_team;
    const char     *opp_team;
} cmd_ctx_t;

typedef int (*cmd_fn)(cmd_ctx_t *x, const sexp_t *arg, size_t nargs);

static void cmd_reply(proto_parsed_t *out, const char *fmt, ...)
{
    if (out->nreply >= PROTO_MAX_REPLIES)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->reply[out->nreply], PROTO_REPLY_LEN, fmt, ap);
    va_end(ap);
    out->nreply++;
}

/* a fresh record; the caller checked ncmd < PROTO_MAX_CMDS before the command */
static shm_cmd_sh_t *cmd_new(cmd_ctx_t *x, int kind)
{
    shm_cmd_sh_t *c = &x->out->cmd[x->out->ncmd++];
    memset(c, 0, sizeof *c);
    c->kind = (uint16_t)kind;
    return c;
}

/* n numbers from consecutive atoms into d[]; -1 if one is not a number */
static int cmd_numbers(const sexp_t *a, size_t n, double *d)
{
    for (size_t i = 0; i < n; i++, a = a->next) {
        if (!a || sexp_number(a, &d[i]) != 0)
            return -1;
    }
    return 0;
}

/* (kind N1 .. Nn): exactly n numeric arguments into d[0..n-1] */
static int cmd_plain(cmd_ctx_t *x, const sexp_t *arg, size_t nargs, int kind, size_t n)
{
    double d[2];
    if (nargs != n || cmd_numbers(arg, n, d) != 0)
        return -1;
    shm_cmd_sh_t *c = cmd_new(x, kind);
    for (size_t i = 0; i < n; i++)
        c->d[i] = d[i];
    return 0;
}

/* one leg of a bipedal dash: (l P DIR) or (r P DIR) */
static int cmd_dash_leg(const sexp_t *leg, int *which, double *pd)
{
    if (!leg->is_list || sexp_count(leg) != 3)
        return -1;
    const sexp_t *w = leg->child;
    if (sexp_is(w, "l"))
        *which = 0;
    else if (sexp_is(w, "r"))
        *which = 1;
    else
        return -1;
    return cmd_numbers(w->next, 2, pd);
}

/* (dash P) (dash P DIR) (dash (l P DIR) (r P DIR)) with one or both legs, any order */
static int cmd_dash(cmd_ctx_t *x, const sexp_t *arg, size_t nargs)
{
    if (nargs >= 1 && arg->is_list) {
        double d[4] = { 0.0, 0.0, 0.0, 0.0 };
        uint32_t legs = 0;
        if (nargs > 2)
            return -1;
        for (const sexp_t *a = arg; a; a = a->next) {
            int w;
            double pd[2];
            if (cmd_dash_leg(a, &w, pd) != 0 || (legs & (1u << w)))
                return -1;
            legs |= 1u << w;
            d[2 * w] = pd[0];
            d[2 * w + 1] = pd[1];
        }
        shm_cmd_sh_t *c = cmd_new(x, SHM_CMD_DASH);
        c->i = 2;
        c->flags = legs;
        memcpy(c->d, d, sizeof d);
        return 0;
    }
    double d[2] = { 0.0, 0.0 };
    if ((nargs != 1 && nargs != 2) || cmd_numbers(arg, nargs, d) != 0)
        return -1;
    shm_cmd_sh_t *c = cmd_new(x, SHM_CMD_DASH);
    c->i = 1;
    c->d[0] = d[0];
    c->d[1] = d[1];
    return 0;
}

static int cmd_turn(cmd_ctx_t *x, const sexp_t *a, size_t n) { return cmd_plain(x, a, n, SHM_CMD_TURN, 1); }
static int cmd_turn_neck(cmd_ctx_t *x, const sexp_t *a, size_t n) { return cmd_plain(x, a, n, SHM_CMD_TURN_NECK, 1); }
static int cmd_kick(cmd_ctx_t *x, const sexp_t *a, size_t n) { return cmd_plain(x, a, n, SHM_CMD_KICK, 2); }
static int cmd_catch(cmd_ctx_t *x, const sexp_t *a, size_t n) { return cmd_plain(x, a, n, SHM_CMD_CATCH, 1); }
static int cmd_change_focus(cmd_ctx_t *x, const sexp_t *a, size_t n) { return cmd_plain(x, a, n, SHM_CMD_CHANGE_FOCUS, 2); }

/* (move X Y) or (move (X Y)) */
static int cmd_move(cmd_ctx_t *x, const sexp_t *arg, size_t nargs)
{
    if (nargs == 1 && arg->is_list)
        return cmd_plain(x, arg->child, sexp_count(arg), SHM_CMD_MOVE, 2);
    return cmd_plain(x, arg, nargs, SHM_CMD_MOVE, 2);
}

/* (tackle X) or (tackle X on|off|true|false): i = foul flag */
static int cmd_tackle(cmd_ctx_t *x, const sexp_t *arg, size_t nargs)
{
    double d;
    int foul = 0;
    if (nargs < 1 || nargs > 2 || sexp_number(arg, &d) != 0)
        return -1;
    if (nargs == 2) {
        const sexp_t *f = arg->next;
        if (sexp_is(f, "on") || sexp_is(f, "true"))
            foul = 1;
        else if (!sexp_is(f, "off") && !sexp_is(f, "false"))
            return -1;
    }
    shm_cmd_sh_t *c = cmd_new(x, SHM_CMD_TACKLE);
    c->d[0] = d;
    c->i = foul;
    return 0;
}

/* characters a say message may hold (spec 2, say row) */
static int cmd_say_char(char ch)
{
    if ((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'))
        return 1;
    return ch != '\0' && strchr("().+-*/?<>_ ", ch) != NULL;
}

/* (say "MSG") or (say MSG); the sim drops messages longer than say_msg_size */
static int cmd_say(cmd_ctx_t *x, const sexp_t *arg, size_t nargs)
{
    if (nargs != 1 || arg->is_list || arg->len == 0)
        return -1;
    for (size_t i = 0; i < arg->len; i++) {
        if (!cmd_say_char(arg->text[i]))
            return -1;
    }
    shm_cmd_sh_t *c = cmd_new(x, SHM_CMD_SAY);
    c->len = (uint16_t)sexp_copy(arg, c->text, sizeof c->text);
    return 0;
}

/* (pointto DIST DIR) or (pointto off): i = 1 for off */
static int cmd_pointto(cmd_ctx_t *x, const sexp_t *arg, size_t nargs)
{
    if (nargs == 1 && sexp_is(arg, "off")) {
        cmd_new(x, SHM_CMD_POINTTO)->i = 1;
        return 0;
    }
    return cmd_plain(x, arg, nargs, SHM_CMD_POINTTO, 2);
}

/* our/opp/l/left/r/right/TEAMNAME -> 1 own team, 0 opponents, -1 keyword unknown,
 * -2 name of no team */
static int cmd_team_word(const cmd_ctx_t *x, const sexp_t *a)
{
    if (!a || a->is_list)
        return -1;
    if (sexp_is(a, "our"))
        return 1;
    if (sexp_is(a, "opp"))
        return 0;
    if (sexp_is(a, "l") || sexp_is(a, "left"))
        return x->side == SHM_SIDE_LEFT;
    if (sexp_is(a, "r") || sexp_is(a, "right"))
        return x->side == SHM_SIDE_RIGHT;
    if (x->own_team && x->own_team[0] && sexp_is(a, x->own_team))
        return 1;
    if (x->opp_team && x->opp_team[0] && sexp_is(a, x->opp_team))
        return 0;
    return -2;
}

/* (attentionto off) -> i = 0; (attentionto TEAM UNUM) -> i = side, flags = unum.
 * An unknown team or a unum outside 1..11 is ignored silently, as the reference. */
static int cmd_attentionto(cmd_ctx_t *x, const sexp_t *arg, size_t nargs)
{
    if (nargs == 1 && sexp_is(arg, "off")) {
        cmd_new(x, SHM_CMD_ATTENTIONTO);
        return 0;
    }
    long unum;
    if (nargs != 2 || arg->is_list || arg->quoted || sexp_int(arg->next, &unum) != 0)
        return -1;
    int own = cmd_team_word(x, arg);
    if (own < 0 || unum < 1 || unum > SHM_TEAM_SIZE)
        return 0;
    shm_cmd_sh_t *c = cmd_new(x, SHM_CMD_ATTENTIONTO);
    c->i = own ? x->side : -x->side;
    c->flags = (uint32_t)unum;
    return 0;
}

/* (change_view W [Q]): record for the count, view state for the gateway */
static int cmd_change_view(cmd_ctx_t *x, const sexp_t *arg, size_t nargs)
{
    int w, q = 1;
    if (nargs < 1 || nargs > 2)
        return -1;
    if (sexp_is(arg, "narrow"))
        w = SHM_VIEW_NARROW;
    else if (sexp_is(arg, "normal"))
        w = SHM_VIEW_NORMAL;
    else if (sexp_is(arg, "wide"))
        w = SHM_VIEW_WIDE;
    else
        return -1;
    if (nargs == 2) {
        if (sexp_is(arg->next, "low"))
            q = 0;
        else if (!sexp_is(arg->next, "high"))
            return -1;
    }
    cmd_new(x, SHM_CMD_CHANGE_VIEW)->flags = q ? 0u : 1u; /* bit 0: low asked (the sim
                                                              does not count it in synch see) */
    x->out->view_width = w;
    x->out->view_high = q;
    return 0;
}

/* (compression N): 0..9 set and acknowledged, larger values ignored */
static int cmd_compression(cmd_ctx_t *x, const sexp_t *arg, size_t nargs)
{
    long n;
    if (nargs != 1 || sexp_int(arg, &n) != 0)
        return -1;
    if (n < 0 || n > 9)
        return 0;
    x->out->compression = (int)n;
    cmd_reply(x->out, "(ok compression %ld)", n);
    return 0;
}

/* (clang (ver MIN MAX)) */
static int cmd_clang(cmd_ctx_t *x, const sexp_t *arg, size_t nargs)
{
    long lo, hi;
    if (nargs != 1 || !arg->is_list || sexp_count(arg) != 3 || !sexp_is(arg->child, "ver"))
        return -1;
    if (sexp_int(sexp_nth(arg, 1), &lo) != 0 || sexp_int(sexp_nth(arg, 2), &hi) != 0)
        return -1;
    if (lo < 0 || hi < 0 || lo > 1000000 || hi > 1000000)
        return -1;
    x->out->clang_min = (int)lo;
    x->out->clang_max = (int)hi;
    cmd_reply(x->out, "(ok clang (ver %ld %ld))", lo, hi);
    return 0;
}

/* (ear (on|off [our|opp|l|left|r|right|TEAMNAME] [complete|c|partial|p])) */
static int cmd_ear(cmd_ctx_t *x, const sexp_t *arg, size_t nargs)
{
    if (nargs != 1 || !arg->is_list)
        return -1;
    size_t n = sexp_count(arg);
    const sexp_t *a = arg->child;
    int on;
    if (n < 1 || n > 3)
        return -1;
    if (sexp_is(a, "on"))
        on = 1;
    else if (sexp_is(a, "off"))
        on = 0;
    else
        return -1;
    int teams = 3, modes = 3;      /* bit0 our/complete, bit1 opp/partial */
    a = a->next;
    if (a && !sexp_is(a, "complete") && !sexp_is(a, "c") && !sexp_is(a, "partial")
        && !sexp_is(a, "p")) {
        int own = cmd_team_word(x, a);
        if (own == -1)
            return -1;
        if (own == -2) {
            char name[64];
            sexp_copy(a, name, sizeof name);
            cmd_reply(x->out, "(error no team with name %s)", name);
            return 0;
        }
        teams = own ? 1 : 2;
        a = a->next;
    }
    if (a) {
        if (a->next)
            return -1;
        if (sexp_is(a, "complete") || sexp_is(a, "c"))
            modes = 1;
        else if (sexp_is(a, "partial") || sexp_is(a, "p"))
            modes = 2;
        else
            return -1;
    }
    for (int m = 0; m < 2; m++)
        for (int t = 0; t < 2; t++)
            if ((modes & (1 << m)) && (teams & (1 << t))) {
                x->out->ear[2 * m + t] = on;
                x->out->ear_set |= 1 << (2 * m + t);
            }
    return 0;
}

/* commands without arguments handled by the gateway */
static int cmd_flag(cmd_ctx_t *x, size_t nargs, int *field, const char *reply)
{
    if (nargs != 0)
        return -1;
    *field = 1;
    if (reply)
        cmd_reply(x->out, "%s", reply);
    return 0;
}

static int cmd_sense_body(cmd_ctx_t *x, const sexp_t *a, size_t n) { (void)a; return cmd_flag(x, n, &x->out->sense_body, NULL); }
static int cmd_score(cmd_ctx_t *x, const sexp_t *a, size_t n) { (void)a; return cmd_flag(x, n, &x->out->score, NULL); }
static int cmd_done(cmd_ctx_t *x, const sexp_t *a, size_t n) { (void)a; return cmd_flag(x, n, &x->out->done, NULL); }
static int cmd_bye(cmd_ctx_t *x, const sexp_t *a, size_t n) { (void)a; return cmd_flag(x, n, &x->out->bye, NULL); }
static int cmd_synch_see(cmd_ctx_t *x, const sexp_t *a, size_t n) { (void)a; return cmd_flag(x, n, &x->out->synch_see, "(ok synch_see)"); }
static int cmd_gaussian_see(cmd_ctx_t *x, const sexp_t *a, size_t n) { (void)a; return cmd_flag(x, n, &x->out->gaussian_see, "(ok gaussian_see)"); }

/* (long_kick P DIR): accepted, disabled in the reference */
static int cmd_long_kick(cmd_ctx_t *x, const sexp_t *arg, size_t nargs)
{
    double d[2];
    (void)x;
    return nargs == 2 && cmd_numbers(arg, 2, d) == 0 ? 0 : -1;
}

static const struct {
    const char *name;
    cmd_fn      fn;
} cmd_table[] = {
    { "dash", cmd_dash },               { "turn", cmd_turn },
    { "turn_neck", cmd_turn_neck },     { "kick", cmd_kick },
    { "catch", cmd_catch },             { "move", cmd_move },
    { "tackle", cmd_tackle },           { "say", cmd_say },
    { "pointto", cmd_pointto },         { "attentionto", cmd_attentionto },
    { "change_focus", cmd_change_focus }, { "change_view", cmd_change_view },
    { "sense_body", cmd_sense_body },   { "score", cmd_score },
    { "done", cmd_done },               { "bye", cmd_bye },
    { "synch_see", cmd_synch_see },     { "gaussian_see", cmd_gaussian_see },
    { "compression", cmd_compression }, { "clang", cmd_clang },
    { "ear", cmd_ear },                 { "long_kick", cmd_long_kick },
};

/* one parsed command: look its name up and run it; -1 if unknown or ill-formed */
static int cmd_dispatch(cmd_ctx_t *x, const sexp_t *root)
{
    if (!root->is_list || !root->child || root->child->is_list || root->child->quoted)
        return -1;
    const sexp_t *head = root->child;
    for (size_t i = 0; i < sizeof cmd_table / sizeof cmd_table[0]; i++) {
        if (sexp_is(head, cmd_table[i].name))
            return cmd_table[i].fn(x, head->next, sexp_count(root) - 1);
    }
    return -1;
}

static size_t cmd_skip_blank(const char *text, size_t len, size_t off)
{
    while (off < len && (text[off] == ' ' || text[off] == '\t' || text[off] == '\n'
                         || text[off] == '\r' || text[off] == '\f' || text[off] == '\v'))
        off++;
    return off;
}

static void cmd_init_out(proto_parsed_t *out)
{
    memset(out, 0, sizeof *out);
    out->view_width = -1;
    out->view_high = -1;
    out->compression = -1;
}

/* Parse every command of a datagram; see netgw_proto.h. Never fails: problems become
 * replies. More than PROTO_MAX_CMDS records (or replies) in one datagram: the rest is
 * dropped with one "(error too_many_commands)". */
void proto_parse_player(const char *text, size_t len, double version, int side,
                        const char *own_team, const char *opp_team, proto_parsed_t *out)
{
    sexp_t nodes[CMD_NODES];
    cmd_ctx_t x = { out, side, own_team, opp_team };
    size_t off = 0;
    (void)version; /* one grammar for every version; tackle semantics are the sim's */
    cmd_init_out(out);
    if (!text)
        return;
    for (;;) {
        off = cmd_skip_blank(text, len, off);
        if (off >= len || text[off] == '\0' || out->bye)
            return;
        if (out->ncmd >= PROTO_MAX_CMDS || out->nreply >= PROTO_MAX_REPLIES - 1) {
            cmd_reply(out, "(error too_many_commands)");
            return;
        }
        sexp_arena_t a = { nodes, CMD_NODES, 0 };
        size_t end = 0;
        char err[64];
        const sexp_t *root = sexp_parse(&a, text + off, len - off, &end, err, sizeof err);
        if (!root || end == 0 || cmd_dispatch(&x, root) != 0) {
            cmd_reply(out, "(error illegal_command_form)");
            return;
        }
        off += end;
    }
}
