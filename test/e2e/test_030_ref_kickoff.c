/* test_030_ref_kickoff.c -- kick-offs end to end (docs/protocol/referee.md §2, §5): players in
 * the opponents' half and the 9.15 m circle before and at a kick-off, the first kick
 * switching to play_on, an idle kick-off dropped after drop_ball_time, (start) acting only
 * at a half boundary. Lockstep synch mode (e2e_ref.h): each cycle is one step. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "e2e_ref.h"
#include "playmode.h"

#define SIZE 0.3     /* player_size of every type */
#define BALL 0.085   /* ball_size */

Test(ref_kickoff, relocation_and_first_kick, .timeout = 60)
{
    e2e_ref_t m;
    cr_assert_eq(e2e_ref_start(&m, NULL), 0);
    int a1 = e2e_ref_connect(&m, "A", 0), a2 = e2e_ref_connect(&m, "A", 0);
    int b1 = e2e_ref_connect(&m, "B", 0);
    cr_assert(a1 >= 0 && a2 >= 0 && b1 >= 0);
    cr_assert_eq(e2e_ref_sync(&m), 0);
    /* a left player beyond the half-way line, a right one in the centre circle */
    e2e_ref_place(&m, a1, 10.0, 5.0, 0.0);
    e2e_ref_place(&m, a2, -0.5, 0.0, 0.0);
    e2e_ref_place(&m, b1, 3.0, 0.0, 180.0);
    e2e_ref_trainer(&m, "(change_mode kick_off_l)");
    int t0 = m.time;
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    cr_expect_eq(m.errors, 0);
    cr_expect_eq(m.pm, PM_KICK_OFF_L);
    cr_expect_str_eq(m.heard, "kick_off_l;");
    cr_expect_eq(m.time, t0 + 1, "a kick-off step counts");
    e2e_obj_t *p = e2e_ref_obj(&m, b1);
    /* entering kick_off_l clears the right team to 9.15 + size (+1e-5) around the ball */
    cr_assert(p);
    cr_expect(fabs(p->x - (9.15 + SIZE + 1e-5)) < 1e-4 && fabs(p->y) < 1e-9, "b1 %g %g", p->x, p->y);
    /* forbid_kick_off_offside: a kick-off puts him just behind the line, same y */
    p = e2e_ref_obj(&m, a1);
    cr_assert(p);
    cr_expect(fabs(p->x + SIZE) < 1e-9 && fabs(p->y - 5.0) < 1e-9, "a1 %g %g", p->x, p->y);
    /* nothing happens while nobody kicks */
    cr_assert_eq(e2e_ref_cycles(&m, 3), 0);
    cr_expect_eq(m.pm, PM_KICK_OFF_L);
    cr_expect_str_eq(m.heard, "");
    /* the first kick: play_on at once; the ball gets 100 x 0.027 x (1 - 0.25 x
     * (0.5 - 0.3 - 0.085) / 0.7) (kick_power_rate, kickable_margin of type 0) */
    e2e_ref_say(&m, a2, "(kick 100 0)");
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    cr_expect_eq(m.pm, PM_PLAY_ON);
    cr_expect_str_eq(m.heard, "play_on;");
    double acc = 100.0 * 0.027 * (1.0 - 0.25 * (0.5 - SIZE - BALL) / 0.7);
    cr_expect(fabs(m.w.ball.x - acc) < 1e-4 && fabs(m.w.ball.y) < 1e-9, "ball %g", m.w.ball.x);
    cr_expect(fabs(m.w.ball.vx - acc * 0.94) < 1e-4);
    /* the players heard it too */
    cr_expect_str_eq(m.pl[b1].heard, "play_on;");
    cr_expect_eq(e2e_ref_stop(&m), 0);
}

