/* mgw_cmd.c -- commands a monitor sends to its own port (docs/protocol/monitor.md §6),
 * parsed into control records for the sim: dispstart, dispfoul, dispplayer, dispdiscard,
 * dispcard; dispbye; compression; with server::coach or coach_w_referee also the
 * trainer's start, change_mode, move, recover and check_ball. Pure; anything else is
 * illegal_command_form. Also the operator list (server::monitor_operators) that decides
 * who may send the referee ones. */
#include <arpa/inet.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mgw.h"
#include "playmode.h"
#include "sexp.h"
#include "pitch.h"

/* positions placed by a monitor stay on the pitch plus this margin (m) */
#define CMD_X_MAX (PITCH_HALF_L + PITCH_MARGIN)
#define CMD_Y_MAX (PITCH_HALF_W + PITCH_MARGIN)

static double cmd_clamp(double v, double max)
{
    return v < -max ? -max : v > max ? max : v;
}

#define CMD_ERR "(error illegal_command_form)"

static void cmd_error(mgw_cmd_t *out)
{
    out->kind = MGW_CMD_ERROR;
    snprintf(out->reply, sizeof out->reply, "%s", CMD_ERR);
}

static shm_cmd_sh_t *cmd_ctrl(mgw_cmd_t *out, int kind)
{
    out->kind = MGW_CMD_CTRL;
    out->ctrl.kind = (uint16_t)kind;
    return &out->ctrl;
}

/* n integer arguments after the command word; 0 ok */
static int cmd_ints(const sexp_t *root, size_t n, long *v)
{
    if (sexp_count(root) != n + 1)
        return -1;
    for (size_t i = 0; i < n; i++) {
        const sexp_t *a = sexp_nth(root, i + 1);
        if (!a || a->is_list || sexp_int(a, &v[i]) < 0)
            return -1;
    }
    return 0;
}

static int cmd_side(long s)
{
    return s == 1 ? SHM_SIDE_LEFT : s == -1 ? SHM_SIDE_RIGHT : 0;
}

/* a player number as the record carries it; a side or number that names no player is
 * still a well-formed command, which the reference takes and does nothing with (the
 * sim ignores side 0 and number 0) */
static uint32_t cmd_unum(long u)
{
    return u >= 1 && u <= SHM_TEAM_SIZE ? (uint32_t)u : 0u;
}

/* (dispfoul X Y SIDE): X, Y in metres x 16; SIDE 0 a drop ball, else the free kick's
 * side as the reference takes it: 1 the left, any other number the right (the sim
 * says the foul as the reference does for that number) */
static void cmd_foul(const sexp_t *root, mgw_cmd_t *out)
{
    long v[3];
    if (cmd_ints(root, 3, v) < 0)
        return cmd_error(out);
    shm_cmd_sh_t *c = cmd_ctrl(out, SHM_CMD_FOUL);
    c->d[0] = cmd_clamp((double)v[0] / 16.0, CMD_X_MAX);
    c->d[1] = cmd_clamp((double)v[1] / 16.0, CMD_Y_MAX);
    c->i = v[2] < -1000 ? -1000 : v[2] > 1000 ? 1000 : (int32_t)v[2];
}

/* (dispplayer SIDE UNUM X Y ANG): X, Y metres x 16, ANG degrees; velocity zeroed */
static void cmd_player(const sexp_t *root, mgw_cmd_t *out)
{
    long v[5];
    if (cmd_ints(root, 5, v) < 0)
        return cmd_error(out);
    shm_cmd_sh_t *c = cmd_ctrl(out, SHM_CMD_MOVE_PLAYER);
    c->i = cmd_side(v[0]);
    c->flags = cmd_unum(v[1]) | (0x7u << 8); /* x, y and angle given */
    c->d[0] = cmd_clamp((double)v[2] / 16.0, CMD_X_MAX);
    c->d[1] = cmd_clamp((double)v[3] / 16.0, CMD_Y_MAX);
    c->d[2] = remainder((double)(v[4] % 360), 360.0); /* degrees in [-180, 180] */
}

