/* rcss3d-agent.c -- a sample 3D agent with the kick-and-run behaviour of the manual's
 * agenttest, for tests and `make run3d`. It creates its robot, joins a team, beams to
 * its place before each kick-off, and then: the robot of the team nearest to the ball
 * runs behind it (seen from the opponent goal) and kicks it towards that goal; the
 * others hold their places, moved with the ball (never past their goal line). It
 * locates itself from the eight markers, finds its way back onto the field from behind
 * a goal line (out of the goal's mouth, or round the goal, never into its net), answers
 * every perception with its effectors and (syn), and leaves when the server closes the
 * connection.
 * usage: rcss3d-agent [--host ADDR] [--port P] [--team NAME] [--unum N] [--verbose]
 * Started from an agent list (pipe mode) it talks over the descriptor in
 * $RCSS3D_AGENT_FD instead of connecting. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "frame.h"
#include "net_tcp.h"
#include "sexp.h"

#define NODES 2048
#define MAX_MATES 11

typedef struct seen { int ok; double x, y, z, d; } seen_t;   /* team frame, relative */

typedef struct agent {
    int    fd, unum, side, verbose;
    char   team[32];
    double flen, fwid, goal_w, goal_d, agent_r, ball_r;
    int    play_mode_bko, beamed;
    char   play_mode[32];
    seen_t ball, marker[8];
    seen_t mate[MAX_MATES];       /* team mates by number (relative) */
    int    nmates;
    double kick_margin;
} agent_t;

static const double home[11][2] = {
    { -48, 0 }, { -35, -15 }, { -35, 0 }, { -35, 15 }, { -22, -20 }, { -22, -5 },
    { -22, 5 }, { -22, 20 }, { -8, -15 }, { -4, 0 }, { -8, 15 },
};

static int send_msg(agent_t *a, const char *text)
{
    if (a->verbose)
        fprintf(stderr, "agent %s %d -> %s\n", a->team, a->unum, text);
    return frame_write(a->fd, text, strlen(text));
}

/* "(pol D A L)" into a relative team-frame point */
static void polar(const sexp_t *l, seen_t *s)
{
    double d, th, ph;
    if (!l || sexp_count(l) != 4 || sexp_number(sexp_nth(l, 1), &d) < 0
        || sexp_number(sexp_nth(l, 2), &th) < 0 || sexp_number(sexp_nth(l, 3), &ph) < 0)
        return;
    th *= M_PI / 180.0;
    ph *= M_PI / 180.0;
    s->ok = 1;
    s->d = d;
    s->x = d * cos(ph) * cos(th);
    s->y = d * cos(ph) * sin(th);
    s->z = d * sin(ph);
}

/* a sub-list (NAME ...) of list l */
static const sexp_t *sub(const sexp_t *l, const char *name)
{
    for (const sexp_t *c = l->child ? l->child->next : NULL; c; c = c->next) {
        if (c->is_list && c->child && sexp_is(c->child, name))
            return c;
    }
    return NULL;
}

static void vision(agent_t *a, const sexp_t *v)
{
    static const char *const ids[4] = { "1_l", "2_l", "1_r", "2_r" };
    for (const sexp_t *o = v->child->next; o; o = o->next) {
        if (!o->is_list || !o->child)
            continue;
        const sexp_t *id = sub(o, "id"), *team = sub(o, "team"), *pol = sub(o, "pol");
        if (sexp_is(o->child, "Ball")) {
            polar(pol, &a->ball);
        } else if ((sexp_is(o->child, "Flag") || sexp_is(o->child, "Goal")) && id) {
            for (int k = 0; k < 4; k++) {
                if (sexp_is(sexp_nth(id, 1), ids[k]))
                    polar(pol, &a->marker[(sexp_is(o->child, "Goal") ? 4 : 0) + k]);
            }
        } else if (sexp_is(o->child, "Player") && team && id) {
            char t[32];
            long u;
            sexp_copy(sexp_nth(team, 1), t, sizeof t);
            if (strcmp(t, a->team) == 0 && sexp_int(sexp_nth(id, 1), &u) == 0 && u >= 1 && u <= 11)
                polar(pol, &a->mate[u - 1]);
        }
    }
}

static void game_state(agent_t *a, const sexp_t *g)
{
    const sexp_t *x;
    double v;
    if ((x = sub(g, "playmode")))
        sexp_copy(sexp_nth(x, 1), a->play_mode, sizeof a->play_mode);
    if ((x = sub(g, "unum")) && sexp_number(sexp_nth(x, 1), &v) == 0)
        a->unum = (int)v;
    if ((x = sub(g, "team")))
        a->side = sexp_is(sexp_nth(x, 1), "right");
    if ((x = sub(g, "FieldLength")) && sexp_number(sexp_nth(x, 1), &v) == 0)
        a->flen = v;
    if ((x = sub(g, "FieldWidth")) && sexp_number(sexp_nth(x, 1), &v) == 0)
        a->fwid = v;
    if ((x = sub(g, "GoalWidth")) && sexp_number(sexp_nth(x, 1), &v) == 0)
        a->goal_w = v;
    if ((x = sub(g, "GoalDepth")) && sexp_number(sexp_nth(x, 1), &v) == 0)
        a->goal_d = v;
    if ((x = sub(g, "AgentRadius")) && sexp_number(sexp_nth(x, 1), &v) == 0)
        a->agent_r = v;
    if ((x = sub(g, "BallRadius")) && sexp_number(sexp_nth(x, 1), &v) == 0)
        a->ball_r = v;
}

