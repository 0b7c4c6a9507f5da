/* test_peer.c -- the monitor table of mgw_peer.c driven in-process: a private region, a
 * gateway context with its own libevent base, and monitors that are plain UDP sockets on
 * 127.0.0.1. Checks registration from a hand-over record (own port, table entry, init
 * block of docs/protocol/monitor.md §3), refusals of 1.1, commands of 1.6 reaching the
 * control ring, frames per version (binary, text, JSON), a vanished monitor, takeover
 * on the same port, operator rights, compression, team-graphic tiles, growth. */
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
    cr_assert_eq(mgw_ops_parse(conf_str(&g.conf, SP_monitor_operators), &g.ops, cerr,
                               sizeof cerr), 0);
    cr_assert_eq(mgw_init_buffers(&g), 0);
    g.base = event_base_new();
    cr_assert_not_null(g.base);
    g.snap.play_mode = 1; /* before_kick_off, time 0, no teams */
    g.have_snap = 1;
}

static void teardown(void)
{
    mgw_peer_close_all(&g, 1);
    mgw_free_buffers(&g);
    if (g.base)
        event_base_free(g.base);
    if (g.shm.r)
        shm_region_destroy(&g.shm);
}

TestSuite(peer, .init = setup, .fini = teardown, .timeout = 60); /* one timeout for all: criterion leaks a record when parallel tests mix them */

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
/* the loop for ms milliseconds; the sim's part (there is none here) is played by
 * acknowledging every control record pushed so far, so a monitor whose command waits
 * for the sim is answered and read again */
static void pump(int ms)
{
    struct timespec ts = { 0, 1000000L };
    for (int i = 0; i < ms; i++) {
        event_base_loop(g.base, EVLOOP_NONBLOCK);
        mgw_peer_ack(&g, atomic_load(&g.self->ctrl.head));
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
        if (atomic_load(&g.r->monitor[i].state) == CLIENT_ST_ACTIVE
            && g.r->monitor[i].local_port == port)
            return i;
    }
    cr_assert_fail("no table entry served from port %d", port);
    return -1;
}

