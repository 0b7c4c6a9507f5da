/* e2e_trainer.c -- the end-to-end tests' trainer (e2e_trainer.h): UDP to the trainer
 * port, replies read from the trainer's own server socket, see_global / look parsed
 * into an e2e_world_t. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e_trainer.h"

#define TRAINER_WAIT_MS 2000

/* one datagram; a (think) is answered with (done) and not returned */
static int trainer_recv(e2e_trainer_t *t, int timeout_ms)
{
    double end = e2e_now_ms() + timeout_ms;
    for (;;) {
        int left = (int)(end - e2e_now_ms());
        if (left <= 0)
            return 0;
        int n = e2e_recv(t->fd, t->last, sizeof t->last, left, NULL);
        if (n <= 0)
            return n;
        if (strcmp(t->last, "(think)") == 0) {
            e2e_send(t->fd, t->port, "(done)");
            continue;
        }
        return n;
    }
}

int e2e_trainer_connect(e2e_trainer_t *t, const e2e_server_t *s, double version)
{
    memset(t, 0, sizeof *t);
    t->fd = e2e_udp_open();
    t->init_port = s->coach_port;
    t->version = version;
    if (t->fd < 0)
        return -1;
    char msg[64];
    snprintf(msg, sizeof msg, "(init (version %g))", version);
    e2e_send(t->fd, s->coach_port, msg);
    if (e2e_recv_prefix(t->fd, "(init ok)", t->last, sizeof t->last, TRAINER_WAIT_MS,
                        &t->port) <= 0) {
        close(t->fd);
        t->fd = -1;
        return -1;
    }
    /* v7+: server_param, player_param and the player types follow; read them away */
    if (version >= 7.0) {
        while (trainer_recv(t, 200) > 0) {
            if (strncmp(t->last, "(player_type ", 13) != 0
                && strncmp(t->last, "(server_param ", 14) != 0
                && strncmp(t->last, "(player_param ", 14) != 0)
                break;
        }
    }
    return 0;
}

void e2e_trainer_close(e2e_trainer_t *t)
{
    if (t->fd >= 0)
        close(t->fd);
    t->fd = -1;
}

/* wait for a datagram starting with one of the prefixes (NULL-terminated list) */
static int trainer_wait(e2e_trainer_t *t, const char *const *prefix)
{
    double end = e2e_now_ms() + TRAINER_WAIT_MS;
    while (e2e_now_ms() < end) {
        if (trainer_recv(t, (int)(end - e2e_now_ms())) <= 0)
            return -1;
        for (int i = 0; prefix[i]; i++) {
            if (strncmp(t->last, prefix[i], strlen(prefix[i])) == 0)
                return i;
        }
    }
    return -1;
}

int e2e_trainer_cmd(e2e_trainer_t *t, const char *cmd)
{
    static const char *const replies[] = { "(ok ", "(error ", "(warning ", NULL };
    e2e_send(t->fd, t->port, cmd);
    return trainer_wait(t, replies) == 0 ? 0 : -1;
}

int e2e_trainer_cmd_until(e2e_trainer_t *t, const char *cmd, const char *want,
                          int timeout_ms)
{
    double end = e2e_now_ms() + timeout_ms;
    for (;;) {
        if (e2e_trainer_cmd(t, cmd) == 0 && strstr(t->last, want))
            return 0;
        if (e2e_now_ms() > end)
            return -1;
        usleep(20000);
    }
}

int e2e_trainer_move_ball(e2e_trainer_t *t, double x, double y, double vx, double vy)
{
    char cmd[160];
    snprintf(cmd, sizeof cmd, "(move (ball) %.17g %.17g 0 %.17g %.17g)", x, y, vx, vy);
    return e2e_trainer_cmd(t, cmd);
}

int e2e_trainer_move_player(e2e_trainer_t *t, const char *team, int unum, double x, double y,
                            double dir, double vx, double vy)
{
    char cmd[200];
    snprintf(cmd, sizeof cmd, "(move (player %s %d) %.17g %.17g %.17g %.17g %.17g)", team,
             unum, x, y, dir, vx, vy);
    return e2e_trainer_cmd(t, cmd);
}

int e2e_trainer_change_mode(e2e_trainer_t *t, const char *mode)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "(change_mode %s)", mode);
    return e2e_trainer_cmd(t, cmd);
}

int e2e_trainer_start(e2e_trainer_t *t) { return e2e_trainer_cmd(t, "(start)"); }
int e2e_trainer_recover(e2e_trainer_t *t) { return e2e_trainer_cmd(t, "(recover)"); }

int e2e_trainer_say(e2e_trainer_t *t, const char *msg)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "(say %s)", msg);
    return e2e_trainer_cmd(t, cmd);
}

int e2e_trainer_change_type(e2e_trainer_t *t, const char *team, int unum, int type)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "(change_player_type %s %d %d)", team, unum, type);
    return e2e_trainer_cmd(t, cmd);
}

