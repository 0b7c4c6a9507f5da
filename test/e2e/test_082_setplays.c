/* test_082_setplays.c -- the demo team takes every set play: one rcss-demoteam (as the
 * left side) on a synch-mode server with the trainer (server::coach_w_referee) setting
 * scenes: for each of kick-off, kick-in, free kick, corner kick, goal kick, indirect free
 * kick, and the free kicks that follow an offside or a back pass of the other side, the
 * ball is placed and the mode changed, and a monitor on the player port sees the team
 * kick the ball (play_on, ball moving). When the other side has the kick-in, every
 * player keeps 9.15 m away (docs/protocol/referee.md §5). The goalie catches a shot in play
 * and kicks the ball out of its penalty area. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "e2e.h"
#include "e2e_proc.h"
#include "e2e_trainer.h"
#include "playmode.h"


static e2e_proc_t team;
static char buf[65536], line[4096];

typedef struct frame {
    int    time, pm;
    double bx, by;
    double px[11], py[11]; /* the left players */
} frame_t;

static int next_frame(int fd, frame_t *f)
{
    double end = e2e_now_ms() + 5000;
    while (e2e_now_ms() < end) {
        if (e2e_recv(fd, buf, sizeof buf, 1000, NULL) <= 0)
            continue;
        if (sscanf(buf, "(show %d (pm %d)", &f->time, &f->pm) != 2)
            continue;
        const char *b = strstr(buf, "((b) ");
        if (!b || sscanf(b, "((b) %lf %lf", &f->bx, &f->by) != 2)
            continue;
        for (int u = 1; u <= 11; u++) {
            char key[16];
            snprintf(key, sizeof key, "((l %d) ", u);
            const char *p = strstr(buf, key);
            int type;
            char state[32];
            f->px[u - 1] = f->py[u - 1] = 1e9;
            if (p)
                sscanf(p + strlen(key), "%d %31s %lf %lf", &type, state, &f->px[u - 1],
                       &f->py[u - 1]);
        }
        return 1;
    }
    return 0;
}

/* place the ball, set the mode; 1 once the team has kicked it into play within max
 * cycles (fewer than drop_ball_time, 100, after which the referee would drop the ball
 * and any touch would do) */
static int taken(int mon, e2e_trainer_t *t, const char *mode, double x, double y, int max)
{
    frame_t f;
    cr_assert_eq(e2e_trainer_recover(t), 0, "%s", t->last); /* fresh legs for each case */
    cr_assert_eq(e2e_trainer_move_ball(t, x, y, 0.0, 0.0), 0, "%s", t->last);
    cr_assert_eq(e2e_trainer_change_mode(t, mode), 0, "%s", t->last);
    /* frames of the previous scene may still wait in the socket: start at the first
     * frame of this one (the sim applies the trainer's commands at its next step) */
    int pm = playmode_lookup(mode), seen = 0;
    for (int i = 0; i < 200 && !seen && next_frame(mon, &f); i++)
        seen = f.pm == pm && hypot(f.bx - x, f.by - y) < 1.0;
    cr_assert(seen, "%s never shown", mode);
    for (int i = 0; i < max && next_frame(mon, &f); i++) {
        if (f.pm == PM_DROP_BALL)
            return 0; /* not taken within drop_ball_time: the referee dropped it */
        if (f.pm == PM_PLAY_ON && hypot(f.bx - x, f.by - y) > 1.0)
            return 1;
    }
    return 0;
}

