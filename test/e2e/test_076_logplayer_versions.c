/* test_076_logplayer_versions.c -- rcss-logplayer serves every monitor protocol from a
 * log of every version (docs/protocol/monitor.md §2-§5): for logs written in versions
 * 1-6 and JSON, monitors of protocols 1 ("(dispinit)"), 2, 3, 4, 5 and JSON connect and
 * get, from a socket of their own:
 *   - the init block of their protocol from the log's parameters: v1 nothing; v2 the
 *     2056-byte PARAM_MODE, PPARAM_MODE and one PT_MODE datagram per player type; v3-v5
 *     (server_param ...), (player_param ...), (player_type ...) x N; JSON the same as
 *     objects (a log of version 1 or 2 has no types: none are sent);
 *   - the team-graphic tile of the log (MSG_MODE datagram, (msg 0 1 "(team_graphic_l ..."),
 *     or a JSON team_graphic object);
 *   - the current frame, which is the log's first frame as that protocol shows it, and
 *     after "step" the second one (e2e_same_frame: encoded alike). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "disp_bin.h"
#include "e2e_lp.h"
#include "e2e_rcg.h"

static char buf[65536];

static int starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

typedef struct got {
    int params, pparams, types, tiles, half_time;
    disp_show_t show;
} got_t;

/* one init-block or message datagram of protocol mv into g */
static void classify(int mv, const char *d, int n, got_t *g)
{
    const uint8_t *b = (const uint8_t *)d;
    if (mv == 1 || mv == 2) {
        cr_assert_eq(n, mv == 1 ? DISP_V1_SIZE : DISP_V2_SIZE, "a fixed-size datagram");
        int mode = disp_get16(b);
        const uint8_t *body = b + (mv == 1 ? 2 : 4);
        if (mode == DISP_PARAM_MODE) {
            g->params++;
            g->half_time = disp_get16(body + 254);  /* server_params_t half_time (App. A) */
        }
        g->pparams += mode == DISP_PPARAM_MODE;
        g->types += mode == DISP_PT_MODE;
        g->tiles += mode == DISP_MSG_MODE && starts((const char *)body + 2, "(team_graphic_l (0 0 ");
        return;
    }
    if (starts(d, "(server_param ") || starts(d, "{\"server_param\":")) {
        g->params++;
        const char *h = strstr(d, mv < 0 ? "\"half_time\":" : "(half_time ");
        g->half_time = h ? atoi(h + (mv < 0 ? 12 : 11)) : -1;
    }
    g->pparams += starts(d, "(player_param ") || starts(d, "{\"player_param\":");
    g->types += starts(d, "(player_type ") || starts(d, "{\"player_type\":");
    g->tiles += starts(d, "(msg 0 1 \"(team_graphic_l (0 0 \"8 8 1 1\" ")
                || starts(d, "{\"team_graphic\":{\"side\":\"l\",\"x\":0,\"y\":0,\"xpm\":[\"8 8 1 1\"");
}

/* datagrams until a show (kept in g->show); 0, or -1 if none came */
static int until_show(int fd, int mv, got_t *g)
{
    for (int i = 0; i < 100; i++) {
        int n = e2e_recv(fd, buf, sizeof buf - 1, 3000, NULL);
        if (n <= 0)
            return -1;
        int k = e2e_mon_show(buf, (size_t)n, mv, &g->show);
        cr_assert_geq(k, 0, "v%d: a show that does not read", mv);
        if (k == 1)
            return 0;
        classify(mv, buf, n, g);
    }
    return -1;
}

