/* e2e_ref.c -- lockstep matches for the referee's end-to-end tests (e2e_ref.h): every
 * client answers each (think) with (done) only inside e2e_ref_cycle(), so the server
 * steps exactly once per call; the trainer's hears and see_global tell the play mode and
 * the world after each step. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e_ref.h"
#include "playmode.h"

#define REF_WAIT_MS 5000

static char rbuf[65536];

/* "msg;" (t < 0) or "t msg;" appended to dst */
static void append(char *dst, size_t len, int t, const char *msg)
{
    size_t n = strlen(dst);
    if (n + 1 >= len)
        return;
    if (t < 0)
        snprintf(dst + n, len - n, "%s;", msg);
    else
        snprintf(dst + n, len - n, "%d %s;", t, msg);
}

/* the play mode a referee message announces, -1 if none */
static int mode_of(const char *msg)
{
    if (strncmp(msg, "goal_l_", 7) == 0)
        return PM_GOAL_L;
    if (strncmp(msg, "goal_r_", 7) == 0)
        return PM_GOAL_R;
    return playmode_lookup(msg);
}

/* (hear referee T MSG) at the trainer */
static void trainer_hear(e2e_ref_t *m, const char *d)
{
    int t = 0;
    char msg[256];
    if (sscanf(d, "(hear referee %d %255[^)])", &t, msg) < 2)
        return;
    append(m->heard, sizeof m->heard, -1, msg);
    append(m->log, sizeof m->log, t, msg);
    int pm = mode_of(msg);
    if (pm > 0)
        m->pm = pm;
}

static void trainer_datagram(e2e_ref_t *m, const char *d)
{
    if (strncmp(d, "(hear referee ", 14) == 0) {
        trainer_hear(m, d);
    } else if (strncmp(d, "(see_global ", 12) == 0) {
        size_t n = strlen(d) < sizeof m->see - 1 ? strlen(d) : sizeof m->see - 1;
        memcpy(m->see, d, n);
        m->see[n] = '\0';
        if (e2e_parse_visual(d, &m->w) == 0)
            m->time = m->w.time;
    } else if (strncmp(d, "(error ", 7) == 0 || strncmp(d, "(warning ", 9) == 0) {
        fprintf(stderr, "e2e_ref: trainer got %s\n", d);
        m->errors++;
    }
}

static void player_datagram(e2e_ref_client_t *c, const char *d)
{
    int t;
    char msg[256];
    if (sscanf(d, "(hear %d referee %255[^)])", &t, msg) == 2) {
        append(c->heard, sizeof c->heard, -1, msg);
    } else if (strncmp(d, "(sense_body ", 12) == 0) {
        size_t n = strlen(d) < sizeof c->body - 1 ? strlen(d) : sizeof c->body - 1;
        memcpy(c->body, d, n);
        c->body[n] = '\0';
    }
}

/* read until (think); 0, or -1 after REF_WAIT_MS without one */
static int wait_think(e2e_ref_t *m, e2e_ref_client_t *c)
{
    double end = e2e_now_ms() + REF_WAIT_MS;
    for (;;) {
        int left = (int)(end - e2e_now_ms());
        if (left <= 0)
            return -1;
        int n = e2e_recv(c->fd, rbuf, sizeof rbuf, left, NULL);
        if (n < 0)
            return -1;
        if (n == 0)
            continue;
        if (strcmp(rbuf, "(think)") == 0)
            return 0;
        if (c == &m->t) {
            trainer_datagram(m, rbuf);
            continue;
        }
        player_datagram(c, rbuf);
        char red[32];
        snprintf(red, sizeof red, "red_card_%c_%d;", c->side, c->unum);
        if (strstr(c->heard, red)) { /* sent off: the server closes his connection */
            c->gone = 1;
            return 0;
        }
    }
}

int e2e_ref_start(e2e_ref_t *m, const char *const *extra_args)
{
    return e2e_ref_start_out(m, extra_args, NULL);
}

