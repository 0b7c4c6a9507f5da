/* test_parse.c -- the demo team's reading of server messages (scripts/clients/demoteam/dt_parse.c):
 * landmark names to positions (docs/protocol/player.md §5.7), see and sense_body of protocol
 * 19, play-mode names (docs/protocol/referee.md §1), referee hears, parameter messages, and
 * garbage. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dt.h"

static int lm(const char *name, vec2_t *at)
{
    char copy[64];
    const char *tok[4];
    int n = 0;
    snprintf(copy, sizeof copy, "%s", name);
    for (char *t = strtok(copy, " "); t && n < 4; t = strtok(NULL, " "))
        tok[n++] = t;
    return dt_landmark(tok, n, at);
}

Test(dt_parse, landmarks_as_in_the_spec_table)
{
    static const struct { const char *name; double x, y; } tab[] = {
        { "f c", 0, 0 }, { "f c t", 0, -34 }, { "f r b", 52.5, 34 }, { "f l t", -52.5, -34 },
        { "g r", 52.5, 0 }, { "g l", -52.5, 0 }, { "f g r t", 52.5, -7.01 },
        { "f g l b", -52.5, 7.01 }, { "f p r c", 36, 0 }, { "f p l t", -36, -20.16 },
        { "f t 0", 0, -39 }, { "f t r 30", 30, -39 }, { "f b l 50", -50, 39 },
        { "f r 0", 57.5, 0 }, { "f r t 20", 57.5, -20 }, { "f l b 10", -57.5, 10 },
    };
    for (size_t i = 0; i < sizeof tab / sizeof *tab; i++) {
        vec2_t at;
        cr_assert_eq(lm(tab[i].name, &at), 0, "%s", tab[i].name);
        cr_expect_float_eq(at.x, tab[i].x, 1e-9, "%s x", tab[i].name);
        cr_expect_float_eq(at.y, tab[i].y, 1e-9, "%s y", tab[i].name);
    }
    vec2_t at;
    cr_expect_eq(lm("f x", &at), -1);
    cr_expect_eq(lm("g", &at), -1);
    cr_expect_eq(lm("f p q t", &at), -1);
}

Test(dt_parse, see_objects_of_version_19)
{
    static const char msg[] =
        "(see 41 ((f c) 10.2 -5 0.1 0.2) ((g r) 60.3 12) ((b) 5.5 -20 -0.22 1.4)"
        " ((p \"Us\" 7) 12 30 0 0 45 10) ((p \"Them\" 1 goalie) 40 -3 0 0 0 0 k)"
        " ((p \"Them\") 50 8) ((p) 60 1) ((l r) 30 -80) ((F) 1.2 150) ((B) 0.9 170))";
    dt_see_t s;
    cr_assert_eq(dt_parse_see(msg, sizeof msg, 1, "Us", &s), 0);
    cr_expect_eq(s.time, 41);
    cr_assert_eq(s.n, 9, "(F) is skipped: which flag it is is not told");
    cr_expect_eq(s.obj[0].kind, DT_OBJ_FLAG);
    cr_expect_float_eq(s.obj[0].dist, 10.2, 1e-9);
    cr_expect_float_eq(s.obj[0].dir, -5, 1e-9);
    cr_expect(s.obj[0].has_chg);
    cr_expect_float_eq(s.obj[1].at.x, 52.5, 1e-9);
    cr_expect_eq(s.obj[2].kind, DT_OBJ_BALL);
    cr_expect_float_eq(s.obj[2].dirchg, 1.4, 1e-9);
    cr_expect(s.obj[3].team == 1 && s.obj[3].unum == 7 && !s.obj[3].goalie);
    cr_expect(s.obj[4].team == -1 && s.obj[4].unum == 1 && s.obj[4].goalie);
    cr_expect(s.obj[5].team == -1 && s.obj[5].unum == 0);
    cr_expect(s.obj[6].team == 0 && s.obj[6].kind == DT_OBJ_PLAYER);
    cr_expect_eq(s.obj[7].kind, DT_OBJ_LINE);
    cr_expect(s.obj[8].kind == DT_OBJ_BALL && s.obj[8].close);

    /* the right side's own frame is the server's turned by 180 degrees */
    cr_assert_eq(dt_parse_see(msg, sizeof msg, -1, "Us", &s), 0);
    cr_expect_float_eq(s.obj[1].at.x, -52.5, 1e-9);
}

