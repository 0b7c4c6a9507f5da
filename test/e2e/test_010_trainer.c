/* test_010_trainer.c -- the trainer end to end (docs/protocol/coach.md §1-§6): who
 * may connect and the init replies, a scene built with move and read back with look and
 * see_global, errors per command, say and ear, change_player_type with its notices, the
 * eye in synch mode holding the server until (done). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "e2e.h"
#include "e2e_trainer.h"

static char buf[65536];

static int player(const e2e_server_t *s, const char *init, int *port)
{
    int fd = e2e_udp_open();
    cr_assert_geq(fd, 0);
    e2e_send(fd, s->port, init);
    cr_assert_gt(e2e_recv_prefix(fd, "(init ", buf, sizeof buf, 2000, port), 0, "%s", init);
    return fd;
}

/* the first datagram from the server's own port for this socket */
static int ask(int fd, int port, const char *msg, const char *prefix)
{
    e2e_send(fd, port, msg);
    return e2e_recv_prefix(fd, prefix, buf, sizeof buf, 2000, NULL);
}

Test(trainer, refused_without_coach_mode, .timeout = 30)
{
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, NULL), 0);
    int fd = e2e_udp_open();
    /* coach.md §1: the trainer port serves only with server::coach or coach_w_referee */
    cr_expect_gt(ask(fd, s.coach_port, "(init (version 19))", "(error "), 0);
    cr_expect_str_eq(buf, "(error connected_offline_coach_without_coach_mode)");
    close(fd);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

