/* test_070_logs.c -- game and text logs end to end (docs/protocol/logs.md §6;
 * docs/protocol/config.md §3): a short synch-mode match leaves DIR/DATE-LEFT-vs-RIGHT.rcg
 * and .rcl named as the reference names them, with the parameters, frames of every cycle
 * after the kick-off, play modes, teams, the result (and no message of this server's own);
 * the text log has every received command with cycle and stoppage counter and the referee's
 * messages; fixed names, undated names, compression, other versions; hostile names stay in
 * the directory. */
#include <criterion/criterion.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e.h"
#include "e2e_logs.h"
#include "e2e_trainer.h"
#include "rcg.h"

static char buf[65536];

/* Play cycle by cycle (the server waits for the players' (done), its synch_timeout is
 * long) until the trainer's look shows time >= t; returns that time, -1 on a timeout. */
static int run_until(e2e_players_t *p, e2e_trainer_t *t, int time, int timeout_ms)
{
    e2e_world_t w;
    double end = e2e_now_ms() + timeout_ms;
    while (e2e_now_ms() < end) {
        if (e2e_trainer_look(t, &w) == 0 && w.time >= time)
            return w.time;
        if (e2e_players_cycles(p, 1, 5000) < 0)
            return -1;
    }
    return -1;
}

static int matches(const char *re, const char *s)
{
    regex_t r;
    cr_assert_eq(regcomp(&r, re, REG_EXTENDED | REG_NOSUB), 0, "%s", re);
    int ok = regexec(&r, s, 0, NULL, 0) == 0;
    regfree(&r);
    return ok;
}

