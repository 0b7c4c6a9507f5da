/* test_see.c -- proto_see: view cone, object order, long/short names, quantised distances
 * computed by hand from docs/protocol/player.md §5.4, low quality, close objects, lines, point
 * direction and flags, Gaussian mode; and the view angle / period table (player.md §5.2). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "geom.h"
#include "netgw_proto.h"

static shm_snapshot_sh_t snap;
static shm_client_sh_t cl;
static conf_t conf;
static rng_t rng;
static char buf[8192];

static shm_player_sh_t *put(int side, int unum, double x, double y, double body_deg)
{
    shm_player_sh_t *p = &snap.player[shm_player_index(side, unum)];
    p->enabled = 1;
    p->side = (int8_t)side;
    p->unum = (int8_t)unum;
    p->x = x;
    p->y = y;
    p->body = deg2rad(body_deg);
    return p;
}

/* Observer l1 at (-10, 0) facing +x, normal view (half angle 45 deg), high quality.
 *  ball at (-3, 0): d = 7, ln 7 = 1.9459 -> /0.1 -> 19 -> e^1.9 = 6.686 -> 6.7
 *  l2 at (0, 5): d = 11.18, dir 26.57; ln -> 24.14 -> 24 -> e^2.4 = 11.02 -> 11
 *  r1 goalie at (5, -3): d = 15.30, dir -11.31; 27.28 -> 27 -> e^2.7 = 14.88 -> 14.9
 *  r2 at (-12, 0): 2 m straight behind: close, ln 2 -> 6.93 -> 7 -> e^0.7 = 2.01 -> 2
 *  r3 disabled; r4 at (50, 10): d = 60.83 > team_too_far 60 -> anonymous,
 *    ln -> 41.08 -> 41 -> e^4.1 = 60.34 -> 60.3, dir 9.46
 *  flag (f c) at (0, 0): d = 10, ln 10 = 2.302585 -> /0.01 -> 230 -> e^2.3 = 9.974 -> 10
 *  line r: face ray hits x = 52.5 at 62.5 m, ln -> 413.5 -> 414 -> e^4.14 = 62.80 -> 62.8,
 *    face along the normal: direction 90 */
static void setup(void)
{
    memset(&snap, 0, sizeof snap);
    memset(&cl, 0, sizeof cl);
    conf_defaults(&conf);
    rng_seed(&rng, 7);
    snap.time = 17;
    strcpy(snap.team[0], "Alpha");
    strcpy(snap.team[1], "Beta");
    put(SHM_SIDE_LEFT, 1, -10.0, 0.0, 0.0);
    put(SHM_SIDE_LEFT, 2, 0.0, 5.0, 90.0);
    put(SHM_SIDE_RIGHT, 1, 5.0, -3.0, 180.0)->goalie = 1;
    put(SHM_SIDE_RIGHT, 2, -12.0, 0.0, 0.0);
    put(SHM_SIDE_RIGHT, 3, 0.0, 0.0, 0.0)->enabled = 0;
    put(SHM_SIDE_RIGHT, 4, 50.0, 10.0, 0.0);
    snap.ball.x = -3.0;
    cl.version = 9.0;
    cl.side = SHM_SIDE_LEFT;
    cl.unum = 1;
    cl.view_width = SHM_VIEW_NORMAL;
    cl.view_high = 1;
}

TestSuite(see, .init = setup);

static const char *see(double version)
{
    cl.version = version;
    int n = proto_see(&snap, 0, &cl, &conf, NULL, &rng, buf, sizeof buf);
    cr_assert_gt(n, 0);
    cr_assert_eq((size_t)n, strlen(buf));
    return buf;
}

static const char *has(const char *s, const char *what)
{
    const char *p = strstr(s, what);
    cr_assert(p != NULL, "missing %s in %s", what, s);
    return p;
}

static void hasnt(const char *s, const char *what)
{
    cr_assert(strstr(s, what) == NULL, "unexpected %s in %s", what, s);
}

