/* test_035_ref_fouls.c -- fouls and cards end to end (docs/protocol/referee.md §8): a tackle
 * with the foul flag on an opponent who has the ball: the victim is foul-charged (frozen
 * 5 cycles, sense_body (foul (charged n))), foul_charge at the tackler's position, 30
 * steps, free kick; dangerous (the victim dashed and stands between tackler and ball,
 * facing it): yellow card, the second yellow also red, red disqualifies (off the pitch, no
 * reconnect: (error red_carded_player)); a foul in the tackler's own penalty area gives an
 * indirect free kick. foul_detect_probability=1 makes detection certain. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "e2e_ref.h"
#include "playmode.h"

#define NEAR(a, b) (fabs((a) - (b)) < 1e-3)

/* a fixed seed: the tackles below succeed with probability 1 - (1.1 / 2)^foul_exponent,
 * drawn from the action stream; the same seed and commands give the same draws */
static const char *const sure[] = { "server::foul_detect_probability=1",
                                    "server::random_seed=7", NULL };
static const char *const red[] = { "server::foul_detect_probability=1", "server::random_seed=7",
                                   "server::red_card_probability=1", NULL };

/* the card flag a see_global shows for a player (v14+: last token 'y' or 'r'), 0 none */
static char card_flag(const char *see, const char *team, int unum)
{
    char key[64];
    snprintf(key, sizeof key, "((p \"%s\" %d) ", team, unum);
    const char *e = strstr(see, key);
    if (!e || !(e = strchr(e + 1, ')')) || !(e = strchr(e + 1, ')')))
        return 0;
    return e[-2] == ' ' && (e[-1] == 'y' || e[-1] == 'r') ? e[-1] : 0;
}

/* the 30-step wait of a foul, then the restart */
static void foul_wait(e2e_ref_t *m, int pm, const char *next)
{
    int t = m->time;
    for (int i = 2; i <= 30; i++) {
        cr_assert_eq(e2e_ref_cycle(m), 0);
        cr_expect_eq(m->pm, pm, "step %d", i);
    }
    cr_expect_eq(m->time, t, "the clock stands");
    cr_assert_eq(e2e_ref_cycle(m), 0);
    cr_expect_str_eq(m->heard, next);
    cr_expect_eq(m->time, t + 1);
}

/* tackler a (left) behind victim b (right), both facing +x, ball in front of b; b dashes
 * (power 0: he does not move, but he dashed) in the scene cycle */
static void dangerous_scene(e2e_ref_t *m, int a, int b, double x)
{
    e2e_ref_trainer(m, "(change_mode play_on)");
    e2e_ref_place(m, a, x, 0.0, 0.0);
    e2e_ref_place(m, b, x + 0.7, 0.0, 0.0);
    e2e_ref_ball(m, x + 1.1, 0.0, 0.0, 0.0);
    e2e_ref_say(m, b, "(dash 0)");
    cr_assert_eq(e2e_ref_cycle(m), 0);
}

Test(ref_fouls, foul_charge_without_a_card, .timeout = 60)
{
    e2e_ref_t m;
    cr_assert_eq(e2e_ref_start(&m, sure), 0);
    int a1 = e2e_ref_connect(&m, "A", 0), b1 = e2e_ref_connect(&m, "B", 0);
    cr_assert_eq(e2e_ref_sync(&m), 0);
    e2e_ref_trainer(&m, "(change_mode play_on)");
    e2e_ref_place(&m, a1, 8.8, 0.0, 0.0);
    e2e_ref_place(&m, b1, 10.0, 0.0, 180.0);
    e2e_ref_ball(&m, 9.5, 0.0, 0.0, 0.0);
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    e2e_ref_say(&m, a1, "(tackle 0 on)");
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    /* b1 faces away from the tackle direction and did not dash: a plain foul */
    cr_expect_str_eq(m.heard, "foul_charge_l;");
    cr_expect(NEAR(m.w.ball.x, 8.8) && NEAR(m.w.ball.y, 0.0), "at the tackler: %g", m.w.ball.x);
    /* frozen for foul_cycles = 5: 4 left after this step */
    cr_expect(strstr(m.pl[b1].body, "(foul (charged 4) (card none))") != NULL, "%s", m.pl[b1].body);
    foul_wait(&m, PM_FOUL_CHARGE_L, "free_kick_r;");
    cr_expect_eq(e2e_ref_stop(&m), 0);
}

