/* test_effectors.c -- the effectors of docs/protocol/3d.md §2.1-§2.5 as the world applies them:
 * create before init, teams and numbers, beam before kick-off only, the drive's per-axis
 * error (a normal error cut at 2%), and the kick: its impulse over KickSteps steps and
 * its noise (horizontal sigma 0.02, latitude sigma 0.9 at 0 and 50 degrees and 4.5 half
 * way, power sigma 0.4), checked over many samples. */
#include "test3d_util.h"

static s3d_world_t w;

/* sample mean and standard deviation */
static void stats(const double *x, int n, double *mean, double *sd)
{
    double s = 0, q = 0;
    for (int i = 0; i < n; i++)
        s += x[i];
    *mean = s / n;
    for (int i = 0; i < n; i++)
        q += (x[i] - *mean) * (x[i] - *mean);
    *sd = sqrt(q / (n - 1));
}

Test(effectors, create_then_init, .timeout = 30)
{
    t3d_world(&w, NULL, 1);
    w.conn[0].active = 1;
    cr_expect_eq(s3d_eff_init(&w, 0, 7, "RoboLog"), -1);
    cr_expect_str_eq(t3d_last_error(), "(error init create_first)");
    s3d_eff_create(&w, 0);
    cr_expect_eq(s3d_eff_init(&w, 0, 7, "RoboLog"), 0);
    cr_expect(w.robot[0].present);
    cr_expect_eq(w.robot[0].unum, 7);
    cr_expect_eq(w.robot[0].side, 0, "the first team plays left");
    cr_expect_str_eq(w.team[0], "RoboLog");
    cr_expect_eq(s3d_eff_init(&w, 0, 8, "RoboLog"), -1);
    cr_expect_str_eq(t3d_last_error(), "(error init already_initialised)");
    /* a fresh robot: in its own half, on the ground, full battery, ambient temperature */
    cr_expect(w.robot[0].b.p.x < 0);
    cr_expect_float_eq(w.robot[0].b.p.z, 0.22, 1e-12);
    cr_expect_float_eq(w.robot[0].battery, 100.0, 1e-12);
    cr_expect_float_eq(w.robot[0].temp, 23.0, 1e-12);
}

Test(effectors, teams_and_numbers, .timeout = 30)
{
    t3d_world(&w, NULL, 1);
    t3d_robot(&w, 0, "A", 7);
    w.conn[1].active = 1;
    s3d_eff_create(&w, 1);
    cr_expect_eq(s3d_eff_init(&w, 1, 7, "A"), -1);
    cr_expect_str_eq(t3d_last_error(), "(error init unum_taken)");
    cr_expect_eq(s3d_eff_init(&w, 1, 0, "A"), 0, "unum 0: the lowest free number");
    cr_expect_eq(w.robot[1].unum, 1);
    t3d_robot(&w, 2, "B", 7);
    cr_expect_eq(w.robot[2].side, 1, "the second team plays right");
    cr_expect(w.robot[2].b.p.x > 0, "in its own half");
    w.conn[3].active = 1;
    s3d_eff_create(&w, 3);
    cr_expect_eq(s3d_eff_init(&w, 3, 1, "C"), -1);
    cr_expect_str_eq(t3d_last_error(), "(error init no_free_side)");
    cr_expect_eq(s3d_eff_init(&w, 3, 12, "A"), -1);
    cr_expect_str_eq(t3d_last_error(), "(error init bad_unum)");
    cr_expect_eq(s3d_eff_init(&w, 3, 2, "a(b"), -1);
    cr_expect_str_eq(t3d_last_error(), "(error init bad_teamname)");
    for (int u = 2; u <= 11; u++) {
        if (u != 7)
            t3d_robot(&w, 3 + u, "A", u);
    }
    cr_expect_eq(s3d_eff_init(&w, 3, 0, "A"), -1);
    cr_expect_str_eq(t3d_last_error(), "(error init team_full)");
    cr_expect_eq(s3d_team_count(&w, 0), 11);
}

