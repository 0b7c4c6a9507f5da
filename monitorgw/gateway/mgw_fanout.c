/* mgw_fanout.c -- what every monitor gets: each show frame and message is encoded once
 * per protocol version in use (and compressed once per zlib level in use), and the same
 * bytes go to every monitor of that version with one non-blocking send each: a monitor
 * whose socket buffer is full loses that datagram (counted), nobody waits for it. The
 * JSON form, stamped with the sim's publish number and time (common/frame_stamp.h), goes
 * to the browser viewers (mgw_http.c) and the broadcast tier (mgw_bcast.c). Also
 * the init block (one sendmmsg) and the team-graphic tiles, pushed a few per cycle so
 * that late monitors get every tile. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include "frame_stamp.h"
#include "log.h"
#include "mgw.h"
#include "playmode.h"
#include "uring.h"

int mgw_init_buffers(mgw_t *g)
{
    if (!(g->vframe = malloc(MGW_FRAME_MAX + FRAME_STAMP_MAX)))
        return -1;
    for (int v = 0; v < MGW_NVER; v++) {
        g->fbuf[v] = malloc(MGW_FRAME_MAX);
        if (!g->fbuf[v])
            return -1;
    }
    return 0;
}

void mgw_free_buffers(mgw_t *g)
{
    free(g->vframe);
    g->vframe = NULL;
    for (int v = 0; v < MGW_NVER; v++) {
        free(g->fbuf[v]);
        free(g->init_data[v]);
        g->fbuf[v] = NULL;
        g->init_data[v] = NULL;
        for (int l = 0; l < MGW_NLEVEL; l++) {
            free(g->zbuf[v][l]);
            g->zbuf[v][l] = NULL;
        }
    }
    for (int k = 0; k < 2; k++)
        for (int t = 0; t < MGW_TILES; t++) {
            free(g->tile[k][t].lines);
            g->tile[k][t].lines = NULL;
        }
}

/* ---- frame sets ----------------------------------------------------------------------- */
int mgw_fset_get(mgw_t *g, mgw_fset_t *f, int version, int zlevel, const void **data)
{
    int vi = mgw_vidx(version);
    if (f->len[vi] == 0) {
        int n = f->enc(g, version, f->arg, g->fbuf[vi], MGW_FRAME_MAX);
        f->len[vi] = n > 0 ? n : -1;
    }
    if (f->len[vi] < 0)
        return -1;
    if (zlevel < 0 || zlevel >= MGW_NLEVEL) {
        *data = g->fbuf[vi];
        return f->len[vi];
    }
    if (!g->zbuf[vi][zlevel] && !(g->zbuf[vi][zlevel] = malloc(MGW_FRAME_MAX + 64)))
        return -1;
    if (f->zlen[vi][zlevel] == 0) {
        int n = mgw_zlib_pack(zlevel, g->fbuf[vi], (size_t)f->len[vi], g->zbuf[vi][zlevel],
                              MGW_FRAME_MAX + 64);
        f->zlen[vi][zlevel] = n > 0 ? n : -1;
    }
    *data = g->zbuf[vi][zlevel];
    return f->zlen[vi][zlevel];
}

static void on_sent(void *arg, uint64_t tag, int res)
{
    mgw_t *g = arg;
    if (tag < (uint64_t)g->npeers)
        mgw_peer_sent(g, g->peers[tag], res);
}

void mgw_fset_broadcast(mgw_t *g, mgw_fset_t *f)
{
    for (int i = 0; i < g->npeers; i++) {
        mgw_peer_t *p = g->peers[i];
        const void *d;
        int n = mgw_fset_get(g, f, p->version, p->zlevel, &d);
        if (n <= 0 || p->dead)
            continue;
        if (g->ring)
            uring_send(g->ring, p->fd, d, (size_t)n, (uint64_t)i, on_sent, g);
        else
            mgw_peer_send_raw(g, p, d, (size_t)n);
    }
    /* the frames stay where mgw_fset_get put them until every send is done */
    if (g->ring && uring_submit(g->ring, on_sent, g) < 0) {
        log_warn("io_uring failed (%s): a send per monitor from now on", strerror(errno));
        uring_close(g->ring);
        g->ring = NULL;
    }
}

/* ---- shows -------------------------------------------------------------------------- */
static int enc_show(mgw_t *g, int version, const void *arg, char *buf, size_t len)
{
    (void)arg;
    return mgw_encode_show_disp(&g->show, version, buf, len);
}

static int tile_bit(const mgw_peer_t *p, int k, int t)
{
    return (p->tiles[k][t / 32] >> (t % 32)) & 1u;
}

/* this cycle's share of the tiles p has not got yet */
static void send_tiles(mgw_t *g, mgw_peer_t *p, int budget)
{
    for (int k = 0; k < 2 && budget > 0; k++) {
        for (int t = 0; t < MGW_TILES && budget > 0; t++) {
            if (!g->tile[k][t].used || tile_bit(p, k, t))
                continue;
            p->tiles[k][t / 32] |= 1u << (t % 32);
            budget--;
            int n = mgw_encode_tile(p->version, g->show.time, k ? -1 : 1, t % 32, t / 32,
                                    g->tile[k][t].lines, g->out, sizeof g->out);
            if (n > 0)
                mgw_peer_send(g, p, g->out, (size_t)n);
        }
    }
}

