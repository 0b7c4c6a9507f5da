/* test_041_commands.c -- a scripted player walks through every command of
 * docs/protocol/player.md §10 on a synch-mode server and checks each effect in the next sense_body
 * (or the reply), then through every error and warning a player can get on its own port:
 * illegal_command_form (commands before it still done), message_not_null_terminated,
 * moving_to_opponent_field, too_many_moves (a goalie's third move after a catch, the
 * scene set by the trainer), no team with name, and the v18 synch-see rule that ignores
 * a low-quality change_view. Each command is sent after a (think) and before the
 * (done), so it belongs to that cycle. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e.h"
#include "e2e_players.h"
#include "e2e_trainer.h"

static char buf[E2E_PL_MSG];
static char sb[E2E_PL_MSG];

/* wait for (think), send cmd (if any), answer (done), then wait for the next cycle's
 * sense_body (into sb) */
static void act(e2e_pl_t *p, const char *cmd)
{
    cr_assert_gt(e2e_pl_wait(p, "(think)", buf, sizeof buf, 5000), 0, "no (think)");
    if (cmd)
        e2e_pl_send(p, cmd);
    e2e_pl_send(p, "(done)");
    cr_assert_gt(e2e_pl_wait(p, "(sense_body ", sb, sizeof sb, 5000), 0, "after %s", cmd);
}

static void has(const char *s, const char *what)
{
    cr_assert(strstr(s, what) != NULL, "missing %s in %s", what, s);
}

/* the reply (or nothing) a command got, among what came since mark */
static const char *reply_since(const e2e_pl_t *p, int mark, const char *prefix)
{
    int i = mark;
    return e2e_pl_find(p, prefix, &i);
}

static e2e_server_t srv;

static void start(void)
{
    const char *args[] = { "server::synch_mode=true", "server::coach_w_referee=true",
                           "server::synch_timeout=20000", NULL };
    cr_assert_eq(e2e_server_start(&srv, args), 0);
}

Test(commands, every_command_and_its_effect, .timeout = 120)
{
    start();
    e2e_pl_t p;
    cr_assert_eq(e2e_pl_connect(&p, &srv, "(init Script (version 19))"), 0);
    act(&p, NULL);
    /* body commands, one per cycle (before_kick_off: time stays 0) */
    act(&p, "(move -10 -5)");
    has(sb, "(move 1)");
    act(&p, "(turn 30)");
    has(sb, "(turn 1)");
    act(&p, "(dash 80)");
    has(sb, "(dash 1)");
    act(&p, "(dash (l 50 0) (r 50 10))");
    has(sb, "(dash 2)");
    act(&p, "(kick 50 0)");           /* before_kick_off: no kick */
    has(sb, "(kick 0)");
    act(&p, "(catch 0)");             /* not a goalie: nothing */
    has(sb, "(catch 0)");
    act(&p, "(tackle 0 off)");
    has(sb, "(tackle (expires 9) (count 1))");   /* tackle_cycles 10, one step done */
    /* the rest of the cycle's slot rule: only the first body command of a cycle */
    act(&p, NULL);
    for (int i = 0; i < 10; i++)      /* let the tackle freeze run out */
        act(&p, NULL);
    act(&p, "(turn 10)(turn 10)(dash 10)");
    has(sb, "(turn 2)");
    has(sb, "(dash 2)");
    /* free commands */
    act(&p, "(turn_neck 40)");
    has(sb, "(head_angle 40)");
    has(sb, "(turn_neck 1)");
    act(&p, "(change_view wide)");
    has(sb, "(view_mode high wide)");
    has(sb, "(change_view 1)");
    int mark = p.n;
    act(&p, "(change_view narrow low)"); /* synch-see mode (v18+): ignored entirely */
    has(sb, "(view_mode high wide)");
    has(sb, "(change_view 1)");
    cr_assert_eq(reply_since(&p, mark, "(error"), NULL);
    act(&p, "(change_focus 5 10)");
    has(sb, "(change_focus 1)");
    has(sb, "(focus_point 5 10)");
    act(&p, "(pointto 10 0)");
    /* point_to_ban 5, point_to_duration 20, one step done */
    has(sb, "(arm (movable 4) (expires 19) (target 10 0) (count 1))");
    act(&p, "(attentionto our 1)");   /* self: refused */
    has(sb, "(focus (target none) (count 0))");
    act(&p, "(attentionto off)");
    has(sb, "(focus (target none) (count 1))");
    mark = p.n;
    act(&p, "(say \"hello\")");
    has(sb, "(say 1)");
    /* v8+: heard at the start of the next cycle, right after the sense_body */
    act(&p, NULL);
    cr_assert_neq(reply_since(&p, mark, "(hear 0 self \"hello\")"), NULL);
    mark = p.n;
    act(&p, "(long_kick 100 0)(sense_body)(score)(clang (ver 7 9))(ear (off opp))"
            "(synch_see)(gaussian_see)");
    /* act() returned at the immediate sense_body: read the rest of the replies */
    cr_assert_gt(e2e_pl_wait(&p, "(ok gaussian_see)", buf, sizeof buf, 2000), 0);
    int i = mark;
    cr_assert_neq(e2e_pl_find(&p, "(sense_body 0 ", &i), NULL, "immediate sense_body");
    cr_assert_neq(e2e_pl_find(&p, "(score 0 0 0)", &i), NULL, "in textual order");
    cr_assert_neq(e2e_pl_find(&p, "(ok clang (ver 7 9))", &i), NULL);
    cr_assert_neq(e2e_pl_find(&p, "(ok synch_see)", &i), NULL);
    cr_assert_neq(e2e_pl_find(&p, "(ok gaussian_see)", &i), NULL);
    cr_assert_eq(reply_since(&p, mark, "(error"), NULL);
    /* bye: the player leaves, its socket is closed */
    cr_assert_gt(e2e_pl_wait(&p, "(think)", buf, sizeof buf, 5000), 0);
    e2e_pl_send(&p, "(bye)");
    cr_assert_eq(e2e_wait_client(&srv, E2E_SLOT_PLAYER(0, 1), 0, 5000), 0,
                 "the player's slot is still taken after (bye)");
    while (e2e_pl_recv(&p, buf, sizeof buf, 100) > 0)
        ;
    cr_assert_eq(e2e_pl_recv(&p, buf, sizeof buf, 500), 0, "nothing after (bye)");
    e2e_pl_close(&p);
    cr_expect_eq(e2e_server_stop(&srv), 0);
}