Test(see, v9_objects_and_order, .timeout = 10)
{
    const char *s = see(9.0);
    cr_assert(strncmp(s, "(see 17 ", 8) == 0, "%s", s);
    const char *fc = has(s, "((f c) 10 0 0 0)");
    const char *b = has(s, "((b) 6.7 0 0 0)");
    const char *l2 = has(s, "((p \"Alpha\" 2) 11 27 0 0 90 90)");
    const char *r1 = has(s, "((p \"Beta\" 1 goalie) 14.9 -11 0 0 180 180)");
    const char *r2 = has(s, "((P) 2 180)");
    const char *r4 = has(s, "((p) 60.3 9)");
    const char *lr = has(s, "((l r) 62.8 90)");
    cr_assert(fc < b && b < l2 && l2 < r1 && r1 < r2 && r2 < r4 && r4 < lr);
    cr_assert_eq(s[strlen(s) - 1], ')');
    /* outside the cone and farther than visible_distance */
    hasnt(s, "(f c t)");
    hasnt(s, "(f l t)");
    hasnt(s, "(g l)");
    /* in the cone: right goal and outer flag (v4+) */
    has(s, "((g r) ");
    has(s, "((f r 0) ");
    /* self and disabled players never appear; one line only inside the pitch */
    hasnt(s, "\"Alpha\" 1");
    hasnt(s, "\"Beta\" 3");
    hasnt(s, "((l l)");
    hasnt(s, "((l t)");
    /* beyond 40 m flags never carry change values: (f p r c) at 46 m
     * (ln 46 = 3.8286 -> 383 * 0.01 -> e^3.83 = 46.06 -> 46.1) */
    has(s, "((f p r c) 46.1 0)");
}

/* v5: long names, unquoted team, no goalie marker, directions truncated (26.57 -> 26) */
Test(see, v5_long_names, .timeout = 10)
{
    const char *s = see(5.0);
    has(s, "((flag c) 10 0 0 0)");
    has(s, "((goal r) ");
    has(s, "((ball) 6.7 0 0 0)");
    has(s, "((player Alpha 2) 11 26 0 0 90 90)");
    has(s, "((player Beta 1) 14.9 -11 0 0 180 180)");
    has(s, "((Player) 2 180)");
    has(s, "((player) 60.3 9)");
    has(s, "((line r) 62.8 90)");
    hasnt(s, "(f ");
    hasnt(s, "\"");
    hasnt(s, "goalie");
}

/* v3: outer flags invisible, no body/head directions; v4: body only */
Test(see, v3_v4_object_versions, .timeout = 10)
{
    const char *s = see(3.0);
    hasnt(s, "(flag r 0)");
    hasnt(s, "(flag t ");
    has(s, "((flag p r c) ");
    has(s, "((player Alpha 2) 11 26 0 0)");
    s = see(4.0);
    has(s, "((flag r 0) ");
    has(s, "((player Alpha 2) 11 26 0 0 90)");
}

/* narrow view: half angle 22.5, l2 at 26.57 deg drops out; wide keeps the ball */
Test(see, view_cone_width, .timeout = 10)
{
    cl.view_width = SHM_VIEW_NARROW;
    const char *s = see(9.0);
    hasnt(s, "\"Alpha\" 2");
    has(s, "((b) 6.7 0 0 0)");
    has(s, "((p \"Beta\" 1 goalie)");
}

/* strict cone: an object exactly on the cone edge (45 deg) is not seen */
Test(see, cone_edge_is_outside, .timeout = 10)
{
    snap.ball.x = 0.0;
    snap.ball.y = 10.0;   /* (10, 10) from the observer: exactly 45 deg */
    const char *s = see(9.0);
    hasnt(s, "(b)");
    hasnt(s, "(B)");
}

/* low quality: direction only, for every kind of object */
Test(see, low_quality_directions_only, .timeout = 10)
{
    cl.view_high = 0;
    const char *s = see(9.0);
    has(s, "((f c) 0)");
    has(s, "((b) 0)");
    has(s, "((p \"Alpha\" 2) 27)");
    has(s, "((P) 180)");
    has(s, "((l r) 90)");
}