/* the last path component */
static const char *base(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* frames after the kick-off: never a time going back, play_on times each exactly once,
 * kick-off first, one time_over at the end (docs/protocol/logs.md §3) */
static void check_frames(const rcg_t *g)
{
    cr_assert_gt(g->n_frames, 0);
    cr_expect_eq(g->frame[0].show.pmode, 4, "the first show is the kick-off (kick_off_l)");
    int over = 0;
    for (int i = 0; i < g->n_frames; i++) {
        const disp_show_t *s = &g->frame[i].show;
        cr_expect_neq(s->pmode, 1, "no show before the kick-off (frame %d)", i);
        over += s->pmode == 2;
        if (i == 0)
            continue;
        const disp_show_t *q = &g->frame[i - 1].show;
        /* a half ends with a cycle in before_kick_off (not shown); the kick-off's step
         * then makes the first shown cycle, as at the start (0 -> first show 1) */
        int kick_off = s->pmode == 4 || s->pmode == 5;
        cr_expect(s->time == q->time || s->time == q->time + 1
                  || (kick_off && s->time == q->time + 2),
                  "frame %d: time %d after %d", i, s->time, q->time);
        if (s->pmode == 3 && q->pmode == 3)
            cr_expect_eq(s->time, q->time + 1, "play_on: one show per cycle (frame %d)", i);
    }
    cr_expect_eq(over, 1, "a single time_over show");
    cr_expect_eq(g->frame[g->n_frames - 1].show.pmode, 2);
}

Test(logs, synch_match_names_content_result, .timeout = 120)
{
    e2e_logdir_t d;
    cr_assert_eq(e2e_logdir_make(&d), 0);
    const char *args[] = { "server::game_logging=true", "server::text_logging=true",
                           d.game_arg, d.text_arg, "server::synch_mode=true",
                           "server::coach_w_referee=true", "server::half_time=3",
                           "server::synch_timeout=20000", NULL };
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    e2e_players_t p = { 0 };
    cr_assert_eq(e2e_players_join(&p, &s, "TeamA", 0), 0);
    cr_assert_eq(e2e_players_join(&p, &s, "TeamB", 1), 0);
    int oc = e2e_udp_open(), oport = 0;
    e2e_send(oc, s.olcoach_port, "(init TeamA Coachy (version 19))");
    cr_assert_gt(e2e_recv_prefix(oc, "(init l ok)", buf, sizeof buf, 2000, &oport), 0);
    e2e_trainer_t t;
    cr_assert_eq(e2e_trainer_connect(&t, &s, 19), 0);
    cr_assert_eq(e2e_trainer_start(&t), 0);
    cr_assert_gt(run_until(&p, &t, 3, 10000), 0);
    cr_assert_eq(e2e_trainer_change_mode(&t, "play_on"), 0);
    cr_assert_eq(e2e_trainer_move_ball(&t, 50.0, 0.0, 2.5, 0.0), 0); /* into the right goal */
    cr_assert_gt(run_until(&p, &t, 30, 30000), 0, "first half over");
    cr_assert_eq(e2e_players_cycles(&p, 5, 5000), 0);
    cr_assert_eq(e2e_trainer_start(&t), 0);
    cr_assert_gt(run_until(&p, &t, 60, 30000), 0, "second half over");
    cr_assert_eq(e2e_players_cycles(&p, 5, 5000), 0);
    unsigned long long seed = e2e_server_seed(&s);
    e2e_trainer_close(&t);
    close(oc);
    e2e_players_close(&p);
    cr_assert_eq(e2e_server_stop(&s), 0);

    /* names: DATE-TEAMINFO-vs-TEAMINFO, the date by the default "%Y%m%d%H%M%S-" */
    char rcg[512], rcl[512];
    cr_assert_eq(e2e_logdir_find(&d, ".rcg", rcg, sizeof rcg), 1);
    cr_assert_eq(e2e_logdir_find(&d, ".rcl", rcl, sizeof rcl), 1);
    cr_expect_eq(e2e_logdir_count(&d), 2, "nothing else (no incomplete.*)");
    cr_expect(matches("^[0-9]{14}-TeamA_Coachy_1-vs-TeamB_0\\.rcg$", base(rcg)), "%s", rcg);
    cr_expect_eq(strncmp(base(rcg), base(rcl), strlen(base(rcg)) - 4), 0, "%s %s", rcg, rcl);

    rcg_t g;
    char err[256];
    cr_assert_eq(rcg_read_file(rcg, &g, err, sizeof err), 0, "%s", err);
    cr_expect_eq(g.version, 6, "server::game_log_version defaults to 6");
    cr_expect_eq(g.bad_items, 0);
    cr_expect_eq(g.truncated, 0);
    cr_expect_eq(g.has_params, 1);
    cr_expect_eq(conf_int(&g.conf, SP_half_time), 3);
    cr_expect_gt(g.types.count, 0);
    cr_expect_eq(g.has_seed, 0, "no message of this server's own (the seed %llu is on stdout)",
                 seed);
    check_frames(&g);
    const disp_show_t *last = &g.frame[g.n_frames - 1].show;
    cr_expect_eq(last->score[0], 1);
    cr_expect_eq(last->score[1], 0);
    cr_expect_str_eq(last->team[0], "TeamA");
    cr_expect_str_eq(last->team[1], "TeamB");
    cr_expect_geq(last->time, 60);
    const char *result = g.msg[g.n_msgs - 1].text;
    cr_expect(matches("^\\(result [0-9]{12} TeamA_Coachy_1-vs-TeamB_0\\)$", result), "%s", result);
    rcg_free(&g);
    char *text = e2e_read_file(rcg, NULL);
    cr_assert_not_null(text);
    cr_expect_eq(strncmp(text, "ULG6\n(server_param (", 20), 0);
    /* as the reference: the kick-off at cycle 0, its step makes the first show 1 */
    cr_expect_not_null(strstr(text, "\n(playmode 1 kick_off_l)\n(team 1 TeamA TeamB 0 0)\n(show 1 "));
    cr_expect(matches("\n\\(playmode [0-9]+ goal_l\\)\n\\(team [0-9]+ TeamA TeamB 1 0\\)\n", text));
    /* the tail: the result message, then the final team line */
    cr_expect(matches("\\(result [0-9]+ TeamA_Coachy_1-vs-TeamB_0\\)\"\\)\n\\(team [0-9]+ TeamA "
                      "TeamB 1 0\\)\n$", text), "%s", text + strlen(text) - 200);
    free(text);

    text = e2e_read_file(rcl, NULL);
    cr_assert_not_null(text);
    /* TIME,STOPPAGE<TAB>...: every line */
    for (char *l = text; *l; l = strchr(l, '\n') + 1) {
        char *nl = strchr(l, '\n');
        cr_assert_not_null(nl, "each entry ends with a newline");
        *nl = '\0';
        cr_expect(matches("^[0-9]+,[0-9]+\t(Recv [A-Za-z_]+[0-9]*: |\\(referee )", l), "%s", l);
        *nl = '\n';
    }
    cr_expect(matches("\n0,[0-9]+\tRecv TeamA_1: \\(init TeamA \\(version 19\\)\\)\n", text)
              || strncmp(text, "0,", 2) == 0, "%.300s", text);
    cr_expect_not_null(strstr(text, "\tRecv TeamB_1: (init TeamB (version 19) (goalie))\n"));
    cr_expect_not_null(strstr(text, "\tRecv TeamA_Coach: (init TeamA Coachy (version 19))\n"));
    cr_expect_not_null(strstr(text, "\tRecv Coach: (start)\n"));
    cr_expect_not_null(strstr(text, "\tRecv TeamA_1: (dash 40)\n"));
    cr_expect_not_null(strstr(text, "\tRecv TeamB_1: (done)\n"));
    cr_expect(matches("\n0,[0-9]+\t\\(referee kick_off_l\\)\n", text));
    cr_expect(matches("\n[0-9]+,0\t\\(referee goal_l_1\\)\n", text));
    cr_expect(matches("\n30,[0-9]+\t\\(referee half_time\\)\n", text));
    cr_expect(matches("\n60,[0-9]+\t\\(referee time_up\\)\n", text));
    free(text);
    if (getenv("KEEP_LOGS")) /* to look at a real match's logs: KEEP_LOGS=1 */
        printf("logs in %s\n", d.dir);
    else
        e2e_logdir_remove(&d);
}

/* game_log_fixed: the running name stays; undated text log; both compressed; version 4 */
Test(logs, fixed_undated_compressed_v4, .timeout = 60)
{
    e2e_logdir_t d;
    cr_assert_eq(e2e_logdir_make(&d), 0);
    const char *args[] = { "server::game_logging=true", "server::text_logging=true",
                           d.game_arg, d.text_arg, "server::game_log_fixed=true",
                           "server::game_log_fixed_name=final7", "server::text_log_dated=false",
                           "server::game_log_compression=9", "server::text_log_compression=1",
                           "server::game_log_version=4", "server::synch_mode=true",
                           "server::coach_w_referee=true", NULL };
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    e2e_players_t p = { 0 };
    cr_assert_eq(e2e_players_join(&p, &s, "Fix", 0), 0);
    e2e_trainer_t t;
    cr_assert_eq(e2e_trainer_connect(&t, &s, 19), 0);
    cr_assert_eq(e2e_trainer_start(&t), 0);
    cr_assert_gt(run_until(&p, &t, 20, 20000), 0);
    char path[512];
    /* while running: the fixed name and incomplete.rcl.gz */
    cr_expect_eq(e2e_logdir_find(&d, "final7.rcg.gz", path, sizeof path), 1);
    cr_expect_eq(e2e_logdir_find(&d, "incomplete.rcl.gz", path, sizeof path), 1);
    e2e_trainer_close(&t);
    e2e_players_close(&p);
    cr_assert_eq(e2e_server_stop(&s), 0);
    cr_expect_eq(e2e_logdir_count(&d), 2);
    cr_assert_eq(e2e_logdir_find(&d, "final7.rcg.gz", path, sizeof path), 1);
    rcg_t g;
    char err[256];
    cr_assert_eq(rcg_read_file(path, &g, err, sizeof err), 0, "%s", err);
    cr_expect_eq(g.version, 4);
    cr_expect_eq(g.bad_items, 0);
    cr_expect_gt(g.n_frames, 15);
    cr_expect(matches("^\\(result [0-9]+ Fix_0-vs-null\\)$", g.msg[g.n_msgs - 1].text));
    rcg_free(&g);
    cr_assert_eq(e2e_logdir_find(&d, ".rcl.gz", path, sizeof path), 1);
    cr_expect_str_eq(base(path), "Fix_0-vs-null.rcl.gz");
    char *text = e2e_read_file(path, NULL);
    cr_assert_not_null(text);
    cr_expect_not_null(strstr(text, "\tRecv Fix_1: (init Fix (version 19))\n"));
    free(text);
    e2e_logdir_remove(&d);
}

/* team and coach names never steer a path: a coach may call itself "../../x" (the
 * reference's scanf set lets '.' and '/' through), a team name cannot */
Test(logs, hostile_names_stay_inside, .timeout = 60)
{
    e2e_logdir_t d;
    cr_assert_eq(e2e_logdir_make(&d), 0);
    char inner[300], inner_game[340], inner_text[340];
    snprintf(inner, sizeof inner, "%.280s/a/b", d.dir);
    snprintf(inner_game, sizeof inner_game, "server::game_log_dir=%s", inner);
    snprintf(inner_text, sizeof inner_text, "server::text_log_dir=%s", inner);
    const char *args[] = { "server::game_logging=true", "server::text_logging=true",
                           inner_game, inner_text, NULL };
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0, "the directory is created with its parents");
    int bad = e2e_udp_open();
    e2e_send(bad, s.port, "(init ../../x (version 19))");
    cr_expect_gt(e2e_recv_prefix(bad, "(error ", buf, sizeof buf, 2000, NULL), 0);
    e2e_players_t p = { 0 };
    cr_assert_eq(e2e_players_join(&p, &s, "Evil", 0), 0);
    int oc = e2e_udp_open();
    e2e_send(oc, s.olcoach_port, "(init Evil ../../x (version 19))");
    cr_assert_gt(e2e_recv_prefix(oc, "(init l ok)", buf, sizeof buf, 2000, NULL), 0);
    e2e_players_pump(&p, 1500); /* the recorder notes the coach's name */
    close(oc);
    close(bad);
    e2e_players_close(&p);
    cr_assert_eq(e2e_server_stop(&s), 0);
    cr_expect_eq(e2e_logdir_count(&d), 1, "only a/ in the top directory");
    e2e_logdir_t in;
    snprintf(in.dir, sizeof in.dir, "%s", inner);
    char path[512];
    cr_assert_eq(e2e_logdir_find(&in, ".rcg", path, sizeof path), 1);
    cr_expect(matches("^[0-9]{14}-Evil_.._.._x_0-vs-null\\.rcg$", base(path)), "%s", path);
    cr_expect_eq(e2e_logdir_count(&in), 2);
    cr_expect_neq(access("/tmp/x_0-vs-null.rcg", F_OK), 0);
    e2e_logdir_remove(&d);
}

