/* test_071_durability.c -- logs survive their processes: a recorder killed with SIGKILL
 * is restarted by the sim and the finished logs hold every cycle exactly once (in synch
 * mode the sim waits for the new one; in real time the ring holds 6.4 s); a sim killed
 * with SIGKILL leaves readable (gzip) logs under their running names; a recorder killed
 * and then the sim leave files that end after a whole line; a recorder stopped for longer
 * than the sim waits says what it lost, and the match goes on. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e.h"
#include "e2e_logs.h"
#include "e2e_trainer.h"
#include "rcg.h"

/* frames of a log whose match stayed in kick_off_l after the kick-off (time runs in it):
 * cycles first..last each exactly once */
static void check_every_cycle(const rcg_t *g, int first)
{
    cr_assert_gt(g->n_frames, 0);
    cr_expect_eq(g->frame[0].show.time, first);
    for (int i = 1; i < g->n_frames; i++)
        cr_expect_eq(g->frame[i].show.time, g->frame[i - 1].show.time + 1,
                     "frame %d: time %d after %d", i, g->frame[i].show.time,
                     g->frame[i - 1].show.time);
}

/* the text log: "T,0\tRecv WHO: (done)" for each cycle T in play, once, no gap */
static void check_text_cycles(const char *text, const char *who)
{
    char pat[64];
    int prev = -1, n = 0;
    snprintf(pat, sizeof pat, "\tRecv %s: (done)\n", who);
    for (const char *l = text; *l; l = strchr(l, '\n') + 1) {
        int t, st;
        if (sscanf(l, "%d,%d", &t, &st) == 2 && st == 0 && t > 0
            && strncmp(strchr(l, '\t'), pat, strlen(pat)) == 0) {
            if (prev >= 0)
                cr_expect_eq(t, prev + 1, "%s: (done) of cycle %d after %d", who, t, prev);
            prev = t;
            n++;
        }
        if (!strchr(l, '\n'))
            break;
    }
    cr_expect_gt(n, 50, "%s answered %d cycles", who, n);
}

static void start_match(e2e_server_t *s, e2e_logdir_t *d, e2e_players_t *p, e2e_trainer_t *t,
                        const char *const *extra)
{
    const char *args[16] = { "server::game_logging=true", "server::text_logging=true",
                             d->game_arg, d->text_arg, "server::coach_w_referee=true" };
    int n = 5;
    for (int i = 0; extra && extra[i] && n < 15; i++)
        args[n++] = extra[i];
    args[n] = NULL;
    cr_assert_eq(e2e_server_start(s, args), 0);
    memset(p, 0, sizeof *p);
    cr_assert_eq(e2e_players_join(p, s, "Ours", 0), 0);
    cr_assert_eq(e2e_players_join(p, s, "Theirs", 0), 0);
    cr_assert_eq(e2e_trainer_connect(t, s, 19), 0);
    cr_assert_eq(e2e_trainer_start(t), 0);
}

static void read_log(const e2e_logdir_t *d, const char *suffix, rcg_t *g)
{
    char path[512], err[256];
    cr_assert_eq(e2e_logdir_find(d, suffix, path, sizeof path), 1, "%s", suffix);
    cr_assert_eq(rcg_read_file(path, g, err, sizeof err), 0, "%s", err);
    cr_expect_eq(g->bad_items, 0);
}

static char *read_text(const e2e_logdir_t *d, const char *suffix)
{
    char path[512];
    cr_assert_eq(e2e_logdir_find(d, suffix, path, sizeof path), 1, "%s", suffix);
    char *text = e2e_read_file(path, NULL);
    cr_assert_not_null(text);
    return text;
}

