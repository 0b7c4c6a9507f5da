/* e2e_lockstep.c -- synch-mode clients in lock step for the physics tests
 * (e2e_lockstep.h). */
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e_lockstep.h"

#define LS_WAIT_MS 3000

static char ls_buf[65536];

/* read fd until a (think), up to wait_ms; keep the last datagram starting with
 * keep_prefix in keep, and when it was read in *keep_ms (may be NULL) */
static int until_think(int fd, int wait_ms, const char *keep_prefix, char *keep,
                       size_t keep_len, double *keep_ms)
{
    double end = e2e_now_ms() + (wait_ms > 0 ? wait_ms : LS_WAIT_MS);
    for (;;) {
        int left = (int)(end - e2e_now_ms());
        if (left <= 0 || e2e_recv(fd, ls_buf, sizeof ls_buf, left, NULL) <= 0)
            return -1;
        if (strcmp(ls_buf, "(think)") == 0)
            return 0;
        if (strncmp(ls_buf, keep_prefix, strlen(keep_prefix)) == 0) {
            size_t n = strnlen(ls_buf, keep_len - 1);
            memcpy(keep, ls_buf, n);
            keep[n] = '\0';
            if (keep_ms)
                *keep_ms = e2e_now_ms();
        }
    }
}

/* read and forget whatever is queued on every client (what came before every client was
 * connected): until none of them got anything for 300 ms */
static void drain(e2e_ls_t *ls)
{
    struct pollfd p[E2E_LS_MAX + 1];
    int n = 0;
    p[n++] = (struct pollfd){ .fd = ls->t.fd, .events = POLLIN };
    for (int i = 0; i < ls->n; i++)
        p[n++] = (struct pollfd){ .fd = ls->fd[i], .events = POLLIN };
    while (poll(p, (nfds_t)n, 300) > 0) {
        for (int i = 0; i < n; i++) {
            if (p[i].revents & POLLIN)
                e2e_recv(p[i].fd, ls_buf, sizeof ls_buf, 0, NULL);
        }
    }
}

int e2e_ls_open(e2e_ls_t *ls, const e2e_server_t *s, const char *const *team, int n)
{
    memset(ls, 0, sizeof *ls);
    if (n > E2E_LS_MAX)
        return -1;
    for (int i = 0; i < n; i++) {
        char init[96];
        snprintf(init, sizeof init, "(init %s (version 19))", team[i]);
        ls->fd[ls->n] = e2e_udp_open();
        ls->n++;
        e2e_send(ls->fd[i], s->port, init);
        if (e2e_recv_prefix(ls->fd[i], "(init ", ls_buf, sizeof ls_buf, LS_WAIT_MS,
                            &ls->port[i]) <= 0)
            return -1;
        /* the sim steps as soon as the first player joins and then waits for its (done):
         * the others join in that cycle whatever the timing, so every run's command
         * stream (and the world) is the same */
        if (i == 0 && until_think(ls->fd[0], 0, "(sense_body ", ls->sense[0],
                                  sizeof ls->sense[0], &ls->sense_ms[0]) < 0)
            return -1;
    }
    if (e2e_trainer_connect(&ls->t, s, 19) < 0)
        return -1;
    e2e_send(ls->t.fd, ls->t.port, "(eye on)");
    drain(ls);
    e2e_ls_done(ls); /* the think the clients missed while the others connected */
    for (int k = 0; k < 3; k++) {
        if (e2e_ls_think(ls) < 0)
            return -1;
        e2e_ls_done(ls);
    }
    return 0;
}

void e2e_ls_close(e2e_ls_t *ls)
{
    for (int i = 0; i < ls->n; i++)
        close(ls->fd[i]);
    e2e_trainer_close(&ls->t);
}

static int msg_time(const char *msg)
{
    const char *p = strchr(msg, ' ');
    return p ? atoi(p + 1) : -1;
}

/* Every client's next think; a client whose think is older than the others' (one it
 * queued before the lock step began) reads on to the current one. */
int e2e_ls_think(e2e_ls_t *ls)
{
    ls->see[0] = '\0';
    if (until_think(ls->t.fd, ls->wait_ms, "(see_global ", ls->see, sizeof ls->see, NULL) < 0)
        return -1;
    for (int i = 0; i < ls->n; i++) {
        if (until_think(ls->fd[i], ls->wait_ms, "(sense_body ", ls->sense[i],
                        sizeof ls->sense[i], &ls->sense_ms[i]) < 0)
            return -1;
    }
    for (int round = 0; round < 3; round++) {
        int newest = msg_time(ls->see), stale = 0;
        for (int i = 0; i < ls->n; i++)
            newest = msg_time(ls->sense[i]) > newest ? msg_time(ls->sense[i]) : newest;
        if (msg_time(ls->see) < newest) {
            stale = 1;
            if (until_think(ls->t.fd, ls->wait_ms, "(see_global ", ls->see, sizeof ls->see,
                            NULL) < 0)
                return -1;
        }
        for (int i = 0; i < ls->n; i++) {
            if (msg_time(ls->sense[i]) >= newest)
                continue;
            stale = 1;
            if (until_think(ls->fd[i], ls->wait_ms, "(sense_body ", ls->sense[i],
                            sizeof ls->sense[i], &ls->sense_ms[i]) < 0)
                return -1;
        }
        if (!stale)
            break;
    }
    return ls->see[0] ? e2e_parse_visual(ls->see, &ls->world) : -1;
}

void e2e_ls_send(e2e_ls_t *ls, int i, const char *cmd)
{
    if (i < 0)
        e2e_send(ls->t.fd, ls->t.port, cmd);
    else if (i < ls->n)
        e2e_send(ls->fd[i], ls->port[i], cmd);
}

void e2e_ls_done(e2e_ls_t *ls)
{
    for (int i = 0; i < ls->n; i++)
        e2e_send(ls->fd[i], ls->port[i], "(done)");
    e2e_send(ls->t.fd, ls->t.port, "(done)");
    ls->done_ms = e2e_now_ms();
}

double e2e_ls_sense(const e2e_ls_t *ls, int i, const char *name)
{
    char key[64];
    snprintf(key, sizeof key, "(%s ", name);
    const char *p = i >= 0 && i < ls->n ? strstr(ls->sense[i], key) : NULL;
    return p ? strtod(p + strlen(key), NULL) : NAN;
}
