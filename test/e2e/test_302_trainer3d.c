/* test_302_trainer3d.c -- a scripted trainer on the 3D monitor port: it reads the Init
 * and the first complete Info, moves the ball and a robot and reads them back in the
 * Info that follows the ack, sets play modes, drops the ball, gets errors for bad
 * commands; a monitor joining later gets the static parts once. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "e2e.h"
#include "e2e3d.h"

static char rbuf[1 << 16], rbuf2[1 << 16];

/* the three numbers after "key" in the next Info holding it; 1 found */
static int read_vec(int fd, frame_reader_t *r, const char *key, double v[3])
{
    const char *m;
    if (e2e3d_recv_containing(fd, r, key, 3000, &m) != 1)
        return 0;
    const char *p = strstr(m, key) + strlen(key);
    return sscanf(p, " %lf %lf %lf", &v[0], &v[1], &v[2]) == 3;
}

Test(trainer3d, move_read_back_set_modes, .timeout = 60)
{
    e2e3d_server_t s;
    const char *args[] = { "soccer::WaitBeforeKickOff=-1", NULL };
    cr_assert_eq(e2e3d_start(&s, args), 0);
    int ag = e2e3d_connect(s.agent_port);
    e2e3d_send(ag, "(create)(init (unum 1) (teamname Trained))");
    int t = e2e3d_monitor(s.monitor_port);
    frame_reader_t r;
    frame_reader_init(&r, rbuf, sizeof rbuf);
    const char *m;
    cr_assert_eq(e2e3d_recv(t, &r, 3000, &m), 1);
    cr_expect(strncmp(m, "(Init (FieldLength 104)", 23) == 0, "the Init first: %s", m);
    cr_assert_eq(e2e3d_recv_prefix(t, &r, "(Info ", 3000, &m), 1);
    cr_expect(strstr(m, "(half 1)(score_left 0)(score_right 0)") && strstr(m, "(F (id 1_l)(pos -52 -34 0))")
              && strstr(m, "(G (id 2_r)(pos 52 3.66 0))"), "the first Info is complete: %s", m);
    cr_assert_eq(e2e3d_recv_containing(t, &r, "(P (s 0)(id 1)", 3000, &m), 1, "the agent's robot");
    /* the ball: moved, acknowledged, and seen there in the Info after */
    e2e3d_send(t, "((ball (pos 10,20,0.111))(getAck moved))");
    cr_assert_eq(e2e3d_recv_prefix(t, &r, "(Info (ack moved))", 3000, &m), 1);
    double v[3];
    cr_assert(read_vec(t, &r, "(B (pos", v));
    cr_expect(fabs(v[0] - 10) < 1e-6 && fabs(v[1] - 20) < 1e-6 && fabs(v[2] - 0.111) < 1e-3,
              "ball at %g %g %g", v[0], v[1], v[2]);
    /* a robot */
    e2e3d_send(t, "((agent (team L)(unum 1)(pos -3 4 0.22)(vel 0 0 0))(getAck placed))");
    cr_assert_eq(e2e3d_recv_prefix(t, &r, "(Info (ack placed))", 3000, &m), 1);
    cr_assert(read_vec(t, &r, "(P (s 0)(id 1)(pos", v));
    cr_expect(fabs(v[0] + 3) < 1e-6 && fabs(v[1] - 4) < 1e-6, "robot at %g %g", v[0], v[1]);
    /* a play mode, by name; its index in the next Info */
    e2e3d_send(t, "((playMode free_kick_right)(getAck fk))");
    cr_assert_eq(e2e3d_recv_prefix(t, &r, "(Info (ack fk))", 3000, &m), 1);
    cr_expect_eq(e2e3d_recv_containing(t, &r, "(play_mode 16)", 3000, &m), 1);
    /* drop the ball next to the robot: play on, the robot moved away */
    e2e3d_send(t, "((ball (pos -2 4 0.111))(dropBall)(getAck dropped))");
    cr_assert_eq(e2e3d_recv_prefix(t, &r, "(Info (ack dropped))", 3000, &m), 1);
    cr_expect_eq(e2e3d_recv_containing(t, &r, "(play_mode 3)", 3000, &m), 1);
    cr_assert(read_vec(t, &r, "(P (s 0)(id 1)(pos", v));
    cr_expect(hypot(v[0] + 2, v[1] - 4) >= 9.15 - 1e-6, "kept away: %g %g", v[0], v[1]);
    /* back to before kick-off, then (kickOff): a coin decides the side */
    e2e3d_send(t, "(playMode BeforeKickOff)");
    cr_expect_eq(e2e3d_recv_containing(t, &r, "(play_mode 0)", 3000, &m), 1);
    e2e3d_send(t, "(kickOff)");
    cr_expect_eq(e2e3d_recv_containing(t, &r, "(play_mode ", 3000, &m), 1);
    cr_expect(strstr(m, "(play_mode 1)") || strstr(m, "(play_mode 2)"), "%s", m);
    /* errors: a kickOff outside BeforeKickOff is answered before the ack after it; the
     * 2004 trainer's battery and temperature are accepted */
    e2e3d_send(t, "((kickOff)(getAck again))");
    cr_expect_eq(e2e3d_recv_prefix(t, &r, "(error ", 3000, &m), 1);
    cr_expect_str_eq(m, "(error kickOff not_before_kick_off)");
    cr_expect_eq(e2e3d_recv_prefix(t, &r, "(Info (ack again))", 3000, &m), 1);
    e2e3d_send(t, "((agent (team L)(unum 1)(battery 50)(temperature 30))(getAck energy))");
    cr_expect_eq(e2e3d_recv_prefix(t, &r, "(Info (ack energy))", 3000, &m), 1);
    static char abuf[1 << 16];
    frame_reader_t ar;
    frame_reader_init(&ar, abuf, sizeof abuf);
    cr_expect_eq(e2e3d_recv_containing(ag, &ar, "(AgentState (battery 50) (temp 2", 5000, &m), 1,
                 "the agent feels it");
    e2e3d_send(t, "((agent (team R)(unum 5)(pos 1 1 1))(getAck nobody))");
    cr_expect_eq(e2e3d_recv_prefix(t, &r, "(error ", 3000, &m), 1);
    cr_expect_str_eq(m, "(error agent no_such_robot)");
    e2e3d_send(t, "(playMode Halftime)");
    cr_expect_eq(e2e3d_recv_prefix(t, &r, "(error ", 3000, &m), 1);
    cr_expect_str_eq(m, "(error playMode bad_arguments)");
    e2e3d_send(t, "(fly away");
    cr_expect_eq(e2e3d_recv_prefix(t, &r, "(error ", 3000, &m), 1);
    cr_expect_str_eq(m, "(error parse illegal_sexp)");
    /* a second monitor now: Init, then one complete Info with the team name */
    int t2 = e2e3d_monitor(s.monitor_port);
    frame_reader_t r2;
    frame_reader_init(&r2, rbuf2, sizeof rbuf2);
    cr_assert_eq(e2e3d_recv(t2, &r2, 3000, &m), 1);
    cr_expect(strncmp(m, "(Init ", 6) == 0);
    cr_assert_eq(e2e3d_recv_prefix(t2, &r2, "(Info ", 3000, &m), 1);
    cr_expect(strstr(m, "(team_left Trained)") && strstr(m, "(F (id 1_l)"), "%s", m);
    cr_assert_eq(e2e3d_recv_prefix(t2, &r2, "(Info ", 3000, &m), 1);
    cr_expect(!strstr(m, "(F ") && !strstr(m, "(team_left"), "then only changes: %s", m);
    close(t2);
    close(ag);
    cr_expect_eq(e2e3d_stop(&s), 0);
    cr_expect_eq(e2e3d_recv_containing(t, &r, "(Die)", 3000, &m), 1, "(Die) at the end");
    close(t);
    e2e3d_cleanup(&s);
}