Test(durability, recorder_killed_in_synch_mode, .timeout = 90)
{
    e2e_logdir_t d;
    e2e_server_t s;
    e2e_players_t p;
    e2e_trainer_t t;
    cr_assert_eq(e2e_logdir_make(&d), 0);
    const char *extra[] = { "server::synch_mode=true", "server::synch_timeout=20000", NULL };
    start_match(&s, &d, &p, &t, extra);
    cr_assert_eq(e2e_players_cycles(&p, 40, 20000), 0);
    pid_t rec = e2e_recorder_pid(&s);
    cr_assert_gt(rec, 0);
    kill(rec, SIGKILL);
    /* the players run ahead: the sim waits for the new recorder rather than overwrite */
    cr_assert_eq(e2e_players_cycles(&p, 150, 30000), 0);
    cr_expect_gt(e2e_wait_recorder(&s, rec, 3000), 0, "restarted");
    cr_assert_eq(e2e_players_cycles(&p, 20, 20000), 0);
    e2e_trainer_close(&t);
    e2e_players_close(&p);
    char *out = e2e_read_file(s.log, NULL);
    cr_expect(out && strstr(out, "restarted rcss-recorder"), "%s", out ? out : "");
    cr_expect(out && !strstr(out, "snapshots and"), "nothing lost: %s", out ? out : "");
    free(out);
    cr_assert_eq(e2e_server_stop(&s), 0);
    cr_expect_eq(e2e_logdir_count(&d), 2, "renamed, no incomplete.* left");
    rcg_t g;
    read_log(&d, "-vs-Theirs_0.rcg", &g);
    check_every_cycle(&g, 1);
    cr_expect_geq(g.n_frames, 200);
    for (int i = 0; i < g.n_msgs; i++)
        cr_expect_null(strstr(g.msg[i].text, "lost_"), "%s", g.msg[i].text);
    rcg_free(&g);
    char *text = read_text(&d, ".rcl");
    check_text_cycles(text, "Ours_1");
    check_text_cycles(text, "Theirs_1");
    free(text);
    e2e_logdir_remove(&d);
}

Test(durability, recorder_killed_in_real_time, .timeout = 60)
{
    e2e_logdir_t d;
    e2e_server_t s;
    e2e_players_t p;
    e2e_trainer_t t;
    cr_assert_eq(e2e_logdir_make(&d), 0);
    start_match(&s, &d, &p, &t, NULL);
    e2e_players_pump(&p, 1500);
    pid_t rec = e2e_recorder_pid(&s);
    cr_assert_gt(rec, 0);
    kill(rec, SIGKILL);
    cr_expect_gt(e2e_wait_recorder(&s, rec, 3000), 0, "restarted");
    e2e_players_pump(&p, 1500);
    e2e_trainer_close(&t);
    e2e_players_close(&p);
    cr_assert_eq(e2e_server_stop(&s), 0);
    rcg_t g;
    read_log(&d, "-vs-Theirs_0.rcg", &g);
    check_every_cycle(&g, 1);
    cr_expect_geq(g.n_frames, 20);
    rcg_free(&g);
    e2e_logdir_remove(&d);
}

/* the sim killed: the recorder (told by the kernel) writes out what was published and
 * leaves; the files keep their running names and read to the last cycle */
Test(durability, sim_killed_leaves_readable_logs, .timeout = 60)
{
    e2e_logdir_t d;
    e2e_server_t s;
    e2e_players_t p;
    e2e_trainer_t t;
    cr_assert_eq(e2e_logdir_make(&d), 0);
    const char *extra[] = { "server::synch_mode=true", "server::synch_timeout=20000",
                            "server::game_log_compression=6", NULL };
    start_match(&s, &d, &p, &t, extra);
    cr_assert_eq(e2e_players_cycles(&p, 120, 20000), 0);
    e2e_world_t w;
    cr_assert_eq(e2e_trainer_look(&t, &w), 0);
    pid_t rec = e2e_recorder_pid(&s);
    e2e_server_kill9(&s);
    cr_expect_eq(e2e_wait_gone(rec, 5000), 0, "the recorder leaves with the sim");
    e2e_trainer_close(&t);
    e2e_players_close(&p);
    rcg_t g;
    read_log(&d, "incomplete.rcg.gz", &g);
    check_every_cycle(&g, 1);
    /* the step after the players' last (done) may be published after the look */
    int last = g.frame[g.n_frames - 1].show.time;
    cr_expect(last == w.time || last == w.time + 1, "up to the last published cycle: %d, %d",
              last, w.time);
    rcg_free(&g);
    char *text = read_text(&d, "incomplete.rcl");
    cr_expect_eq(text[strlen(text) - 1], '\n');
    check_text_cycles(text, "Ours_1");
    free(text);
    e2e_logdir_remove(&d);
}

