/* test_060_monitor_versions.c -- monitors of every protocol version end to end (see
 * docs/protocol/monitor.md §1-§6): (dispinit), (dispinit version 2..5 | -1) on the player
 * port, the init block of each version with bytes derived from
 * docs/protocol/monitor.md §3, then one frame
 * per cycle with consecutive times once the match runs; protocol-1 commands through the
 * player port; compression; referee commands refused to non-operators. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "e2e.h"

static char buf[65536];

static int be16(const char *p)
{
    return (int16_t)(((uint8_t)p[0] << 8) | (uint8_t)p[1]);
}

static int32_t be32(const char *p)
{
    return (int32_t)(((uint32_t)(uint8_t)p[0] << 24) | ((uint32_t)(uint8_t)p[1] << 16)
                     | ((uint32_t)(uint8_t)p[2] << 8) | (uint8_t)p[3]);
}

/* the time of a show frame of version v, -1 if buf (n bytes) is not one */
static int frame_time(int v, const char *b, int n)
{
    int t = -1;
    if (v == 1)
        return n == 2052 && be16(b) == 1 ? be16(b + 2 + 314) : -1;
    if (v == 2)
        return n == 2056 && be16(b) == 1 ? be16(b + 4 + 1464) : -1;
    if (v < 0)
        return sscanf(b, "{\"show\":{\"time\":%d", &t) == 1 ? t : -1;
    return sscanf(b, "(show %d ", &t) == 1 ? t : -1;
}

/* the next show frame of version v within 2 s; its time, -1 on timeout */
static int next_frame(int fd, int v)
{
    for (int k = 0; k < 50; k++) {
        int n = e2e_recv(fd, buf, sizeof buf, 2000, NULL);
        if (n <= 0)
            return -1;
        int t = frame_time(v, buf, n);
        if (t >= 0)
            return t;
    }
    return -1;
}

/* v2 init block: PARAM_MODE + server_params_t, PPARAM_MODE + player_params_t, then
 * PT_MODE + player_type_t x 18 (the default player::player_types), all 2056 bytes */
static void check_v2_init(int fd, int *port)
{
    cr_assert_eq(e2e_recv(fd, buf, sizeof buf, 2000, port), 2056);
    cr_expect_eq(be16(buf), 8, "PARAM_MODE");
    cr_expect_eq(be16(buf + 2), 0, "2 pad bytes");
    cr_expect_eq(be32(buf + 4), 918814, "goal_width 14.02 x 65536 truncated");
    cr_expect_eq(be32(buf + 4 + 180), 90 * 65536, "visible_angle in degrees x 65536");
    cr_expect_eq(be16(buf + 4 + 256), 100, "simulator_step");
    cr_assert_eq(e2e_recv(fd, buf, sizeof buf, 2000, NULL), 2056);
    cr_expect_eq(be16(buf), 9, "PPARAM_MODE");
    cr_expect_eq(be16(buf + 4), 18, "player_types");
    cr_expect_eq(be16(buf + 4 + 2), 3, "subs_max");
    cr_expect_eq(be32(buf + 4 + 44), -6553, "kickable_margin_delta_min -0.1: (int)(v x 65536 + 0.5)");
    for (int t = 0; t < 18; t++) {
        cr_assert_eq(e2e_recv(fd, buf, sizeof buf, 2000, NULL), 2056);
        cr_expect_eq(be16(buf), 7, "PT_MODE");
        cr_expect_eq(be16(buf + 4), t, "type id");
        /* type 0 is the default player: player_speed_max 1.05 -> rint(68812.8) */
        if (t == 0)
            cr_expect_eq(be32(buf + 4 + 4), 68813);
    }
}

static void check_text_init(int fd, int v, int *port)
{
    const char *heads[3] = { "(server_param ", "(player_param ", "(player_type (id 0)" };
    const char *jheads[3] = { "{\"server_param\":{", "{\"player_param\":{", "{\"player_type\":{\"id\":0," };
    for (int k = 0; k < 3; k++) {
        const char *want = v < 0 ? jheads[k] : heads[k];
        cr_assert_gt(e2e_recv(fd, buf, sizeof buf, 2000, k == 0 ? port : NULL), 0);
        cr_expect(strncmp(buf, want, strlen(want)) == 0, "v%d: %.60s", v, buf);
    }
    if (v < 0)
        cr_expect(strstr(buf, "\"player_speed_max\":1.05,") != NULL, "%.100s", buf);
    else
        cr_expect(strstr(buf, "(player_speed_max 1.05)") != NULL, "%.100s", buf);
}

