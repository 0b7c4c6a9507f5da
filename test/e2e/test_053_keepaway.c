/* test_053_keepaway.c -- keepaway training end to end in synch mode (see
 * docs/protocol/referee.md §14), the scene helios-base's sample_trainer runs: three keepers
 * (left) and two takers (right), a kick-off that goes straight to play_on and sets the
 * field, and an episode ended by the referee's "training Keepaway 1" when the ball leaves
 * the 20 x 20 m rectangle or a taker has held it for 4 cycles, the field set again; and
 * the keepaway log those episodes make (.kwy). */
#include <criterion/criterion.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e.h"
#include "e2e_logs.h"
#include "e2e_trainer.h"
#include "../monitorgw/kwy_expect.h"

static char buf[65536];

static void look(e2e_group_t *g, e2e_client_t *t, e2e_world_t *w)
{
    cr_assert_eq(e2e_group_cmd(g, t, "(look)", buf, sizeof buf), 0);
    cr_assert_eq(e2e_parse_visual(buf, w), 0, "%s", buf);
}

/* the field as the referee sets it: keepers in three corners of the rectangle (within
 * 3 m of the corner), takers in the fourth (-10, 10), the ball 4 m inside it: (-6, -6) */
static void expect_reset(const e2e_world_t *w)
{
    cr_expect(w->ball.x == -6.0 && w->ball.y == -6.0 && w->ball.vx == 0.0 && w->ball.vy == 0.0,
              "ball %g %g", w->ball.x, w->ball.y);
    int corners[4] = { 0, 0, 0, 0 };
    for (int u = 0; u < 3; u++) {
        const e2e_obj_t *p = &w->player[0][u];
        cr_assert(p->present);
        int c = p->x < 0 && p->y < 0 ? 0 : p->x > 0 && p->y < 0 ? 1 : p->x > 0 && p->y > 0 ? 2 : 3;
        corners[c]++;
        cr_expect(fabs(fabs(p->x) - 10.0) <= 3.0 && fabs(fabs(p->y) - 10.0) <= 3.0,
                  "keeper %d at %g %g", u + 1, p->x, p->y);
    }
    cr_expect(corners[0] == 1 && corners[1] == 1 && corners[2] == 1, "one keeper per corner");
    for (int u = 0; u < 2; u++) {
        const e2e_obj_t *p = &w->player[1][u];
        cr_assert(p->present);
        cr_expect(p->x >= -10.0 && p->x <= -7.0 && p->y <= 10.0 && p->y >= 7.0,
                  "taker %d at %g %g", u + 1, p->x, p->y);
    }
}

/* steps until the trainer hears the episode end; the number of steps, -1 if none in max */
static int steps_to_episode_end(e2e_group_t *g, e2e_client_t *h, e2e_client_t *t, int max)
{
    for (int n = 1; n <= max; n++) {
        cr_assert_eq(e2e_group_step(g, h, 1), 0);
        e2e_group_pump(g, 20);
        if (e2e_group_wait(g, t, "(hear referee ", buf, sizeof buf, 0) > 0
            && strstr(buf, " training Keepaway 1)"))
            return n;
    }
    return -1;
}

