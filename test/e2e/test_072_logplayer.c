/* test_072_logplayer.c -- rcss-logplayer end to end: a match recorded by the server is
 * replayed to UDP monitors of versions 3-5 (the log's parameter lines, the team graphics
 * so far, then frames encoded as live ones: (show T (pm N) (tm ...) ...)), under the
 * commands of its stdin: step, back, jump, play, pause, reverse, faster, slower, first,
 * last, quit; monitors' (dispstart) and (dispbye); refusals and bad input. (Every other
 * monitor and log version: test_076; the page: test_077.) */
#include <criterion/criterion.h>
#include <arpa/inet.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "e2e.h"
#include "e2e_logs.h"
#include "e2e_lp.h"
#include "e2e_trainer.h"
#include "rcg.h"

static char buf[65536];

static int starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* the first line of text that starts with prefix, without its newline (static) */
static const char *log_line(const char *text, const char *prefix)
{
    static char line[65536];
    for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        if (starts(l, prefix)) {
            size_t n = strcspn(l, "\n");
            snprintf(line, sizeof line, "%.*s", (int)n, l);
            return line;
        }
    }
    return "";
}

static const char *tile = "(team_graphic (0 0 \"8 8 1 1\" \"a c #FF0000\" \"aaaaaaaa\" "
                          "\"aaaaaaaa\" \"aaaaaaaa\" \"aaaaaaaa\" \"aaaaaaaa\" \"aaaaaaaa\" "
                          "\"aaaaaaaa\" \"aaaaaaaa\"))";

/* a short match recorded by the server: kick-off, 40 cycles, a team graphic tile */
static void record_match(e2e_logdir_t *d, char *path, size_t len)
{
    cr_assert_eq(e2e_logdir_make(d), 0);
    const char *args[] = { "server::game_logging=true", d->game_arg, "server::synch_mode=true",
                           "server::synch_timeout=20000", "server::coach_w_referee=true", NULL };
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    e2e_players_t p = { 0 };
    cr_assert_eq(e2e_players_join(&p, &s, "Red", 0), 0);
    int oc = e2e_udp_open();
    e2e_send(oc, s.olcoach_port, "(init Red (version 19))");
    int oport = 0;
    cr_assert_gt(e2e_recv_prefix(oc, "(init l ok)", buf, sizeof buf, 2000, &oport), 0);
    e2e_send(oc, oport, tile);
    cr_assert_gt(e2e_recv_prefix(oc, "(ok team_graphic", buf, sizeof buf, 2000, NULL), 0);
    e2e_trainer_t t;
    cr_assert_eq(e2e_trainer_connect(&t, &s, 19), 0);
    cr_assert_eq(e2e_trainer_start(&t), 0);
    cr_assert_eq(e2e_players_cycles(&p, 40, 20000), 0);
    e2e_trainer_close(&t);
    close(oc);
    e2e_players_close(&p);
    cr_assert_eq(e2e_server_stop(&s), 0);
    cr_assert_eq(e2e_logdir_find(d, ".rcg", path, len), 1);
}

/* a command and the status line that answers it */
static const char *lp_cmd(e2e_lp_t *lp, const char *cmd)
{
    const char *r = e2e_lp_cmd(lp, cmd);
    cr_assert_not_null(r, "no answer to %s", cmd);
    return r;
}

/* the time of the next (show ...) to monitor fd, -1 if none within ms */
static int next_show(int fd, int ms)
{
    if (e2e_recv_prefix(fd, "(show ", buf, sizeof buf, ms, NULL) <= 0)
        return -1;
    return atoi(buf + 6);
}

static void drain(int fd)
{
    while (e2e_recv(fd, buf, sizeof buf, 50, NULL) > 0)
        ;
}

