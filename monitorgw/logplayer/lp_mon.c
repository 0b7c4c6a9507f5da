/* lp_mon.c -- the log player's UDP monitors (lp.h). A monitor sends (dispinit [version
 * V]) to the player's port, V any the reference has (1..5, -1 JSON), and is then served
 * from a socket of its own, connected to it, as the server does (see
 * docs/protocol/monitor.md §1-§5): the init block of its version (v1 none, v2 the binary
 * parameter datagrams, v3-v5 the text messages, JSON objects; from the log's parameters,
 * mgw_encode_init), the team graphics so far, the current frame, then every frame the
 * playback shows (encoded once per version with the live encoder) and, going forward
 * one frame, the board-1 messages in between. Its (dispstart) plays, (dispbye) leaves, a
 * (dispinit ...) again starts it over in that version. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "dispinit.h"
#include "lp.h"
#include "net.h"

static void mon_close(lp_mon_t *m)
{
    if (m->ev)
        event_free(m->ev);
    if (m->fd >= 0)
        close(m->fd);
    memset(m, 0, sizeof *m);
    m->fd = -1;
}

void lp_mon_close_all(lp_t *lp)
{
    for (int k = 0; k < LP_MAX_MONITORS; k++) {
        if (lp->mon[k].used)
            mon_close(&lp->mon[k]);
    }
}

/* one datagram of n bytes (text and JSON with their NUL); a monitor gone is closed */
static void mon_send(lp_mon_t *m, const void *data, int n)
{
    if (n <= 0 || !m->used)
        return;
    if (net_udp_send(m->fd, data, (size_t)n) < 0 && errno == ECONNREFUSED) {
        printf("a monitor left\n");
        fflush(stdout);
        mon_close(m);
    }
}

/* the current frame in a version's form, encoded once per frame and version */
static void send_frame(lp_t *lp, lp_mon_t *m)
{
    int v = mgw_vidx(m->version);
    if (lp->enc_frame[v] != lp->play.cur) {
        lp->enc_len[v] = mgw_encode_show_disp(&lp->log.frame[lp->play.cur].show, m->version,
                                              lp->enc[v], MGW_FRAME_MAX);
        lp->enc_frame[v] = lp->play.cur;
    }
    mon_send(m, lp->enc[v], lp->enc_len[v]);
}

/* "(team_graphic_l (X Y ..." -> side, x, y and the quoted lines; 0, or -1 if not a tile */
static int parse_tile(const char *text, int *side, int *x, int *y, const char **lines)
{
    char s;
    int off = 0;
    if (sscanf(text, "(team_graphic_%c (%d %d %n", &s, x, y, &off) != 3 || off == 0
        || (s != 'l' && s != 'r'))
        return -1;
    *side = s == 'l' ? 1 : -1;
    *lines = text + off;
    return 0;
}

/* one board message in m's form: team graphics to JSON monitors as team_graphic objects */
static void send_msg(lp_mon_t *m, const rcg_msg_t *msg)
{
    static char buf[MGW_FRAME_MAX];
    int side, x, y, n;
    const char *lines;
    if (m->version < 0 && parse_tile(msg->text, &side, &x, &y, &lines) == 0)
        n = mgw_encode_tile(m->version, msg->time, side, x, y, lines, buf, sizeof buf);
    else
        n = mgw_encode_msg_v(m->version, msg->time, 0, msg->board, msg->text, buf,
                                 sizeof buf);
    mon_send(m, buf, n);
}

/* board-1 messages [from, to) to one monitor (or all); only_graphics for a late one */
static void send_msgs(lp_t *lp, lp_mon_t *only, int from, int to, int only_graphics)
{
    for (int i = from; i < to; i++) {
        const rcg_msg_t *msg = &lp->log.msg[i];
        if (msg->board != 1 || (only_graphics && strncmp(msg->text, "(team_graphic_", 14)))
            continue;
        for (int k = 0; k < LP_MAX_MONITORS; k++) {
            lp_mon_t *m = &lp->mon[k];
            if (m->used && (!only || only == m))
                send_msg(m, msg);
        }
    }
}

void lp_mon_frame(lp_t *lp)
{
    int cur = lp->play.cur;
    if (lp->log.n_frames == 0)
        return;
    if (cur == lp->shown + 1) /* played forward: what happened in between */
        send_msgs(lp, NULL, lp->log.frame[lp->shown].msg_end, lp->log.frame[cur].msg_end, 0);
    lp->shown = cur;
    for (int k = 0; k < LP_MAX_MONITORS; k++) {
        if (lp->mon[k].used)
            send_frame(lp, &lp->mon[k]);
    }
}