Test(effectors, beam_before_kick_off_only, .timeout = 30)
{
    t3d_world(&w, NULL, 1);
    int a = t3d_robot(&w, 0, "A", 1), b = t3d_robot(&w, 1, "B", 1);
    s3d_eff_beam(&w, a, vec3(-6.6, 2, 5));
    cr_expect_float_eq(w.robot[a].b.p.x, -6.6, 1e-12);
    cr_expect_float_eq(w.robot[a].b.p.y, 2.0, 1e-12);
    cr_expect_float_eq(w.robot[a].b.p.z, 0.22, 1e-12, "z forced to the ground");
    s3d_eff_beam(&w, b, vec3(-6.6, 2, 0));
    cr_expect_float_eq(w.robot[b].b.p.x, 6.6, 1e-12, "the right team's frame is turned");
    cr_expect_float_eq(w.robot[b].b.p.y, -2.0, 1e-12);
    s3d_eff_beam(&w, a, vec3(20, 50, 0));
    cr_expect_float_eq(w.robot[a].b.p.x, -0.22, 1e-12, "the whole robot in its own half");
    cr_expect_float_eq(w.robot[a].b.p.y, 33.78, 1e-12, "and on the field");
    s3d_eff_beam(&w, a, vec3(1e308, 1e308, 0));
    cr_expect_float_eq(w.robot[a].b.p.x, -0.22, 1e-12);
    cr_expect_float_eq(w.robot[a].b.p.y, 33.78, 1e-12, "its centre a radius inside the side line");
    s3d_eff_beam(&w, a, vec3(-1e308, -INFINITY, 0));
    cr_expect_float_eq(w.robot[a].b.p.x, -51.78, 1e-12, "a radius inside the goal line");
    cr_expect_float_eq(w.robot[a].b.p.y, -33.78, 1e-12);
    s3d_eff_beam(&w, a, vec3(NAN, 0, 0));
    cr_expect_str_eq(t3d_last_error(), "(error beam bad_arguments)");
    cr_expect_float_eq(w.robot[a].b.p.x, -51.78, 1e-12, "not moved");
    /* onto the ball on the centre spot: put back until clear of it, and it does not
     * count as touching it */
    s3d_eff_beam(&w, a, vec3(20, 0, 0));
    cr_expect_float_eq(w.robot[a].b.p.x, -(0.22 + 0.111 + S3D_BEAM_BALL_GAP), 1e-12);
    cr_expect_float_eq(w.robot[a].b.p.y, 0.0, 1e-12);
    s3d_eff_beam(&w, b, vec3(0, 0.1, 0));
    double gap = hypot(w.robot[b].b.p.x - w.ball.p.x, w.robot[b].b.p.y - w.ball.p.y) - 0.22 - 0.111;
    cr_expect_float_eq(gap, S3D_BEAM_BALL_GAP, 1e-9, "the right robot clear of the ball too");
    cr_expect_gt(w.robot[b].b.p.x, 0.0);
    t3d_steps(&w, 50);
    cr_expect_eq(w.last_touch, S3D_NO_ROBOT, "no robot touched the ball");
    s3d_ref_set_mode(&w, PM3D_PLAY_ON);
    double x0 = w.robot[a].b.p.x;
    s3d_eff_beam(&w, a, vec3(-10, 0, 0));
    cr_expect_float_eq(w.robot[a].b.p.x, x0, 1e-12, "not moved in play on");
    cr_expect_str_eq(t3d_last_error(), "(error beam not_before_kick_off)");
    w.conn[5].active = 1;
    s3d_eff_drive(&w, 5, vec3(1, 0, 0));
    cr_expect_str_eq(t3d_last_error(), "(error drive init_first)");
}

/* The drive error of one axis: normal with sigma 1%, cut at 2% by drawing again. The
 * standard deviation of a normal cut at +-2 sigma is sigma * sqrt(1 - 2 * 2 phi(2) /
 * (2 Phi(2) - 1)) = 0.8796 sigma (phi, Phi: the standard normal density and cdf:
 * phi(2) = 0.053991, 2 Phi(2) - 1 = 0.954500). */
