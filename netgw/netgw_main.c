/* netgw_main.c -- rcss-netgw --shm NAME --index I: one player/coach gateway. Attaches to
 * the sim's region, binds the shared UDP ports (SO_REUSEPORT), takes back the clients a
 * previous instance of the same index served, then runs a libevent loop: datagrams,
 * the sim's wake-ups, the timer of the cycle's sensor polls and a heartbeat. Leaves on SIGTERM/SIGINT, on the region's shutdown flag, or when the sim
 * is gone; its clients stay in the table for the next instance. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <event2/event.h>
#include "log.h"
#include "proc.h"
#include "net.h"
#include "netgw.h"
#include "netgw_coachgw.h"
#include "netgw_conn.h"

#define PORT_READS_PER_EVENT 64
#define PORT_RECV_BATCH      16

/* ---- events ------------------------------------------------------------------------ */
/* datagrams on a shared port (inits, monitor inits, errors): PORT_RECV_BATCH per
 * system call (recvmmsg), so a burst of 1,000 dispinits costs 63 calls, not 1,001 */
static void on_port_read(evutil_socket_t fd, short what, void *arg)
{
    ngw_port_t *p = arg;
    static char buf[PORT_RECV_BATCH][NGW_DGRAM_MAX + 1];
    static struct sockaddr_storage from[PORT_RECV_BATCH];
    static struct mmsghdr m[PORT_RECV_BATCH];
    static struct iovec iov[PORT_RECV_BATCH];
    (void)what;
    for (int i = 0; i < PORT_READS_PER_EVENT; i += PORT_RECV_BATCH) {
        for (int k = 0; k < PORT_RECV_BATCH; k++) {
            iov[k] = (struct iovec){ buf[k], NGW_DGRAM_MAX };
            m[k].msg_hdr = (struct msghdr){ .msg_name = &from[k], .msg_namelen = sizeof from[k],
                                            .msg_iov = &iov[k], .msg_iovlen = 1 };
        }
        int got = recvmmsg(fd, m, PORT_RECV_BATCH, MSG_DONTWAIT, NULL);
        if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (got < 0)
            continue;
        for (int k = 0; k < got; k++) {
            size_t n = m[k].msg_len;
            if (n == 0)
                continue;
            buf[k][n] = '\0';
            ngw_port_datagram(p->g, p, buf[k], strnlen(buf[k], n), &from[k]);
        }
        if (got < PORT_RECV_BATCH)
            return;
    }
}

static void on_wake(void *arg)
{
    ngw_cycle_wake(arg);
}

static void on_tick(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    ngw_cycle_tick(arg);
}

static int on_beat(void *arg)
{
    ngw_t *g = arg;
    ngw_coach_wait_check(g);
    return shm_gateway_sim_alive(g->r);
}

/* ---- setup and teardown --------------------------------------------------------------- */
/* 0, -1, or SHM_CONFLICT when a port is taken (the sim then stops instead of
 * restarting us) */
static int open_ports(ngw_t *g)
{
    const int nums[3] = { conf_int(&g->conf, SP_port), conf_int(&g->conf, SP_coach_port),
                          conf_int(&g->conf, SP_olcoach_port) };
    const int kinds[3] = { CLIENT_KIND_PLAYER, CLIENT_KIND_TRAINER, CLIENT_KIND_OLCOACH };
    char err[256];
    for (int i = 0; i < 3; i++) {
        ngw_port_t *p = &g->port[i];
        p->port = nums[i];
        p->kind = kinds[i];
        p->fd = net_udp_bind(conf_str(&g->conf, SP_bind_address), nums[i], 1, err, sizeof err);
        if (p->fd < 0) {
            int e = errno;
            log_err("%s", err);
            return e == EADDRINUSE || e == EACCES ? SHM_CONFLICT : -1;
        }
        g->nports++;
        p->g = g;
        p->ev = event_new(g->base, p->fd, EV_READ | EV_PERSIST, on_port_read, p);
        if (!p->ev || event_add(p->ev, NULL) < 0)
            return -1;
    }
    return 0;
}

static int start_events(ngw_t *g)
{
    g->loop.on_wake = on_wake;
    g->loop.on_beat = on_beat;
    g->loop.arg = g;
    if (shm_gwloop_start(&g->loop, g->base, g->r, g->index, &g->self->heartbeat_ns,
                         NGW_HEARTBEAT_MS) < 0)
        return -1;
    if (!g->loop.waker.sock)
        log_info("wake socket taken: waiting on the cycle semaphore in a thread");
    if (shm_wake_open(&g->wake, g->r) < 0)
        log_warn("no wake socket for monitorgw: semaphore only");
    g->tick_ev = evtimer_new(g->base, on_tick, g);
    if (!g->tick_ev)
        return -1;
    return 0;
}