/* close objects behind: ball 1 m behind, flag behind, close names by version */
Test(see, close_objects, .timeout = 10)
{
    snap.ball.x = -11.0;
    const char *s = see(9.0);
    has(s, "((B) 1 180)");
    s = see(5.0);
    has(s, "((Ball) 1 180)");
    snap.player[0].x = 1.0;     /* (f c) 1 m behind */
    s = see(9.0);
    has(s, "((F) 1 180)");
    s = see(5.0);
    has(s, "((Flag) 1 180)");
}

/* change values from the observer's motion: velocity (0.44, 0.5), (f c) dead ahead at 10:
 * v_rel = (-0.44, -0.5), e = (1, 0): dist_chg -0.44 -> 10 * Quantize(-0.044, 0.02) = -0.4;
 * dir_chg = deg(-0.5 / 10) = -2.865 -> -2.9. Ball at 7: 6.7 * Quantize(-0.0629, 0.02)
 * = 6.7 * -0.06 = -0.402; deg(-0.5 / 7) = -4.09 -> -4.1 */
Test(see, change_values, .timeout = 10)
{
    snap.player[0].vx = 0.44;
    snap.player[0].vy = 0.5;
    const char *s = see(9.0);
    has(s, "((f c) 10 0 -0.4 -2.9)");
    has(s, "((b) 6.7 0 -0.402 -4.1)");
}

/* flag at exactly 20 m: ln 20 = 2.9957 -> 300 * 0.01 -> e^3 = 20.09 -> 20.1 */
Test(see, quantize_flag_at_20, .timeout = 10)
{
    snap.player[0].x = -20.0;
    const char *s = see(9.0);
    has(s, "((f c) 20.1 0");
}

/* v18 focus point: focus 7 m ahead sits on the ball: f = 0, so observed =
 * Quantize(7 - (7 - 6.686) / 2, 0.1) = Quantize(6.843, 0.1) = 6.8 (classic gives 6.7).
 * v17 ignores the focus point. */
Test(see, focus_point_v18, .timeout = 10)
{
    snap.player[0].focus_dist = 7.0;
    const char *s = see(17.0);
    has(s, "((b) 6.7 0 0 0)");
    s = see(18.0);
    has(s, "((b) 6.8 0 0 0)");
}

/* v8: pointing direction (noisy, near 90) and tackle flag; v13 adds k for a kick */
Test(see, point_dir_and_flags, .timeout = 10)
{
    shm_player_sh_t *l2 = &snap.player[1];
    l2->arm_expires = 5;
    l2->point_x = 0.0;
    l2->point_y = 25.0;      /* straight +y from l2: 90 deg in the observer's face frame */
    l2->tackle_expires = 3;
    snap.player[shm_player_index(SHM_SIDE_RIGHT, 1)].kicked = 1;
    const char *s = see(8.0);
    int pd = 0;
    const char *p = has(s, "((p \"Alpha\" 2) 11 27 0 0 90 90 ");
    cr_assert_eq(sscanf(p + strlen("((p \"Alpha\" 2) 11 27 0 0 90 90 "), "%d t)", &pd), 1);
    cr_assert(pd > 80 && pd < 100, "point dir %d", pd);
    has(p, " t)");
    has(s, "((p \"Beta\" 1 goalie) 14.9 -11 0 0 180 180)");
    s = see(12.0);
    has(s, "((p \"Beta\" 1 goalie) 14.9 -11 0 0 180 180)");
    s = see(13.0);
    has(s, "((p \"Beta\" 1 goalie) 14.9 -11 0 0 180 180 k)");
    s = see(7.0);
    has(s, "((p \"Alpha\" 2) 11 27 0 0 90 90)");
}

/* fixed_teamname_r hides the opponent's real name, not the own team's */
Test(see, fixed_teamname, .timeout = 10)
{
    strcpy(conf.str[SP_fixed_teamname_r], "anon");
    const char *s = see(16.0);
    has(s, "((p \"anon\" 1 goalie)");
    has(s, "((p \"Alpha\" 2)");
}