/* the recorder killed, then at once the sim: nobody writes any more; the files end after
 * the last whole item the recorder flushed */
Test(durability, recorder_then_sim_killed, .timeout = 60)
{
    e2e_logdir_t d;
    e2e_server_t s;
    e2e_players_t p;
    e2e_trainer_t t;
    cr_assert_eq(e2e_logdir_make(&d), 0);
    start_match(&s, &d, &p, &t, NULL);
    e2e_players_pump(&p, 1600); /* real time: at least one flush after the kick-off */
    kill(e2e_recorder_pid(&s), SIGKILL);
    e2e_server_kill9(&s);
    e2e_trainer_close(&t);
    e2e_players_close(&p);
    char path[512];
    cr_assert_eq(e2e_logdir_find(&d, "incomplete.rcg", path, sizeof path), 1);
    size_t len = 0;
    char *raw = e2e_read_file(path, &len);
    cr_assert_not_null(raw);
    cr_assert_gt(len, 0);
    cr_expect_eq(raw[len - 1], '\n', "ends after a whole line");
    free(raw);
    rcg_t g;
    read_log(&d, "incomplete.rcg", &g);
    cr_expect_gt(g.n_frames, 0);
    check_every_cycle(&g, 1);
    rcg_free(&g);
    e2e_logdir_remove(&d);
}

/* a recorder stopped (SIGSTOP) in synch mode: the sim waits for it a bounded time, then
 * goes on; once running again the recorder counts and notes what it lost */
Test(durability, stopped_recorder_counts_losses, .timeout = 90)
{
    e2e_logdir_t d;
    e2e_server_t s;
    e2e_players_t p;
    e2e_trainer_t t;
    cr_assert_eq(e2e_logdir_make(&d), 0);
    /* the watchdog off: it would replace the stopped recorder (test_105), and nothing
     * would be lost */
    const char *extra[] = { "server::synch_mode=true", "server::synch_timeout=20000",
                            "server::gateway_timeout_ms=0", NULL };
    start_match(&s, &d, &p, &t, extra);
    cr_assert_eq(e2e_players_cycles(&p, 10, 20000), 0);
    pid_t rec = e2e_recorder_pid(&s);
    kill(rec, SIGSTOP);
    /* 62 cycles fit in the ring; then the sim waits 2 s and gives up */
    cr_assert_eq(e2e_players_cycles(&p, 200, 30000), 0);
    kill(rec, SIGCONT);
    cr_assert_eq(e2e_players_cycles(&p, 20, 20000), 0);
    e2e_players_pump(&p, 300);
    e2e_trainer_close(&t);
    e2e_players_close(&p);
    char *out = e2e_read_file(s.log, NULL);
    cr_expect(out && strstr(out, "not waiting for it any longer"), "%s", out ? out : "");
    cr_expect(out && strstr(out, "fell behind the sim"), "%s", out ? out : "");
    free(out);
    cr_assert_eq(e2e_server_stop(&s), 0);
    rcg_t g;
    read_log(&d, ".rcg", &g);
    int noted = 0;
    for (int i = 0; i < g.n_msgs; i++)
        noted += strstr(g.msg[i].text, "(rcssserver-shm (lost_snapshots ") != NULL;
    /* once or more: until it has caught up, the sim does not wait and may lap it again */
    cr_expect_geq(noted, 1, "the loss is noted in the log");
    cr_expect_gt(g.n_frames, 60);
    rcg_free(&g);
    e2e_logdir_remove(&d);
}
