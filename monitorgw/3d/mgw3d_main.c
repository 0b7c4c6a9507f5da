/* mgw3d_main.c -- rcss3d-monitorgw --shm NAME: the 3D server's monitor gateway.
 * Attaches to the sim's region, opens the monitor log, listens on
 * server::monitor_port (and the browser view on server::http_port), then runs a
 * libevent loop: monitors, the cycle semaphore (every snapshot in order: acks from the
 * event ring, an Info on Info steps, a frame for the browser view) and a heartbeat.
 * Leaves on SIGTERM/SIGINT, on the region's shutdown flag, or when the sim is gone;
 * when the server ends, an Info of its last step (if that was not an Info step) and
 * (Die) go to every monitor and to the log. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <event2/event.h>
#include <event2/listener.h>
#include "log.h"
#include "mgw3d.h"

#define MGW3D_BEAT_MS   100
#define MGW3D_ATTACH_MS 5000

/* ---- per snapshot ------------------------------------------------------------------ */
static void forward_events(mgw3d_t *g)
{
    shm3d_event_sh_t ev;
    int rc;
    while ((rc = shm3d_event_next(g->r, &g->ev_cursor, g->snap.event_head, &ev)) <= 0) {
        if (rc < 0) {
            atomic_fetch_add(&g->self->resets, 1);
            continue;
        }
        if (ev.kind == SHM3D_EV_ACK) {
            size_t n = ev.len < 0 ? 0 : ev.len > SHM3D_EVENT_TEXT_LEN ? SHM3D_EVENT_TEXT_LEN
                                                                       : (size_t)ev.len;
            mgw3d_peer_ack(g, ev.generation, ev.text, n);
        } else if (ev.kind == SHM3D_EV_MONITOR_ERROR) {
            size_t n = ev.len < 0 ? 0 : ev.len > SHM3D_EVENT_TEXT_LEN ? SHM3D_EVENT_TEXT_LEN
                                                                       : (size_t)ev.len;
            mgw3d_peer_text(g, ev.generation, ev.text, n);
        }
    }
}

/* an Info of the current snapshot to every monitor and the log */
static void send_info(mgw3d_t *g)
{
    mgw3d_state_t next;
    int full = mgw3d_encode_info(&g->snap, &g->conf, NULL, &next, g->full, sizeof g->full);
    int delta = g->stream.valid ? mgw3d_encode_info(&g->snap, &g->conf, &g->stream, NULL,
                                                    g->delta, sizeof g->delta)
                                : -1;
    if (full < 0)
        log_warn("an Info expression did not fit its buffer");
    mgw3d_peer_info(g, g->full, full, g->delta, delta);
    mgw3d_log_info(&g->log, g->full, full, g->delta, delta);
    mgw3d_http_frame(g);
    g->stream = next;
    g->info_step = g->snap.step;
}

static void snapshot_cb(void *ctx)
{
    mgw3d_t *g = ctx;
    forward_events(g);
    if (g->snap.info)
        send_info(g);
}

static void follow(mgw3d_t *g)
{
    shm3d_gateway_follow(g->r, g->self, &g->last_step, &g->snap, snapshot_cb, g);
}

/* a post; on shutdown the loop ends and teardown follows the last snapshots */
static void on_wake(void *arg)
{
    follow(arg);
}

static int on_beat(void *arg)
{
    mgw3d_t *g = arg;
    return shm3d_sim_alive(g->r);
}

static void on_accept(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa,
                      int salen, void *arg)
{
    (void)l;
    (void)sa;
    (void)salen;
    if (mgw3d_peer_open(arg, fd) < 0)
        log_warn("monitor refused: server::max_monitors reached");
}

/* ---- setup and teardown ----------------------------------------------------------- */
static void take_conf(mgw3d_t *g)
{
    g->max_peers = conf3d_int(&g->conf, P3_max_monitors);
    if (g->max_peers > MGW3D_MAX_PEERS)
        g->max_peers = MGW3D_MAX_PEERS;
}

static int start(mgw3d_t *g)
{
    char err[256];
    int port = conf3d_int(&g->conf, P3_monitor_port);
    g->init_len = mgw3d_encode_init(&g->conf, g->init, sizeof g->init);
    if (g->init_len < 0)
        return -1;
    mgw3d_log_open(&g->log, conf3d_str(&g->conf, P3_monitor_log), g->init, g->init_len);
    if (shm_gwloop_listen(&g->loop, g->base, conf3d_str(&g->conf, P3_bind_address), port,
                          on_accept, g, err, sizeof err) < 0) {
        if (err[0])
            log_err("%s", err);
        return -1;
    }
    g->loop.on_wake = on_wake;
    g->loop.on_beat = on_beat;
    g->loop.arg = g;
    if (shm_gwloop_start_sem(&g->loop, g->base, &g->self->cycle_sem, &g->r->hdr.shutdown,
                             &g->self->heartbeat_ns, MGW3D_BEAT_MS) < 0)
        return -1;
    atomic_store(&g->self->heartbeat_ns, shm_now_ns());
    log_info("monitors on TCP port %d", port);
    return 0;
}

static void teardown(mgw3d_t *g)
{
    /* the end of the server (not a restart of this gateway): the last snapshots, then
     * (Die) to the monitors and the log */
    int end = atomic_load(&g->r->hdr.shutdown) || !shm3d_sim_alive(g->r);
    if (end && g->base) {
        follow(g);
        if (g->snap.step > g->info_step) /* the last state, if between two Info steps */
            send_info(g);
        mgw3d_peer_die(g);
    }
    mgw3d_log_close(&g->log, end);
    mgw3d_http_stop(g);
    for (int i = 0; i < MGW3D_MAX_PEERS; i++)
        mgw3d_peer_close(g, &g->peer[i]);
    shm_gwloop_stop(&g->loop);
    if (g->base)
        event_base_free(g->base);
    shm3d_region_detach(&g->shm);
}

int main(int argc, char **argv)
{
    static mgw3d_t gw; /* large: not on the stack */
    mgw3d_t *g = &gw;
    char err[256];
    log_init("rcss3d-monitorgw", LOG_INFO);
    signal(SIGPIPE, SIG_IGN);
    int rc = shm3d_gateway_open(argc, argv, MGW3D_ATTACH_MS, &g->shm, &g->conf, err, sizeof err);
    if (rc == -2)
        fprintf(stderr, "usage: rcss3d-monitorgw --shm NAME   (NAME also from $RCSS3D_SHM)\n");
    else if (rc < 0)
        log_err("%s", err);
    if (rc < 0)
        return 1;
    g->r = g->shm.r;
    g->self = &g->r->proc[SHM3D_GW_MONITOR];
    take_conf(g);
    if (conf3d_bool(&g->conf, P3_verbose))
        log_level = LOG_DEBUG;
    g->base = event_base_new();
    /* from the newest snapshot on: its Info step is the log's first after a restart */
    g->last_step = atomic_load(&g->r->hdr.published);
    if (g->last_step > 0)
        g->last_step--;
    g->ev_cursor = shm3d_event_head(g->r);
    rc = 1;
    if (g->base && start(g) == 0 && mgw3d_http_start(g) == 0) {
        event_base_dispatch(g->base);
        if (g->loop.sim_gone)
            log_info("the sim is gone; leaving");
        rc = 0;
    }
    teardown(g);
    return rc;
}