/* the init block of m's version, the tiles so far, the current frame */
static void mon_init(lp_t *lp, lp_mon_t *m)
{
    static char buf[MGW_FRAME_MAX];
    for (int k = 0; m->used; k++) {
        int n = mgw_encode_init(m->version, k, &lp->log.conf, &lp->log.types, buf, sizeof buf);
        if (n <= 0)
            break;
        mon_send(m, buf, n);
    }
    if (m->used && lp->log.n_frames > 0) {
        send_msgs(lp, m, 0, lp->log.frame[lp->play.cur].msg_end, 1);
        if (m->used)
            send_frame(lp, m);
    }
}

/* one datagram a monitor sent (to its own port, or v1 style to the player's port) */
static void mon_command(lp_mon_t *m, const char *buf)
{
    lp_t *lp = m->lp;
    char reply[320];
    int version;
    if (strncmp(buf, "(dispbye", 8) == 0) {
        printf("a monitor left\n");
        fflush(stdout);
        mon_close(m);
    } else if (strncmp(buf, "(dispstart", 10) == 0) {
        lp_apply(lp, "play", reply, sizeof reply);
        printf("%s\n", reply);
        fflush(stdout);
    } else if (dispinit_parse(buf, strlen(buf), &version) == 0
               && dispinit_version_served(version)) {
        m->version = version;
        mon_init(lp, m);
    }
}

static void on_monitor(evutil_socket_t fd, short what, void *arg)
{
    lp_mon_t *m = arg;
    char buf[512];
    (void)what;
    for (int i = 0; i < 16 && m->used; i++) {
        ssize_t n = recv(fd, buf, sizeof buf - 1, MSG_DONTWAIT);
        if (n < 0) {
            if (errno == ECONNREFUSED)
                mon_close(m);
            return;
        }
        buf[n] = '\0';
        mon_command(m, buf);
    }
}

static lp_mon_t *mon_find(lp_t *lp, const struct sockaddr_storage *from)
{
    uint8_t a[16], b[16];
    int32_t fa, fb;
    uint16_t pa, pb;
    net_addr_pack(from, a, &fa, &pa);
    for (int k = 0; k < LP_MAX_MONITORS; k++) {
        lp_mon_t *m = &lp->mon[k];
        if (!m->used)
            continue;
        net_addr_pack(&m->addr, b, &fb, &pb);
        if (fa == fb && pa == pb && memcmp(a, b, sizeof a) == 0)
            return m;
    }
    return NULL;
}

static void mon_add(lp_t *lp, const struct sockaddr_storage *from, int version)
{
    char err[256];
    lp_mon_t *m = NULL;
    for (int k = 0; k < LP_MAX_MONITORS && !m; k++)
        m = lp->mon[k].used ? NULL : &lp->mon[k];
    if (!m) {
        net_udp_sendto(lp->fd, from, "(error no_more_monitor)", 24);
        return;
    }
    m->fd = net_udp_connected(lp->bind, 0, from, err, sizeof err);
    if (m->fd < 0) {
        fprintf(stderr, "rcss-logplayer: %s\n", err);
        return;
    }
    m->used = 1;
    m->version = version;
    m->addr = *from;
    m->lp = lp;
    m->ev = event_new(lp->base, m->fd, EV_READ | EV_PERSIST, on_monitor, m);
    event_add(m->ev, NULL);
    if (version < 0)
        printf("a monitor (json) connected\n");
    else
        printf("a monitor (version %d) connected\n", version);
    fflush(stdout);
    mon_init(lp, m);
}

void lp_mon_listen(evutil_socket_t fd, short what, void *arg)
{
    lp_t *lp = arg;
    char buf[512];
    (void)what;
    for (int i = 0; i < 16; i++) {
        struct sockaddr_storage from;
        socklen_t fl = sizeof from;
        ssize_t n = recvfrom(fd, buf, sizeof buf - 1, MSG_DONTWAIT, (struct sockaddr *)&from, &fl);
        if (n < 0)
            return;
        buf[n] = '\0';
        size_t len = strlen(buf);
        while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
            buf[--len] = '\0';
        lp_mon_t *known = mon_find(lp, &from);
        int version;
        if (dispinit_parse(buf, len, &version) < 0) {
            if (known) /* a protocol-1 monitor's commands come to this port */
                mon_command(known, buf);
            continue; /* otherwise not a monitor: nothing to say to it */
        }
        if (!dispinit_version_served(version)) {
            const char *e = "(error illegal_client_version)";
            net_udp_sendto(fd, &from, e, strlen(e) + 1);
        } else if (known) {
            known->version = version;
            mon_init(lp, known);
        } else {
            mon_add(lp, &from, version);
        }
    }
}
