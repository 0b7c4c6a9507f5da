/* test_peer.c -- the monitor table of mgw_peer.c driven in-process: a private region, a
 * gateway context with its own libevent base, and monitors that are plain UDP sockets on
 * 127.0.0.1. Checks registration from a hand-over record (own port, table entry, init
 * block of spec monitor-log-coach.md 1.3), refusals of 1.1, commands of 1.6 reaching the
 * control ring, frames per version, a vanished monitor, and takeover on the same port. */
#include <criterion/criterion.h>
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <event2/event.h>
#include "log.h"
#include "mgw.h"
#include "net.h"

static mgw_t g;           /* large: static, one per test process */
static char buf[MGW_FRAME_MAX];

static void setup(void)
{
    char name[SHM_NAME_LEN], err[SHM_ERR_LEN];
    snprintf(name, sizeof name, "/rcss-mgw-peer-%d", (int)getpid());
    log_level = LOG_ERR; /* the gateway's info lines would clutter the output */
    memset(&g, 0, sizeof g);
    cr_assert_eq(shm_region_create(&g.shm, name, err, sizeof err), 0, "%s", err);
    g.r = g.shm.r;
    g.self = &g.r->monitorgw;
    g.r->ptypes.count = 3;
    for (int t = 0; t < 3; t++)
        g.r->ptypes.type[t].player_speed_max = 1.0 + 0.05 * t;
    conf_defaults(&g.conf);
    char cerr[CONF_ERR_LEN];
    cr_assert_eq(conf_set(&g.conf, "server", "bind_address", "127.0.0.1", cerr, sizeof cerr), 0);
    for (int i = 0; i < SHM_MAX_MONITORS; i++)
        g.peer[i].fd = -1;
    g.base = event_base_new();
    cr_assert_not_null(g.base);
    g.snap.play_mode = 1; /* before_kick_off, time 0, no teams */
    g.have_snap = 1;
}

static void teardown(void)
{
    for (int i = 0; i < SHM_MAX_MONITORS; i++)
        mgw_peer_close(&g, &g.peer[i], 1);
    if (g.base)
        event_base_free(g.base);
    if (g.shm.r)
        shm_region_destroy(&g.shm);
}

TestSuite(peer, .init = setup, .fini = teardown, .timeout = 20);