/* where a marker is in our team frame */
static void marker_team(const agent_t *a, int k, double *x, double *y)
{
    double hx = a->flen / 2, hy = (k < 4 ? a->fwid : a->goal_w) / 2;
    double ax = k % 4 < 2 ? -hx : hx, ay = k % 2 == 0 ? -hy : hy;
    *x = a->side ? -ax : ax;
    *y = a->side ? -ay : ay;
}

/* own position (team frame) from every marker seen; 0 if none */
static int locate(const agent_t *a, double *x, double *y)
{
    double sx = 0, sy = 0;
    int n = 0;
    for (int k = 0; k < 8; k++) {
        if (!a->marker[k].ok)
            continue;
        double mx, my;
        marker_team(a, k, &mx, &my);
        sx += mx - a->marker[k].x;
        sy += my - a->marker[k].y;
        n++;
    }
    if (!n)
        return 0;
    *x = sx / n;
    *y = sy / n;
    return 1;
}

static void drive_to(double dx, double dy, char *out, size_t len)
{
    double l = sqrt(dx * dx + dy * dy);
    double k = l > 1e-6 ? (l > 2.0 ? 100.0 : 50.0 * l) / l : 0.0;
    snprintf(out + strlen(out), len - strlen(out), "(drive %.2f %.2f 0)", dx * k, dy * k);
}

/* The way to (tx, ty) (team frame, absolute) from (mx, my) that does not run into a
 * goal: from behind a goal line, out of the goal's mouth straight ahead, or first to the
 * goal's side and then onto the field; a target beyond the line too is left alone. */
static void route(const agent_t *a, double mx, double my, double *tx, double *ty)
{
    double hl = a->flen / 2, gw = a->goal_w / 2, r = a->agent_r;
    for (int s = -1; s <= 1; s += 2) {
        double over = s * mx - hl; /* > 0: beyond this goal line */
        if (over < -r || s * *tx - hl > -r)
            continue;
        if (fabs(my) < gw - r && over < a->goal_d) {
            *tx = s * (hl - 1.0);  /* in the goal: out of its mouth */
            *ty = my;
        } else if (fabs(my) < gw + r + 0.5) {
            *tx = mx;              /* behind the net or at its side: round it */
            *ty = (my >= 0 ? 1 : -1) * (gw + r + 1.0);
        } else {
            *tx = s * (hl - 1.0);  /* beside the goal: onto the field first */
            *ty = my;
        }
        return;
    }
}

/* drive to a point relative to us, (mx, my) being where we are, by route() */
static void go_rel(const agent_t *a, double mx, double my, double rx, double ry, char *out,
                   size_t len)
{
    double tx = mx + rx, ty = my + ry;
    route(a, mx, my, &tx, &ty);
    drive_to(tx - mx, ty - my, out, len);
}

/* the nearest robot of the team to the ball (ties: lower number) is us */
static int chaser(const agent_t *a)
{
    double mine = a->ball.d;
    for (int u = 0; u < MAX_MATES; u++) {
        const seen_t *m = &a->mate[u];
        if (!m->ok || u + 1 == a->unum)
            continue;
        double d = hypot(a->ball.x - m->x, a->ball.y - m->y);
        if (d < mine - 0.3 || (fabs(d - mine) <= 0.3 && u + 1 < a->unum))
            return 0;
    }
    return 1;
}

/* run behind the ball, kick it towards the opponent goal */
static void attack(agent_t *a, double mx, double my, char *out, size_t len)
{
    double gx = a->flen / 2 - mx, gy = -my; /* the goal centre, relative */
    double bx = a->ball.x, by = a->ball.y;
    double ux = gx - bx, uy = gy - by, ul = hypot(ux, uy);
    if (ul < 1e-6)
        ul = 1e-6;
    ux /= ul;
    uy /= ul;
    double reach = a->agent_r + a->ball_r;
    /* where we are seen from the ball: along the ball->goal line and across it */
    double along = -(bx * ux + by * uy), across = -bx * uy + by * ux;
    if (along < -reach * 0.5 && fabs(across) < 0.08 && a->ball.d < reach + 0.25) {
        double lat = hypot(gx, gy) < 20.0 ? 3.0 : 15.0;
        snprintf(out + strlen(out), len - strlen(out), "(kick %.1f 100)", lat);
        drive_to(bx, by, out, len);
        return;
    }
    if (along > -0.1) { /* on the wrong side: around the ball */
        double s = across >= 0 ? 1.0 : -1.0;
        go_rel(a, mx, my, bx - ux * 1.2 + s * uy * 1.0, by - uy * 1.2 - s * ux * 1.0, out, len);
        return;
    }
    go_rel(a, mx, my, bx - ux * (reach + 0.05), by - uy * (reach + 0.05), out, len);
}