void mgw_fanout_show(mgw_t *g)
{
    mgw_show_from_snap(&g->snap, &g->show);
    mgw_fset_t f;
    memset(&f, 0, sizeof f);
    f.enc = enc_show;
    mgw_fset_broadcast(g, &f);
    if (g->http || g->bcast) { /* browser viewers, here and beyond (the tier) */
        const void *d;
        int n = mgw_fset_get(g, &f, -1, -1, &d);
        int m = n > 1 ? frame_stamp_write(d, (size_t)n - 1, g->snap.step,
                                          frame_stamp_wall_us(g->snap.publish_ns), g->vframe,
                                          MGW_FRAME_MAX + FRAME_STAMP_MAX)
                      : -1;
        if (m > 0 && g->http)
            mgw_http_frame(g, g->snap.step, g->vframe, (size_t)m); /* id: the publish number */
        if (m > 0)
            mgw_bcast_frame(g, g->vframe, (size_t)m);
    }
    g->frames++;
    if (g->ntiles == 0)
        return;
    int budget = g->show.pmode == PM_BEFORE_KICK_OFF ? MGW_TILES_EARLY : MGW_TILES_LATE;
    for (int i = 0; i < g->npeers; i++)
        send_tiles(g, g->peers[i], budget);
}

/* ---- messages ----------------------------------------------------------------------- */
typedef struct msg_arg {
    int time, stime, board;
    const char *text;
} msg_arg_t;

static int enc_msg(mgw_t *g, int version, const void *arg, char *buf, size_t len)
{
    const msg_arg_t *m = arg;
    (void)g;
    return mgw_encode_msg_v(version, m->time, m->stime, m->board, m->text, buf, len);
}

void mgw_fanout_msg(mgw_t *g, int time, int stime, int board, const char *text)
{
    if (g->npeers == 0)
        return;
    msg_arg_t m = { time, stime, board, text };
    mgw_fset_t f;
    memset(&f, 0, sizeof f);
    f.enc = enc_msg;
    f.arg = &m;
    mgw_fset_broadcast(g, &f);
}

void mgw_fanout_reply(mgw_t *g, mgw_peer_t *p, const char *text)
{
    int t = g->have_snap ? g->snap.time : 0, st = g->have_snap ? g->snap.stoppage : 0;
    int n = mgw_encode_msg_v(p->version, t, st, DISP_MSG_BOARD, text, g->out, sizeof g->out);
    if (n > 0)
        mgw_peer_send(g, p, g->out, (size_t)n);
}

/* "X Y \"line\" ..." from an online coach: kept, then pushed to every monitor */
void mgw_fanout_tile(mgw_t *g, int side, const char *text)
{
    int x, y, off = 0;
    if (sscanf(text, "%d %d %n", &x, &y, &off) < 2 || off <= 0 || x < 0 || x >= 32 || y < 0
        || y >= MGW_TILES / 32)
        return;
    int k = side == SHM_SIDE_RIGHT ? 1 : 0, t = y * 32 + x;
    char *lines = strdup(text + off);
    if (!lines)
        return;
    mgw_tile_t *tile = &g->tile[k][t];
    free(tile->lines);
    tile->lines = lines;
    if (!tile->used)
        g->ntiles++;
    tile->used = 1;
    for (int i = 0; i < g->npeers; i++) /* a replaced tile goes out again */
        g->peers[i]->tiles[k][t / 32] &= ~(1u << (t % 32));
}

/* ---- init block --------------------------------------------------------------------- */
static int init_build(mgw_t *g, int vi, int version)
{
    size_t cap = 0, used = 0;
    char *data = NULL;
    int n = 0;
    for (int k = 0; k < SHM_MAX_PTYPES + 2; k++) {
        int len = mgw_encode_init(version, k, &g->conf, &g->r->ptypes, g->out, sizeof g->out);
        if (len <= 0)
            break;
        if (used + (size_t)len > cap) {
            cap = (used + (size_t)len) * 2;
            char *nd = realloc(data, cap);
            if (!nd) {
                free(data);
                return -1;
            }
            data = nd;
        }
        memcpy(data + used, g->out, (size_t)len);
        g->init_off[vi][n++] = (int)used;
        used += (size_t)len;
    }
    g->init_off[vi][n] = (int)used;
    g->init_n[vi] = n;
    g->init_data[vi] = data ? data : malloc(1);
    return g->init_data[vi] ? 0 : -1;
}

void mgw_fanout_init(mgw_t *g, mgw_peer_t *p)
{
    int vi = mgw_vidx(p->version);
    if (!g->init_data[vi] && init_build(g, vi, p->version) < 0)
        return;
    int n = g->init_n[vi];
    const int *off = g->init_off[vi];
    if (p->zlevel >= 0) {
        for (int k = 0; k < n; k++)
            mgw_peer_send(g, p, g->init_data[vi] + off[k], (size_t)(off[k + 1] - off[k]));
        return;
    }
    struct mmsghdr msg[SHM_MAX_PTYPES + 2];
    struct iovec iov[SHM_MAX_PTYPES + 2];
    memset(msg, 0, sizeof msg);
    for (int k = 0; k < n; k++) {
        iov[k].iov_base = g->init_data[vi] + off[k];
        iov[k].iov_len = (size_t)(off[k + 1] - off[k]);
        msg[k].msg_hdr.msg_iov = &iov[k];
        msg[k].msg_hdr.msg_iovlen = 1;
    }
    int sent = n > 0 ? sendmmsg(p->fd, msg, (unsigned)n, MSG_DONTWAIT) : 0;
    if (sent < 0 && errno == ECONNREFUSED)
        p->dead = 1;
    p->sent += sent > 0 ? (uint64_t)sent : 0;
    if (sent < n)
        p->skipped += (uint64_t)(n - (sent > 0 ? sent : 0));
}