int e2e_trainer_look(e2e_trainer_t *t, e2e_world_t *w)
{
    static const char *const replies[] = { "(ok look ", "(error ", NULL };
    e2e_send(t->fd, t->port, "(look)");
    if (trainer_wait(t, replies) != 0)
        return -1;
    return e2e_parse_visual(t->last, w);
}

int e2e_trainer_wait_cycles(e2e_trainer_t *t, int n, e2e_world_t *w)
{
    static const char *const see[] = { "(see_global ", NULL };
    static const char *const eye[] = { "(ok eye on)", NULL };
    /* the eye once; a see_global that came before the reply is one of the n */
    if (strncmp(t->last, "(see_global ", 12) != 0 && strncmp(t->last, "(ok eye on)", 11) != 0) {
        e2e_send(t->fd, t->port, "(eye on)");
        if (trainer_wait(t, eye) != 0)
            return -1;
    }
    for (int i = 0; i < n; i++) {
        if (trainer_wait(t, see) != 0)
            return -1;
    }
    return w ? e2e_parse_visual(t->last, w) : 0;
}

/* ---- parsing --------------------------------------------------------------------------- */
static int parse_numbers(const char **p, double *v, int n)
{
    for (int i = 0; i < n; i++) {
        char *end;
        v[i] = strtod(*p, &end);
        if (end == *p)
            return -1;
        *p = end;
    }
    return 0;
}

int e2e_parse_visual(const char *msg, e2e_world_t *w)
{
    memset(w, 0, sizeof *w);
    const char *p;
    if (strncmp(msg, "(see_global ", 12) == 0)
        p = msg + 12;
    else if (strncmp(msg, "(ok look ", 9) == 0)
        p = msg + 9;
    else
        return -1;
    w->time = (int)strtol(p, (char **)&p, 10);
    while ((p = strstr(p, " ((")) != NULL) {
        p += 3;
        double v[6];
        if (strncmp(p, "g ", 2) == 0)
            continue;
        if (strncmp(p, "b) ", 3) == 0) {
            p += 3;
            if (parse_numbers(&p, v, 4) < 0)
                return -1;
            w->ball = (e2e_obj_t){ 1, 0, v[0], v[1], v[2], v[3], 0, 0 };
            continue;
        }
        if (strncmp(p, "p \"", 3) != 0)
            return -1;
        const char *q = strchr(p + 3, '"');
        if (!q || q - p - 3 >= (long)sizeof w->team[0])
            return -1;
        char team[sizeof w->team[0]];
        snprintf(team, sizeof team, "%.*s", (int)(q - p - 3), p + 3);
        p = q + 1;
        int unum = (int)strtol(p, (char **)&p, 10);
        int goalie = strncmp(p, " goalie", 7) == 0;
        p = strchr(p, ')');
        if (!p || unum < 1 || unum > 11)
            return -1;
        p++;
        if (parse_numbers(&p, v, 6) < 0)
            return -1;
        /* teams in the order they appear (the left team's players come first) */
        int k = 0;
        while (k < 2 && w->team[k][0] && strcmp(w->team[k], team) != 0)
            k++;
        if (k == 2)
            return -1;
        snprintf(w->team[k], sizeof w->team[k], "%s", team);
        w->player[k][unum - 1] = (e2e_obj_t){ 1, goalie, v[0], v[1], v[2], v[3],
                                              (int)v[4], (int)v[5] };
    }
    return 0;
}

e2e_obj_t *e2e_world_player(e2e_world_t *w, const char *team, int unum)
{
    for (int k = 0; k < 2; k++) {
        if (unum >= 1 && unum <= 11 && w->team[k][0] && strcmp(w->team[k], team) == 0
            && w->player[k][unum - 1].present)
            return &w->player[k][unum - 1];
    }
    return NULL;
}

/* ---- groups ------------------------------------------------------------------------- */
#define GROUP_WAIT_MS 3000

void e2e_group_init(e2e_group_t *g)
{
    memset(g, 0, sizeof *g);
}

static void group_keep(e2e_client_t *c, const char *msg)
{
    if (c->nmsg == c->cap) {
        int cap = c->cap ? 2 * c->cap : 64;
        char **m = realloc(c->msg, (size_t)cap * sizeof *m);
        if (!m)
            return;
        c->msg = m;
        c->cap = cap;
    }
    char *copy = strdup(msg);
    if (copy)
        c->msg[c->nmsg++] = copy;
}

/* everything waiting on c's socket, without blocking */
static void group_read(e2e_client_t *c)
{
    static char buf[65536];
    int from;
    while (e2e_recv(c->fd, buf, sizeof buf, 0, &from) > 0) {
        if (c->port == 0)
            c->port = from;
        if (strcmp(buf, "(think)") == 0) {
            if (c->hold)
                c->thinks++;
            else
                e2e_send(c->fd, c->port, "(done)");
            continue;
        }
        group_keep(c, buf);
    }
}

