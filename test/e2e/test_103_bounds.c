/* test_103_bounds.c -- issue 12 item 4: only operators may send a monitor's referee
 * commands, and no command places an object off the pitch plus its 5 m margin (the
 * reference's PITCH_MARGIN: |x| <= 52.5 + 5, |y| <= 34 + 5) or gives it more speed than
 * the physics allows (ball_speed_max 3, a default player's player_speed_max 1.05): not
 * the trainer's move, a monitor's dispplayer/dispfoul, nor a player's move. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "e2e_safety.h"
#include "e2e_trainer.h"

#define X_MAX 57.5
#define Y_MAX 39.0

static char buf[65536];

static int monitor_at(const e2e_server_t *s, const char *ip, int *mport)
{
    int fd = es_udp_open_at(ip);
    cr_assert_geq(fd, 0);
    e2e_send(fd, s->port, "(dispinit version 3)");
    cr_assert_gt(e2e_recv_prefix(fd, "(server_param ", buf, sizeof buf, 3000, mport), 0);
    return fd;
}

/* the reply to a monitor command (skipping frames): a v3 monitor gets it on board 1,
 * (msg T 1 "(error ...)") */
static void monitor_cmd(int fd, int mport, const char *cmd)
{
    e2e_send(fd, mport, cmd);
    if (e2e_recv_prefix(fd, "(msg ", buf, sizeof buf, 2000, NULL) <= 0)
        buf[0] = '\0';
}

Test(bounds, monitor_referee_commands_need_operator_rights, .timeout = 60)
{
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, NULL), 0); /* operators: loopback 127.0.0.1, ::1 */
    int mport;
    int fd = monitor_at(&s, "127.0.0.2", &mport);
    static const char *const cmds[] = { "(dispstart)", "(dispfoul 0 0 1)",
                                        "(dispplayer 1 1 0 0 0)", "(dispdiscard 1 1)",
                                        "(dispcard 1 1 red)" };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        monitor_cmd(fd, mport, cmds[i]);
        cr_expect(strstr(buf, "\"(error referee_commands_need_operator_rights)\"") != NULL,
                  "%s: %s", cmds[i], buf);
    }
    close(fd);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

static void expect_on_pitch(const e2e_obj_t *o, const char *what)
{
    cr_expect(o->present, "%s missing", what);
    cr_expect(fabs(o->x) <= X_MAX + 1e-9 && fabs(o->y) <= Y_MAX + 1e-9, "%s at %g %g", what,
              o->x, o->y);
}

Test(bounds, no_command_places_an_object_off_the_pitch, .timeout = 60)
{
    e2e_server_t s;
    const char *args[] = { "server::coach=true", NULL };
    cr_assert_eq(e2e_server_start(&s, args), 0);
    e2e_trainer_t t;
    cr_assert_eq(e2e_trainer_connect(&t, &s, 19), 0);
    int pl = e2e_udp_open(), pport;
    e2e_send(pl, s.port, "(init TeamA (version 19))");
    cr_assert_gt(e2e_recv_prefix(pl, "(init ", buf, sizeof buf, 2000, &pport), 0);
    e2e_world_t w;

    /* the trainer: 5.8e17 m and a velocity of 1e17 m/cycle */
    cr_expect_eq(e2e_trainer_cmd(&t, "(move (ball) 5.8e17 -5.8e17 0 1e17 1e17)"), 0);
    cr_expect_eq(e2e_trainer_cmd(&t, "(move (player TeamA 1) -5.8e17 5.8e17 0 -1e17 0)"), 0);
    cr_assert_eq(e2e_trainer_wait_cycles(&t, 1, &w), 0);
    expect_on_pitch(&w.ball, "ball");
    cr_expect_leq(hypot(w.ball.vx, w.ball.vy), 3.0 + 1e-9, "ball speed");
    e2e_obj_t *p = e2e_world_player(&w, "TeamA", 1);
    cr_assert_not_null(p);
    expect_on_pitch(p, "player");
    cr_expect_leq(hypot(p->vx, p->vy), 1.05 + 1e-9, "player speed");
    /* cycles later they are still near the pitch (decay only shrinks the speed) */
    cr_assert_eq(e2e_trainer_wait_cycles(&t, 5, &w), 0);
    cr_expect(fabs(w.ball.x) < 100.0 && fabs(w.ball.y) < 100.0, "ball at %g %g", w.ball.x,
              w.ball.y);

    /* a player's own move (before the kick-off); the ball and the player at rest in
     * the middle first, so no collision moves the player after it was placed */
    cr_expect_eq(e2e_trainer_cmd(&t, "(move (ball) 0 0 0 0 0)"), 0);
    cr_expect_eq(e2e_trainer_cmd(&t, "(move (player TeamA 1) -10 0 0 0 0)"), 0);
    e2e_send(pl, pport, "(move 1e300 -1e300)");
    cr_assert_eq(e2e_trainer_wait_cycles(&t, 2, &w), 0);
    p = e2e_world_player(&w, "TeamA", 1);
    cr_assert_not_null(p);
    expect_on_pitch(p, "moved player");

    /* an operator monitor: dispplayer and dispfoul far away (metres x 16) */
    int mport;
    int mon = monitor_at(&s, "127.0.0.1", &mport);
    e2e_send(mon, mport, "(dispplayer 1 1 999999999999999 -999999999999999 0)");
    cr_assert_eq(e2e_trainer_wait_cycles(&t, 2, &w), 0);
    p = e2e_world_player(&w, "TeamA", 1);
    cr_assert_not_null(p);
    expect_on_pitch(p, "dispplayer");
    cr_expect_gt(p->x, 50.0, "it did move: %g", p->x);
    e2e_send(mon, mport, "(dispfoul -999999999999999 999999999999999 1)");
    cr_assert_eq(e2e_trainer_wait_cycles(&t, 2, &w), 0);
    expect_on_pitch(&w.ball, "dispfoul ball");
    close(mon);
    close(pl);
    e2e_trainer_close(&t);
    cr_expect_eq(e2e_server_stop(&s), 0);
}