Test(logplayer, replays_with_every_control, .timeout = 90)
{
    e2e_logdir_t d;
    char path[512], err[256];
    record_match(&d, path, sizeof path);
    rcg_t g;
    cr_assert_eq(rcg_read_file(path, &g, err, sizeof err), 0, "%s", err);
    char *text = e2e_read_file(path, NULL);
    cr_assert_not_null(text);

    e2e_lp_t lp;
    cr_assert_eq(e2e_lp_start(&lp, path, NULL), 0);
    const char *l = e2e_lp_line(&lp, 5000);
    cr_assert_not_null(l);
    cr_expect_not_null(strstr(l, ": version 6, "), "%s", l);
    cr_expect_null(strstr(l, "random seed "), "the log has no seed note: %s", l);

    /* a v5 monitor: the log's parameter lines (written again from the parameters read:
     * the same bytes), the tile so far, the first frame */
    int m5 = e2e_udp_open(), mport = 0;
    e2e_send(m5, lp.port, "(dispinit version 5)");
    cr_assert_gt(e2e_recv_prefix(m5, "(server_param ", buf, sizeof buf, 3000, &mport), 0);
    cr_expect_neq(mport, lp.port, "served from a socket of its own");
    cr_expect_str_eq(buf, log_line(text, "(server_param "));
    cr_assert_gt(e2e_recv_prefix(m5, "(player_param ", buf, sizeof buf, 1000, NULL), 0);
    cr_expect_str_eq(buf, log_line(text, "(player_param "));
    cr_assert_gt(e2e_recv_prefix(m5, "(player_type ", buf, sizeof buf, 1000, NULL), 0);
    cr_expect_str_eq(buf, log_line(text, "(player_type "));
    cr_assert_gt(e2e_recv_prefix(m5, "(msg ", buf, sizeof buf, 1000, NULL), 0);
    cr_expect(starts(buf, "(msg 0 1 \"(team_graphic_l (0 0 \"8 8 1 1\" "), "%s", buf);
    cr_assert_gt(e2e_recv_prefix(m5, "(show ", buf, sizeof buf, 1000, NULL), 0);
    cr_expect(starts(buf, "(show 1 (pm 4) (tm Red null 0 0) ((b) 0 0 0 0) "), "%s", buf);
    cr_expect_not_null(strstr(buf, "(fp "), "a version 5 frame");

    cr_expect_not_null(strstr(lp_cmd(&lp, "step"), "cycle 2 frame 2/"));
    cr_expect_eq(next_show(m5, 1000), 2);
    cr_expect_not_null(strstr(lp_cmd(&lp, "jump 30"), "cycle 30 "));
    cr_expect_eq(next_show(m5, 1000), 30);
    cr_expect_not_null(strstr(lp_cmd(&lp, "back 3"), "cycle 27 "));
    cr_expect_eq(next_show(m5, 1000), 27);
    cr_expect_not_null(strstr(lp_cmd(&lp, "faster"), "paused forward x2"));
    cr_expect_not_null(strstr(lp_cmd(&lp, "slower"), "paused forward x1"));
    cr_expect_not_null(strstr(lp_cmd(&lp, "speed 4"), " x4"));
    /* playing forward: the next frames in order */
    cr_expect_not_null(strstr(lp_cmd(&lp, "play"), "playing forward x4"));
    for (int t = 28; t <= 31; t++)
        cr_expect_eq(next_show(m5, 1000), t);
    lp_cmd(&lp, "pause");
    drain(m5);
    cr_expect_eq(next_show(m5, 400), -1, "paused: no more frames");
    /* backwards */
    const char *st = lp_cmd(&lp, "status");
    int at = 0;
    cr_assert_eq(sscanf(st, "cycle %d", &at), 1, "%s", st);
    cr_expect_not_null(strstr(lp_cmd(&lp, "reverse"), "playing backwards"));
    for (int t = at - 1; t >= at - 3; t--)
        cr_expect_eq(next_show(m5, 1000), t);
    lp_cmd(&lp, "pause");
    drain(m5);
    cr_expect_not_null(strstr(lp_cmd(&lp, "first"), "cycle 1 frame 1/"));
    cr_expect_eq(next_show(m5, 1000), 1);
    char want[64];
    snprintf(want, sizeof want, "frame %d/%d", g.n_frames, g.n_frames);
    cr_expect_not_null(strstr(lp_cmd(&lp, "last"), want));
    cr_expect_not_null(strstr(lp_cmd(&lp, "bogus 1 2"), "error: "));

    /* a late v3 monitor: its own version, the tile too; a version nobody has is refused */
    int m3 = e2e_udp_open();
    e2e_send(m3, lp.port, "(dispinit version 3)");
    int m3port = 0;
    cr_assert_gt(e2e_recv_prefix(m3, "(msg 0 1 \"(team_graphic_l", buf, sizeof buf, 2000, NULL), 0);
    cr_assert_gt(e2e_recv_prefix(m3, "(show ", buf, sizeof buf, 1000, &m3port), 0);
    cr_expect_null(strstr(buf, "(fp "), "a version 3 frame");
    int m1 = e2e_udp_open();
    e2e_send(m1, lp.port, "(dispinit version 7)");
    cr_assert_gt(e2e_recv(m1, buf, sizeof buf, 2000, NULL), 0);
    cr_expect_str_eq(buf, "(error illegal_client_version)");
    e2e_send(m1, lp.port, "garbage \x01\x02");
    /* a monitor's (dispstart) plays, (dispbye) leaves */
    lp_cmd(&lp, "first");
    drain(m5);
    drain(m3);
    e2e_send(m3, mport, "(dispstart)"); /* m5's port: only m5 may use it */
    e2e_send(m3, m3port, "(dispbye)");
    e2e_send(m5, mport, "(dispstart)");
    cr_expect_eq(next_show(m5, 2000), 2, "played by the monitor's dispstart");
    drain(m3);
    cr_expect_eq(next_show(m3, 400), -1, "after dispbye nothing more");

    lp_cmd(&lp, "quit");
    cr_expect_eq(e2e_lp_wait(&lp), 0);
    close(m1);
    close(m3);
    close(m5);
    free(text);
    rcg_free(&g);
    e2e_logdir_remove(&d);
}