/* (dispdiscard SIDE UNUM) */
static void cmd_discard(const sexp_t *root, mgw_cmd_t *out)
{
    long v[2];
    if (cmd_ints(root, 2, v) < 0)
        return cmd_error(out);
    shm_cmd_sh_t *c = cmd_ctrl(out, SHM_CMD_DISCARD);
    c->i = cmd_side(v[0]);
    c->flags = cmd_unum(v[1]);
}

/* (dispcard SIDE UNUM yellow|red) */
static void cmd_card(const sexp_t *root, mgw_cmd_t *out)
{
    long v[2];
    const sexp_t *colour = sexp_nth(root, 3);
    int card = sexp_is(colour, "yellow") ? 1 : sexp_is(colour, "red") ? 2 : 0;
    if (sexp_count(root) != 4 || !card)
        return cmd_error(out);
    for (int i = 0; i < 2; i++) {
        const sexp_t *a = sexp_nth(root, (size_t)i + 1);
        if (!a || a->is_list || sexp_int(a, &v[i]) < 0)
            return cmd_error(out);
    }
    shm_cmd_sh_t *c = cmd_ctrl(out, SHM_CMD_CARD);
    c->i = cmd_side(v[0]);
    c->flags = cmd_unum(v[1]) | ((uint32_t)card << 8);
}

/* (compression N): any N <= 9 is accepted (docs/protocol/coach.md §9); 0..9 zlib from the next
 * datagram on (0: stored blocks), a negative N back to plain */
static void cmd_compression(const sexp_t *root, mgw_cmd_t *out)
{
    long v[1];
    if (cmd_ints(root, 1, v) < 0 || v[0] > 9 || v[0] < -1000000)
        return cmd_error(out);
    out->kind = MGW_CMD_COMPRESSION;
    out->level = v[0] < 0 ? -1 : (int)v[0];
    snprintf(out->reply, sizeof out->reply, "(ok compression %ld)", v[0]);
}

void mgw_parse_cmd(const char *text, size_t len, mgw_cmd_t *out)
{
    sexp_t nodes[32];
    sexp_arena_t a = { nodes, 32, 0 };
    char err[64];
    size_t end = 0;
    memset(out, 0, sizeof *out);
    const sexp_t *root = sexp_parse(&a, text, len, &end, err, sizeof err);
    if (!root || !root->is_list || !root->child || root->child->is_list)
        return cmd_error(out);
    const sexp_t *w = root->child;
    if (sexp_is(w, "dispstart") && sexp_count(root) == 1)
        cmd_ctrl(out, SHM_CMD_START);
    else if ((sexp_is(w, "dispreset") || sexp_is(w, "reset")) && sexp_count(root) == 1)
        cmd_ctrl(out, SHM_CMD_RESET); /* this server's: the match back to its start */
    else if (sexp_is(w, "dispbye") && sexp_count(root) == 1)
        out->kind = MGW_CMD_BYE;
    else if (sexp_is(w, "dispinit"))
        out->kind = MGW_CMD_DISPINIT;
    else if (sexp_is(w, "dispfoul"))
        cmd_foul(root, out);
    else if (sexp_is(w, "dispplayer"))
        cmd_player(root, out);
    else if (sexp_is(w, "dispdiscard"))
        cmd_discard(root, out);
    else if (sexp_is(w, "dispcard"))
        cmd_card(root, out);
    else if (sexp_is(w, "compression"))
        cmd_compression(root, out);
    else
        cmd_error(out);
}

/* ---- coach mode ------------------------------------------------------------------------
 * The reference recognises these by prefix ("(start)", "(change_mode", "(move",
 * "(recover", "(check_ball") and reads them with the trainer's scanf patterns, so they
 * are read the same way here: anything after the last field is ignored, a ball move
 * takes 2, 3 or 5 numbers (x y [dir [vx vy]]; 4 is illegal_command_form), a player move
 * 2, 3 or 5 (x y [dir [vx vy]]). Infinities are refused with NaN (a trainer's move too). */
