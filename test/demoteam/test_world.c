/* test_world.c -- the demo team's world model and skills (scripts/clients/demoteam/dt_world.c,
 * dt_skills.c, dt_coach.c): localisation from a see message built from a known pose,
 * for both sides; the ball's place; play mode and score from the referee; synch mode
 * before the first kick-off (one move and the narrow view, then nothing, whatever the
 * wait) and real time there as before; the kick power for a wanted ball speed; the
 * coach's choice of player types within pt_max. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dt.h"

static const char *flags[] = { "f c", "f c t", "f c b", "f r t", "f r b", "f l t", "f l b",
                               "g r", "g l", "f g r t", "f g r b", "f p r c", "f p l c",
                               "f t 0", "f t r 20", "f t l 20", "f b r 20", "f b l 20",
                               "f r 0", "f l 0", "f r t 20", "f l b 20" };

/* server-frame position of a flag name */
static vec2_t flag_at(const char *name)
{
    char copy[32];
    const char *tok[4];
    int n = 0;
    vec2_t at = { 0, 0 };
    snprintf(copy, sizeof copy, "%s", name);
    for (char *t = strtok(copy, " "); t && n < 4; t = strtok(NULL, " "))
        tok[n++] = t;
    dt_landmark(tok, n, &at);
    return at;
}

/* The see message a player at server-frame pos with face `face` (rad) gets with a
 * 120-degree view: flag distances quantised as the server does for landmarks (spec
 * 4.3: exp of ln(d) rounded to 0.01, then to 0.1 m), directions rounded to degrees;
 * the ball at ball (server frame) with its distance rounded to 0.1. */
static void make_see(char *msg, size_t len, vec2_t pos, double face, vec2_t ball)
{
    size_t o = (size_t)snprintf(msg, len, "(see 5");
    for (size_t i = 0; i < sizeof flags / sizeof *flags; i++) {
        vec2_t r = vec2_sub(flag_at(flags[i]), pos);
        double dir = rad2deg(angle_norm(vec2_angle(r) - face));
        if (fabs(dir) >= 60.0)
            continue;
        double d = rint(exp(rint(log(vec2_len(r)) / 0.01) * 0.01) / 0.1) * 0.1;
        o += (size_t)snprintf(msg + o, len - o, " ((%s) %.1f %.0f)", flags[i], d, rint(dir));
    }
    vec2_t rb = vec2_sub(ball, pos);
    o += (size_t)snprintf(msg + o, len - o, " ((b) %.1f %.0f))", rint(vec2_len(rb) / 0.1) * 0.1,
                          rint(rad2deg(angle_norm(vec2_angle(rb) - face))));
}

static void body_cycle(dt_world_t *w)
{
    dt_body_t b;
    memset(&b, 0, sizeof b);
    b.stamina = 8000;
    b.effort = 1;
    dt_world_on_body(w, &b);
}

static void check_localise(int side, vec2_t own, double own_face_deg, vec2_t own_ball)
{
    static dt_params_t prm;
    static dt_world_t w;
    static dt_see_t s;
    char msg[4096];
    dt_params_defaults(&prm);
    dt_world_init(&w, &prm, "Us", side, 5, 0);
    body_cycle(&w);
    /* the server frame is the own frame turned by 180 degrees for the right side */
    vec2_t pos = vec2_scale(own, side), ball = vec2_scale(own_ball, side);
    double face = deg2rad(own_face_deg) + (side < 0 ? M_PI : 0.0);
    make_see(msg, sizeof msg, pos, face, ball);
    cr_assert_eq(dt_parse_see(msg, strlen(msg), side, "Us", &s), 0, "%s", msg);
    cr_assert_geq(s.n, 4, "%s", msg);
    dt_world_on_see(&w, &s);
    cr_expect_eq(w.pos_age, 0);
    cr_expect_lt(vec2_len(vec2_sub(w.pos, own)), 0.3, "side %d: at %g %g, expected %g %g", side,
                 w.pos.x, w.pos.y, own.x, own.y);
    cr_expect_lt(fabs(rad2deg(angle_norm(w.body - deg2rad(own_face_deg)))), 1.0,
                 "side %d: body %g", side, rad2deg(w.body));
    /* ball distances are quantised to 0.1 m here; directions to 1 degree */
    double d = vec2_len(vec2_sub(own_ball, own));
    cr_expect_lt(vec2_len(vec2_sub(w.ball.pos, own_ball)), 0.3 + 0.02 * d, "ball at %g %g",
                 w.ball.pos.x, w.ball.pos.y);
}