Test(logplayer, refuses_what_is_not_a_log, .timeout = 30)
{
    e2e_logdir_t d;
    cr_assert_eq(e2e_logdir_make(&d), 0);
    char path[400];
    snprintf(path, sizeof path, "%s/junk.rcg", d.dir);
    FILE *f = fopen(path, "w");
    fputs("this is not a log\n", f);
    fclose(f);
    e2e_lp_t lp;
    cr_assert_eq(e2e_lp_start(&lp, path, NULL), 0);
    cr_expect_eq(e2e_lp_wait(&lp), 1);
    snprintf(path, sizeof path, "%s/none.rcg", d.dir);
    cr_assert_eq(e2e_lp_start(&lp, path, NULL), 0);
    cr_expect_eq(e2e_lp_wait(&lp), 1);
    const char *bogus[] = { "--bogus", NULL };
    cr_assert_eq(e2e_lp_start(&lp, path, bogus), 0);
    cr_expect_eq(e2e_lp_wait(&lp), 2);
    e2e_logdir_remove(&d);
}

/* --play --speed: plays from the start by itself; a log cut in the middle of a line
 * plays what it has */
Test(logplayer, plays_a_cut_log_on_its_own, .timeout = 60)
{
    e2e_logdir_t d;
    char path[512];
    record_match(&d, path, sizeof path);
    size_t len = 0;
    char *text = e2e_read_file(path, &len);
    cr_assert_not_null(text);
    FILE *f = fopen(path, "w");
    fwrite(text, 1, len - 700, f); /* the tail cut: result, team line, part of a show */
    fclose(f);
    free(text);
    e2e_lp_t lp;
    const char *play[] = { "--play", NULL };
    cr_assert_eq(e2e_lp_start(&lp, path, play), 0);
    const char *l = e2e_lp_line(&lp, 5000);
    cr_assert_not_null(l);
    cr_expect_null(strstr(l, "malformed"), "%s", l);
    l = e2e_lp_line(&lp, 2000);
    cr_assert_not_null(l);
    cr_expect(starts(l, "note: the file ends inside a line"), "the cut is said: %s", l);
    int m = e2e_udp_open();
    e2e_send(m, lp.port, "(dispinit version 4)");
    int first = next_show(m, 2000), second = next_show(m, 1000);
    cr_expect_gt(first, 0);
    cr_expect_eq(second, first + 1, "playing on its own");
    kill(lp.pid, SIGTERM);
    cr_expect_eq(e2e_lp_wait(&lp), 0);
    close(m);
    e2e_logdir_remove(&d);
}