int e2e_ref_start_out(e2e_ref_t *m, const char *const *extra_args, const char *out_path)
{
    static const char *const base[] = {
        "server::synch_mode=true", "server::coach_w_referee=true",
        "server::synch_timeout=20000", "server::ball_rand=0", "server::player_rand=0",
        "server::kick_rand=0", NULL
    };
    const char *args[64];
    int n = 0;
    for (int i = 0; base[i]; i++)
        args[n++] = base[i];
    for (int i = 0; extra_args && extra_args[i] && n < 63; i++)
        args[n++] = extra_args[i];
    args[n] = NULL;
    memset(m, 0, sizeof *m);
    m->pm = PM_BEFORE_KICK_OFF;
    if (e2e_server_start_out(&m->s, args, out_path) < 0)
        return -1;
    m->t.fd = e2e_udp_open();
    e2e_send(m->t.fd, m->s.coach_port, "(init (version 19))");
    if (e2e_recv_prefix(m->t.fd, "(init ok)", rbuf, sizeof rbuf, REF_WAIT_MS, &m->t.port) <= 0)
        return -1;
    e2e_send(m->t.fd, m->t.port, "(eye on)");
    e2e_send(m->t.fd, m->t.port, "(ear on)");
    return 0;
}

int e2e_ref_stop(e2e_ref_t *m)
{
    for (int i = 0; i < m->np; i++)
        close(m->pl[i].fd);
    if (m->t.fd > 0)
        close(m->t.fd);
    m->np = 0;
    m->t.fd = -1;
    if (m->s.pid <= 0) /* it exited by itself (e2e_ref_finish) */
        return 0;
    return e2e_server_stop(&m->s);
}

int e2e_ref_connect(e2e_ref_t *m, const char *team, int goalie)
{
    if (m->np >= 22)
        return -1;
    e2e_ref_client_t *c = &m->pl[m->np];
    memset(c, 0, sizeof *c);
    c->fd = e2e_udp_open();
    char msg[128];
    snprintf(msg, sizeof msg, "(init %s (version 19)%s)", team, goalie ? " (goalie)" : "");
    e2e_send(c->fd, m->s.port, msg);
    if (e2e_recv_prefix(c->fd, "(init ", rbuf, sizeof rbuf, REF_WAIT_MS, &c->port) <= 0)
        return -1;
    if (sscanf(rbuf, "(init %c %d", &c->side, &c->unum) != 2)
        return -1;
    snprintf(c->team, sizeof c->team, "%s", team);
    return m->np++;
}

static void drain(e2e_ref_t *m, e2e_ref_client_t *c)
{
    while (e2e_recv(c->fd, rbuf, sizeof rbuf, 0, NULL) > 0) {
        if (c == &m->t)
            trainer_datagram(m, rbuf);
    }
}

int e2e_ref_sync(e2e_ref_t *m)
{
    /* until nothing arrives for 300 ms: the server waits for our (done)s */
    double quiet = e2e_now_ms();
    while (e2e_now_ms() - quiet < 300.0) {
        usleep(20000);
        int got = 0;
        for (int i = -1; i < m->np; i++) {
            e2e_ref_client_t *c = i < 0 ? &m->t : &m->pl[i];
            if (e2e_recv(c->fd, rbuf, sizeof rbuf, 0, NULL) > 0) {
                got = 1;
                if (i < 0)
                    trainer_datagram(m, rbuf);
                drain(m, c);
            }
        }
        if (got)
            quiet = e2e_now_ms();
    }
    return e2e_ref_cycle(m);
}

static void queue(e2e_ref_client_t *c, const char *cmd)
{
    if (c->ncmd < E2E_REF_CMDS)
        snprintf(c->cmd[c->ncmd++], sizeof c->cmd[0], "%s", cmd);
}

void e2e_ref_say(e2e_ref_t *m, int i, const char *cmd)
{
    if (i >= 0 && i < m->np)
        queue(&m->pl[i], cmd);
}