Test(monitor_versions, init_blocks_and_one_frame_per_cycle, .timeout = 60)
{
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, NULL), 0);
    const int vers[6] = { 1, 2, 3, 4, 5, -1 };
    int fd[6], port[6];
    for (int i = 0; i < 6; i++) {
        char init[40];
        fd[i] = e2e_udp_open();
        if (vers[i] == 1)
            snprintf(init, sizeof init, "(dispinit)");
        else
            snprintf(init, sizeof init, "(dispinit version %d)", vers[i]);
        e2e_send(fd[i], s.port, init);
        port[i] = 0;
        if (vers[i] == 2)
            check_v2_init(fd[i], &port[i]);
        else if (vers[i] != 1)
            check_text_init(fd[i], vers[i], &port[i]);
    }
    /* v1: no init block; its first datagram is a 2052-byte show frame before kick-off:
     * left 1 unconnected at (-3, -37) -> x16 = (-48, -592), right 11 at (33, -37) */
    cr_assert_eq(e2e_recv(fd[0], buf, sizeof buf, 2000, &port[0]), 2052);
    cr_expect_eq(be16(buf), 1, "SHOW_MODE");
    cr_expect_eq(buf[2], 1, "before_kick_off");
    const char *pos = buf + 2 + 38;
    cr_expect_eq(be16(pos + 12 + 2), 1, "side of left 1");
    cr_expect_eq(be16(pos + 12 + 8), -48);
    cr_expect_eq(be16(pos + 12 + 10), -592);
    cr_expect_eq(be16(pos + 12 * 22 + 2), -1, "side of right 11");
    cr_expect_eq(be16(pos + 12 * 22 + 8), 528);
    for (int i = 0; i < 6; i++)
        cr_expect(port[i] > 0 && port[i] != s.port, "v%d answered from monitorgw's own port", vers[i]);
    /* v2 frame: left 1 at (-3, -37) x 65536, view width 90 deg = pi/2 x 65536 = 102944,
     * stamina 8000 x 65536 */
    int t = next_frame(fd[1], 2);
    cr_assert_eq(t, 0);
    const char *p0 = buf + 4 + 56;
    cr_expect_eq(be32(p0 + 4), -3 * 65536);
    cr_expect_eq(be32(p0 + 8), -37 * 65536);
    cr_expect_eq(be32(p0 + 28), 102944);
    cr_expect_eq(be32(p0 + 36), 8000 * 65536);
    /* start the match (loopback monitors are operators by default) and follow it */
    e2e_send(fd[2], port[2], "(dispstart)");
    for (int i = 0; i < 6; i++) {
        int first = -1, prev = -1;
        while (first <= 0)
            cr_assert_geq(first = next_frame(fd[i], vers[i]), 0, "v%d frames", vers[i]);
        prev = first;
        for (int k = 0; k < 10; k++) {
            int now = next_frame(fd[i], vers[i]);
            cr_assert_eq(now, prev + 1, "v%d: frame %d after %d", vers[i], now, prev);
            prev = now;
        }
    }
    for (int i = 0; i < 6; i++)
        close(fd[i]);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

Test(monitor_versions, protocol_1_commands_on_the_player_port, .timeout = 30)
{
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, NULL), 0);
    int fd = e2e_udp_open();
    e2e_send(fd, s.port, "(dispinit)");
    cr_assert_eq(next_frame(fd, 1), 0);
    /* docs/protocol/monitor.md §1: v1 monitors may keep using 6000 */
    e2e_send(fd, s.port, "(dispstart)");
    int t = 0;
    for (int k = 0; k < 30 && t <= 0; k++)
        t = next_frame(fd, 1);
    cr_expect_gt(t, 0, "the match started");
    close(fd);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

/* inflate one zlib datagram (sync-flushed, no trailer) into out */
static int unzip(const char *in, int n, char *out, size_t cap)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit(&z) != Z_OK)
        return -1;
    z.next_in = (Bytef *)in;
    z.avail_in = (uInt)n;
    z.next_out = (Bytef *)out;
    z.avail_out = (uInt)cap - 1;
    inflate(&z, Z_SYNC_FLUSH);
    int len = (int)(cap - 1 - z.avail_out);
    inflateEnd(&z);
    out[len] = '\0';
    return len;
}

Test(monitor_versions, compression_and_operator_rights, .timeout = 30)
{
    const char *args[] = { "server::monitor_operators=10.9.9.9", NULL };
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    int fd = e2e_udp_open(), port = 0;
    e2e_send(fd, s.port, "(dispinit version 4)");
    cr_assert_gt(e2e_recv_prefix(fd, "(show 0 ", buf, sizeof buf, 2000, &port), 0);
    /* 127.0.0.1 is not an operator here: the referee's commands are refused */
    e2e_send(fd, port, "(dispstart)");
    cr_assert_gt(e2e_recv_prefix(fd, "(msg ", buf, sizeof buf, 2000, NULL), 0);
    cr_expect_str_eq(buf, "(msg 0 1 \"(error referee_commands_need_operator_rights)\")");
    cr_assert_gt(e2e_recv_prefix(fd, "(show ", buf, sizeof buf, 2000, NULL), 0);
    cr_expect(strncmp(buf, "(show 0 (pm 1) ", 15) == 0, "still before kick-off: %.40s", buf);
    /* (compression 9): the ok in plain text, then every frame is a zlib stream */
    e2e_send(fd, port, "(compression 9)");
    cr_assert_gt(e2e_recv_prefix(fd, "(msg ", buf, sizeof buf, 2000, NULL), 0);
    cr_expect_str_eq(buf, "(msg 0 1 \"(ok compression 9)\")");
    static char plain[65536];
    int n = e2e_recv(fd, buf, sizeof buf, 2000, NULL);
    cr_assert_gt(n, 2);
    cr_expect_eq((uint8_t)buf[0], 0x78, "zlib header");
    cr_assert_gt(unzip(buf, n, plain, sizeof plain), 0);
    cr_expect(strncmp(plain, "(show 0 (pm 1) (tm null null 0 0) ((b) 0 0 0 0)", 47) == 0, "%.60s", plain);
    close(fd);
    cr_expect_eq(e2e_server_stop(&s), 0);
}