static void setup(e2e_server_t *s, e2e_trainer_t *t, int *mon)
{
    const char *args[] = { "server::synch_mode=true", "server::coach_w_referee=true",
                           "server::synch_timeout=20000", NULL };
    cr_assert_eq(e2e_server_start(s, args), 0);
    char port[16], cport[16];
    snprintf(port, sizeof port, "%d", s->port);
    snprintf(cport, sizeof cport, "%d", s->olcoach_port);
    const char *argv[] = { "rcss-demoteam", "--port", port, "--coach-port", cport, "--team",
                           "Demo", NULL };
    cr_assert_eq(e2e_proc_start(&team, argv), 0);
    cr_assert(e2e_proc_expect(&team, ": ready, side l", line, sizeof line, 30000));
    cr_assert_eq(e2e_trainer_connect(t, s, 19), 0);
    *mon = e2e_udp_open();
    e2e_send(*mon, s->port, "(dispinit version 3)");
    frame_t f;
    for (int i = 0; i < 20; i++) /* the team takes its kick-off places */
        cr_assert(next_frame(*mon, &f));
}

static void teardown(e2e_server_t *s, e2e_trainer_t *t, int mon)
{
    close(mon);
    e2e_trainer_close(t);
    e2e_proc_stop(&team);
    cr_expect_eq(e2e_server_stop(s), 0);
}

Test(setplays, every_set_play_is_taken, .timeout = 180)
{
    e2e_server_t s;
    e2e_trainer_t t;
    int mon;
    setup(&s, &t, &mon);
    static const struct { const char *mode; double x, y; } cases[] = {
        { "kick_off_l", 0.0, 0.0 },       { "kick_in_l", 10.0, -34.0 },
        { "free_kick_l", -20.0, 10.0 },   { "corner_kick_l", 51.5, 33.0 },
        { "goal_kick_l", -47.0, 9.16 },   { "indirect_free_kick_l", 20.0, 5.0 },
        { "kick_in_l", -30.0, 34.0 },     { "corner_kick_l", 51.5, -33.0 },
        /* the other side's faults: after the 30-cycle stoppage, our free kick */
        { "offside_r", 15.0, -10.0 },     { "back_pass_r", 40.0, 8.0 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        cr_expect(taken(mon, &t, cases[i].mode, cases[i].x, cases[i].y, i < 8 ? 95 : 125),
                  "%s at %g %g not taken", cases[i].mode, cases[i].x, cases[i].y);
    teardown(&s, &t, mon);
}

Test(setplays, their_kick_in_keeps_the_distance, .timeout = 120)
{
    e2e_server_t s;
    e2e_trainer_t t;
    int mon;
    setup(&s, &t, &mon);
    cr_assert_eq(e2e_trainer_move_ball(&t, -5.0, 34.0, 0.0, 0.0), 0);
    cr_assert_eq(e2e_trainer_change_mode(&t, "kick_in_r"), 0);
    frame_t f;
    for (int i = 0; i < 60; i++) /* 60 cycles to get away; drop_ball_time is 100 */
        cr_assert(next_frame(mon, &f));
    for (int u = 0; u < 11; u++)
        cr_expect_geq(hypot(f.px[u] - f.bx, f.py[u] - f.by), 9.15, "player %d at %g %g", u + 1,
                      f.px[u], f.py[u]);
    teardown(&s, &t, mon);
}

Test(setplays, goalie_catches_and_kicks_out, .timeout = 120)
{
    e2e_server_t s;
    e2e_trainer_t t;
    int mon;
    setup(&s, &t, &mon);
    /* a shot from 14 m straight at the goal: the goalie (at its kick-off place, x -50)
     * has time to get to it */
    cr_assert_eq(e2e_trainer_change_mode(&t, "play_on"), 0);
    cr_assert_eq(e2e_trainer_move_ball(&t, -38.0, 0.0, -1.5, 0.0), 0);
    frame_t f;
    int caught = 0, out = 0;
    for (int i = 0; i < 200 && next_frame(mon, &f); i++) {
        caught |= f.pm == PM_FREE_KICK_L; /* goalie_catch_ball_l: free kick for us */
        if (caught && f.pm == PM_PLAY_ON && f.bx > -35.0) {
            out = 1;
            break;
        }
    }
    cr_expect(caught, "the goalie did not catch the ball");
    cr_expect(out, "the ball was not kicked out of the penalty area");
    teardown(&s, &t, mon);
}