void e2e_ref_trainer(e2e_ref_t *m, const char *cmd)
{
    queue(&m->t, cmd);
}

static void send_all(e2e_ref_client_t *c)
{
    for (int k = 0; k < c->ncmd; k++)
        e2e_send(c->fd, c->port, c->cmd[k]);
    c->ncmd = 0;
    e2e_send(c->fd, c->port, "(done)");
    c->heard[0] = '\0';
}

int e2e_ref_cycle(e2e_ref_t *m)
{
    send_all(&m->t);
    for (int i = 0; i < m->np; i++)
        send_all(&m->pl[i]);
    m->heard[0] = '\0';
    if (wait_think(m, &m->t) < 0) {
        fprintf(stderr, "e2e_ref: no (think) for the trainer (see %s)\n", m->s.log);
        return -1;
    }
    for (int i = 0; i < m->np; i++) {
        if (m->pl[i].gone) {
            while (e2e_recv(m->pl[i].fd, rbuf, sizeof rbuf, 0, NULL) > 0)
                player_datagram(&m->pl[i], rbuf);
            continue;
        }
        if (wait_think(m, &m->pl[i]) < 0) {
            fprintf(stderr, "e2e_ref: no (think) for player %d\n", i);
            return -1;
        }
    }
    return 0;
}

int e2e_ref_cycles(e2e_ref_t *m, int n)
{
    for (int i = 0; i < n; i++) {
        if (e2e_ref_cycle(m) < 0)
            return -1;
    }
    return 0;
}

int e2e_ref_until(e2e_ref_t *m, int pm, int max)
{
    for (int i = 1; i <= max; i++) {
        if (e2e_ref_cycle(m) < 0)
            return -1;
        if (m->pm == pm)
            return i;
    }
    return -1;
}

static void answer_thinks(e2e_ref_t *m, e2e_ref_client_t *c)
{
    while (e2e_recv(c->fd, rbuf, sizeof rbuf, 0, NULL) > 0) {
        if (strcmp(rbuf, "(think)") == 0)
            e2e_send(c->fd, c->port, "(done)");
        else if (c == &m->t)
            trainer_datagram(m, rbuf);
    }
}

int e2e_ref_finish(e2e_ref_t *m, int timeout_ms, char *out, size_t outlen)
{
    double end = e2e_now_ms() + timeout_ms;
    send_all(&m->t); /* the (think) of the last cycle is still unanswered */
    for (int i = 0; i < m->np; i++)
        send_all(&m->pl[i]);
    while (e2e_now_ms() < end) {
        answer_thinks(m, &m->t);
        for (int i = 0; i < m->np; i++)
            answer_thinks(m, &m->pl[i]);
        int st = e2e_server_wait(&m->s, 0, out, outlen);
        if (st != -2)
            return st;
        usleep(2000);
    }
    return e2e_server_wait(&m->s, 1, out, outlen);
}

e2e_obj_t *e2e_ref_obj(e2e_ref_t *m, int i)
{
    if (i < 0 || i >= m->np)
        return NULL;
    return e2e_world_player(&m->w, m->pl[i].team, m->pl[i].unum);
}

void e2e_ref_place(e2e_ref_t *m, int i, double x, double y, double dir)
{
    char cmd[200];
    if (i < 0 || i >= m->np)
        return;
    snprintf(cmd, sizeof cmd, "(move (player %s %d) %.17g %.17g %.17g 0 0)", m->pl[i].team,
             m->pl[i].unum, x, y, dir);
    queue(&m->t, cmd);
}

void e2e_ref_ball(e2e_ref_t *m, double x, double y, double vx, double vy)
{
    char cmd[200];
    snprintf(cmd, sizeof cmd, "(move (ball) %.17g %.17g 0 %.17g %.17g)", x, y, vx, vy);
    queue(&m->t, cmd);
}