/* logs off: no recorder process, no file */
Test(logs, off_means_no_recorder, .timeout = 30)
{
    e2e_logdir_t d;
    cr_assert_eq(e2e_logdir_make(&d), 0);
    const char *args[] = { d.game_arg, d.text_arg, NULL }; /* e2e starts with both off */
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    /* nothing to wait for: the sim starts its children (a recorder with the gateways, if
     * a log is on) before it says ready, which e2e_server_start waited for; a few steps
     * later there is still none */
    cr_expect_eq(e2e_recorder_pid(&s), 0);
    cr_assert_eq(e2e_wait_steps(&s, 3, 5000), 0, "the sim does not step");
    cr_expect_eq(e2e_recorder_pid(&s), 0);
    cr_expect_eq(e2e_server_stop(&s), 0);
    cr_expect_eq(e2e_logdir_count(&d), 0);
    e2e_logdir_remove(&d);
}

/* a log directory that cannot be made stops the server at start, as the reference */
Test(logs, unusable_directory_refused, .timeout = 30)
{
    const char *args[] = { "server::game_logging=true",
                           "server::game_log_dir=/proc/self/no/such/dir", NULL };
    e2e_server_t s;
    cr_expect_neq(e2e_server_start(&s, args), 0);
    e2e_logdir_t left;
    snprintf(left.dir, sizeof left.dir, "%s", s.dir);
    char *out = e2e_read_file(s.log, NULL);
    cr_expect(out && strstr(out, "cannot use the game log directory"), "%s", out ? out : "");
    free(out);
    e2e_logdir_remove(&left);
}