/* the monitor of table entry slot, NULL if none */
static mgw_peer_t *peer_at(int slot)
{
    for (int i = 0; i < g.npeers; i++)
        if (g.peers[i]->slot == slot)
            return g.peers[i];
    return NULL;
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
    /* no sixth datagram: (playmode) and (team) are not sent to monitors (monitor.md §3) */
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

Test(peer, unknown_versions_and_garbage_are_refused)
{
    const char *bad[] = { "(dispinit version 6)", "(dispinit version 0.5)",
                          "(dispinit version -2)" };
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
    mgw_fanout_show(&g);
    for (int v = 3; v <= 5; v++) {
        cr_assert_gt(recv_one(fd[v - 3], 1000, NULL), 0);
        cr_expect(strncmp(buf, "(show 0 (pm 1) (tm null null 0 0) ((b) 0 0 0 0)", 47) == 0,
                  "%.80s", buf);
        char want[MGW_FRAME_MAX];
        cr_assert_gt(mgw_encode_show(&g.snap, v, want, sizeof want), 0);
        cr_expect_str_eq(buf, want, "v%d monitor got another version's frame", v);
    }
    mgw_fanout_msg(&g, 7, 0, 1, "(referee goal_l_1)");
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
    cr_expect_not_null(peer_at(slot));
    cr_expect_eq(atomic_load(&g.r->monitor[slot].state), CLIENT_ST_ACTIVE);
    close(fd);
}

Test(peer, dispbye_frees_the_entry)
{
    int fd = monitor_open();
    int slot = registered(fd, 3);
    send_to_port(fd, g.r->monitor[slot].local_port, "(dispbye)", 10);
    pump(50);
    cr_expect_null(peer_at(slot));
    cr_expect_eq(atomic_load(&g.r->monitor[slot].state), CLIENT_ST_FREE);
    cr_expect_eq(g.npeers, 0);
    mgw_fanout_show(&g);
    cr_expect_eq(recv_one(fd, 100, NULL), 0, "no frames after dispbye");
    close(fd);
}

Test(peer, a_vanished_monitor_is_dropped)
{
    int fd = monitor_open();
    int slot = registered(fd, 3);
    close(fd); /* ICMP port unreachable: ECONNREFUSED on the connected socket */
    for (int k = 0; k < 5 && peer_at(slot); k++) {
        mgw_fanout_show(&g);
        pump(10);
        mgw_peer_reap(&g); /* the loop reaps refused monitors once per turn */
    }
    cr_expect_null(peer_at(slot));
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
    for (int k = 0; k < 5 && peer_at(slot); k++) {
        mgw_fanout_show(&g);
        mgw_peer_reap(&g);
        pump(10);
    }
    cr_expect_null(peer_at(slot));
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
    mgw_peer_close(&g, peer_at(slot), 0);
    cr_expect_eq(atomic_load(&g.r->monitor[slot].state), CLIENT_ST_ACTIVE);
    mgw_peer_takeover(&g);
    cr_assert_not_null(peer_at(slot));
    cr_expect_eq(peer_at(slot)->version, 4);
    cr_expect_eq(g.r->monitor[slot].local_port, port);
    mgw_fanout_show(&g);
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
    m->version = 6; /* no such protocol */
    m->family = AF_INET;
    atomic_store(&m->state, CLIENT_ST_ACTIVE);
    atomic_store(&g.r->montab.hwm, 8);
    mgw_peer_takeover(&g);
    cr_expect_null(peer_at(7));
    cr_expect_eq(atomic_load(&m->state), CLIENT_ST_FREE);
}

/* ---- protocols 1, 2 and JSON ------------------------------------------------------- */
static int be16(const char *p)
{
    return (int16_t)(((uint8_t)p[0] << 8) | (uint8_t)p[1]);
}

Test(peer, binary_monitors_get_fixed_size_datagrams)
{
    int v1 = monitor_open(), v2 = monitor_open();
    request(v1, "(dispinit)");
    request(v2, "(dispinit version 2)");
    /* v2 init block (docs/protocol/monitor.md §3): PARAM_MODE 8, PPARAM_MODE 9, PT_MODE 7
     * per type (3 here), each a whole 2056-byte dispinfo_t2 */
    const int modes[] = { 8, 9, 7, 7, 7 };
    for (int k = 0; k < 5; k++) {
        cr_assert_eq(recv_one(v2, 1000, NULL), 2056, "init datagram %d", k);
        cr_expect_eq(be16(buf), modes[k]);
        cr_expect_eq(be16(buf + 2), 0, "two pad bytes");
    }
    cr_expect_eq(be16(buf + 4), 2, "the third type's id");
    cr_expect_eq(recv_one(v1, 100, NULL), 0, "v1 has no init block");
    g.snap.time = 17;
    g.snap.ball.x = 1.5;
    mgw_fanout_show(&g);
    cr_assert_eq(recv_one(v1, 1000, NULL), 2052);
    cr_expect_eq(be16(buf), 1, "SHOW_MODE");
    cr_expect_eq(be16(buf + 2 + 38 + 8), 24, "ball x 1.5 m x 16");
    cr_expect_eq(be16(buf + 2 + 314), 17, "time");
    cr_assert_eq(recv_one(v2, 1000, NULL), 2056);
    cr_expect_eq(be16(buf), 1);
    cr_expect_eq(be16(buf + 4 + 40), 1, "ball x 1.5 x 65536 = 0x00018000");
    cr_expect_eq(be16(buf + 4 + 1464), 17);
    mgw_fanout_msg(&g, 17, 0, 1, "(referee kick_off_l)");
    cr_assert_eq(recv_one(v1, 1000, NULL), 2052);
    cr_expect_eq(be16(buf), 2, "MSG_MODE");
    cr_expect_eq(be16(buf + 2), 1, "MSG_BOARD");
    cr_expect_str_eq(buf + 4, "(referee kick_off_l)");
    cr_assert_eq(recv_one(v2, 1000, NULL), 2056);
    cr_expect_str_eq(buf + 6, "(referee kick_off_l)");
    close(v1);
    close(v2);
}

Test(peer, protocol_1_commands_may_come_through_the_player_port)
{
    int fd = monitor_open();
    request(fd, "(dispinit)");
    request(fd, "(dispstart)"); /* what a netgw hands over for a v1 monitor */
    shm_cmd_sh_t c;
    cr_assert_eq(shm_ctrl_pop(&g.self->ctrl, &c), 0);
    cr_expect_eq(c.kind, SHM_CMD_START);
    close(fd);
}

Test(peer, json_monitors_get_objects)
{
    int fd = monitor_open();
    request(fd, "(dispinit version -1)");
    cr_assert_gt(recv_one(fd, 1000, NULL), 0);
    cr_expect(strncmp(buf, "{\"server_param\":{\"audio_cut_dist\":50,", 37) == 0, "%.60s", buf);
    cr_assert_gt(recv_one(fd, 1000, NULL), 0);
    cr_expect(strncmp(buf, "{\"player_param\":{", 17) == 0);
    for (int t = 0; t < 3; t++) {
        char want[40];
        snprintf(want, sizeof want, "{\"player_type\":{\"id\":%d,", t);
        cr_assert_gt(recv_one(fd, 1000, NULL), 0);
        cr_expect(strncmp(buf, want, strlen(want)) == 0, "%.60s", buf);
    }
    mgw_fanout_show(&g);
    cr_assert_gt(recv_one(fd, 1000, NULL), 0);
    cr_expect(strncmp(buf, "{\"show\":{\"time\":0,\"mode\":\"before_kick_off\",", 43) == 0,
              "%.80s", buf);
    mgw_fanout_msg(&g, 3, 0, 1, "(referee \"x\")");
    cr_assert_gt(recv_one(fd, 1000, NULL), 0);
    cr_expect_str_eq(buf, "{\"msg\":{\"time\":3,\"board\":1,\"message\":\"(referee \\\"x\\\")\"}}");
    close(fd);
}

/* ---- rights, compression, tiles, growth ------------------------------------------------ */
Test(peer, referee_commands_need_operator_rights)
{
    char err[128];
    cr_assert_eq(mgw_ops_parse("10.1.2.0/24, ::1", &g.ops, err, sizeof err), 0);
    int fd = monitor_open(); /* 127.0.0.1 is not in the list */
    int slot = registered(fd, 3);
    int port = g.r->monitor[slot].local_port;
    send_to_port(fd, port, "(dispplayer 1 1 0 0 0)", 23);
    pump(50);
    cr_assert_gt(recv_one(fd, 1000, NULL), 0);
    cr_expect_str_eq(buf, "(msg 0 1 \"" MGW_E_OPERATOR "\")");
    shm_cmd_sh_t c;
    cr_expect_eq(shm_ctrl_pop(&g.self->ctrl, &c), -1, "nothing reached the sim");
    /* a viewer may still leave and change its protocol */
    send_to_port(fd, port, "(dispinit version 5)", 21);
    pump(50);
    cr_assert_gt(recv_one(fd, 1000, NULL), 0);
    cr_expect(strncmp(buf, "(server_param ", 14) == 0);
    cr_expect_eq(mgw_ops_parse("nonsense", &g.ops, err, sizeof err), -1);
    cr_expect(strstr(err, "nonsense") != NULL, "%s", err);
    close(fd);
}

Test(peer, operator_list_matches_prefixes)
{
    mgw_ops_t o;
    char err[128];
    uint8_t a[16] = { 10, 1, 2, 77 }, b[16] = { 10, 1, 3, 1 }, six[16] = { 0 };
    six[15] = 1;
    cr_assert_eq(mgw_ops_parse("10.1.2.0/24,::1", &o, err, sizeof err), 0);
    cr_expect(mgw_ops_allowed(&o, a, AF_INET));
    cr_expect_not(mgw_ops_allowed(&o, b, AF_INET));
    cr_expect(mgw_ops_allowed(&o, six, AF_INET6));
    cr_assert_eq(mgw_ops_parse("", &o, err, sizeof err), 0);
    cr_expect_not(mgw_ops_allowed(&o, a, AF_INET), "empty: nobody");
    cr_assert_eq(mgw_ops_parse("*", &o, err, sizeof err), 0);
    cr_expect(mgw_ops_allowed(&o, b, AF_INET), "*: anyone (the reference)");
    cr_expect_eq(mgw_ops_parse("10.0.0.0/33", &o, err, sizeof err), -1);
}

Test(peer, compression_both_ways)
{
    int fd = monitor_open();
    int slot = registered(fd, 3);
    int port = g.r->monitor[slot].local_port;
    send_to_port(fd, port, "(compression 6)", 16);
    pump(50);
    cr_assert_gt(recv_one(fd, 1000, NULL), 0);
    cr_expect_str_eq(buf, "(msg 0 1 \"(ok compression 6)\")", "the ok is still plain");
    mgw_fanout_show(&g);
    int n = recv_one(fd, 1000, NULL);
    cr_assert_gt(n, 2);
    cr_expect_eq((uint8_t)buf[0], 0x78, "a zlib header");
    cr_expect_eq(memcmp(buf + n - 4, "\0\0\xff\xff", 4), 0, "ends with a sync flush");
    static char plain[MGW_FRAME_MAX], want[MGW_FRAME_MAX];
    cr_assert_gt(mgw_zlib_unpack(buf, (size_t)n, plain, sizeof plain), 0);
    cr_assert_gt(mgw_encode_show(&g.snap, 3, want, sizeof want), 0);
    cr_expect_str_eq(plain, want);
    /* commands must be compressed now: plain ones are dropped */
    send_to_port(fd, port, "(dispstart)", 12);
    uint8_t z[64];
    int zn = mgw_zlib_pack(6, "(dispfoul 0 0 0)", 17, z, sizeof z);
    cr_assert_gt(zn, 0);
    send_to_port(fd, port, (const char *)z, (size_t)zn);
    pump(50);
    shm_cmd_sh_t c;
    cr_assert_eq(shm_ctrl_pop(&g.self->ctrl, &c), 0);
    cr_expect_eq(c.kind, SHM_CMD_FOUL, "the plain (dispstart) was dropped");
    cr_expect_eq(shm_ctrl_pop(&g.self->ctrl, &c), -1);
    cr_expect_eq(g.r->monitor[slot].zlevel, 6, "kept for a successor");
    /* a negative level: plain again */
    zn = mgw_zlib_pack(6, "(compression -1)", 17, z, sizeof z);
    send_to_port(fd, port, (const char *)z, (size_t)zn);
    pump(50);
    n = recv_one(fd, 1000, NULL);
    cr_assert_gt(mgw_zlib_unpack(buf, (size_t)n, plain, sizeof plain), 0);
    cr_expect_str_eq(plain, "(msg 0 1 \"(ok compression -1)\")");
    mgw_fanout_show(&g);
    cr_assert_gt(recv_one(fd, 1000, NULL), 0);
    cr_expect(strncmp(buf, "(show 0 ", 8) == 0);
    close(fd);
}

Test(peer, team_graphic_tiles_reach_late_monitors)
{
    int early = monitor_open();
    registered(early, 3);
    mgw_fanout_tile(&g, SHM_SIDE_LEFT, "1 2 \"8 8 1 1\" \"a c red\"");
    mgw_fanout_tile(&g, SHM_SIDE_RIGHT, "0 0 \"8 8 1 1\" \"b c blue\"");
    mgw_fanout_tile(&g, SHM_SIDE_RIGHT, "99 0 \"bad\""); /* off the 32 x 8 grid: ignored */
    mgw_fanout_show(&g);
    cr_assert_gt(recv_one(early, 1000, NULL), 0);
    cr_expect(strncmp(buf, "(show ", 6) == 0);
    cr_assert_gt(recv_one(early, 1000, NULL), 0);
    cr_expect_str_eq(buf, "(msg 0 1 \"(team_graphic_l (1 2 \"8 8 1 1\" \"a c red\")\")");
    cr_assert_gt(recv_one(early, 1000, NULL), 0);
    cr_expect_str_eq(buf, "(msg 0 1 \"(team_graphic_r (0 0 \"8 8 1 1\" \"b c blue\")\")");
    int late = monitor_open();
    request(late, "(dispinit version -1)");
    while (recv_one(late, 100, NULL) > 0)
        ; /* the init block */
    mgw_fanout_show(&g);
    cr_expect_gt(recv_one(early, 1000, NULL), 0);
    cr_expect_eq(recv_one(early, 100, NULL), 0, "tiles are sent once");
    cr_assert_gt(recv_one(late, 1000, NULL), 0);
    cr_assert_gt(recv_one(late, 1000, NULL), 0);
    cr_expect_str_eq(buf, "{\"team_graphic\":{\"side\":\"l\",\"x\":1,\"y\":2,\"xpm\":[\"8 8 1 1\",\"a c red\"]}}");
    close(early);
    close(late);
}

Test(peer, monitors_beyond_the_region_table_are_served_too)
{
    /* the region's table is full (a previous run's monitors): new ones still get served */
    for (int i = 0; i < SHM_MAX_MONITORS; i++)
        atomic_store(&g.r->monitor[i].state, CLIENT_ST_ACTIVE);
    atomic_store(&g.r->montab.hwm, SHM_MAX_MONITORS);
    enum { N = 150 };  /* more than the first growth step of the peer array */
    static int fd[N];
    for (int i = 0; i < N; i++) {
        fd[i] = monitor_open();
        request(fd[i], "(dispinit version 4)");
    }
    cr_expect_eq(g.npeers, N);
    cr_expect_eq(atomic_load(&g.r->montab.count), (uint32_t)N);
    for (int i = 0; i < N; i++)
        cr_expect_eq(g.peers[i]->slot, -1);
    mgw_fanout_show(&g);
    for (int i = 0; i < N; i++) {
        int got = 0;
        while (recv_one(fd[i], 200, NULL) > 0)
            got += strncmp(buf, "(show ", 6) == 0;
        cr_expect_eq(got, 1, "monitor %d got %d frames", i, got);
        close(fd[i]);
    }
    for (int i = 0; i < SHM_MAX_MONITORS; i++)
        atomic_store(&g.r->monitor[i].state, CLIENT_ST_FREE);
}