/* a monitor: UDP socket on 127.0.0.1, ephemeral port */
static int monitor_open(void)
{
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    cr_assert_geq(fd, 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = 0 };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    cr_assert_eq(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    return fd;
}

/* the hand-over record a netgw would push for a datagram text from monitor fd */
static void request(int fd, const char *text)
{
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    shm_monreq_sh_t m;
    memset(&m, 0, sizeof m);
    cr_assert_eq(getsockname(fd, (struct sockaddr *)&ss, &sl), 0);
    net_addr_pack(&ss, m.addr, &m.family, &m.port);
    snprintf(m.text, sizeof m.text, "%s", text);
    mgw_peer_request(&g, &m);
}

/* one datagram within timeout_ms into buf; its length (0 on timeout), sender port */
static int recv_one(int fd, int timeout_ms, int *from_port)
{
    struct pollfd p = { .fd = fd, .events = POLLIN };
    if (poll(&p, 1, timeout_ms) <= 0)
        return 0;
    struct sockaddr_in a;
    socklen_t l = sizeof a;
    ssize_t n = recvfrom(fd, buf, sizeof buf - 1, 0, (struct sockaddr *)&a, &l);
    if (n < 0)
        return 0;
    buf[n] = '\0';
    if (from_port)
        *from_port = ntohs(a.sin_port);
    return n == 0 ? 1 : (int)n;
}

static void send_to_port(int fd, int port, const char *text, size_t len)
{
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    cr_assert_eq(sendto(fd, text, len, 0, (struct sockaddr *)&a, sizeof a), (ssize_t)len);
}

/* run the gateway's loop without blocking for about ms milliseconds */
static void pump(int ms)
{
    struct timespec ts = { 0, 1000000L };
    for (int i = 0; i < ms; i++) {
        event_base_loop(g.base, EVLOOP_NONBLOCK);
        nanosleep(&ts, NULL);
    }
}

/* register monitor fd with version v, read its whole init block; returns the table slot */
static int registered(int fd, int v)
{
    char text[64];
    int port = 0, from = 0;
    snprintf(text, sizeof text, "(dispinit version %d)", v);
    request(fd, text);
    cr_assert_gt(recv_one(fd, 1000, &port), 0);
    cr_assert(strncmp(buf, "(server_param ", 14) == 0, "%.60s", buf);
    cr_assert_gt(recv_one(fd, 1000, &from), 0);
    cr_assert(strncmp(buf, "(player_param ", 14) == 0, "%.60s", buf);
    cr_expect_eq(from, port);
    for (int t = 0; t < 3; t++) {
        char want[32];
        snprintf(want, sizeof want, "(player_type (id %d)", t);
        cr_assert_gt(recv_one(fd, 1000, &from), 0);
        cr_expect(strncmp(buf, want, strlen(want)) == 0, "want %s: %.60s", want, buf);
        cr_expect_eq(from, port);
    }
    for (int i = 0; i < SHM_MAX_MONITORS; i++) {
        if (g.peer[i].used && g.r->monitor[i].local_port == port)
            return i;
    }
    cr_assert_fail("no table entry served from port %d", port);
    return -1;
}

Test(peer, registration_fills_the_table_and_sends_the_init_block)
{
    int fd = monitor_open();
    int slot = registered(fd, 4);
    const shm_monitor_sh_t *m = &g.r->monitor[slot];
    struct sockaddr_in a;
    socklen_t l = sizeof a;
    getsockname(fd, (struct sockaddr *)&a, &l);
    cr_expect_eq(atomic_load(&m->state), CLIENT_ST_ACTIVE);
    cr_expect_eq(m->version, 4);
    cr_expect_eq(m->family, AF_INET);
    cr_expect_eq(m->port, ntohs(a.sin_port));
    cr_expect_eq(memcmp(m->addr, &a.sin_addr, 4), 0);
    cr_expect_neq(m->local_port, 0);
    cr_expect_eq(g.npeers, 1);
    /* no sixth datagram: (playmode) and (team) are not sent to monitors (1.3) */
    cr_expect_eq(recv_one(fd, 100, NULL), 0);
    close(fd);
}

Test(peer, same_address_again_is_a_reinit_not_a_second_monitor)
{
    int fd = monitor_open();
    int slot = registered(fd, 3);
    int again = registered(fd, 5);
    cr_expect_eq(again, slot);
    cr_expect_eq(g.npeers, 1);
    cr_expect_eq(g.r->monitor[slot].version, 5);
    close(fd);
}

Test(peer, unsupported_versions_and_garbage_are_refused)
{
    /* 6 and 0 do not exist; 1, 2 (binary) and -1 (JSON) are not served by this gateway */
    const char *bad[] = { "(dispinit version 6)", "(dispinit version 0.5)", "(dispinit)",
                          "(dispinit version 2)", "(dispinit version -1)" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int fd = monitor_open();
        request(fd, bad[i]);
        cr_assert_gt(recv_one(fd, 1000, NULL), 0, "%s", bad[i]);
        cr_expect_str_eq(buf, "(error illegal_client_version)", "%s", bad[i]);
        close(fd);
    }
    int fd = monitor_open();
    request(fd, "(dispinit version");
    cr_assert_gt(recv_one(fd, 1000, NULL), 0);
    cr_expect_str_eq(buf, "(error illegal_command_form)");
    close(fd);
    cr_expect_eq(g.npeers, 0);
    for (int i = 0; i < SHM_MAX_MONITORS; i++)
        cr_expect_eq(atomic_load(&g.r->monitor[i].state), CLIENT_ST_FREE);
}

Test(peer, max_monitors_refuses_with_no_more_monitor)
{
    char cerr[CONF_ERR_LEN];
    cr_assert_eq(conf_set(&g.conf, "server", "max_monitors", "1", cerr, sizeof cerr), 0);
    int a = monitor_open(), b = monitor_open();
    registered(a, 3);
    request(b, "(dispinit version 3)");
    cr_assert_gt(recv_one(b, 1000, NULL), 0);
    cr_expect_str_eq(buf, "(error no_more_monitor)");
    cr_expect_eq(g.npeers, 1);
    close(a);
    close(b);
}

Test(peer, each_monitor_gets_the_frame_of_its_own_version)
{
    int fd[3];
    for (int v = 3; v <= 5; v++) {
        fd[v - 3] = monitor_open();
        registered(fd[v - 3], v);
    }
    mgw_peer_broadcast_show(&g);
    for (int v = 3; v <= 5; v++) {
        cr_assert_gt(recv_one(fd[v - 3], 1000, NULL), 0);
        cr_expect(strncmp(buf, "(show 0 (pm 1) (tm null null 0 0) ((b) 0 0 0 0)", 47) == 0,
                  "%.80s", buf);
        char want[MGW_FRAME_MAX];
        cr_assert_gt(mgw_encode_show(&g.snap, v, want, sizeof want), 0);
        cr_expect_str_eq(buf, want, "v%d monitor got another version's frame", v);
    }
    mgw_peer_broadcast_msg(&g, 7, 1, "(referee goal_l_1)");
    for (int v = 3; v <= 5; v++) {
        cr_assert_gt(recv_one(fd[v - 3], 1000, NULL), 0);
        cr_expect_str_eq(buf, "(msg 7 1 \"(referee goal_l_1)\")");
        close(fd[v - 3]);
    }
}

Test(peer, commands_reach_the_control_ring)
{
    int fd = monitor_open();
    int slot = registered(fd, 3);
    int port = g.r->monitor[slot].local_port;
    shm_cmd_sh_t c;
    send_to_port(fd, port, "(dispstart)", 12);
    send_to_port(fd, port, "(dispfoul 160 -80 -1)", 22);
    pump(50);
    cr_assert_eq(shm_ctrl_pop(&g.self->ctrl, &c), 0);
    cr_expect_eq(c.kind, SHM_CMD_START);
    cr_assert_eq(shm_ctrl_pop(&g.self->ctrl, &c), 0);
    cr_expect_eq(c.kind, SHM_CMD_FOUL);
    cr_expect_eq(c.i, SHM_SIDE_RIGHT);
    cr_expect_float_eq(c.d[0], 10.0, 1e-12);
    cr_expect_eq(shm_ctrl_pop(&g.self->ctrl, &c), -1);
    /* an unknown command is answered on the monitor's own port, inside (msg ...) */
    send_to_port(fd, port, "(bogus command)", 16);
    pump(50);
    int from = 0;
    cr_assert_gt(recv_one(fd, 1000, &from), 0);
    cr_expect_str_eq(buf, "(msg 0 1 \"(error illegal_command_form)\")");
    cr_expect_eq(from, port);
    /* v2+ datagrams must carry their NUL: a warning, then the command is still handled */
    send_to_port(fd, port, "(dispstart)", 11);
    pump(50);
    cr_assert_gt(recv_one(fd, 1000, NULL), 0);
    cr_expect_str_eq(buf, "(msg 0 1 \"(warning message_not_null_terminated)\")");
    cr_expect_eq(shm_ctrl_pop(&g.self->ctrl, &c), 0);
    cr_expect_eq(c.kind, SHM_CMD_START);
    close(fd);
}

Test(peer, garbage_never_closes_the_monitor)
{
    int fd = monitor_open();
    int slot = registered(fd, 5);
    int port = g.r->monitor[slot].local_port;
    unsigned char junk[3000];
    unsigned x = 12345;
    for (int k = 0; k < 50; k++) {
        size_t n = 1 + (size_t)(k * 61) % sizeof junk;
        for (size_t i = 0; i < n; i++) {
            x = x * 1103515245u + 12345u;
            junk[i] = (unsigned char)(x >> 16);
        }
        send_to_port(fd, port, (const char *)junk, n);
        pump(2);
    }
    pump(20);
    cr_expect(g.peer[slot].used);
    cr_expect_eq(atomic_load(&g.r->monitor[slot].state), CLIENT_ST_ACTIVE);
    close(fd);
}

Test(peer, dispbye_frees_the_entry)
{
    int fd = monitor_open();
    int slot = registered(fd, 3);
    send_to_port(fd, g.r->monitor[slot].local_port, "(dispbye)", 10);
    pump(50);
    cr_expect_not(g.peer[slot].used);
    cr_expect_eq(atomic_load(&g.r->monitor[slot].state), CLIENT_ST_FREE);
    cr_expect_eq(g.npeers, 0);
    mgw_peer_broadcast_show(&g);
    cr_expect_eq(recv_one(fd, 100, NULL), 0, "no frames after dispbye");
    close(fd);
}

Test(peer, a_vanished_monitor_is_dropped)
{
    int fd = monitor_open();
    int slot = registered(fd, 3);
    close(fd); /* ICMP port unreachable: ECONNREFUSED on the connected socket */
    for (int k = 0; k < 5 && g.peer[slot].used; k++) {
        mgw_peer_broadcast_show(&g);
        pump(10);
        mgw_peer_reap(&g); /* the loop reaps refused monitors once per turn */
    }
    cr_expect_not(g.peer[slot].used);
    cr_expect_eq(atomic_load(&g.r->monitor[slot].state), CLIENT_ST_FREE);
    cr_expect_eq(g.npeers, 0);
}

Test(peer, what_a_vanished_monitor_sent_last_is_still_applied)
{
    int fd = monitor_open();
    int slot = registered(fd, 3);
    send_to_port(fd, g.r->monitor[slot].local_port, "(dispstart)", 12);
    close(fd);
    /* the refusal may surface on the send or on the read; either way the queued
     * (dispstart) reaches the sim before the entry is freed */
    for (int k = 0; k < 5 && g.peer[slot].used; k++) {
        mgw_peer_broadcast_show(&g);
        mgw_peer_reap(&g);
        pump(10);
    }
    cr_expect_not(g.peer[slot].used);
    shm_cmd_sh_t c;
    cr_assert_eq(shm_ctrl_pop(&g.self->ctrl, &c), 0);
    cr_expect_eq(c.kind, SHM_CMD_START);
}

Test(peer, takeover_keeps_the_local_port)
{
    int fd = monitor_open();
    int slot = registered(fd, 4);
    int port = g.r->monitor[slot].local_port;
    /* the previous gateway dies: its socket closes, the table entry stays ACTIVE */
    mgw_peer_close(&g, &g.peer[slot], 0);
    cr_expect_eq(atomic_load(&g.r->monitor[slot].state), CLIENT_ST_ACTIVE);
    mgw_peer_takeover(&g);
    cr_assert(g.peer[slot].used);
    cr_expect_eq(g.peer[slot].version, 4);
    cr_expect_eq(g.r->monitor[slot].local_port, port);
    mgw_peer_broadcast_show(&g);
    int from = 0;
    cr_assert_gt(recv_one(fd, 1000, &from), 0);
    cr_expect(strncmp(buf, "(show 0 ", 8) == 0);
    cr_expect_eq(from, port, "frames still come from port %d", port);
    /* and commands to that port still arrive */
    send_to_port(fd, port, "(dispstart)", 12);
    pump(50);
    shm_cmd_sh_t c;
    cr_expect_eq(shm_ctrl_pop(&g.self->ctrl, &c), 0);
    close(fd);
}

Test(peer, takeover_drops_entries_it_cannot_serve)
{
    shm_monitor_sh_t *m = &g.r->monitor[7];
    m->version = -1; /* JSON: not served here */
    m->family = AF_INET;
    atomic_store(&m->state, CLIENT_ST_ACTIVE);
    mgw_peer_takeover(&g);
    cr_expect_not(g.peer[7].used);
    cr_expect_eq(atomic_load(&m->state), CLIENT_ST_FREE);
}