Test(commands, every_error_and_warning, .timeout = 120)
{
    start();
    e2e_pl_t p;
    cr_assert_eq(e2e_pl_connect(&p, &srv, "(init Script (version 19))"), 0);
    act(&p, NULL);
    /* a bad command after a good one: the good one is done, then the error */
    int mark = p.n;
    act(&p, "(turn 20)(fly 3)(dash 10)");
    has(sb, "(turn 1)");
    has(sb, "(dash 0)");
    cr_assert_neq(reply_since(&p, mark, "(error illegal_command_form)"), NULL);
    /* garbage, an empty datagram, the (move (X Y)) form the reference does not know */
    static const char *const bad[] = { "hello", "", "(move (1 2))", "(dash 1.)", "(turn" };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        mark = p.n;
        act(&p, bad[k]);
        cr_assert_neq(reply_since(&p, mark, "(error illegal_command_form)"), NULL, "%s", bad[k]);
    }
    /* no NUL at the end (v8+): the warning, and the command is still done */
    cr_assert_gt(e2e_pl_wait(&p, "(think)", buf, sizeof buf, 5000), 0);
    mark = p.n;
    e2e_pl_send_raw(&p, "(turn_neck 30)", 14);
    e2e_pl_send(&p, "(done)");
    cr_assert_gt(e2e_pl_wait(&p, "(sense_body ", sb, sizeof sb, 5000), 0);
    cr_assert_neq(reply_since(&p, mark, "(warning message_not_null_terminated)"), NULL);
    /* 30 deg is 0.5235987755982988 rad, back 29.999999999999996: truncated, 29 (the
     * reference prints 29 too) */
    has(sb, "(head_angle 29)");
    /* a move into the opponents' half before the kick-off: warned, still done */
    mark = p.n;
    act(&p, "(move 10 0)");
    cr_assert_neq(reply_since(&p, mark, "(warning moving_to_opponent_field)"), NULL);
    has(sb, "(move 1)");
    /* an ear for a team that does not exist */
    mark = p.n;
    act(&p, "(ear (on Nobody))");
    cr_assert_neq(reply_since(&p, mark, "(error no team with name Nobody)"), NULL);
    /* the init port answers a connected v8+ player with an error */
    e2e_send(p.fd, p.init_port, "(turn 10)");
    cr_assert_gt(e2e_pl_wait(&p, "(error only_init_allowed_on_init_port)", buf, sizeof buf,
                             2000), 0);
    e2e_pl_close(&p);
    cr_expect_eq(e2e_server_stop(&srv), 0);
}

/* goalie_max_moves (2) moves of a goalie holding the ball in its free kick; the third is
 * refused with (error too_many_moves) and still uses the cycle's body slot */
Test(commands, too_many_moves, .timeout = 120)
{
    start();
    e2e_pl_t g;
    cr_assert_eq(e2e_pl_connect(&g, &srv, "(init Keep (version 19) (goalie))"), 0);
    e2e_trainer_t t;
    cr_assert_eq(e2e_trainer_connect(&t, &srv, 19), 0);
    act(&g, "(move -40 0)");
    /* the ball 0.5 m in front of the goalie, play on: it catches (catch_probability 1) */
    cr_assert_eq(e2e_trainer_move_ball(&t, -39.5, 0.0, 0.0, 0.0), 0);
    cr_assert_eq(e2e_trainer_change_mode(&t, "play_on"), 0);
    act(&g, NULL);
    act(&g, "(catch 0)");
    has(sb, "(catch 1)");
    act(&g, NULL);
    int mark = g.n;
    act(&g, "(move -40 5)");
    act(&g, "(move -40 -5)");
    cr_assert_eq(reply_since(&g, mark, "(error"), NULL, "two moves are allowed");
    act(&g, "(move -38 0)");
    cr_assert_neq(reply_since(&g, mark, "(error too_many_moves)"), NULL);
    has(sb, "(move 4)");
    e2e_trainer_close(&t);
    e2e_pl_close(&g);
    cr_expect_eq(e2e_server_stop(&srv), 0);
}