Test(ref_fouls, yellow_then_second_yellow_red, .timeout = 90)
{
    e2e_ref_t m;
    cr_assert_eq(e2e_ref_start(&m, sure), 0);
    int a1 = e2e_ref_connect(&m, "A", 0), b1 = e2e_ref_connect(&m, "B", 0);
    cr_assert_eq(e2e_ref_sync(&m), 0);
    dangerous_scene(&m, a1, b1, 7.9);
    e2e_ref_say(&m, a1, "(tackle 0 on)");
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    cr_expect_str_eq(m.heard, "foul_charge_l;yellow_card_l_1;");
    cr_expect(card_flag(m.see, "A", 1) == 'y', "the card is seen: %s", m.see);
    foul_wait(&m, PM_FOUL_CHARGE_L, "free_kick_r;");
    /* again: the second yellow is also a red card, and he leaves the pitch */
    dangerous_scene(&m, a1, b1, 7.9);
    e2e_ref_say(&m, a1, "(tackle 0 on)");
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    cr_expect_str_eq(m.heard, "foul_charge_l;yellow_card_l_1;red_card_l_1;");
    cr_expect_null(e2e_ref_obj(&m, a1), "sent off");
    m.pl[a1].gone = 1;
    /* and he cannot come back */
    int fd = e2e_udp_open();
    char buf[256];
    e2e_send(fd, m.s.port, "(reconnect A 1)");
    cr_expect_gt(e2e_recv_prefix(fd, "(error ", buf, sizeof buf, 2000, NULL), 0);
    cr_expect_str_eq(buf, "(error red_carded_player)");
    close(fd);
    foul_wait(&m, PM_FOUL_CHARGE_L, "free_kick_r;");
    cr_expect_null(e2e_ref_obj(&m, a1), "still off");
    cr_expect_eq(e2e_ref_stop(&m), 0);
}

Test(ref_fouls, red_card_at_once, .timeout = 60)
{
    e2e_ref_t m;
    cr_assert_eq(e2e_ref_start(&m, red), 0);
    int a1 = e2e_ref_connect(&m, "A", 0), b1 = e2e_ref_connect(&m, "B", 0);
    cr_assert_eq(e2e_ref_sync(&m), 0);
    dangerous_scene(&m, a1, b1, 7.9);
    e2e_ref_say(&m, a1, "(tackle 0 on)");
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    cr_expect_str_eq(m.heard, "foul_charge_l;red_card_l_1;");
    cr_expect_null(e2e_ref_obj(&m, a1));
    cr_expect_str_eq(m.pl[b1].heard, "foul_charge_l;red_card_l_1;");
    cr_expect_eq(e2e_ref_stop(&m), 0);
}

Test(ref_fouls, foul_in_own_penalty_area_indirect, .timeout = 60)
{
    e2e_ref_t m;
    cr_assert_eq(e2e_ref_start(&m, sure), 0);
    int a1 = e2e_ref_connect(&m, "A", 0), b1 = e2e_ref_connect(&m, "B", 0);
    cr_assert_eq(e2e_ref_sync(&m), 0);
    e2e_ref_trainer(&m, "(change_mode play_on)");
    e2e_ref_place(&m, a1, -44.2, 0.0, 180.0);
    e2e_ref_place(&m, b1, -45.5, 0.0, 0.0);
    e2e_ref_ball(&m, -44.9, 0.0, 0.0, 0.0);
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    e2e_ref_say(&m, a1, "(tackle 0 on)");
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    cr_expect_str_eq(m.heard, "foul_charge_l;");
    cr_expect(NEAR(m.w.ball.x, -44.2), "ball %g", m.w.ball.x);
    foul_wait(&m, PM_FOUL_CHARGE_L, "indirect_free_kick_r;");
    cr_expect_eq(e2e_ref_stop(&m), 0);
}