/* lines: facing 45 deg from the centre hits the bottom line at 48.08 m
 * (ln -> 387.29 -> 387 -> e^3.87 = 47.94 -> 47.9), direction 45 - 90 = -45 */
Test(see, lines_inside_and_outside, .timeout = 10)
{
    shm_player_sh_t *me = &snap.player[0];
    me->x = 0.0;
    me->body = deg2rad(45.0);
    const char *s = see(9.0);
    has(s, "((l b) 47.9 -45)");
    hasnt(s, "((l r)");
    /* 2.5 m beyond the left line facing the pitch (+x): the line's normal points from
     * the observer to the line, so both the left line (ln 2.5 = 0.9163 -> 92 -> e^0.92
     * = 2.509 -> 2.5) and, outside the pitch, a second one, the right line at 107.5 m
     * (ln = 4.6775 -> 468 -> e^4.68 = 107.77 -> 107.8), both at 90 (the reference
     * sends "((l l) 2.5 90) ((l r) 107.8 90)" here) */
    me->x = -55.0;
    me->body = 0.0;
    s = see(9.0);
    const char *ll = has(s, "((l l) 2.5 90)");
    const char *lr = has(s, "((l r) 107.8 90)");
    cr_assert(ll < lr);
    /* facing away from the pitch there: no line in front */
    me->body = M_PI;
    s = see(9.0);
    hasnt(s, "((l l)");
    hasnt(s, "((l r)");
    /* exactly on the left line counts as outside (the reference's inside test is strict):
     * facing +x at y = 10, up to two lines; the left line is behind (normal pi) */
    me->x = -52.5;
    me->y = 10.0;
    me->body = 0.0;
    s = see(9.0);
    has(s, "((l r) ");
    hasnt(s, "((l l)");
}

/* Gaussian mode: distances are unrounded draws near the truth, reproducible by seed */
Test(see, gaussian_mode, .timeout = 10)
{
    cl.gaussian_see = 1;
    const char *s = see(19.0);
    const char *p = has(s, "((f c) ");
    double d = 0.0;
    cr_assert_eq(sscanf(p + 7, "%lf", &d), 1);
    cr_assert(fabs(d - 10.0) < 1.0, "%g", d);
    char first[8192];
    strcpy(first, s);
    rng_seed(&rng, 7);
    s = see(19.0);
    cr_assert_str_eq(s, first);
    /* lines keep the quantised formula */
    has(s, "((l r) 62.8 90)");
}

Test(see, buffer_and_bad_args, .timeout = 10)
{
    char small[64];
    cr_assert_eq(proto_see(&snap, 0, &cl, &conf, NULL, &rng, small, sizeof small), -1);
    cr_assert_eq(small[0], '\0');
    cr_assert_eq(proto_see(&snap, 22, &cl, &conf, NULL, &rng, buf, sizeof buf), -1);
    cr_assert_eq(proto_see(&snap, 0, &cl, &conf, NULL, NULL, buf, sizeof buf), -1);
}

/* v18+ with player types: observation lengths of the type limit the cone */
Test(see, type_observation_length, .timeout = 10)
{
    static shm_ptypes_sh_t pt;
    memset(&pt, 0, sizeof pt);
    pt.count = 1;
    pt.type[0].unum_far_length = 20.0;
    pt.type[0].unum_too_far_length = 40.0;
    pt.type[0].team_far_length = 125.0;
    pt.type[0].team_too_far_length = 125.0;
    pt.type[0].player_max_observation_length = 125.0;
    pt.type[0].ball_max_observation_length = 5.0;   /* ball at 7 m: not seen */
    pt.type[0].flag_max_observation_length = 125.0;
    cl.version = 18.0;
    cl.synch_see = 1;
    int n = proto_see(&snap, 0, &cl, &conf, &pt, &rng, buf, sizeof buf);
    cr_assert_gt(n, 0);
    hasnt(buf, "(b)");
    /* team always visible up to 125 m: r4 at 60 m shows its team */
    has(buf, "((p \"Beta\"");
    hasnt(buf, "((p) ");
}