Test(dt_parse, sense_body_of_version_19)
{
    static const char msg[] =
        "(sense_body 88 (view_mode high narrow) (stamina 7012.5 0.95 120000) (speed 0.42 -13)"
        " (head_angle 30) (kick 4) (dash 50) (turn 12) (say 0) (turn_neck 6) (catch 1)"
        " (move 2) (change_view 3) (change_focus 0) (arm (movable 0) (expires 0) (target 0 0)"
        " (count 0)) (focus (target none) (count 0)) (tackle (expires 0) (count 0))"
        " (collision none) (foul (charged 0) (card none)) (focus_point 0 0))";
    dt_body_t b;
    cr_assert_eq(dt_parse_sense_body(msg, sizeof msg, &b), 0);
    cr_expect_eq(b.time, 88);
    cr_expect(b.narrow && !b.wide);
    cr_expect_float_eq(b.stamina, 7012.5, 1e-9);
    cr_expect_float_eq(b.effort, 0.95, 1e-9);
    cr_expect_float_eq(b.capacity, 120000, 1e-9);
    cr_expect_float_eq(b.speed, 0.42, 1e-9);
    cr_expect_float_eq(b.speed_dir, -13, 1e-9);
    cr_expect_float_eq(b.head_angle, 30, 1e-9);
    cr_expect(b.kick == 4 && b.dash == 50 && b.turn == 12 && b.catch_ == 1 && b.move == 2);
    cr_expect(b.turn_neck == 6 && b.change_view == 3);
}

Test(dt_parse, play_modes_and_their_sides)
{
    char side;
    cr_expect_eq(dt_parse_playmode("before_kick_off", &side), DT_PM_BEFORE_KICK_OFF);
    cr_expect_eq(dt_parse_playmode("play_on", &side), DT_PM_PLAY_ON);
    cr_expect_eq(dt_parse_playmode("kick_in_l", &side), DT_PM_KICK_IN);
    cr_expect_eq(side, 'l');
    cr_expect_eq(dt_parse_playmode("free_kick_fault_r", &side), DT_PM_FREE_KICK_FAULT);
    cr_expect_eq(side, 'r');
    cr_expect_eq(dt_parse_playmode("free_kick_r", &side), DT_PM_FREE_KICK);
    cr_expect_eq(dt_parse_playmode("goal_kick_l", &side), DT_PM_GOAL_KICK);
    cr_expect_eq(dt_parse_playmode("goal_r", &side), DT_PM_GOAL);
    cr_expect_eq(dt_parse_playmode("foul_charge_l", &side), DT_PM_FOUL);
    cr_expect_eq(dt_parse_playmode("back_pass_r", &side), DT_PM_BACK_PASS);
    cr_expect_eq(dt_parse_playmode("indirect_free_kick_l", &side), DT_PM_INDIRECT_FREE_KICK);
    cr_expect_eq(dt_parse_playmode("penalty_score_l", &side), DT_PM_PENALTY_OVER);
    /* referee messages that are no play mode */
    cr_expect_eq(dt_parse_playmode("goal_l_2", &side), DT_PM_OTHER);
    cr_expect_eq(dt_parse_playmode("goalie_catch_ball_r", &side), DT_PM_OTHER);
    cr_expect_eq(dt_parse_playmode("half_time", &side), DT_PM_OTHER);
    cr_expect_eq(dt_parse_playmode("kick_off_x", &side), DT_PM_OTHER);
    cr_expect_eq(dt_parse_playmode("", &side), DT_PM_OTHER);
}