Test(effectors, drive_error_statistics, .timeout = 30)
{
    enum { N = 200000 };
    static double e[N];
    t3d_world(&w, NULL, 1);
    double mx = 0;
    for (int i = 0; i < N; i++) {
        e[i] = s3d_drive_error(&w.pr, &w.rng_act);
        mx = fabs(e[i]) > mx ? fabs(e[i]) : mx;
    }
    double mean, sd, want = 0.01 * sqrt(1 - 4 * 0.053991 / 0.954500);
    stats(e, N, &mean, &sd);
    cr_expect(mx <= 0.02, "largest error %g", mx);
    cr_expect(mx > 0.0195, "the cut is reached");
    cr_expect(fabs(mean) < 4 * sd / sqrt(N), "mean %g", mean);
    cr_expect(fabs(sd - want) < 0.01 * want, "sd %g, expected %g", sd, want);
    /* the force: factor times the vector, each axis scaled by its own error */
    vec3_t f = s3d_drive_force(&w.pr, &w.rng_act, vec3(100, -50, 10));
    cr_expect(fabs(f.x / 750.0 - 1) <= 0.02 && fabs(f.y / -375.0 - 1) <= 0.02
              && fabs(f.z / 75.0 - 1) <= 0.02);
    /* longer than 100 units: cut to 100 */
    int a = t3d_robot(&w, 0, "A", 1);
    s3d_eff_drive(&w, a, vec3(300, 400, 0));
    cr_expect_float_eq(vec3_len(w.robot[a].drive), 100.0, 1e-9);
}

/* sigma of the latitude error by latitude: 0.9 at the ends, 4.5 half way, a parabola */
Test(effectors, kick_latitude_sigma_shape, .timeout = 30)
{
    t3d_world(&w, NULL, 1);
    cr_expect_float_eq(s3d_kick_lat_sigma(&w.pr, 0), 0.9, 1e-12);
    cr_expect_float_eq(s3d_kick_lat_sigma(&w.pr, 50), 0.9, 1e-12);
    cr_expect_float_eq(s3d_kick_lat_sigma(&w.pr, 25), 4.5, 1e-12);
    cr_expect_float_eq(s3d_kick_lat_sigma(&w.pr, 12.5), 0.9 + 3.6 * 0.75, 1e-12);
}

/* the noise over many kicks against the manual's sigmas (5% on a standard deviation from
 * 50000 samples is about 16 standard errors: the test fails on a wrong model only) */
Test(effectors, kick_noise_statistics, .timeout = 30)
{
    enum { N = 50000 };
    static double th[N], ph[N], pw[N];
    static const double lat[3] = { 0, 25, 50 }, want_ph[3] = { 0.9, 4.5, 0.9 };
    t3d_world(&w, NULL, 1);
    for (int k = 0; k < 3; k++) {
        for (int i = 0; i < N; i++)
            s3d_kick_noise(&w.pr, &w.rng_act, lat[k], &th[i], &ph[i], &pw[i]);
        double m, sd;
        stats(th, N, &m, &sd);
        cr_expect(fabs(sd - 0.02) < 0.05 * 0.02 && fabs(m) < 4 * sd / sqrt(N), "theta sd %g", sd);
        stats(ph, N, &m, &sd);
        cr_expect(fabs(sd - want_ph[k]) < 0.05 * want_ph[k] && fabs(m) < 4 * sd / sqrt(N),
                  "latitude %g: sd %g", lat[k], sd);
        stats(pw, N, &m, &sd);
        cr_expect(fabs(sd - 0.4) < 0.05 * 0.4 && fabs(m) < 4 * sd / sqrt(N), "power sd %g", sd);
    }
}

/* Without noise and ground friction, a flat kick at power 100 gives the ball
 * KickForce * KickSteps * StepLength = 50 * 10 * 0.01 = 5 N s, i.e. 5 / 0.425878 =
 * 11.740 m/s, away from the robot's centre; the force acts 10 steps, not 11. */
