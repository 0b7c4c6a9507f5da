/* test_keepaway.c -- what the keepaway referee tells the recorder (SHM_EV_KEEPAWAY, for
 * the .kwy log; docs/protocol/referee.md §14): the counts at the first play_on, then per
 * finished episode its number, its start (0 for the first, then the previous end) and its
 * end cycle, "o" for the ball out of the rectangle and "t" for a taker holding it 4
 * cycles, before the referee's "training Keepaway 1". */
#include <criterion/criterion.h>
#include <stdio.h>
#include "test_ref_util.h"

static sim_world_t w;
static char ka_log[4096];   /* "H k t;" for the header, "E n start end why;" per episode */

static void capture(void *ctx, const shm_event_sh_t *ev)
{
    size_t n = strlen(ka_log);
    if (ev->kind == SHM_EV_KEEPAWAY && ev->arg == 0)
        snprintf(ka_log + n, sizeof ka_log - n, "H %g %g;", ev->x, ev->y);
    else if (ev->kind == SHM_EV_KEEPAWAY)
        snprintf(ka_log + n, sizeof ka_log - n, "E %d %g %g %.*s;", ev->arg, ev->x, ev->y,
                 (int)ev->len, ev->text);
    else if (ev->kind == SHM_EV_REFEREE)
        snprintf(ka_log + n, sizeof ka_log - n, "R %.*s;", (int)ev->len, ev->text);
    ref_capture(ctx, ev);
}

/* three keepers and two takers on the pitch, keepaway on */
static void ka_world(void)
{
    const char *sets[] = { "server", "keepaway", "true", NULL };
    ref_world(&w, sets);
    for (int u = 1; u <= 3; u++)
        test_player(&w, SHM_SIDE_LEFT, u, -30.0, 10.0 * u, 0.0);
    for (int u = 1; u <= 2; u++)
        test_player(&w, SHM_SIDE_RIGHT, u, 30.0, 10.0 * u, 180.0);
    ka_log[0] = '\0';
    w.emit = capture;
}

/* steps until an episode ends (the log grows by an "E"), at most max; the steps taken */
static int steps_to_end(int max)
{
    for (int n = 1; n <= max; n++) {
        size_t before = strlen(ka_log);
        sim_step(&w);
        if (strstr(ka_log + before, "E "))
            return n;
    }
    return -1;
}

Test(keepaway_log, header_then_rows, .timeout = 10)
{
    ka_world();
    for (int i = 0; i < 5; i++)
        sim_step(&w); /* before the kick-off: time stays 0 */
    cr_expect_eq(w.time, 0);
    sim_referee_set_mode(&w, PM_PLAY_ON);
    cr_expect_str_eq(ka_log, "R play_on;H 3 2;", "counted at the first play_on: %s", ka_log);
    /* the field is set with the ball at (-6, -6) inside the rectangle: keep it still a
     * while, keepers away so nobody holds it */
    for (int i = 0; i < 3; i++)
        sim_step(&w);
    int t1 = w.time;
    ka_log[0] = '\0';
    ref_ball(&w, 15.0, 0.0, 0.0, 0.0);
    cr_expect_eq(steps_to_end(2), 1);
    char want[256];
    snprintf(want, sizeof want, "E 1 0 %d o;R training Keepaway 1;", t1 + 1);
    cr_expect_str_eq(ka_log, want, "the first episode began at cycle 0");
    /* a taker on the ball (0.6 m: kickable, not colliding), the keepers far */
    int end1 = t1 + 1;
    for (int u = 1; u <= 3; u++) {
        sim_player_t *p = &w.pl[ref_idx(SHM_SIDE_LEFT, u)];
        p->sh.x = 8.0;
        p->sh.y = 2.0 * u;
    }
    sim_player_t *t = &w.pl[ref_idx(SHM_SIDE_RIGHT, 1)];
    t->sh.x = w.ball.x;
    t->sh.y = w.ball.y + 0.6;
    ka_log[0] = '\0';
    int n = steps_to_end(8);
    cr_expect_eq(n, 5, "4 cycles held, ended at the 5th step");
    snprintf(want, sizeof want, "E 2 %d %d t;R training Keepaway 1;", end1, end1 + n);
    cr_expect_str_eq(ka_log, want);
    /* a second play_on does not count again */
    ka_log[0] = '\0';
    sim_referee_set_mode(&w, PM_PLAY_ON);
    cr_expect_eq(strstr(ka_log, "H "), NULL);
}

Test(keepaway_log, nothing_without_keepaway, .timeout = 10)
{
    ref_world(&w, NULL);
    for (int u = 1; u <= 3; u++)
        test_player(&w, SHM_SIDE_LEFT, u, -30.0, 10.0 * u, 0.0);
    ka_log[0] = '\0';
    w.emit = capture;
    sim_referee_set_mode(&w, PM_PLAY_ON);
    ref_ball(&w, 15.0, 0.0, 0.0, 0.0);
    for (int i = 0; i < 3; i++)
        sim_step(&w);
    cr_expect_eq(strstr(ka_log, "H "), NULL);
    cr_expect_eq(strstr(ka_log, "E "), NULL);
}