#define CMD_E_OBJECT "(error illegal_object_form)"

static void cmd_reply(mgw_cmd_t *out, int kind, const char *reply)
{
    out->kind = kind;
    snprintf(out->reply, sizeof out->reply, "%s", reply);
}

static void coach_change_mode(const char *text, mgw_cmd_t *out)
{
    char mode[128];
    if (sscanf(text, " ( change_mode %127[-0-9a-zA-Z.+*/?<>_] ) ", mode) != 1)
        return cmd_error(out);
    int pm = playmode_lookup(mode);
    if (pm <= PM_NULL)
        return cmd_reply(out, MGW_CMD_ERROR, "(error illegal_mode)");
    cmd_ctrl(out, SHM_CMD_CHANGE_MODE)->i = pm;
    snprintf(out->reply, sizeof out->reply, "(ok change_mode)");
}

static void coach_move(const char *text, mgw_cmd_t *out)
{
    char obj[128], name[130], team[128];
    double d[5] = { 0.0, 0.0, 0.0, 0.0, 0.0 };
    int unum = 0;
    int n = sscanf(text, " ( move ( %127[^)] ) %lf %lf %lf %lf %lf ) ", obj, &d[0], &d[1],
                   &d[2], &d[3], &d[4]);
    for (int k = 0; k < 5; k++) {
        if (!isfinite(d[k]))
            n = 0;
    }
    if (n < 3)
        return cmd_reply(out, MGW_CMD_ERROR, CMD_E_OBJECT);
    if (strcmp(obj, "ball") == 0) {
        if (n == 5)
            return cmd_error(out);
        shm_cmd_sh_t *c = cmd_ctrl(out, SHM_CMD_MOVE_BALL);
        c->d[0] = d[0];
        c->d[1] = d[1];
        c->flags = n == 6 ? 1u : 0u; /* the direction is read and ignored */
        c->d[2] = n == 6 ? d[3] : 0.0;
        c->d[3] = n == 6 ? d[4] : 0.0;
    } else {
        snprintf(name, sizeof name, "(%s)", obj);
        if (sscanf(name, "(player %127s %d)", team, &unum) != 2 || unum < 1
            || unum > SHM_TEAM_SIZE)
            return cmd_reply(out, MGW_CMD_ERROR, CMD_E_OBJECT);
        if (n == 5)
            return cmd_error(out);
        shm_cmd_sh_t *c = cmd_ctrl(out, SHM_CMD_MOVE_PLAYER);
        unsigned what = n == 3 ? 0x3u : n == 4 ? 0x7u : 0x1fu;
        c->flags = (uint32_t)unum | what << 8 | 1u << 13; /* a velocity not given is kept */
        memcpy(c->d, d, sizeof d);
        if (strlen(team) < sizeof out->team) /* longer: no team's, "(ok move)" for nothing */
            snprintf(out->team, sizeof out->team, "%s", team); /* the side: mgw_peer.c */
    }
    snprintf(out->reply, sizeof out->reply, "(ok move)");
}

int mgw_parse_coach_cmd(const char *text, mgw_cmd_t *out)
{
    memset(out, 0, sizeof *out);
    if (strncmp(text, "(start)", 7) == 0) {
        cmd_ctrl(out, SHM_CMD_START);
        snprintf(out->reply, sizeof out->reply, "(ok start)");
    } else if (strncmp(text, "(change_mode", 12) == 0) {
        coach_change_mode(text, out);
    } else if (strncmp(text, "(move", 5) == 0) {
        coach_move(text, out);
    } else if (strncmp(text, "(recover", 8) == 0) {
        cmd_ctrl(out, SHM_CMD_RECOVER);
        snprintf(out->reply, sizeof out->reply, "(ok recover)");
    } else if (strncmp(text, "(check_ball", 11) == 0) {
        out->kind = MGW_CMD_CHECK_BALL;
    } else {
        return 0;
    }
    return 1;
}

