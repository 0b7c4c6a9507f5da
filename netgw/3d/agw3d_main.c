/* agw3d_main.c -- rcss3d-agentgw --shm NAME: the 3D server's agent gateway. Attaches to
 * the sim's region, frees the slots a previous instance left, listens on
 * server::agent_port, starts the agents of server::agent_list, then runs a libevent
 * loop: connections, the cycle semaphore (turned into an eventfd by a thread: every
 * snapshot in order, its events, the perceptions), SIGCHLD for the pipe agents and a
 * heartbeat. Leaves on SIGTERM/SIGINT, on the region's shutdown flag, or when the sim
 * is gone; stops its pipe agents by pid on the way out. */
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <event2/event.h>
#include <event2/listener.h>
#include "agw3d.h"
#include "log.h"

#define AGW3D_BEAT_MS   100
#define AGW3D_ATTACH_MS 5000

/* ---- per snapshot ------------------------------------------------------------------ */
static void forward_events(agw3d_t *g)
{
    shm3d_event_sh_t ev;
    int rc;
    while ((rc = shm3d_event_next(g->r, &g->ev_cursor, g->snap.event_head, &ev)) <= 0) {
        if (rc < 0) {
            atomic_fetch_add(&g->self->resets, 1);
            continue;
        }
        if (ev.kind != SHM3D_EV_AGENT_ERROR)
            continue;
        agw3d_conn_t *c = agw3d_conn_by_slot(g, ev.slot, ev.generation);
        int len = ev.len < 0 ? 0 : ev.len > SHM3D_EVENT_TEXT_LEN ? SHM3D_EVENT_TEXT_LEN : ev.len;
        if (c)
            agw3d_conn_send(c, ev.text, (size_t)len);
    }
}

static void snapshot_cb(void *ctx)
{
    agw3d_t *g = ctx;
    forward_events(g);
    agw3d_conn_snapshot(g);
}

static void on_wake(void *arg)
{
    agw3d_t *g = arg;
    shm3d_gateway_follow(g->r, g->self, &g->last_step, &g->snap, snapshot_cb, g);
}

static int on_beat(void *arg)
{
    agw3d_t *g = arg;
    agw3d_spawn_reap(g);
    agw3d_conn_sweep(g);
    return shm3d_sim_alive(g->r);
}

static void on_child(void *arg)
{
    agw3d_spawn_reap(arg);
}

static void on_accept(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa,
                      int salen, void *arg)
{
    agw3d_t *g = arg;
    int on = 1;
    (void)l;
    (void)salen;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
    if (agw3d_conn_open(g, fd, SHM3D_KIND_TCP, 0, sa) < 0)
        log_warn("agent connection refused");
}

/* ---- setup and teardown ----------------------------------------------------------- */
static int start(agw3d_t *g)
{
    char err[256];
    int port = conf3d_int(&g->conf, P3_agent_port);
    if (shm_gwloop_listen(&g->loop, g->base, conf3d_str(&g->conf, P3_bind_address), port,
                          on_accept, g, err, sizeof err) < 0) {
        if (err[0])
            log_err("%s", err);
        return -1;
    }
    g->loop.on_wake = on_wake;
    g->loop.on_beat = on_beat;
    g->loop.on_child = on_child;
    g->loop.arg = g;
    if (shm_gwloop_start_sem(&g->loop, g->base, &g->self->cycle_sem, &g->r->hdr.shutdown,
                             &g->self->heartbeat_ns, AGW3D_BEAT_MS) < 0)
        return -1;
    atomic_store(&g->self->heartbeat_ns, shm_now_ns());
    log_info("agents on TCP port %d", port);
    return 0;
}

static void teardown(agw3d_t *g)
{
    agw3d_conn_bye(g);
    for (int i = 0; i < SHM3D_MAX_AGENTS; i++)
        agw3d_conn_close(g, &g->conn[i]);
    for (int i = 0; i < g->npend; i++)
        agw3d_conn_close(g, &g->pend[i]);
    free(g->pend);
    agw3d_spawn_stop(g);
    shm_gwloop_stop(&g->loop);
    if (g->base)
        event_base_free(g->base);
    shm3d_region_detach(&g->shm);
}

int main(int argc, char **argv)
{
    static agw3d_t gw; /* large: not on the stack */
    agw3d_t *g = &gw;
    char err[256];
    log_init("rcss3d-agentgw", LOG_INFO);
    signal(SIGPIPE, SIG_IGN);
    int rc = shm3d_gateway_open(argc, argv, AGW3D_ATTACH_MS, &g->shm, &g->conf, err, sizeof err);
    if (rc == -2)
        fprintf(stderr, "usage: rcss3d-agentgw --shm NAME   (NAME also from $RCSS3D_SHM)\n");
    else if (rc < 0)
        log_err("%s", err);
    if (rc < 0)
        return 1;
    g->r = g->shm.r;
    g->self = &g->r->proc[SHM3D_GW_AGENT];
    if (conf3d_bool(&g->conf, P3_verbose))
        log_level = LOG_DEBUG;
    g->base = event_base_new();
    g->last_step = atomic_load(&g->r->hdr.published);
    g->ev_cursor = shm3d_event_head(g->r);
    rc = 1;
    if (g->base && agw3d_conn_setup(g) == 0 && start(g) == 0) {
        agw3d_conn_takeover(g);
        agw3d_spawn_list(g);
        event_base_dispatch(g->base);
        if (g->loop.sim_gone)
            log_info("the sim is gone; leaving");
        rc = 0;
    }
    teardown(g);
    return rc;
}
