/* netgw_conn.c -- the connection of every client this gateway serves, player or coach:
 * its own socket (connected to the client, so no other address can act for it) opened
 * and closed with its client-table entry, and read in batches; what arrives is handed
 * to the client's session through g->ops (set by netgw_main.c: the player sessions in
 * netgw_client.c, the coaches' in netgw_coach.c), so this layer calls nothing above it.
 * Also the gateway's side of the sim's region that every session needs: the world
 * served (g->snap) read on demand, and the players_now signal. */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <event2/event.h>
#include "log.h"
#include "net.h"
#include "netgw.h"
#include "netgw_conn.h"

#define CONN_READS_PER_EVENT 64
#define CONN_RECV_BATCH      8

/* ---- the world served ------------------------------------------------------------- */
int ngw_snap_refresh(ngw_t *g)
{
    if (g->have_snap)
        return 0;
    if (atomic_load_explicit(&g->r->hdr.published, memory_order_acquire) == 0
        || shm_snap_read_latest(g->r, &g->snap) == 0)
        return -1;
    g->have_snap = 1;
    return 0;
}

void ngw_players_changed(ngw_t *g)
{
    atomic_store_explicit(&g->r->hdr.players_now, 1, memory_order_release);
    shm_sem_post(&g->r->hdr.done_sem);
}

/* ---- a client's socket ------------------------------------------------------------ */
/* What is queued on a client's socket, CONN_RECV_BATCH datagrams per system call
 * (usually the one (done) of the cycle, without a second call to find the queue
 * empty: a datagram arriving later makes the socket readable again). */
static void conn_on_read(evutil_socket_t fd, short what, void *arg)
{
    ngw_client_t *c = arg;
    ngw_t *g = c->g;
    static char buf[CONN_RECV_BATCH][NGW_DGRAM_MAX + 1];
    static struct mmsghdr m[CONN_RECV_BATCH];
    static struct iovec iov[CONN_RECV_BATCH];
    (void)what;
    int coach = c->idx >= SHM_COACH_TRAINER;
    /* a coach's datagrams one at a time: after one whose command went to the sim, the
     * rest stay queued until the sim applied it (ngw_coach_ack) */
    int batch = coach ? 1 : CONN_RECV_BATCH;
    for (int i = 0; i < CONN_READS_PER_EVENT && c->used; i += batch) {
        for (int k = 0; k < batch; k++) {
            iov[k] = (struct iovec){ buf[k], NGW_DGRAM_MAX };
            m[k].msg_hdr = (struct msghdr){ .msg_iov = &iov[k], .msg_iovlen = 1 };
        }
        int got = recvmmsg(fd, m, (unsigned)batch, MSG_DONTWAIT, NULL);
        if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (got < 0 && errno == ECONNREFUSED) {
            /* the client went away (its port refused what we sent): the reference closes
             * it; a coach frees its place, a player leaves the field as after a (bye)
             * (the sim says "A player disconnected") and may come back with (reconnect) */
            if (coach) {
                g->ops.coach_gone(g, c->idx);
            } else {
                log_debug("player %d is gone (its port refused)", c->idx);
                ngw_conn_detach(g, c->idx, 1);
            }
            return;
        }
        if (got < 0)
            continue;
        for (int k = 0; k < got && c->used; k++) {
            size_t n = m[k].msg_len;
            if (n == 0)
                continue;
            if (coach)
                g->ops.coach_datagram(g, c->idx, buf[k], n);
            else
                g->ops.player_datagram(g, c->idx, buf[k], n);
        }
        if (coach && c->used && g->ops.coach_waiting(g, c->idx)) {
            event_del(c->ev);
            return;
        }
        if (got < batch)
            return; /* the queue was empty */
    }
}

void ngw_conn_entry_fresh(ngw_t *g, int idx, int kind, double version, int side,
                          const struct sockaddr_storage *from)
{
    shm_client_sh_t *e = &g->r->client[idx];
    uint32_t gen = e->generation + 1;
    memset((char *)e + sizeof e->state, 0, sizeof *e - sizeof e->state);
    e->kind = kind;
    e->owner_gw = g->index;
    e->generation = gen;
    ngw_addr_to_entry(from, e);
    e->version = version;
    e->side = side;
    e->last_recv_ns = shm_now_ns();
    atomic_store(&e->done_step, atomic_load(&g->r->hdr.published));
}

int ngw_conn_attach(ngw_t *g, int idx, int local_port)
{
    shm_client_sh_t *e = &g->r->client[idx];
    ngw_client_t *c = &g->cl[idx];
    struct sockaddr_storage peer;
    char err[256];
    if (c->used)
        ngw_conn_detach(g, idx, 0);
    ngw_entry_to_addr(e, &peer);
    int fd = net_udp_connected(conf_str(&g->conf, SP_bind_address), local_port, &peer, err,
                            sizeof err);
    if (fd < 0) {
        log_warn("client %d: %s", idx, err);
        return -1;
    }
    c->ev = event_new(g->base, fd, EV_READ | EV_PERSIST, conn_on_read, c);
    if (!c->ev || event_add(c->ev, NULL) < 0) {
        if (c->ev)
            event_free(c->ev);
        c->ev = NULL;
        close(fd);
        return -1;
    }
    c->g = g;
    c->used = 1;
    c->idx = idx;
    c->fd = fd;
    c->generation = e->generation;
    c->see_count = 0;
    c->since_step = atomic_load(&g->r->hdr.published);
    /* Synch mode: no (think) goes out for a step up to since_step, so the sim must not
     * wait for this client's (done) of such a step. A join stores done_step from an
     * earlier look at the publish counter; a step published in between would be waited
     * for (up to server::synch_timeout) and never asked for. */
    if (atomic_load(&e->done_step) < c->since_step)
        atomic_store(&e->done_step, c->since_step);
    if (e->kind == CLIENT_KIND_PLAYER && e->compression > 0)  /* taken back after a restart */
        ngw_zlib_set(fd, e->compression - 1);
    return 0;
}

void ngw_conn_detach(ngw_t *g, int idx, int release)
{
    ngw_client_t *c = &g->cl[idx];
    if (c->used) {
        ngw_udp_batch_flush(); /* what was queued for it goes out before the close */
        if (c->ev)
            event_free(c->ev);
        ngw_zlib_forget(c->fd);
        close(c->fd);
    }
    memset(c, 0, sizeof *c);
    c->idx = idx;
    c->fd = -1;
    if (release && shm_table_lock(g->r) == 0) {
        shm_client_sh_t *e = &g->r->client[idx];
        if (e->owner_gw == g->index)
            atomic_store_explicit(&e->state, CLIENT_ST_FREE, memory_order_release);
        shm_table_unlock(g->r);
        if (idx < SHM_MAX_PLAYERS)
            ngw_players_changed(g); /* off the field at once; the sim stops waiting */
        else
            shm_sem_post(&g->r->hdr.done_sem); /* in synch mode the sim stops waiting */
    }
}

void ngw_conn_resume(ngw_t *g, int idx)
{
    if (g->cl[idx].used && g->cl[idx].ev)
        event_add(g->cl[idx].ev, NULL);
}

void ngw_conn_check_owner(ngw_t *g)
{
    for (int idx = 0; idx < SHM_MAX_CLIENTS; idx++) {
        ngw_client_t *c = &g->cl[idx];
        if (!c->used)
            continue;
        const shm_client_sh_t *e = &g->r->client[idx];
        if (atomic_load(&e->state) != CLIENT_ST_ACTIVE || e->owner_gw != g->index
            || e->generation != c->generation)
            ngw_conn_detach(g, idx, 0);
    }
}