Test(dt_world, localises_from_flags_on_both_sides)
{
    check_localise(1, vec2(-20.0, 10.0), 30.0, vec2(-10.0, 14.0));
    check_localise(1, vec2(40.0, -25.0), -120.0, vec2(30.0, -30.0));
    check_localise(-1, vec2(-20.0, 10.0), 30.0, vec2(-10.0, 14.0));
    check_localise(-1, vec2(5.0, 30.0), 170.0, vec2(0.0, 31.0));
}

Test(dt_world, referee_sets_mode_side_and_score)
{
    static dt_params_t prm;
    static dt_world_t w;
    dt_params_defaults(&prm);
    dt_world_init(&w, &prm, "Us", -1, 3, 0); /* the right side */
    dt_world_on_referee(&w, "kick_in_r");
    cr_expect(w.pm == DT_PM_KICK_IN && w.pm_ours);
    dt_world_on_referee(&w, "offside_r"); /* our offside: they take the free kick */
    cr_expect(w.pm == DT_PM_OFFSIDE && !w.pm_ours);
    dt_world_on_referee(&w, "goal_l_1");
    dt_world_on_referee(&w, "goal_l");  /* they scored: we kick off */
    cr_expect(w.score_theirs == 1 && w.score_ours == 0);
    cr_expect(w.pm == DT_PM_GOAL && w.pm_ours);
    dt_world_on_referee(&w, "goal_r_3");
    cr_expect_eq(w.score_ours, 3);
    dt_world_on_referee(&w, "yellow_card_l_4"); /* no play mode: nothing changes */
    cr_expect_eq(w.pm, DT_PM_GOAL);
}

/* One cycle of a player standing still at own (own frame) facing the team's attack
 * direction, the ball on the centre spot: sense_body, the referee's message if any, the
 * see, then the decision (its text into out). */
static void prematch_cycle(dt_world_t *w, vec2_t own, const char *referee, char *out,
                           size_t len)
{
    static dt_see_t s;
    char msg[4096];
    body_cycle(w);
    if (referee)
        dt_world_on_referee(w, referee);
    vec2_t pos = vec2_scale(own, w->side);
    double face = w->side < 0 ? M_PI : 0.0;
    make_see(msg, sizeof msg, pos, face, vec2(0.0, 0.0));
    cr_assert_eq(dt_parse_see(msg, strlen(msg), w->side, "Us", &s), 0, "%s", msg);
    dt_world_on_see(w, &s);
    dt_cmd_t c;
    dt_cmd_reset(&c);
    dt_play_decide(w, &c);
    snprintf(out, len, "%s", c.text);
}

/* Synch mode, before the first kick-off: how many cycles a player waits there is up to
 * the wall clock (the players join in real time), so it moves once and takes the narrow
 * view, then sends nothing, and what it does from the kick-off on is the same after 2
 * cycles of waiting as after 40 (dt_play.c, prematch; dt_world.c, first_kick_off). */
Test(dt_play, synch_mode_prematch_is_the_same_however_long_it_lasts)
{
    static dt_params_t prm;
    static dt_world_t w;
    for (int side = -1; side <= 1; side += 2) {
        for (int unum = 1; unum <= DT_PLAYERS; unum++) {
            char first[2][256], kick[2][256], after[2][256], text[256], want[64];
            const int waits[2] = { 2, 40 };
            vec2_t spot = dt_formation_kickoff(unum, side > 0);
            for (int k = 0; k < 2; k++) {
                dt_params_defaults(&prm);
                prm.synch_mode = 1;
                dt_world_init(&w, &prm, "Us", side, unum, unum == 1);
                body_cycle(&w); /* the first think: nothing seen yet */
                dt_cmd_t c;
                dt_cmd_reset(&c);
                dt_play_decide(&w, &c);
                snprintf(first[k], sizeof first[k], "%s", c.text);
                for (int i = 0; i < waits[k]; i++) {
                    prematch_cycle(&w, spot, NULL, text, sizeof text);
                    cr_expect_str_empty(text, "side %d unum %d, cycle %d: %s", side, unum, i, text);
                    /* what it saw while waiting: a teammate, an opponent (with their ages) */
                    w.mate[unum % DT_PLAYERS + 1] = (dt_obj_t){ vec2(-5, i), vec2(1, 0), i % 3, 0 };
                    w.opp[4] = (dt_obj_t){ vec2(5, -i), vec2(-1, 0), i % 5, 0 };
                }
                cr_expect_eq(w.scan, 0);
                prematch_cycle(&w, spot, "kick_off_l", kick[k], sizeof kick[k]);
                cr_expect_eq(w.mate[unum % DT_PLAYERS + 1].age, DT_UNKNOWN, "forgotten");
                cr_expect_eq(w.opp[4].age, DT_UNKNOWN, "forgotten");
                prematch_cycle(&w, spot, NULL, after[k], sizeof after[k]);
            }
            snprintf(want, sizeof want, "(move %.1f %.1f)(change_view narrow)", spot.x, spot.y);
            cr_expect_str_eq(first[0], want);
            cr_expect_str_eq(first[1], want);
            cr_expect_str_eq(kick[0], kick[1], "side %d unum %d", side, unum);
            cr_expect_str_eq(after[0], after[1], "side %d unum %d", side, unum);
            cr_expect_not_null(strstr(kick[0], "(change_view normal)"), "%s", kick[0]);
            cr_expect_null(strstr(after[0], "change_view"), "%s", after[0]);
        }
    }
}