Test(trainer, init_replies_and_errors, .timeout = 30)
{
    const char *args[] = { "server::coach=true", NULL };
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    int fd = e2e_udp_open();
    /* coach.md §2: a version below 1 is an ill-formed init, one above 19 has no protocol */
    cr_expect_gt(ask(fd, s.coach_port, "(init (version 0.5))", "(error "), 0);
    cr_expect_str_eq(buf, "(error illegal_command_form)");
    cr_expect_gt(ask(fd, s.coach_port, "(init (version 20))", "(error "), 0);
    cr_expect_str_eq(buf, "(error illegal_client_version)");
    cr_expect_gt(ask(fd, s.coach_port, "hello", "(error "), 0);
    cr_expect_str_eq(buf, "(error illegal_command_form)");

    e2e_trainer_t t;
    cr_assert_eq(e2e_trainer_connect(&t, &s, 19), 0);
    cr_expect_neq(t.port, s.coach_port, "replies come from the trainer's own socket");
    /* one trainer at a time */
    cr_expect_gt(ask(fd, s.coach_port, "(init (version 19))", "(error "), 0);
    cr_expect_str_eq(buf, "(error already_have_offline_coach)");
    /* a v8+ trainer must use its own port after init */
    e2e_send(t.fd, s.coach_port, "(look)");
    cr_expect_gt(e2e_recv_prefix(t.fd, "(error ", buf, sizeof buf, 2000, NULL), 0);
    cr_expect_str_eq(buf, "(error only_init_allowed_on_init_port)");
    /* coach.md §3: replies per command */
    cr_expect_eq(e2e_trainer_cmd(&t, "(bye)"), -1);
    cr_expect_str_eq(t.last, "(error unknown_command)");
    cr_expect_eq(e2e_trainer_cmd(&t, "(init (version 19))"), -1);
    cr_expect_str_eq(t.last, "(error unknown_command)");
    cr_expect_eq(e2e_trainer_cmd(&t, "(change_mode no_such_mode)"), -1);
    cr_expect_str_eq(t.last, "(error illegal_mode)");
    cr_expect_eq(e2e_trainer_cmd(&t, "(change_mode)"), -1);
    cr_expect_str_eq(t.last, "(error illegal_command_form)");
    cr_expect_eq(e2e_trainer_cmd(&t, "(move (ball) 1)"), -1);
    cr_expect_str_eq(t.last, "(error illegal_object_form)");
    cr_expect_eq(e2e_trainer_cmd(&t, "(move (ball) 1 2 3 4)"), -1);
    cr_expect_str_eq(t.last, "(error illegal_command_form)");
    cr_expect_eq(e2e_trainer_cmd(&t, "(move (player TeamA 12) 1 2)"), -1);
    cr_expect_str_eq(t.last, "(error illegal_object_form)");
    cr_expect_eq(e2e_trainer_cmd(&t, "(move (ball) nan 2)"), -1);
    cr_expect_str_eq(t.last, "(error illegal_object_form)");
    cr_expect_eq(e2e_trainer_cmd(&t, "(ear maybe)"), -1);
    cr_expect_str_eq(t.last, "(error illegal_command_form)");
    cr_expect_eq(e2e_trainer_cmd(&t, "(eye)"), -1);
    cr_expect_str_eq(t.last, "(error illegal_command_form)");
    cr_expect_eq(e2e_trainer_cmd(&t, "(say \"quoted\")"), -1);
    cr_expect_str_eq(t.last, "(error illegal_command_form)");
    cr_expect_eq(e2e_trainer_cmd(&t, "(change_player_type NoTeam 1 1)"), -1);
    cr_expect_str_eq(t.last, "(warning no_team_found)");
    /* an unknown team still gets (ok move): the reference does not check it */
    cr_expect_eq(e2e_trainer_cmd(&t, "(move (player NoTeam 3) 1 2)"), 0);
    cr_expect_str_eq(t.last, "(ok move)");
    cr_expect_eq(e2e_trainer_cmd(&t, "(team_names)"), 0);
    cr_expect_str_eq(t.last, "(ok team_names)\n");
    e2e_trainer_close(&t);
    close(fd);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

Test(trainer, old_version_names_and_order, .timeout = 30)
{
    const char *args[] = { "server::coach_w_referee=true", NULL };
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    int pport;
    int pl = player(&s, "(init TeamA (version 19))", &pport);
    e2e_trainer_t t;
    cr_assert_eq(e2e_trainer_connect(&t, &s, 5), 0);
    /* coach.md §5: before v7 long names and the angles before the velocity */
    cr_expect_eq(e2e_trainer_cmd(&t, "(move (player TeamA 1) -10 3 45 0 0)"), 0);
    cr_expect_eq(e2e_trainer_cmd(&t, "(move (ball) 1.5 -2)"), 0);
    /* the moves are in the world once (look) shows the ball there (the last one) */
    cr_expect_eq(e2e_trainer_cmd_until(&t, "(look)", "((ball) 1.5 -2 ", 5000), 0,
                 "the ball never reached 1.5 -2: %s", t.last);
    cr_assert_eq(strncmp(t.last, "(ok look ", 9), 0, "%s", t.last);
    cr_expect_str_eq(t.last, "(ok look 0 ((goal r) 52.5 0) ((goal l) -52.5 0) "
                             "((ball) 1.5 -2 0 0) ((player TeamA 1) -10 3 45 0 0 0))");
    cr_expect_eq(e2e_trainer_cmd(&t, "(eye on)"), 0);
    cr_expect_str_eq(t.last, "(ok eye on)");
    cr_expect_gt(e2e_recv_prefix(t.fd, "(see 0 ", buf, sizeof buf, 2000, NULL), 0);
    cr_expect_eq(e2e_trainer_cmd(&t, "(check_ball)"), 0);
    cr_expect_str_eq(t.last, "(ok check_ball 0 in_field)");
    e2e_trainer_close(&t);
    close(pl);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

Test(trainer, builds_a_scene_and_reads_it_back, .timeout = 30)
{
    const char *args[] = { "server::coach=true", NULL };
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    int pa = player(&s, "(init TeamA (version 19) (goalie))", NULL);
    int pb = player(&s, "(init TeamB (version 19))", NULL);
    e2e_trainer_t t;
    e2e_world_t w;
    cr_assert_eq(e2e_trainer_connect(&t, &s, 19), 0);
    /* before kick-off nothing moves, so the scene is read back exactly */
    cr_expect_eq(e2e_trainer_move_ball(&t, 10.0, -5.25, 1.0, -0.5), 0);
    cr_expect_eq(e2e_trainer_move_player(&t, "TeamA", 1, -30.0, 7.5, 90.0, 0.25, 0.0), 0);
    cr_expect_eq(e2e_trainer_move_player(&t, "TeamB", 1, 20.0, -1.0, -135.0, 0.0, 0.0), 0);
    cr_assert_eq(e2e_trainer_wait_cycles(&t, 2, &w), 0);
    cr_expect_eq(w.time, 0);
    cr_expect(w.ball.present && w.ball.x == 10.0 && w.ball.y == -5.25 && w.ball.vx == 1.0
              && w.ball.vy == -0.5, "ball %g %g %g %g", w.ball.x, w.ball.y, w.ball.vx, w.ball.vy);
    e2e_obj_t *a = e2e_world_player(&w, "TeamA", 1), *b = e2e_world_player(&w, "TeamB", 1);
    cr_assert(a && b);
    /* (players stand still before kick-off: their velocity is gone at the step) */
    cr_expect(a->goalie && a->x == -30.0 && a->y == 7.5 && a->body == 90, "%s", t.last);
    cr_expect(!b->goalie && b->x == 20.0 && b->y == -1.0 && b->body == -135, "%s", t.last);
    cr_expect_eq(e2e_trainer_look(&t, &w), 0);
    cr_expect_eq(w.ball.x, 10.0);
    /* a move without a direction keeps the body direction */
    cr_expect_eq(e2e_trainer_cmd(&t, "(move (player TeamA 1) -31 7.5)"), 0);
    cr_assert_eq(e2e_trainer_wait_cycles(&t, 1, &w), 0);
    a = e2e_world_player(&w, "TeamA", 1);
    cr_expect(a && a->x == -31.0 && a->body == 90, "%s", t.last);
    /* a ball behind the right goal line, between the posts */
    cr_expect_eq(e2e_trainer_move_ball(&t, 53.5, 0.0, 0.0, 0.0), 0);
    cr_assert_eq(e2e_trainer_wait_cycles(&t, 1, NULL), 0);
    cr_expect_eq(e2e_trainer_cmd(&t, "(check_ball)"), 0);
    cr_expect_str_eq(t.last, "(ok check_ball 0 goal_r)");
    cr_expect_eq(e2e_trainer_move_ball(&t, 0.0, 40.0, 0.0, 0.0), 0);
    cr_assert_eq(e2e_trainer_wait_cycles(&t, 1, NULL), 0);
    cr_expect_eq(e2e_trainer_cmd(&t, "(check_ball)"), 0);
    cr_expect_str_eq(t.last, "(ok check_ball 0 out_of_field)");
    /* play_on: time runs and the ball rolls towards +x */
    cr_expect_eq(e2e_trainer_move_ball(&t, 0.0, 0.0, 2.0, 0.0), 0);
    cr_expect_eq(e2e_trainer_change_mode(&t, "play_on"), 0);
    cr_assert_eq(e2e_trainer_wait_cycles(&t, 3, &w), 0);
    cr_expect_gt(w.time, 0);
    cr_expect_gt(w.ball.x, 2.0);
    cr_expect_eq(e2e_trainer_cmd(&t, "(team_names)"), 0);
    cr_expect_str_eq(t.last, "(ok team_names (team l TeamA) (team r TeamB))\n");
    e2e_trainer_close(&t);
    close(pa);
    close(pb);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

Test(trainer, say_ear_and_hear, .timeout = 30)
{
    const char *args[] = { "server::coach=true", NULL };
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    int p19port;
    int p19 = player(&s, "(init TeamA (version 19))", &p19port);
    int p5 = player(&s, "(init TeamB (version 5))", NULL);
    e2e_trainer_t t;
    cr_assert_eq(e2e_trainer_connect(&t, &s, 19), 0);
    cr_expect_eq(e2e_trainer_cmd(&t, "(ear on)"), 0);
    cr_expect_str_eq(t.last, "(ok ear on)");
    /* clang.md §3: v7+ players hear "coach" with quotes, older ones "referee" without; the
     * trainer with its ear on hears itself as the referee, before its (ok say): the
     * say is made when it arrives, then answered */
    e2e_send(t.fd, t.port, "(say move now)");
    cr_expect_gt(e2e_recv_prefix(t.fd, "(", buf, sizeof buf, 2000, NULL), 0);
    cr_expect_str_eq(buf, "(hear 0 referee \"move now\")");
    cr_expect_gt(e2e_recv_prefix(t.fd, "(", buf, sizeof buf, 2000, NULL), 0);
    cr_expect_str_eq(buf, "(ok say)");
    cr_expect_gt(e2e_recv_prefix(p19, "(hear ", buf, sizeof buf, 2000, NULL), 0);
    cr_expect_str_eq(buf, "(hear 0 coach \"move now\")");
    cr_expect_gt(e2e_recv_prefix(p5, "(hear ", buf, sizeof buf, 2000, NULL), 0);
    cr_expect_str_eq(buf, "(hear 0 referee move now)");
    /* the referee: name before time for the trainer, every version; the mode changes
     * (and is announced) before the trainer's (ok change_mode) */
    e2e_send(t.fd, t.port, "(change_mode play_on)");
    cr_expect_gt(e2e_recv_prefix(t.fd, "(", buf, sizeof buf, 2000, NULL), 0);
    cr_expect_str_eq(buf, "(hear referee 0 play_on)");
    cr_expect_gt(e2e_recv_prefix(t.fd, "(", buf, sizeof buf, 2000, NULL), 0);
    cr_expect_str_eq(buf, "(ok change_mode)");
    /* a player's say reaches the trainer (v7+: short name, quoted message) */
    e2e_send(p19, p19port, "(say hi)");
    cr_expect_gt(e2e_recv_prefix(t.fd, "(hear ", buf, sizeof buf, 2000, NULL), 0);
    cr_expect(strstr(buf, " (p \"TeamA\" 1) \"hi\")") != NULL, "%s", buf);
    cr_expect_eq(e2e_trainer_cmd(&t, "(ear off)"), 0);
    cr_expect_str_eq(t.last, "(ok ear off)");
    cr_expect_eq(e2e_trainer_say(&t, "quiet"), 0);
    cr_expect_eq(e2e_recv_prefix(t.fd, "(hear ", buf, sizeof buf, 500, NULL), 0,
                 "no hear with the ear off: %s", buf);
    e2e_trainer_close(&t);
    close(p19);
    close(p5);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

Test(trainer, change_player_type_and_notices, .timeout = 30)
{
    const char *args[] = { "server::coach=true", NULL };
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    int a1 = player(&s, "(init TeamA (version 19))", NULL);
    int b1 = player(&s, "(init TeamB (version 19))", NULL);
    e2e_trainer_t t;
    cr_assert_eq(e2e_trainer_connect(&t, &s, 19), 0);
    /* coach.md §3: the trainer has no limits; teammates hear the type, opponents the number */
    cr_expect_eq(e2e_trainer_change_type(&t, "TeamA", 1, 3), 0);
    cr_expect_str_eq(t.last, "(ok change_player_type TeamA 1 3)");
    cr_expect_gt(e2e_recv_prefix(a1, "(change_player_type ", buf, sizeof buf, 2000, NULL), 0);
    cr_expect_str_eq(buf, "(change_player_type 1 3)");
    cr_expect_gt(e2e_recv_prefix(b1, "(change_player_type ", buf, sizeof buf, 2000, NULL), 0);
    cr_expect_str_eq(buf, "(change_player_type 1)");
    cr_expect_eq(e2e_trainer_change_type(&t, "TeamA", 2, 3), -1);
    cr_expect_str_eq(t.last, "(warning no_such_player)");
    cr_expect_eq(e2e_trainer_change_type(&t, "TeamB", 1, 18), -1);
    cr_expect_str_eq(t.last, "(error out_of_range_player_type)");
    cr_expect_eq(e2e_trainer_change_type(&t, "TeamB", 1, 2), 0);
    cr_expect_str_eq(t.last, "(ok change_player_type TeamB 1 2)");
    cr_expect_gt(e2e_recv_prefix(a1, "(change_player_type ", buf, sizeof buf, 2000, NULL), 0);
    cr_expect_str_eq(buf, "(change_player_type 1)");
    e2e_trainer_close(&t);
    close(a1);
    close(b1);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

Test(trainer, synch_mode_waits_for_done, .timeout = 30)
{
    const char *args[] = { "server::coach=true", "server::synch_mode=true",
                           "server::synch_timeout=20000", NULL };
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    e2e_trainer_t t;
    e2e_world_t w;
    cr_assert_eq(e2e_trainer_connect(&t, &s, 19), 0);
    cr_assert_eq(e2e_trainer_change_mode(&t, "play_on"), 0);
    cr_assert_eq(e2e_trainer_wait_cycles(&t, 2, &w), 0);
    int t0 = w.time;
    /* coach.md §10: with its eye on the trainer is waited for: no (done), no next cycle */
    e2e_send(t.fd, t.port, "(done)");
    cr_expect_gt(e2e_recv_prefix(t.fd, "(see_global ", buf, sizeof buf, 2000, NULL), 0);
    cr_expect_gt(e2e_recv_prefix(t.fd, "(think)", buf, sizeof buf, 2000, NULL), 0);
    cr_expect_eq(e2e_recv_prefix(t.fd, "(see_global ", buf, sizeof buf, 800, NULL), 0,
                 "a cycle passed without (done)");
    e2e_send(t.fd, t.port, "(done)");
    cr_expect_gt(e2e_recv_prefix(t.fd, "(see_global ", buf, sizeof buf, 2000, NULL), 0);
    cr_assert_eq(e2e_parse_visual(buf, &w), 0);
    cr_expect_eq(w.time, t0 + 2);
    e2e_trainer_close(&t);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

Test(trainer, first_datagram_without_init_kicks_off, .timeout = 30)
{
    const char *args[] = { "server::coach_w_referee=true", NULL };
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    int pl = player(&s, "(init TeamA (version 19))", NULL);
    /* 7.4.1 of the manual: a first command that is not init starts the game */
    int fd = e2e_udp_open();
    e2e_send(fd, s.coach_port, "(look)");
    cr_expect_gt(e2e_recv_prefix(pl, "(hear 0 referee kick_off_l)", buf, sizeof buf, 2000,
                                 NULL), 0);
    cr_expect_eq(e2e_recv(fd, buf, sizeof buf, 300, NULL), 0, "no reply reaches it: %s", buf);
    /* and the sender is no trainer: a real one can still connect */
    e2e_trainer_t t;
    cr_expect_eq(e2e_trainer_connect(&t, &s, 19), 0);
    e2e_trainer_close(&t);
    close(fd);
    close(pl);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

Test(trainer, gone_trainer_frees_the_port, .timeout = 30)
{
    const char *args[] = { "server::coach=true", NULL };
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    e2e_trainer_t t;
    cr_assert_eq(e2e_trainer_connect(&t, &s, 19), 0);
    cr_expect_eq(e2e_trainer_cmd(&t, "(eye on)"), 0);
    e2e_trainer_close(&t); /* its socket is gone: the next see_global is refused */
    cr_assert_eq(e2e_wait_client(&s, E2E_SLOT_TRAINER, 0, 5000), 0,
                 "the closed trainer's place is still taken");
    cr_expect_eq(e2e_trainer_connect(&t, &s, 19), 0, "a new trainer after the old one left");
    e2e_trainer_close(&t);
    cr_expect_eq(e2e_server_stop(&s), 0);
}