Test(effectors, kick_impulse_over_kick_steps, .timeout = 30)
{
    t3d_world(&w, "soccer::KickAngleSigma=0 soccer::KickLatSigmaEdge=0 soccer::KickLatSigmaMid=0 "
                  "soccer::KickPowerSigma=0 soccer::BallSlideFriction=0 soccer::BallRollFriction=0 "
                  "soccer::BallDrag=0 soccer::KickTorque=0", 1);
    int a = t3d_robot(&w, 0, "A", 1);
    s3d_ref_set_mode(&w, PM3D_PLAY_ON);
    t3d_place(&w, a, 10, 10);
    /* 0.34 m apart horizontally, the ball's centre 0.109 m lower: 0.357 m between the
     * centres, a gap of 0.026 m (kickable: at most 0.04) */
    double reach = 0.34, c = cos(M_PI / 6), s = sin(M_PI / 6);
    s3d_ball_place(&w, vec3(10 + reach * c, 10 + reach * s, 0.111), vec3(0, 0, 0));
    s3d_eff_kick(&w, a, 0, 100);
    t3d_steps(&w, 9);
    cr_expect(w.kick.steps_left == 1, "still kicking");
    t3d_steps(&w, 5);
    double v = 5.0 / 0.425878;
    cr_expect(fabs(w.ball.v.x - v * c) < 1e-9 && fabs(w.ball.v.y - v * s) < 1e-9,
              "ball (%g %g), expected %g at 30 degrees", w.ball.v.x, w.ball.v.y, v);
    cr_expect_eq(w.last_touch, a);
    /* at 50 degrees (the most), the vertical share is sin(50) */
    s3d_ball_place(&w, vec3(10 + reach, 10, 0.111), vec3(0, 0, 0));
    t3d_place(&w, a, 10, 10);
    s3d_eff_kick(&w, a, 80, 50);
    s3d_world_step(&w);
    double dv = 50 * 0.5 * 0.01 / 0.425878;
    cr_expect(fabs(w.ball.v.z - (dv * sin(50 * M_PI / 180) - 9.81 * 0.01)) < 0.01, "vz %g", w.ball.v.z);
}

Test(effectors, kick_needs_range_ground_and_rules, .timeout = 30)
{
    t3d_world(&w, NULL, 1);
    int a = t3d_robot(&w, 0, "A", 1), b = t3d_robot(&w, 1, "B", 1);
    t3d_place(&w, a, 10, 10);
    t3d_place(&w, b, 20, 10);
    /* the gap is measured between the spheres: the ball's centre is 0.109 m lower */
    s3d_ball_place(&w, vec3(10.36, 10, 0.111), vec3(0, 0, 0)); /* gap 0.045 > 0.04 */
    s3d_ref_set_mode(&w, PM3D_PLAY_ON);
    s3d_eff_kick(&w, a, 0, 100);
    cr_expect_eq(w.kick.steps_left, 0, "out of range");
    s3d_ball_place(&w, vec3(10.34, 10, 0.111), vec3(0, 0, 0)); /* gap 0.026 */
    s3d_ref_set_mode(&w, PM3D_BEFORE_KICK_OFF);
    s3d_eff_kick(&w, a, 0, 100);
    cr_expect_eq(w.kick.steps_left, 0, "nobody kicks before kick-off");
    s3d_ref_set_mode(&w, PM3D_KICK_IN_RIGHT);
    s3d_eff_kick(&w, a, 0, 100);
    cr_expect_eq(w.kick.steps_left, 0, "the right team's kick-in");
    s3d_ref_set_mode(&w, PM3D_KICK_IN_LEFT);
    w.robot[a].touching = 0;
    s3d_eff_kick(&w, a, 0, 100);
    cr_expect_eq(w.kick.steps_left, 0, "not in the air");
    w.robot[a].touching = 1;
    s3d_eff_kick(&w, a, 0, 100);
    cr_expect_eq(w.kick.steps_left, 10, "now it kicks");
}