/* In real time nothing changes: the player moves, then faces the centre spot and looks
 * around while it waits, and keeps its normal view. */
Test(dt_play, real_time_prematch_as_before)
{
    static dt_params_t prm;
    static dt_world_t w;
    char text[256];
    dt_params_defaults(&prm);
    dt_world_init(&w, &prm, "Us", -1, 6, 0);
    vec2_t spot = dt_formation_kickoff(6, 0);
    body_cycle(&w);
    dt_cmd_t c;
    dt_cmd_reset(&c);
    dt_play_decide(&w, &c);
    cr_expect_not_null(strstr(c.text, "(move "), "%s", c.text);
    cr_expect_null(strstr(c.text, "change_view"), "%s", c.text);
    prematch_cycle(&w, spot, NULL, text, sizeof text);
    cr_expect_not_null(strstr(text, "(turn "), "the right side turns to the centre spot: %s", text);
    prematch_cycle(&w, spot, "kick_off_l", text, sizeof text);
    cr_expect_null(strstr(text, "change_view"), "%s", text);
}

Test(dt_skills, kick_power_for_a_wanted_speed)
{
    static dt_params_t prm;
    static dt_world_t w;
    dt_params_defaults(&prm);
    dt_world_init(&w, &prm, "Us", 1, 9, 0);
    w.pm = DT_PM_PLAY_ON;
    w.pos = vec2(0.0, 0.0);
    w.body = 0.0;
    w.ball.pos = vec2(0.5, 0.0);
    w.ball.vel = vec2(0.0, 0.0);
    w.ball.age = 0;
    /* docs/protocol/physics.md §4: rate = kick_power_rate (1 - 0.25 dir_diff/pi - 0.25
     * dist_ball/margin) with dist_ball = 0.5 - 0.3 - 0.085 = 0.115: 0.027 * 0.958929 =
     * 0.025891; a ball speed of 2 needs power 2 / 0.025891 = 77.25, straight ahead */
    dt_cmd_t c;
    dt_cmd_reset(&c);
    cr_expect_eq(dt_skill_kick_to(&w, &c, vec2(10.0, 0.0), 2.0), 1);
    double power, dir;
    cr_assert_eq(sscanf(c.text, "(kick %lf %lf)", &power, &dir), 2, "%s", c.text);
    cr_expect_float_eq(power, 77.2, 0.06);
    cr_expect_float_eq(dir, 0.0, 0.06);
    cr_expect_float_eq(w.cmd_kick.x, 2.0, 0.01);
    /* traveled = (v0 - v_end) / (1 - decay): 20 m ending at 0.5 needs 20 * 0.06 + 0.5 */
    cr_expect_float_eq(dt_skill_pass_speed(&w, 20.0, 0.5), 1.7, 1e-9);
    cr_expect_float_eq(dt_skill_pass_speed(&w, 80.0, 0.5), 3.0, 1e-9, "capped at ball_speed_max");
}

Test(dt_coach, types_within_pt_max)
{
    static dt_params_t p;
    dt_params_defaults(&p);
    p.ntypes = 14;
    p.pt_max = 1;
    for (int t = 0; t < p.ntypes; t++) {
        p.type[t].speed_max = 1.0 + 0.01 * t;
        p.type[t].dash_rate = 0.006 + 0.0001 * t; /* faster with t */
        p.type[t].catch_stretch = t == 5 ? 1.3 : 1.0;
    }
    int out[DT_PLAYERS + 1];
    dt_coach_choose(&p, out);
    int used[DT_TYPES_MAX] = { 0 };
    for (int u = 1; u <= DT_PLAYERS; u++) {
        cr_assert(out[u] >= 0 && out[u] < p.ntypes, "player %d type %d", u, out[u]);
        used[out[u]]++;
        cr_expect_leq(used[out[u]], 1, "type %d used twice", out[u]);
    }
    cr_expect_eq(out[1], 5, "the goalie takes the longest catch");
    cr_expect_eq(out[10], 13, "the centre forward the fastest");
    /* more players than types: the rest keep theirs (-1) */
    p.ntypes = 3;
    dt_coach_choose(&p, out);
    int none = 0;
    for (int u = 1; u <= DT_PLAYERS; u++)
        none += out[u] < 0;
    cr_expect_eq(none, DT_PLAYERS - 3);
}
