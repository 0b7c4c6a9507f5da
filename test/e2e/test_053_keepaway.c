/* test_053_keepaway.c -- keepaway training end to end in synch mode (spec
 * monitor-log-coach.md 7.4), the scene helios-base's sample_trainer runs: three keepers
 * (left) and two takers (right), a kick-off that goes straight to play_on and sets the
 * field, and an episode ended by the referee's "training Keepaway 1" when the ball leaves
 * the 20 x 20 m rectangle or a taker has held it for 4 cycles, the field set again. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "e2e.h"
#include "e2e_trainer.h"

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