static void act(agent_t *a, char *out, size_t len)
{
    double mx = 0, my = 0;
    out[0] = '\0';
    if (strcmp(a->play_mode, "BeforeKickOff") == 0) {
        if (!a->beamed && a->unum >= 1 && a->unum <= 11) {
            snprintf(out, len, "(beam %g %g 0)", home[a->unum - 1][0], home[a->unum - 1][1]);
            a->beamed = 1;
        }
        strcat(out, "(drive 0 0 0)");
        return;
    }
    a->beamed = 0;
    if (strcmp(a->play_mode, "GameOver") == 0 || !locate(a, &mx, &my)) {
        snprintf(out, len, "(drive 0 0 0)");
        return;
    }
    if (a->ball.ok && chaser(a)) {
        attack(a, mx, my, out, len);
        return;
    }
    /* hold the place, following the ball's x a little, but never past the goal line
     * (the keeper's place moved with a ball in our half was behind it) */
    double bx = a->ball.ok ? mx + a->ball.x : 0.0, lim = a->flen / 2 - 1.0;
    double hx = home[(a->unum - 1) % 11][0] + 0.3 * bx, hy = home[(a->unum - 1) % 11][1];
    hx = hx < -lim ? -lim : hx > lim ? lim : hx;
    go_rel(a, mx, my, hx - mx, hy - my, out, len);
}

static int on_percept(agent_t *a, const char *msg, size_t len)
{
    static sexp_t nodes[NODES];
    size_t pos = 0;
    memset(&a->ball, 0, sizeof a->ball);
    memset(a->marker, 0, sizeof a->marker);
    memset(a->mate, 0, sizeof a->mate);
    while (pos < len) {
        sexp_arena_t ar = { nodes, NODES, 0 };
        size_t end = 0;
        char err[64];
        while (pos < len && (msg[pos] == ' ' || msg[pos] == '\n'))
            pos++;
        if (pos >= len)
            break;
        sexp_t *e = sexp_parse(&ar, msg + pos, len - pos, &end, err, sizeof err);
        if (!e)
            return -1;
        pos += end;
        if (!e->is_list || !e->child)
            continue;
        if (sexp_is(e->child, "GameState"))
            game_state(a, e);
        else if (sexp_is(e->child, "Vision"))
            vision(a, e);
        else if (sexp_is(e->child, "error"))
            fprintf(stderr, "rcss3d-agent %s %d: %.*s\n", a->team, a->unum, (int)e->len, e->text);
    }
    char out[256];
    act(a, out, sizeof out - 8);
    strcat(out, "(syn)");
    return send_msg(a, out);
}

static int parse_args(agent_t *a, int argc, char **argv, const char **host, int *port)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--host") && i + 1 < argc)
            *host = argv[++i];
        else if (!strcmp(argv[i], "--port") && i + 1 < argc)
            *port = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--team") && i + 1 < argc)
            snprintf(a->team, sizeof a->team, "%s", argv[++i]);
        else if (!strcmp(argv[i], "--unum") && i + 1 < argc)
            a->unum = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--verbose"))
            a->verbose = 1;
        else
            return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    static agent_t a;
    static char buf[FRAME_MAX / 16];
    const char *host = "127.0.0.1", *env = getenv("RCSS3D_AGENT_FD");
    int port = 3100;
    snprintf(a.team, sizeof a.team, "Sample");
    a.flen = 104, a.fwid = 68, a.goal_w = 7.32, a.goal_d = 2, a.agent_r = 0.22, a.ball_r = 0.111;
    signal(SIGPIPE, SIG_IGN);
    if (parse_args(&a, argc, argv, &host, &port) < 0) {
        fprintf(stderr, "usage: rcss3d-agent [--host ADDR] [--port P] [--team NAME] [--unum N] [--verbose]\n");
        return 1;
    }
    if (env && *env) {
        a.fd = atoi(env);
    } else {
        char err[160];
        a.fd = net_tcp_connect(host, port, err, sizeof err);
        if (a.fd < 0) {
            fprintf(stderr, "rcss3d-agent: %s\n", err);
            return 1;
        }
    }
    char init[96];
    snprintf(init, sizeof init, "(init (unum %d) (teamname %s))", a.unum, a.team);
    if (send_msg(&a, "(create)") < 0 || send_msg(&a, init) < 0)
        return 1;
    frame_reader_t rd;
    frame_reader_init(&rd, buf, sizeof buf);
    for (;;) {
        const char *msg;
        size_t len;
        int rc = frame_read(a.fd, &rd, -1, &msg, &len);
        if (rc < 0)
            return 0; /* the server closed: the game is over */
        if (rc == 1 && on_percept(&a, msg, len) < 0)
            return 0;
    }
}