Test(keepaway, episodes, .timeout = 60)
{
    const char *args[] = { "server::keepaway=true", "server::coach_w_referee=true",
                           "server::synch_mode=true", "server::synch_timeout=20000", NULL };
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    e2e_group_t g;
    e2e_group_init(&g);
    e2e_client_t *h = e2e_group_join(&g, "K1", s.port, "(init keepers (version 19))", 1);
    for (int i = 0; i < 2; i++)
        cr_assert(e2e_group_join(&g, "K", s.port, "(init keepers (version 19))", 0));
    for (int i = 0; i < 2; i++)
        cr_assert(e2e_group_join(&g, "T", s.port, "(init takers (version 19))", 0));
    e2e_client_t *t = e2e_group_join(&g, "trainer", s.coach_port, "(init (version 19))", 0);
    cr_assert(h && t);
    cr_assert_eq(e2e_group_cmd(&g, t, "(ear on)", buf, sizeof buf), 0);
    cr_assert_eq(e2e_group_step(&g, h, 1), 0);

    /* the kick-off is play_on at once, and the first play_on sets the field: the
     * trainer hears it before its (ok start) */
    e2e_send(t->fd, t->port, "(start)");
    cr_expect_gt(e2e_group_wait(&g, t, "(hear referee 0 play_on)", buf, sizeof buf, 2000), 0);
    cr_assert_eq(e2e_group_reply(&g, t, buf, sizeof buf), 0);
    cr_assert_eq(e2e_group_step(&g, h, 1), 0);
    e2e_world_t w;
    look(&g, t, &w);
    expect_reset(&w);

    /* the ball out of the rectangle ends the episode at the next step */
    cr_assert_eq(e2e_group_cmd(&g, t, "(move (ball) 15 0)", buf, sizeof buf), 0);
    cr_expect_eq(steps_to_episode_end(&g, h, t, 3), 1);
    look(&g, t, &w);
    expect_reset(&w);

    /* a taker 0.6 m from the ball (kickable, not touching): the referee counts the 4
     * cycles it holds it (the steps of the move and the 3 after) and ends the episode at
     * the 5th */
    cr_assert_eq(e2e_group_cmd(&g, t, "(move (player takers 1) -6 -5.4)", buf, sizeof buf), 0);
    cr_expect_eq(steps_to_episode_end(&g, h, t, 8), 5);
    look(&g, t, &w);
    expect_reset(&w);

    /* a keeper next to it keeps the ball: no episode end */
    cr_assert_eq(e2e_group_cmd(&g, t, "(move (player keepers 1) -6.6 -6)", buf, sizeof buf), 0);
    cr_expect_eq(steps_to_episode_end(&g, h, t, 6), -1);
    e2e_group_close(&g);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

/* ---- the keepaway log (.kwy) ------------------------------------------------------------
 * Expected contents come from the rules (docs/protocol/referee.md §14): the header with the
 * counts and the region, then per episode its number, its start (0 for the first, then the
 * previous end), its end (the cycle of the referee's "training Keepaway 1"), the duration
 * and o/t by how the test ended it. */

typedef struct ka_scene {
    e2e_group_t   g;
    e2e_client_t *h, *t;
} ka_scene_t;

static void ka_join(ka_scene_t *k, const e2e_server_t *s)
{
    e2e_group_init(&k->g);
    k->h = e2e_group_join(&k->g, "K1", s->port, "(init keepers (version 19))", 1);
    for (int i = 0; i < 2; i++)
        cr_assert(e2e_group_join(&k->g, "K", s->port, "(init keepers (version 19))", 0));
    for (int i = 0; i < 2; i++)
        cr_assert(e2e_group_join(&k->g, "T", s->port, "(init takers (version 19))", 0));
    k->t = e2e_group_join(&k->g, "trainer", s->coach_port, "(init (version 19))", 0);
    cr_assert(k->h && k->t);
    cr_assert_eq(e2e_group_cmd(&k->g, k->t, "(ear on)", buf, sizeof buf), 0);
    cr_assert_eq(e2e_group_step(&k->g, k->h, 1), 0);
    /* the kick-off is play_on at once: the trainer hears it before its (ok start) */
    e2e_send(k->t->fd, k->t->port, "(start)");
    cr_assert_gt(e2e_group_wait(&k->g, k->t, "(hear referee 0 play_on)", buf, sizeof buf, 2000), 0);
    cr_assert_eq(e2e_group_reply(&k->g, k->t, buf, sizeof buf), 0);
    cr_assert_eq(e2e_group_step(&k->g, k->h, 1), 0);
}

/* step until the trainer hears the episode end; the cycle of that hear */
static int ka_episode_end(ka_scene_t *k, int max)
{
    for (int n = 1; n <= max; n++) {
        cr_assert_eq(e2e_group_step(&k->g, k->h, 1), 0);
        e2e_group_pump(&k->g, 20);
        int time;
        if (e2e_group_wait(&k->g, k->t, "(hear referee ", buf, sizeof buf, 0) > 0
            && strstr(buf, " training Keepaway 1)")
            && sscanf(buf, "(hear referee %d", &time) == 1)
            return time;
    }
    cr_assert_fail("no episode end in %d steps", max);
    return -1;
}

/* end an episode with the ball out of the rectangle: "o" */
static int ka_ball_out(ka_scene_t *k)
{
    cr_assert_eq(e2e_group_cmd(&k->g, k->t, "(move (ball) 15 0)", buf, sizeof buf), 0);
    return ka_episode_end(k, 3);
}

/* end an episode with a taker holding the ball (at (-6, -6) after every reset): "t" */
static int ka_taken(ka_scene_t *k)
{
    cr_assert_eq(e2e_group_cmd(&k->g, k->t, "(move (player takers 1) -6 -5.4)", buf, sizeof buf), 0);
    return ka_episode_end(k, 8);
}

/* the file has exactly want within ms (rows are written while the server runs) */
static int file_is(const char *path, const char *want, int ms)
{
    double end = e2e_now_ms() + ms;
    for (;;) {
        char *got = e2e_read_file(path, NULL);
        int same = got && strcmp(got, want) == 0;
        if (!same && e2e_now_ms() >= end)
            cr_expect_str_eq(got ? got : "(no file)", want, "%s", path);
        free(got);
        if (same || e2e_now_ms() >= end)
            return same;
        usleep(20000);
    }
}

static void add_row(char *text, size_t cap, int n, int start, int end, const char *why)
{
    size_t len = strlen(text);
    snprintf(text + len, cap - len, "%d\t%d\t%d\t%d\t%s\n", n, start, end, end - start, why);
}

/* the .kwy under its running name while the match runs, each row as its episode ends,
 * every row once across a recorder killed and restarted, and the dated final name with
 * the teams and scores at the end (the default keepaway_log_* settings, in a directory
 * of its own that the server creates) */
Test(keepaway, kwy_log, .timeout = 90)
{
    e2e_logdir_t d;
    cr_assert_eq(e2e_logdir_make(&d), 0);
    char kdir[300], dir_arg[420], running[440];
    snprintf(kdir, sizeof kdir, "%.280s/ka/runs", d.dir);
    snprintf(dir_arg, sizeof dir_arg, "server::keepaway_log_dir=%s", kdir);
    snprintf(running, sizeof running, "%s/incomplete.kwy", kdir);
    const char *args[] = { "server::keepaway=true", "server::coach_w_referee=true",
                           "server::synch_mode=true", "server::synch_timeout=20000", dir_arg,
                           NULL };
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    cr_expect_gt(e2e_recorder_pid(&s), 0, "a recorder for the keepaway log alone");
    ka_scene_t k;
    ka_join(&k, &s);
    static char want[8192];
    snprintf(want, sizeof want, "%s", KWY_HEADER_3_2);
    cr_expect(file_is(running, want, 3000), "the header at the first play_on");

    int e1 = ka_ball_out(&k);
    add_row(want, sizeof want, 1, 0, e1, "o");
    cr_expect(file_is(running, want, 3000), "row 1 written at once");
    int e2 = ka_taken(&k);
    add_row(want, sizeof want, 2, e1, e2, "t");
    cr_expect(file_is(running, want, 3000), "row 2 written at once");

    /* a recorder killed now resumes from its last saved state, which is older than the
     * rows: it goes over their events again and must not write them twice */
    pid_t rec = e2e_recorder_pid(&s);
    cr_assert_gt(rec, 0);
    kill(rec, SIGKILL);
    cr_expect_gt(e2e_wait_recorder(&s, rec, 3000), 0, "restarted");
    int e3 = ka_ball_out(&k);
    add_row(want, sizeof want, 3, e2, e3, "o");
    cr_expect(file_is(running, want, 3000), "rows 1-3, each once");
    int e4 = ka_taken(&k);
    add_row(want, sizeof want, 4, e3, e4, "t");
    cr_expect(file_is(running, want, 3000));

    e2e_group_close(&k.g);
    cr_expect_eq(e2e_server_stop(&s), 0);
    /* renamed at the clean stop: DIR/YYYYmmddHHMMSS-keepers_0-vs-takers_0.kwy */
    cr_expect_eq(access(running, F_OK), -1, "incomplete.kwy renamed");
    e2e_logdir_t kd;
    snprintf(kd.dir, sizeof kd.dir, "%s", kdir);
    char path[1024];
    cr_assert_eq(e2e_logdir_find(&kd, ".kwy", path, sizeof path), 1);
    const char *base = strrchr(path, '/') + 1;
    cr_expect_eq(strlen(base), 14 + 1 + strlen("keepers_0-vs-takers_0.kwy"), "%s", base);
    cr_expect_eq(strspn(base, "0123456789"), 14u, "%s", base);
    cr_expect_str_eq(base + 14, "-keepers_0-vs-takers_0.kwy");
    cr_expect(file_is(path, want, 0));
    e2e_logdir_remove(&d);
}

/* the other name rules: a fixed name (never renamed), undated settings ignored for it;
 * keepaway_logging=false writes nothing; the game and text logs' settings are not the
 * keepaway log's */
Test(keepaway, kwy_fixed_name_and_off, .timeout = 60)
{
    e2e_logdir_t d;
    cr_assert_eq(e2e_logdir_make(&d), 0);
    char dir_arg[420], path[440];
    snprintf(dir_arg, sizeof dir_arg, "server::keepaway_log_dir=%s", d.dir);
    snprintf(path, sizeof path, "%s/train.kwy", d.dir);
    const char *args[] = { "server::keepaway=true", "server::coach_w_referee=true",
                           "server::synch_mode=true", "server::synch_timeout=20000", dir_arg,
                           "server::keepaway_log_fixed=true",
                           "server::keepaway_log_fixed_name=train",
                           "server::game_log_fixed=true", NULL };
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    ka_scene_t k;
    ka_join(&k, &s);
    static char want[4096];
    snprintf(want, sizeof want, "%s", KWY_HEADER_3_2);
    int e1 = ka_taken(&k);
    add_row(want, sizeof want, 1, 0, e1, "t");
    cr_expect(file_is(path, want, 3000));
    e2e_group_close(&k.g);
    cr_expect_eq(e2e_server_stop(&s), 0);
    cr_expect(file_is(path, want, 0), "kept under its fixed name");
    cr_expect_eq(e2e_logdir_count(&d), 1, "nothing else in the keepaway log directory");

    const char *off[] = { "server::keepaway=true", "server::coach_w_referee=true",
                          "server::synch_mode=true", "server::synch_timeout=20000", dir_arg,
                          "server::keepaway_logging=false", NULL };
    unlink(path);
    cr_assert_eq(e2e_server_start(&s, off), 0);
    /* nothing to wait for: the sim starts its children (a recorder with the gateways, if
     * a log is on) before it says ready, which e2e_server_start waited for */
    cr_expect_eq(e2e_recorder_pid(&s), 0, "no log is on: no recorder");
    ka_join(&k, &s);
    ka_ball_out(&k);
    cr_expect_eq(e2e_recorder_pid(&s), 0, "no recorder after an episode either");
    e2e_group_close(&k.g);
    cr_expect_eq(e2e_server_stop(&s), 0);
    cr_expect_eq(e2e_logdir_count(&d), 0, "no keepaway log");
    e2e_logdir_remove(&d);
}

/* a keepaway log directory that cannot be made stops the server at start, as the
 * reference's failing open does; without keepaway the setting is not used */
Test(keepaway, kwy_unusable_directory_refused, .timeout = 30)
{
    const char *args[] = { "server::keepaway=true", "server::keepaway_log_dir=/proc/self/no/dir",
                           NULL };
    e2e_server_t s;
    cr_expect_neq(e2e_server_start(&s, args), 0);
    char *out = e2e_read_file(s.log, NULL);
    cr_expect(out && strstr(out, "cannot use the keepaway log directory"), "%s", out ? out : "");
    free(out);
    e2e_logdir_t left;
    snprintf(left.dir, sizeof left.dir, "%s", s.dir);
    e2e_logdir_remove(&left);
    const char *off[] = { "server::keepaway=false", "server::keepaway_log_dir=/proc/self/no/dir",
                          NULL };
    cr_assert_eq(e2e_server_start(&s, off), 0);
    cr_expect_eq(e2e_server_stop(&s), 0);
}