Test(ref_kickoff, before_kick_off_relocation, .timeout = 60)
{
    /* with this seed b1's random point of his own half is inside the circle */
    const char *args[] = { "server::random_seed=16", NULL };
    e2e_ref_t m;
    cr_assert_eq(e2e_ref_start(&m, args), 0);
    int a1 = e2e_ref_connect(&m, "A", 0), b1 = e2e_ref_connect(&m, "B", 0);
    cr_assert_eq(e2e_ref_sync(&m), 0);
    e2e_ref_place(&m, a1, 20.0, -10.0, 0.0);
    e2e_ref_place(&m, b1, -2.0, 1.0, 180.0);
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    cr_expect_eq(m.pm, PM_BEFORE_KICK_OFF);
    cr_expect_eq(m.time, 0, "no time before the kick-off");
    /* before the kick-off a player in the other half goes to a random point of his own
     * half; the right team (not kicking off) stays out of the circle: b1 was first sent
     * to his own half, then to the rim if he landed inside (see_global gives 6
     * significant digits: a point on the rim reads up to 1e-5 inside it) */
    e2e_obj_t *a = e2e_ref_obj(&m, a1), *b = e2e_ref_obj(&m, b1);
    cr_assert(a && b);
    cr_expect(a->x <= 0.0 && a->x >= -52.5 && fabs(a->y) <= 34.0, "a1 %g %g", a->x, a->y);
    cr_expect(b->x >= 0.0 && b->x <= 52.5 && fabs(b->y) <= 34.0, "b1 %g %g", b->x, b->y);
    double d = hypot(b->x, b->y);
    cr_expect(d >= 9.15 + SIZE - 1e-5, "b1 out of the circle: %g %g", b->x, b->y);
    cr_expect(d <= 9.15 + SIZE + 1e-4, "b1 on the rim (else the seed no longer sends him "
              "inside): %g %g", b->x, b->y);
    cr_expect_eq(e2e_ref_stop(&m), 0);
}

Test(ref_kickoff, idle_kick_off_becomes_drop_ball, .timeout = 60)
{
    const char *args[] = { "server::drop_ball_time=5", NULL };
    e2e_ref_t m;
    cr_assert_eq(e2e_ref_start(&m, args), 0);
    int a1 = e2e_ref_connect(&m, "A", 0);
    e2e_ref_connect(&m, "B", 0);
    cr_assert_eq(e2e_ref_sync(&m), 0);
    e2e_ref_place(&m, a1, -20.0, 0.0, 0.0);
    e2e_ref_trainer(&m, "(start)");
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    cr_expect_eq(m.pm, PM_KICK_OFF_L);
    cr_expect_eq(m.time, 1);
    /* the drop-ball timer is set on entering (5) and counts once per step: the drop
     * ball comes at the 5th step, then play_on at once, the ball where it was */
    for (int i = 2; i <= 4; i++) {
        cr_assert_eq(e2e_ref_cycle(&m), 0);
        cr_expect_eq(m.pm, PM_KICK_OFF_L, "step %d", i);
    }
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    cr_expect_str_eq(m.heard, "drop_ball;play_on;");
    cr_expect_eq(m.time, 5);
    cr_expect(m.w.ball.x == 0.0 && m.w.ball.y == 0.0);
    cr_expect_eq(e2e_ref_stop(&m), 0);
}

Test(ref_kickoff, start_only_at_a_half_boundary, .timeout = 60)
{
    e2e_ref_t m;
    cr_assert_eq(e2e_ref_start(&m, NULL), 0);
    e2e_ref_connect(&m, "A", 0);
    cr_assert_eq(e2e_ref_sync(&m), 0);
    e2e_ref_trainer(&m, "(change_mode play_on)");
    cr_assert_eq(e2e_ref_cycles(&m, 3), 0);
    int t = m.time;
    /* in the middle of a half (start) is no kick-off */
    e2e_ref_trainer(&m, "(start)");
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    cr_expect_eq(m.pm, PM_PLAY_ON);
    cr_expect_eq(m.time, t + 1);
    cr_expect_str_eq(m.heard, "");
    cr_expect_eq(e2e_ref_stop(&m), 0);
}

/* every kind of client gets the referee's messages in its own form (docs/protocol/player.md
 * §7, docs/protocol/monitor.md §5; docs/protocol/coach.md §6): players (hear T referee MSG)
 * at every version, the trainer (hear referee T MSG), online coaches (hear T referee MSG),
 * monitors (msg T 1 "(referee MSG)") with send_comms */
static char mbuf[65536];

/* a client of the given kind; *answered: the port it must talk to from now on */
static int client_at(int port, const char *init, const char *reply, int *answered)
{
    int fd = e2e_udp_open();
    e2e_send(fd, port, init);
    cr_assert_gt(e2e_recv_prefix(fd, reply, mbuf, sizeof mbuf, 2000, answered), 0, "%s", init);
    return fd;
}

static int client(const e2e_server_t *s, int port, const char *init, const char *reply)
{
    (void)s;
    return client_at(port, init, reply, NULL);
}

static void heard(int fd, const char *prefix, const char *want)
{
    cr_expect_gt(e2e_recv_prefix(fd, prefix, mbuf, sizeof mbuf, 3000, NULL), 0, "%s", want);
    cr_expect_str_eq(mbuf, want);
}