void e2e_group_pump(e2e_group_t *g, int ms)
{
    double end = e2e_now_ms() + ms;
    do {
        for (int i = 0; i < g->n; i++)
            group_read(&g->c[i]);
        if (ms > 0)
            usleep(2000);
    } while (e2e_now_ms() < end);
}

e2e_client_t *e2e_group_join(e2e_group_t *g, const char *name, int port, const char *init,
                             int hold)
{
    if (g->n >= E2E_GROUP_MAX)
        return NULL;
    e2e_client_t *c = &g->c[g->n];
    memset(c, 0, sizeof *c);
    c->fd = e2e_udp_open();
    if (c->fd < 0)
        return NULL;
    c->hold = hold;
    snprintf(c->name, sizeof c->name, "%s", name);
    g->n++;
    e2e_send(c->fd, port, init);
    double end = e2e_now_ms() + GROUP_WAIT_MS;
    while (e2e_now_ms() < end) {
        e2e_group_pump(g, 5);
        if (e2e_group_count(c, "(init") + e2e_group_count(c, "(reconnect")
            + e2e_group_count(c, "(error") > 0)
            return c;
    }
    return NULL;
}

static int group_find(const e2e_client_t *c, const char *prefix)
{
    for (int i = 0; i < c->nmsg; i++) {
        if (strncmp(c->msg[i], prefix, strlen(prefix)) == 0)
            return i;
    }
    return -1;
}

/* drop the first n kept messages */
static void group_consume(e2e_client_t *c, int n)
{
    for (int i = 0; i < n; i++)
        free(c->msg[i]);
    memmove(c->msg, c->msg + n, (size_t)(c->nmsg - n) * sizeof *c->msg);
    c->nmsg -= n;
}

int e2e_group_wait(e2e_group_t *g, e2e_client_t *c, const char *prefix, char *buf,
                   size_t len, int timeout_ms)
{
    double end = e2e_now_ms() + timeout_ms;
    for (;;) {
        int i = group_find(c, prefix);
        if (i >= 0) {
            snprintf(buf, len, "%s", c->msg[i]);
            group_consume(c, i + 1);
            return (int)strlen(buf);
        }
        if (e2e_now_ms() >= end)
            break;
        e2e_group_pump(g, 5);
    }
    if (len)
        buf[0] = '\0';
    return 0;
}

int e2e_group_cmd(e2e_group_t *g, e2e_client_t *c, const char *cmd, char *buf, size_t len)
{
    e2e_send(c->fd, c->port, cmd);
    return e2e_group_reply(g, c, buf, len);
}

int e2e_group_reply(e2e_group_t *g, e2e_client_t *c, char *buf, size_t len)
{
    static const char *const replies[] = { "(ok ", "(error ", "(warning " };
    double end = e2e_now_ms() + GROUP_WAIT_MS;
    while (e2e_now_ms() < end) {
        e2e_group_pump(g, 5);
        int best = -1, kind = -1;
        for (int k = 0; k < 3; k++) {
            int i = group_find(c, replies[k]);
            if (i >= 0 && (best < 0 || i < best)) {
                best = i;
                kind = k;
            }
        }
        if (best >= 0) {
            snprintf(buf, len, "%s", c->msg[best]);
            group_consume(c, best + 1);
            return kind == 0 ? 0 : -1;
        }
    }
    if (len)
        buf[0] = '\0';
    return -1;
}

static int group_think(e2e_group_t *g, e2e_client_t *h)
{
    double end = e2e_now_ms() + GROUP_WAIT_MS;
    while (h->thinks == 0 && e2e_now_ms() < end)
        e2e_group_pump(g, 2);
    return h->thinks > 0 ? 0 : -1;
}

int e2e_group_step(e2e_group_t *g, e2e_client_t *holder, int n)
{
    for (int i = 0; i < n; i++) {
        if (group_think(g, holder) < 0)
            return -1;
        holder->thinks--;
        e2e_send(holder->fd, holder->port, "(done)");
        if (group_think(g, holder) < 0)
            return -1;
    }
    return 0;
}

int e2e_group_count(const e2e_client_t *c, const char *prefix)
{
    int n = 0;
    for (int i = 0; i < c->nmsg; i++)
        n += strncmp(c->msg[i], prefix, strlen(prefix)) == 0;
    return n;
}

void e2e_group_clear(e2e_client_t *c)
{
    group_consume(c, c->nmsg);
}

void e2e_group_close(e2e_group_t *g)
{
    for (int i = 0; i < g->n; i++) {
        e2e_group_clear(&g->c[i]);
        free(g->c[i].msg);
        if (g->c[i].fd >= 0)
            close(g->c[i].fd);
    }
    g->n = 0;
}
