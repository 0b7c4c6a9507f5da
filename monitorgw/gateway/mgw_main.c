/* mgw_main.c -- rcss-monitorgw --shm NAME: the monitor gateway. Attaches to the sim's
 * region, takes back the monitors a previous instance served, then runs a libevent
 * loop: on every cycle-semaphore post (turned into an eventfd by a thread; the sim posts
 * it per snapshot, a netgw after handing over a monitor init) the netgw hand-over rings
 * and every new snapshot as one frame per version to every monitor and browser viewer,
 * plus the messages of the event ring; every MGW_POLL_MS the rings again and the
 * heartbeat. Leaves on SIGTERM/SIGINT, shutdown, or when the sim is gone. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <event2/event.h>
#include "log.h"
#include "mgw.h"
#include "uring.h"

/* ---- per cycle ------------------------------------------------------------------------ */
static const char *coach_name(int side)
{
    return side == SHM_SIDE_RIGHT ? "online_coach_right" : "online_coach_left";
}

static void forward_event(mgw_t *g, const shm_event_sh_t *ev)
{
    char text[SHM_TEXT_MAX + 64];
    int len = ev->len < 0 ? 0 : ev->len > SHM_EVENT_TEXT_LEN ? SHM_EVENT_TEXT_LEN : ev->len;
    if (!shm_text_feed(&g->ev_text, ev->kind == SHM_EV_CONT, ev->text, (size_t)len))
        return;
    const char *t = g->ev_text.buf;
    int comms = conf_bool(&g->conf, SP_send_comms);
    char side = ev->side == SHM_SIDE_RIGHT ? 'r' : 'l';
    switch (ev->kind) {
    case SHM_EV_MSG:
        if (ev->arg == DISP_LOG_BOARD) /* game log only */
            return;
        snprintf(text, sizeof text, "%s", t);
        break;
    case SHM_EV_CHANGE_TYPE:
        if (ev->arg < 0)
            snprintf(text, sizeof text, "(change_player_type %c %d goalie)", side, ev->unum);
        else
            snprintf(text, sizeof text, "(change_player_type %c %d %d)", side, ev->unum, ev->arg);
        break;
    case SHM_EV_TEAM_GRAPHIC:
        mgw_fanout_tile(g, ev->side, t);
        return;
    case SHM_EV_REFEREE:
        if (!comms)
            return;
        snprintf(text, sizeof text, "(referee %s)", t);
        break;
    case SHM_EV_SAY:
        if (!comms)
            return;
        snprintf(text, sizeof text, "((player %s %d) %s)",
                 g->snap.team[ev->side == SHM_SIDE_RIGHT ? 1 : 0], ev->unum, t);
        break;
    /* the coaches' words as the game log has them, the text cut at 2010 characters as
     * the reference cuts it for monitors (docs/protocol/monitor.md §5) */
    case SHM_EV_TRAINER_SAY:
        if (!comms)
            return;
        snprintf(text, sizeof text, "(referee %.2010s)", t);
        break;
    case SHM_EV_COACH_SAY:
        if (!comms)
            return;
        snprintf(text, sizeof text, "(%s %.2010s)", coach_name(ev->side), t);
        break;
    case SHM_EV_CLANG: /* x: the cycle the coach sent it in */
        if (!comms)
            return;
        snprintf(text, sizeof text, "(%s %d %.2010s)", coach_name(ev->side), (int)ev->x, t);
        break;
    case SHM_EV_ACK:
        if (ev->side == 1 && ev->unum == SHM_MAX_GATEWAYS)
            mgw_peer_ack(g, (uint32_t)ev->arg);
        return;
    default:
        return;
    }
    mgw_fanout_msg(g, ev->time, ev->stoppage, DISP_MSG_BOARD, text);
}

static void forward_events(mgw_t *g)
{
    shm_event_sh_t ev;
    int rc;
    while ((rc = shm_event_next(g->r, &g->ev_cursor, g->snap.event_head, &ev)) <= 0) {
        if (rc < 0) {
            atomic_fetch_add(&g->self->resets, 1);
            continue;
        }
        forward_event(g, &ev);
    }
}

static void cycle_cb(void *ctx)
{
    mgw_t *g = ctx;
    g->have_snap = 1;
    forward_events(g);
    mgw_fanout_show(g);
    /* at once, not after the catch-up: the synch-mode sim paces itself by it */
    atomic_store(&g->self->last_step, g->snap.step);
}