/* Stadium::ballPosInfo: in a goal (the goal's box, ball_size beyond the goal line, its
 * width plus a post radius), off the pitch (plus ball_size), or on it */

static int in_rect(double x, double y, double cx, double w, double h)
{
    return x >= cx - w * 0.5 && x <= cx + w * 0.5 && y >= -h * 0.5 && y <= h * 0.5;
}

int mgw_check_ball(const shm_snapshot_sh_t *s, const conf_t *c, char *buf, size_t len)
{
    double bs = conf_real(c, SP_ball_size), gw = conf_real(c, SP_goal_width);
    double x = s->ball.x, y = s->ball.y, gx = (PITCH_LENGTH + PITCH_GOAL_DEPTH) * 0.5 + bs;
    const char *where = "in_field";
    if (in_rect(x, y, -gx, PITCH_GOAL_DEPTH, gw + PITCH_POST_R))
        where = "goal_l";
    else if (in_rect(x, y, gx, PITCH_GOAL_DEPTH, gw + PITCH_POST_R))
        where = "goal_r";
    else if (!in_rect(x, y, 0.0, PITCH_LENGTH + 2.0 * bs, PITCH_WIDTH + 2.0 * bs))
        where = "out_of_field";
    int n = snprintf(buf, len, "(ok check_ball %d %s)", s->time, where);
    return n < 0 || (size_t)n >= len ? -1 : n;
}

/* ---- operators ---------------------------------------------------------------------- */
static int ops_item(const char *item, mgw_ops_t *ops)
{
    char a[64];
    int bits = -1;
    snprintf(a, sizeof a, "%s", item);
    char *slash = strchr(a, '/');
    if (slash) {
        char *end;
        *slash = '\0';
        long b = strtol(slash + 1, &end, 10);
        if (*end || end == slash + 1 || b < 0 || b > 128)
            return -1;
        bits = (int)b;
    }
    int k = ops->n;
    memset(ops->addr[k], 0, 16);
    if (inet_pton(AF_INET, a, ops->addr[k]) == 1)
        ops->family[k] = AF_INET;
    else if (inet_pton(AF_INET6, a, ops->addr[k]) == 1)
        ops->family[k] = AF_INET6;
    else
        return -1;
    int max = ops->family[k] == AF_INET ? 32 : 128;
    if (bits > max)
        return -1;
    ops->bits[k] = bits < 0 ? max : bits;
    ops->n++;
    return 0;
}

int mgw_ops_parse(const char *list, mgw_ops_t *ops, char *err, size_t errlen)
{
    memset(ops, 0, sizeof *ops);
    char item[64];
    const char *p = list;
    while (*p) {
        size_t n = strcspn(p, ", \t");
        if (n > 0) {
            snprintf(item, sizeof item, "%.*s", (int)(n < 63 ? n : 63), p);
            if (strcmp(item, "*") == 0)
                ops->any = 1;
            else if (n >= sizeof item || ops->n >= MGW_MAX_OPS || ops_item(item, ops) < 0) {
                snprintf(err, errlen, "server::monitor_operators: bad address '%s'", item);
                return -1;
            }
        }
        p += n;
        if (*p)
            p++;
    }
    return 0;
}

int mgw_ops_allowed(const mgw_ops_t *ops, const uint8_t addr[16], int32_t family)
{
    if (ops->any)
        return 1;
    for (int k = 0; k < ops->n; k++) {
        if (ops->family[k] != family)
            continue;
        int bits = ops->bits[k], full = bits / 8, rest = bits % 8;
        if (memcmp(ops->addr[k], addr, (size_t)full) != 0)
            continue;
        if (rest && ((ops->addr[k][full] ^ addr[full]) & (0xff << (8 - rest))) != 0)
            continue;
        return 1;
    }
    return 0;
}
