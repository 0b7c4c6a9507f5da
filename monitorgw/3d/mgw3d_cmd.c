/* mgw3d_cmd.c -- monitor and trainer commands (docs/protocol/3d.md §4) into control
 * records: (kickOff), (playMode NAME), (agent (team L|R) (unum N) (pos X Y Z)
 * (vel X Y Z) (battery B) (temperature T)) (the last two in a second record), (ball (pos X Y Z) [(vel X Y Z)]), (dropBall), (getAck COOKIE); a message
 * holds one command or a list of them: ((kickOff)(getAck kicked_off)). Coordinates may
 * be separated by blanks or commas ("(pos 10,20,1)", as the manual writes them). Pure. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "mgw3d.h"
#include "playmode3d.h"
#include "sexp.h"

#define MGW3D_NODES 1024
#define MGW3D_CMDS_MAX 64   /* commands in one message: more is a flood */

static void reply(const mgw3d_sink_t *k, const char *what, const char *reason)
{
    char text[160];
    snprintf(text, sizeof text, "(error %s%s%s)", what, reason[0] ? " " : "", reason);
    k->error(k->ctx, text);
}

/* Three numbers from the atoms after the head of list e, split at commas too. */
static int vec3_args(const sexp_t *e, double out[3])
{
    int n = 0;
    for (const sexp_t *a = e->child->next; a; a = a->next) {
        char buf[128], *save = NULL;
        if (a->is_list || a->quoted || a->len == 0 || a->len >= sizeof buf)
            return -1;
        memcpy(buf, a->text, a->len);
        buf[a->len] = '\0';
        for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            sexp_t atom = { 0, 0, t, strlen(t), NULL, NULL };
            if (n >= 3 || sexp_number(&atom, &out[n]) < 0)
                return -1;
            n++;
        }
    }
    return n == 3 ? 0 : -1;
}

/* (pos ..) and (vel ..) sub-expressions into d[0..2] / d[3..5] and the flags */
static int pos_vel(const sexp_t *a, shm3d_cmd_sh_t *c)
{
    if (!a->is_list || !a->child)
        return -1;
    if (sexp_is(a->child, "pos") && vec3_args(a, &c->d[0]) == 0) {
        c->flags |= SHM3D_CMDF_POS;
        return 0;
    }
    if (sexp_is(a->child, "vel") && vec3_args(a, &c->d[3]) == 0) {
        c->flags |= SHM3D_CMDF_VEL;
        return 0;
    }
    return -1;
}

/* (battery B) / (temperature T) into e (a second record: d[] of the first is pos/vel) */
static int energy(const sexp_t *a, shm3d_cmd_sh_t *e)
{
    double v;
    if (sexp_count(a) != 2 || sexp_number(a->child->next, &v) < 0 || v != v)
        return -1;
    if (sexp_is(a->child, "battery")) {
        e->flags |= SHM3D_CMDF_BATTERY;
        e->d[0] = v;
    } else {
        e->flags |= SHM3D_CMDF_TEMP;
        e->d[1] = v;
    }
    return 0;
}

static int parse_agent(const sexp_t *e, shm3d_cmd_sh_t *c, shm3d_cmd_sh_t *en)
{
    int team = -1;
    long unum = -1;
    for (const sexp_t *a = e->child->next; a; a = a->next) {
        if (!a->is_list || !a->child)
            return -1;
        if (sexp_is(a->child, "battery") || sexp_is(a->child, "temperature")) {
            if (energy(a, en) < 0)
                return -1;
            continue;
        }
        if (sexp_is(a->child, "team") && sexp_count(a) == 2) {
            char t[16];
            sexp_copy(a->child->next, t, sizeof t);
            team = !strcasecmp(t, "L") || !strcasecmp(t, "left") ? 0
                 : !strcasecmp(t, "R") || !strcasecmp(t, "right") ? 1 : -1;
            if (team < 0)
                return -1;
        } else if (sexp_is(a->child, "unum") && sexp_count(a) == 2) {
            if (sexp_int(a->child->next, &unum) < 0 || unum < 1 || unum > SHM3D_TEAM_SIZE)
                return -1;
        } else if (pos_vel(a, c) < 0) {
            return -1;
        }
    }
    if (team < 0 || unum < 0 || (!c->flags && !en->flags))
        return -1;
    c->i = en->i = (int16_t)team;
    c->j = en->j = (int16_t)unum;
    return 0;
}