Test(see, view_angle_and_period, .timeout = 10)
{
    shm_client_sh_t c;
    memset(&c, 0, sizeof c);
    static const double async_half[3] = { 22.5, 45.0, 90.0 };
    static const double synch_half[3] = { 30.0, 60.0, 90.0 };
    static const int async_period[3] = { 2, 4, 8 };
    for (int w = 0; w < 3; w++) {
        c.view_width = w;
        c.synch_see = 0;
        c.view_high = 1;
        cr_assert_float_eq(rad2deg(proto_view_angle(&c, &conf)), async_half[w], 1e-9);
        cr_assert_eq(proto_see_period(&c), async_period[w]);
        c.view_high = 0;
        cr_assert_eq(proto_see_period(&c), async_period[w] / 2);
        c.synch_see = 1;
        cr_assert_float_eq(rad2deg(proto_view_angle(&c, &conf)), synch_half[w], 1e-9);
        cr_assert_eq(proto_see_period(&c), w + 1);    /* low ignored */
        c.view_high = 1;
        cr_assert_eq(proto_see_period(&c), w + 1);
    }
}

/* v1/v2: every object (the 19 base landmarks, ball, players, lines) has object version
 * 3 in the reference, so these clients get an empty "(see T)" */
Test(see, v1_v2_see_nothing, .timeout = 10)
{
    cr_assert_str_eq(see(1.0), "(see 17)");
    cr_assert_str_eq(see(2.0), "(see 17)");
    has(see(3.0), "((flag c) 10 0 0 0)");
}

/* v6: short names, quoted team, goalie marker, close names (P) etc.; directions are
 * still truncated (26.57 -> 26) until v7 rounds them (27) */
Test(see, v6_short_names_truncated, .timeout = 10)
{
    const char *s = see(6.0);
    has(s, "((f c) 10 0 0 0)");
    has(s, "((b) 6.7 0 0 0)");
    has(s, "((p \"Alpha\" 2) 11 26 0 0 90 90)");
    has(s, "((p \"Beta\" 1 goalie) 14.9 -11 0 0 180 180)");
    has(s, "((P) 2 180)");
    has(s, "((l r) 62.8 90)");
    s = see(7.0);
    has(s, "((p \"Alpha\" 2) 11 27 0 0 90 90)");
}

/* the type's maximum observation lengths hold for every version: a flag beyond
 * flag_max_observation_length is not seen by a v9 observer either (docs/protocol/player.md §5.2) */
Test(see, observation_length_every_version, .timeout = 10)
{
    static shm_ptypes_sh_t pt;
    memset(&pt, 0, sizeof pt);
    pt.count = 1;
    pt.type[0].flag_max_observation_length = 30.0;  /* (f p r c) at 46 m: gone */
    pt.type[0].ball_max_observation_length = 125.0;
    pt.type[0].player_max_observation_length = 125.0;
    cl.version = 9.0;
    cr_assert_gt(proto_see(&snap, 0, &cl, &conf, &pt, &rng, buf, sizeof buf), 0);
    hasnt(buf, "(f p r c)");
    has(buf, "((f c) 10 0 0 0)");
    /* pre-v18 ranges stay the constants: r4 at 60.8 m is still anonymous */
    has(buf, "((p) 60.3 9)");
}

/* server::visible_angle scales every cone: 40 makes the normal view 40 deg wide (half
 * 20), so l2 at 26.57 deg drops out and the goalie at -11.3 stays */
Test(see, visible_angle_parameter, .timeout = 10)
{
    conf.num[SP_visible_angle] = 40.0;
    const char *s = see(9.0);
    hasnt(s, "\"Alpha\" 2) 11");
    has(s, "((p \"Beta\" 1 goalie) 14.9 -11 0 0 180 180)");
    cr_assert_float_eq(rad2deg(proto_view_angle(&cl, &conf)), 20.0, 1e-9);
}