Test(dt_parse, referee_and_type_changes)
{
    char text[64];
    int t, u, ty;
    static const char h[] = "(hear 300 referee half_time)";
    cr_assert_eq(dt_parse_referee(h, sizeof h, &t, text, sizeof text), 0);
    cr_expect_eq(t, 300);
    cr_expect_str_eq(text, "half_time");
    static const char said[] = "(hear 30 12 our 5 \"hello\")";
    cr_expect_eq(dt_parse_referee(said, sizeof said, &t, text, sizeof text), -1);
    static const char own[] = "(change_player_type 3 5)", opp[] = "(change_player_type 3)";
    cr_assert_eq(dt_parse_change_type(own, sizeof own, &u, &ty), 0);
    cr_expect(u == 3 && ty == 5);
    cr_assert_eq(dt_parse_change_type(opp, sizeof opp, &u, &ty), 0);
    cr_expect(u == 3 && ty == -1);
    static const char bad[] = "(change_player_type x)";
    cr_expect_eq(dt_parse_change_type(bad, sizeof bad, &u, &ty), -1);
}

Test(dt_parse, parameter_messages)
{
    dt_params_t p;
    dt_params_defaults(&p);
    static const char sp[] = "(server_param (ball_decay 0.9)(catchable_area_l 1.5)(maxpower 120)"
                             "(unknown_thing 5)(half_time 60)(synch_mode 1))";
    static const char pp[] = "(player_param (player_types 18)(pt_max 2)(subs_max 5))";
    static const char pt[] = "(player_type (id 4)(player_speed_max 1.1)(player_decay 0.45)"
                             "(kickable_margin 0.75)(catchable_area_l_stretch 1.2))";
    cr_assert_eq(dt_parse_params(sp, sizeof sp, &p), 0);
    cr_assert_eq(dt_parse_params(pp, sizeof pp, &p), 0);
    cr_assert_eq(dt_parse_params(pt, sizeof pt, &p), 0);
    cr_expect_float_eq(p.ball_decay, 0.9, 1e-9);
    cr_expect_float_eq(p.catch_l, 1.5, 1e-9);
    cr_expect_float_eq(p.max_power, 120, 1e-9);
    cr_expect_float_eq(p.half_time, 60, 1e-9);
    cr_expect_float_eq(p.synch_mode, 1, 1e-9);
    cr_expect(p.ntypes == 18 && p.pt_max == 2 && p.subs_max == 5);
    cr_expect_float_eq(p.type[4].speed_max, 1.1, 1e-9);
    cr_expect_float_eq(p.type[4].catch_stretch, 1.2, 1e-9);
    cr_expect_float_eq(p.type[4].inertia, 5.0, 1e-9, "a field not sent keeps its default");
    static const char badid[] = "(player_type (id 99)(player_decay 0.1))";
    cr_expect_eq(dt_parse_params(badid, sizeof badid, &p), -1);
}

Test(dt_parse, garbage_is_refused_not_crashed_on)
{
    static const char *bad[] = { "", "(", ")", "(see", "(see x ((b) 1 2))", "(sense_body)",
                                 "(see 1 ((f c t) nan 3))", "(see 1 (((((((((((b))))))))))))",
                                 "(see 1 ((p \"a\" 99) 1 2))", "(hear)", "(player_type (id))" };
    dt_see_t s;
    dt_body_t b;
    dt_params_t p;
    char text[16];
    int t;
    dt_params_defaults(&p);
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        size_t len = strlen(bad[i]);
        dt_parse_see(bad[i], len, 1, "Us", &s);
        dt_parse_sense_body(bad[i], len, &b);
        dt_parse_params(bad[i], len, &p);
        dt_parse_referee(bad[i], len, &t, text, sizeof text);
    }
    cr_expect_eq(dt_parse_see("(see x ((b) 1 2))", 17, 1, "Us", &s), -1);
    /* random bytes */
    char junk[512];
    srand(7);
    for (int k = 0; k < 2000; k++) {
        size_t len = (size_t)(rand() % (int)sizeof junk);
        for (size_t i = 0; i < len; i++)
            junk[i] = "()\" abfpgl0123456789.-"[rand() % 22];
        dt_parse_see(junk, len, 1, "Us", &s);
        dt_parse_sense_body(junk, len, &b);
        dt_parse_params(junk, len, &p);
    }
}