/* 0, -1, or SHM_CONFLICT (region of another server, ports taken) */
static int ngw_start(ngw_t *g, const char *name, int index, uint64_t instance)
{
    char err[SHM_ERR_LEN];
    g->index = index;
    g->loop.waker.fd = -1;
    g->wake.fd = -1;
    g->done_hint = -1;
    g->coach.replying = -1;
    /* the sessions the client sockets (netgw_conn.c) hand their datagrams to */
    g->ops = (ngw_ops_t){ .player_datagram = ngw_client_datagram,
                          .coach_datagram = ngw_coach_datagram,
                          .coach_waiting = ngw_coach_waiting,
                          .coach_gone = ngw_coach_gone };
    for (int i = 0; i < SHM_MAX_CLIENTS; i++) {
        g->cl[i].idx = i;
        g->cl[i].fd = -1;
    }
    int rc = shm_gateway_attach(&g->shm, name, NGW_ATTACH_WAIT_MS, instance, err, sizeof err);
    if (rc < 0) {
        fprintf(stderr, "rcss-netgw: %s\n", err);
        return rc;
    }
    g->r = g->shm.r;
    if ((uint32_t)index >= g->r->hdr.n_gateways) {
        fprintf(stderr, "rcss-netgw: index %d, but server::netgw_processes is %u\n", index,
                g->r->hdr.n_gateways);
        return -1;
    }
    g->self = &g->r->netgw[index];
    shm_gateway_conf(g->r, &g->conf);
    if (conf_bool(&g->conf, SP_verbose))
        log_level = LOG_DEBUG;
    /* server::rt_priority in real time: the players' sensors on the real-time scheduler,
     * like the sim's steps */
    if (!conf_bool(&g->conf, SP_synch_mode)
        && proc_realtime(conf_int(&g->conf, SP_rt_priority), err, sizeof err) < 0)
        log_warn("%s", err);
    tgrid_param_t tp;
    tgrid_param_conf(&tp, &g->conf);
    if (tgrid_init(&g->grid, &tp, err, sizeof err) < 0) {
        fprintf(stderr, "rcss-netgw: %s\n", err);
        return -1;
    }
    rng_seed(&g->rng, g->r->hdr.random_seed ^ (0x9e3779b97f4a7c15ULL * (uint64_t)(index + 1)));
    atomic_store(&g->self->pid, (int32_t)getpid());
    atomic_store(&g->self->state, PROC_ST_RUNNING);
    /* the sensors' polls are timers on the sim's grid: libevent's precise clock, not its
     * default coarse one (CLOCK_MONOTONIC_COARSE moves in 4 ms steps) */
    struct event_config *cfg = event_config_new();
    if (!cfg)
        return -1;
    event_config_set_flag(cfg, EVENT_BASE_FLAG_PRECISE_TIMER);
    g->base = event_base_new_with_config(cfg);
    event_config_free(cfg);
    if (!g->base)
        return -1;
    rc = open_ports(g);
    if (rc < 0)
        return rc;
    /* posts made while no instance ran are stale (the waker drains them): start at the
     * newest snapshot */
    g->last_step = atomic_load(&g->r->hdr.published);
    g->ev_cursor = shm_event_head(g->r);
    if (ngw_snap_refresh(g) == 0)
        g->served_step = g->snap.step;
    ngw_client_takeover(g);
    if (start_events(g) < 0) {
        log_err("cannot set up the event loop");
        return -1;
    }
    atomic_store(&g->self->heartbeat_ns, shm_now_ns());
    return 0;
}

static void ngw_stop(ngw_t *g)
{
    shm_gwloop_stop(&g->loop);
    shm_wake_close(&g->wake);
    for (int i = 0; i < SHM_MAX_CLIENTS; i++)
        ngw_conn_detach(g, i, 0);
    for (int i = 0; i < g->nports; i++) {
        if (g->port[i].ev)
            event_free(g->port[i].ev);
        close(g->port[i].fd);
    }
    if (g->tick_ev)
        event_free(g->tick_ev);
    tgrid_free(&g->grid);
    if (g->base)
        event_base_free(g->base);
    if (g->self)
        atomic_store(&g->self->state, PROC_ST_EXITED);
    if (g->shm.r && shm_gateway_leave(&g->shm))
        log_info("the sim was killed: removed its region");
}

int main(int argc, char **argv)
{
    static ngw_t g; /* large: snapshot and buffers */
    shm_gwargs_t a;
    signal(SIGPIPE, SIG_IGN);
    if (shm_gateway_args(argc, argv, "RCSS_SHM", SHM_ARG_INSTANCE | SHM_ARG_INDEX, &a) < 0) {
        fprintf(stderr, "usage: rcss-netgw --shm NAME --index I [--instance ID]   (NAME "
                "also from $RCSS_SHM)\n");
        return SHM_GW_EXIT_CONFLICT; /* never useful to restart */
    }
    char prog[32];
    snprintf(prog, sizeof prog, "rcss-netgw.%d", a.index);
    log_init(prog, LOG_INFO);
    int rc = ngw_start(&g, a.name, a.index, a.instance);
    if (rc < 0) {
        ngw_stop(&g);
        return rc == SHM_CONFLICT ? SHM_GW_EXIT_CONFLICT : 1;
    }
    event_base_dispatch(g.base);
    if (g.loop.sim_gone)
        log_info("the sim is gone; leaving");
    ngw_stop(&g);
    return 0;
}