/* the live world after the newest step (commands applied at once): the world
 * check_ball reads, and its events (board messages, acknowledgements) now */
static void live_world(mgw_t *g)
{
    static shm_snapshot_sh_t live;
    uint64_t pub = atomic_load_explicit(&g->r->hdr.live_pub, memory_order_acquire), got = 0;
    if (pub == g->live_pub || !g->have_snap || shm_live_read(g->r, &got, &live) < 0
        || live.step > g->snap.step)
        return;
    g->live_pub = got;
    if (live.step < g->snap.step)
        return;
    g->snap = live;
    forward_events(g);
}

/* Players first: a new step goes to monitors and viewers once every running netgw has
 * served it to its players (its last_step; it wakes monitorgw then), so a thousand
 * datagrams to monitors never queue before a player's sense_body on a busy machine. A
 * netgw that has not done so within MGW_YIELD_NS (stalled, or gone without saying) is
 * not waited for. 1: go on now. */
static int players_served(mgw_t *g)
{
    uint64_t pub = atomic_load_explicit(&g->r->hdr.published, memory_order_acquire);
    if (pub <= g->last_step)
        return 1;
    int64_t now = shm_now_ns();
    for (uint32_t k = 0; k < g->r->hdr.n_gateways && k < SHM_MAX_GATEWAYS; k++) {
        const shm_proc_sh_t *n = &g->r->netgw[k];
        if (atomic_load(&n->state) != PROC_ST_RUNNING || atomic_load(&n->pid) <= 0
            || now - atomic_load(&n->heartbeat_ns) > MGW_YIELD_STALE_NS
            || atomic_load(&n->last_step) >= pub)
            continue;
        if (g->yield_step != pub) {
            g->yield_step = pub;
            g->yield_ns = now;
            g->yields++;
        }
        if (now - g->yield_ns >= MGW_YIELD_NS) {
            g->yield_timeouts++;
            return 1;
        }
        struct timeval tv = { 0, (suseconds_t)((MGW_YIELD_NS - (now - g->yield_ns)) / 1000) };
        event_add(g->yield_ev, &tv);
        return 0;
    }
    return 1;
}

static void on_cycle(mgw_t *g)
{
    if (!players_served(g))
        return;
    event_del(g->yield_ev);
    live_world(g); /* what happened between the steps comes before the next step */
    shm_snap_follow(g->r, &g->last_step, MGW_MAX_BEHIND, &g->snap, &g->self->resets,
                    cycle_cb, g);
    live_world(g);
    atomic_store(&g->self->last_step, g->last_step);
    mgw_status_poll(g);
    mgw_peer_reap(g);
}

/* ---- events ------------------------------------------------------------------------ */
static void drain_requests(mgw_t *g)
{
    shm_monreq_sh_t m;
    for (uint32_t k = 0; k < g->r->hdr.n_gateways && k < SHM_MAX_GATEWAYS; k++) {
        while (shm_monreq_pop(&g->r->netgw[k].monreq, &m) == 0)
            mgw_peer_request(g, &m);
    }
}

static void on_wake(void *arg)
{
    mgw_t *g = arg;
    drain_requests(g);
    on_cycle(g);
}

static void on_yield_end(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    on_cycle(arg);
}

/* every MGW_POLL_MS (the loop's beat) */
static int on_poll(void *arg)
{
    mgw_t *g = arg;
    drain_requests(g);
    mgw_status_poll(g);
    mgw_peer_reap(g);
    mgw_peer_note_idle(g);
    mgw_peer_wait_check(g);
    return shm_gateway_sim_alive(g->r);
}

/* ---- setup and teardown --------------------------------------------------------------- */
static int start_events(mgw_t *g)
{
    g->loop.on_wake = on_wake;
    g->loop.on_beat = on_poll;
    g->loop.arg = g;
    g->yield_ev = evtimer_new(g->base, on_yield_end, g);
    if (!g->yield_ev)
        return -1;
    return shm_gwloop_start(&g->loop, g->base, g->r, SHM_WAKE_MGW, &g->self->heartbeat_ns,
                            MGW_POLL_MS);
}

/* monitors and viewers yield the CPU to the sim and the players' gateways: monitorgw
 * runs server::monitorgw_nice (0-19) above the nice value it was started with */