static int parse_ball(const sexp_t *e, shm3d_cmd_sh_t *c)
{
    for (const sexp_t *a = e->child->next; a; a = a->next) {
        if (pos_vel(a, c) < 0)
            return -1;
    }
    return c->flags ? 0 : -1;
}

/* a cookie: printable, no blanks, quotes or parentheses (it is echoed) */
static int parse_ack(const sexp_t *e, shm3d_cmd_sh_t *c)
{
    if (sexp_count(e) != 2)
        return -1;
    const sexp_t *v = e->child->next;
    if (v->is_list || v->len == 0 || v->len >= SHM3D_CMD_TEXT_LEN)
        return -1;
    for (size_t i = 0; i < v->len; i++) {
        unsigned char ch = (unsigned char)v->text[i];
        if (!isgraph(ch) || ch == '(' || ch == ')' || ch == '"')
            return -1;
    }
    memcpy(c->text, v->text, v->len);
    c->len = (uint16_t)v->len;
    return 0;
}

/* One command; 1 understood, 0 not (error sent). */
static int parse_one(const sexp_t *e, uint32_t id, const mgw3d_sink_t *k)
{
    shm3d_cmd_sh_t c, en;
    memset(&c, 0, sizeof c);
    c.generation = id;
    en = c;
    const sexp_t *h = e->child;
    int bad = 0;
    if (sexp_is(h, "kickOff") && sexp_count(e) == 1) {
        c.kind = SHM3D_CMD_KICKOFF;
    } else if (sexp_is(h, "dropBall") && sexp_count(e) == 1) {
        c.kind = SHM3D_CMD_DROPBALL;
    } else if (sexp_is(h, "playMode")) {
        const sexp_t *v = sexp_nth(e, 1);
        int pm = sexp_count(e) == 2 && !v->is_list ? playmode3d_lookup(v->text, v->len) : -1;
        c.kind = SHM3D_CMD_PLAYMODE;
        c.i = (int16_t)pm;
        bad = pm < 0;
    } else if (sexp_is(h, "agent")) {
        c.kind = en.kind = SHM3D_CMD_AGENT;
        bad = parse_agent(e, &c, &en) < 0;
    } else if (sexp_is(h, "ball")) {
        c.kind = SHM3D_CMD_BALL;
        bad = parse_ball(e, &c) < 0;
    } else if (sexp_is(h, "getAck")) {
        c.kind = SHM3D_CMD_ACK;
        bad = parse_ack(e, &c) < 0;
    } else {
        reply(k, "unknown_command", "");
        return 0;
    }
    if (bad) {
        static const char *const names[] = { "", "", "", "", "", "", "", "kickOff", "playMode",
                                             "agent", "ball", "dropBall", "getAck" };
        reply(k, names[c.kind], "bad_arguments");
        return 0;
    }
    if (c.kind != SHM3D_CMD_AGENT || c.flags)
        k->record(k->ctx, &c);
    if (en.flags) /* the 2004 trainer's (battery B) and (temperature T) */
        k->record(k->ctx, &en);
    return 1;
}

int mgw3d_cmd_parse(const char *msg, size_t len, uint32_t monitor_id, const mgw3d_sink_t *sink)
{
    static sexp_t nodes[MGW3D_NODES];
    size_t pos = 0;
    int ok = 0;
    while (pos < len) {
        while (pos < len && (isspace((unsigned char)msg[pos]) || msg[pos] == '\0'))
            pos++;
        if (pos >= len)
            break;
        sexp_arena_t a = { nodes, MGW3D_NODES, 0 };
        char err[96];
        size_t end = 0;
        sexp_t *e = sexp_parse(&a, msg + pos, len - pos, &end, err, sizeof err);
        if (!e || !e->is_list || !e->child) {
            reply(sink, "parse", "illegal_sexp");
            return ok;
        }
        if (e->child->is_list) { /* a list of commands */
            int n = 0;
            for (const sexp_t *x = e->child; x; x = x->next) {
                if (!x->is_list || !x->child || x->child->is_list || ++n > MGW3D_CMDS_MAX) {
                    reply(sink, "parse", "illegal_sexp");
                    return ok;
                }
                ok += parse_one(x, monitor_id, sink);
            }
        } else {
            ok += parse_one(e, monitor_id, sink);
        }
        pos += end > 0 ? end : 1;
    }
    return ok;
}