static void serve_every_protocol(int version)
{
    static const int mvs[] = { 1, 2, 3, 4, 5, -1 };
    enum { NMV = 6 };
    e2e_rec_t r;
    e2e_rec_match(&r, version, 0, NULL);
    rcg_t log;
    char err[256], why[1024];
    cr_assert_eq(rcg_read_file(r.path, &log, err, sizeof err), 0, "%s", err);
    e2e_lp_t lp;
    cr_assert_eq(e2e_lp_start(&lp, r.path, NULL), 0);
    cr_assert_not_null(e2e_lp_line(&lp, 5000));
    int fd[NMV];
    int params = version < 0 || version >= 3;
    for (int k = 0; k < NMV; k++) {
        got_t g;
        memset(&g, 0, sizeof g);
        fd[k] = e2e_udp_open();
        char init[64];
        snprintf(init, sizeof init, mvs[k] == 1 ? "(dispinit)" : "(dispinit version %d)", mvs[k]);
        e2e_send(fd[k], lp.port, init);
        cr_assert_eq(until_show(fd[k], mvs[k], &g), 0, "log v%d, monitor v%d: no frame",
                     version, mvs[k]);
        /* the init block (none for protocol 1) */
        cr_expect_eq(g.params, mvs[k] != 1, "log v%d monitor v%d", version, mvs[k]);
        cr_expect_eq(g.pparams, mvs[k] != 1);
        cr_expect_eq(g.types, mvs[k] == 1 ? 0 : params ? 18 : 0, "log v%d monitor v%d: %d types",
                     version, mvs[k], g.types);
        if (mvs[k] != 1) /* the log's half_time (3 s), or the default for v1/v2 logs */
            cr_expect_eq(g.half_time, params ? 3 : 300, "log v%d monitor v%d", version, mvs[k]);
        cr_expect_eq(g.tiles, 1, "log v%d monitor v%d: the tile", version, mvs[k]);
        cr_expect(e2e_same_frame(&log.frame[0].show, &g.show, mvs[k], why, sizeof why),
                  "log v%d monitor v%d first frame:\n%s", version, mvs[k], why);
    }
    cr_assert_not_null(strstr(e2e_lp_cmd(&lp, "step"), "frame 2/"));
    for (int k = 0; k < NMV; k++) {
        got_t g;
        memset(&g, 0, sizeof g);
        cr_assert_eq(until_show(fd[k], mvs[k], &g), 0);
        cr_expect(e2e_same_frame(&log.frame[1].show, &g.show, mvs[k], why, sizeof why),
                  "log v%d monitor v%d second frame:\n%s", version, mvs[k], why);
        close(fd[k]);
    }
    e2e_lp_cmd(&lp, "quit");
    cr_expect_eq(e2e_lp_wait(&lp), 0);
    rcg_free(&log);
    e2e_rec_free(&r);
}

Test(logplayer_versions, log_v1, .timeout = 90) { serve_every_protocol(1); }
Test(logplayer_versions, log_v2, .timeout = 90) { serve_every_protocol(2); }
Test(logplayer_versions, log_v3, .timeout = 90) { serve_every_protocol(3); }
Test(logplayer_versions, log_v4, .timeout = 90) { serve_every_protocol(4); }
Test(logplayer_versions, log_v5, .timeout = 90) { serve_every_protocol(5); }
Test(logplayer_versions, log_v6, .timeout = 90) { serve_every_protocol(6); }
Test(logplayer_versions, log_json, .timeout = 90) { serve_every_protocol(-1); }

/* a protocol-1 monitor sends its commands to the port it first wrote to: (dispstart)
 * there plays too */
Test(logplayer_versions, v1_monitor_commands_on_the_player_port, .timeout = 90)
{
    e2e_rec_t r;
    e2e_rec_match(&r, 6, 0, NULL);
    e2e_lp_t lp;
    cr_assert_eq(e2e_lp_start(&lp, r.path, NULL), 0);
    cr_assert_not_null(e2e_lp_line(&lp, 5000));
    int fd = e2e_udp_open();
    got_t g;
    memset(&g, 0, sizeof g);
    e2e_send(fd, lp.port, "(dispinit)");
    cr_assert_eq(until_show(fd, 1, &g), 0);
    e2e_send(fd, lp.port, "(dispstart)");
    const char *l = e2e_lp_line(&lp, 3000);
    while (l && strncmp(l, "a monitor", 9) == 0)
        l = e2e_lp_line(&lp, 3000);
    cr_assert_not_null(l);
    cr_expect_not_null(strstr(l, "playing forward"), "%s", l);
    cr_assert_eq(until_show(fd, 1, &g), 0);
    cr_expect_gt(g.show.time, 1, "played on");
    close(fd);
    e2e_lp_cmd(&lp, "quit");
    cr_expect_eq(e2e_lp_wait(&lp), 0);
    e2e_rec_free(&r);
}