static void lower_priority(const conf_t *c)
{
    int inc = conf_int(c, SP_monitorgw_nice);
    if (inc <= 0)
        return;
    errno = 0;
    int now = getpriority(PRIO_PROCESS, 0);
    if (errno == 0 && setpriority(PRIO_PROCESS, 0, now + inc > 19 ? 19 : now + inc) < 0)
        log_warn("cannot lower monitorgw's priority: %s", strerror(errno));
}

/* a monitor is one socket: take every descriptor the hard limit allows */
static void raise_fd_limit(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}

/* 0, -1, or SHM_CONFLICT (another server's region, the http port taken) */
static int mgw_start(mgw_t *g, const char *name, uint64_t instance)
{
    char err[SHM_ERR_LEN];
    g->reply_fd = -1;
    int rc = shm_gateway_attach(&g->shm, name, MGW_ATTACH_WAIT_MS, instance, err, sizeof err);
    if (rc < 0) {
        fprintf(stderr, "rcss-monitorgw: %s\n", err);
        return rc;
    }
    g->r = g->shm.r;
    g->self = &g->r->monitorgw;
    shm_gateway_conf(g->r, &g->conf);
    if (conf_bool(&g->conf, SP_verbose))
        log_level = LOG_DEBUG;
    if (mgw_ops_parse(conf_str(&g->conf, SP_monitor_operators), &g->ops, err, sizeof err) < 0) {
        fprintf(stderr, "rcss-monitorgw: %s\n", err);
        return -1;
    }
    raise_fd_limit();
    lower_priority(&g->conf);
    mgw_peer_open_reply(g);
    atomic_store(&g->self->pid, (int32_t)getpid());
    atomic_store(&g->self->state, PROC_ST_RUNNING);
    g->base = event_base_new();
    if (!g->base || mgw_init_buffers(g) < 0)
        return -1;
    g->last_step = atomic_load(&g->r->hdr.published);
    g->ev_cursor = shm_event_head(g->r);
    if (shm_snap_read_latest(g->r, &g->snap) > 0)
        g->have_snap = 1;
    mgw_peer_takeover(g);
    if (start_events(g) < 0) {
        log_err("cannot set up the event loop");
        return -1;
    }
    rc = mgw_http_start(g);
    if (rc < 0)
        return rc;
    if (mgw_bcast_start(g) < 0)
        return -1;
    g->ring = uring_open(1024, err, sizeof err);
    if (g->ring)
        log_debug("frames through io_uring");
    else
        log_debug("frames with a send per monitor: %s", err);
    atomic_store(&g->self->heartbeat_ns, shm_now_ns());
    return 0;
}

static void mgw_stop(mgw_t *g)
{
    uring_close(g->ring);
    g->ring = NULL;
    shm_gwloop_stop(&g->loop);
    if (g->yield_ev)
        event_free(g->yield_ev);
    mgw_bcast_stop(g);
    mgw_http_stop(g);
    mgw_peer_close_all(g, 0);
    if (g->base)
        event_base_free(g->base);
    mgw_free_buffers(g);
    if (g->reply_fd > 0)
        close(g->reply_fd);
    if (g->self)
        atomic_store(&g->self->state, PROC_ST_EXITED);
    if (g->shm.r && shm_gateway_leave(&g->shm))
        log_info("the sim was killed: removed its region");
}

int main(int argc, char **argv)
{
    static mgw_t g; /* large: tiles, the event text */
    shm_gwargs_t a;
    signal(SIGPIPE, SIG_IGN);
    if (shm_gateway_args(argc, argv, "RCSS_SHM", SHM_ARG_INSTANCE, &a) < 0) {
        fprintf(stderr, "usage: rcss-monitorgw --shm NAME [--instance ID]   (NAME also "
                "from $RCSS_SHM)\n");
        return SHM_GW_EXIT_CONFLICT;
    }
    log_init("rcss-monitorgw", LOG_INFO);
    int rc = mgw_start(&g, a.name, a.instance);
    if (rc < 0) {
        mgw_stop(&g);
        return rc == SHM_CONFLICT ? SHM_GW_EXIT_CONFLICT : 1;
    }
    event_base_dispatch(g.base);
    if (g.loop.sim_gone)
        log_info("the sim is gone; leaving");
    mgw_stop(&g);
    return 0;
}