/* every client is in: the sim has taken in each client slot of the list (-1 ends it)
 * and monitorgw counts the monitor */
static void all_in(const e2e_server_t *s, const int *slot)
{
    for (int i = 0; slot[i] >= 0; i++)
        cr_assert_eq(e2e_wait_seen(s, slot[i], 1, 5000), 0, "the sim never took in slot %d",
                     slot[i]);
    cr_assert_eq(e2e_wait_monitors(s, 1, 5000), 0, "monitorgw never counted the monitor");
}

Test(ref_kickoff, messages_reach_every_client, .timeout = 60)
{
    const char *args[] = { "server::coach_w_referee=true", "server::send_comms=true", NULL };
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    int p19 = client(&s, s.port, "(init A (version 19))", "(init ");
    int p5 = client(&s, s.port, "(init B (version 5))", "(init ");
    int oc = client(&s, s.olcoach_port, "(init A (version 19))", "(init ");
    int mon = client(&s, s.port, "(dispinit version 3)", "(server_param ");
    e2e_trainer_t t19;
    cr_assert_eq(e2e_trainer_connect(&t19, &s, 19), 0);
    cr_assert_eq(e2e_trainer_cmd(&t19, "(ear on)"), 0);
    all_in(&s, (const int[]){ E2E_SLOT_PLAYER(0, 1), E2E_SLOT_PLAYER(1, 1), E2E_SLOT_OLCOACH_L,
                              E2E_SLOT_TRAINER, -1 });
    /* the mode changes when the command arrives: the trainer hears it before its ok */
    e2e_send(t19.fd, t19.port, "(change_mode play_on)");
    heard(t19.fd, "(", "(hear referee 0 play_on)");
    heard(t19.fd, "(", "(ok change_mode)");
    heard(p19, "(hear ", "(hear 0 referee play_on)");
    heard(p5, "(hear ", "(hear 0 referee play_on)");
    heard(oc, "(hear ", "(hear 0 referee play_on)");
    heard(mon, "(msg ", "(msg 0 1 \"(referee play_on)\")");
    e2e_trainer_close(&t19);
    close(p19);
    close(p5);
    close(oc);
    close(mon);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

/* with send_comms the coaches' words reach monitors as board messages, as the game log
 * has them (docs/protocol/monitor.md §5): the trainer's as the referee's, an online
 * coach's raw text (protocol 6) and coach-language message (with the cycle it was sent
 * in) under the coach's name */
Test(ref_kickoff, coach_words_reach_monitors, .timeout = 60)
{
    const char *args[] = { "server::coach_w_referee=true", "server::send_comms=true", NULL };
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    int pa = client(&s, s.port, "(init A (version 19))", "(init ");
    int pb = client(&s, s.port, "(init B (version 19))", "(init ");
    int ca_port, cb_port;
    int ca = client_at(s.olcoach_port, "(init A (version 19))", "(init ", &ca_port);
    int cb = client_at(s.olcoach_port, "(init B (version 6))", "(init ", &cb_port);
    int mon = client(&s, s.port, "(dispinit version 3)", "(server_param ");
    e2e_trainer_t t;
    cr_assert_eq(e2e_trainer_connect(&t, &s, 19), 0);
    all_in(&s, (const int[]){ E2E_SLOT_PLAYER(0, 1), E2E_SLOT_PLAYER(1, 1), E2E_SLOT_OLCOACH_L,
                              E2E_SLOT_OLCOACH_R, E2E_SLOT_TRAINER, -1 });
    e2e_send(t.fd, t.port, "(say hello_all)");
    heard(mon, "(msg ", "(msg 0 1 \"(referee hello_all)\")");
    e2e_send(cb, cb_port, "(say old_style_words)");
    heard(cb, "(ok ", "(ok say)");
    heard(mon, "(msg ", "(msg 0 1 \"(online_coach_right old_style_words)\")");
    e2e_send(ca, ca_port, "(say (advice (6000 (true) (do our {1} (pos (pt 10 10))))))");
    heard(ca, "(ok ", "(ok say)");
    heard(mon, "(msg ", "(msg 0 1 \"(online_coach_left 0 (advice (6000 (true) (do our {1} "
                        "(pos (pt 10 10))))))\")");
    e2e_trainer_close(&t);
    close(pa);
    close(pb);
    close(ca);
    close(cb);
    close(mon);
    cr_expect_eq(e2e_server_stop(&s), 0);
}
