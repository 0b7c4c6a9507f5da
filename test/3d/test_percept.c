/* test_percept.c -- the perceptors (docs/protocol/3d.md §3.1-§3.3): exact polar coordinates in
 * the team frame, the vision noise over many samples against the manual's sigmas
 * (distance 0.0965 m, horizontal angle 0.1225 deg, latitude 0.1480 deg), the constant
 * camera calibration error (uniform within +-0.005 m per axis), and the text of a
 * perception: GameState (the game variables the first time), AgentState, Vision. */
#include "agw3d.h"
#include "s3d.h"
#include "test3d_util.h"

static s3d_world_t w;

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

/* the left team looks towards +x, the right team towards -x; latitude from the camera
 * at the sphere's centre: an object on the ground 10 m away is atan(0.22 / 10) below */
Test(percept, polar_in_team_frame, .timeout = 30)
{
    double d, th, ph;
    vec3_t cam = vec3(0, 0, 0.22);
    s3d_polar(0, cam, vec3(10, 0, 0.22), &d, &th, &ph);
    cr_expect_float_eq(d, 10.0, 1e-12);
    cr_expect_float_eq(th, 0.0, 1e-12);
    cr_expect_float_eq(ph, 0.0, 1e-12);
    s3d_polar(1, cam, vec3(10, 0, 0.22), &d, &th, &ph);
    cr_expect(fabs(fabs(th) - 180.0) < 1e-9, "behind the right team: %g", th);
    s3d_polar(0, cam, vec3(0, 10, 0), &d, &th, &ph);
    cr_expect_float_eq(th, 90.0, 1e-9, "+y is to the left (counter-clockwise)");
    cr_expect_float_eq(ph, -atan2(0.22, 10) * 180 / M_PI, 1e-9);
    s3d_polar(1, cam, vec3(0, 10, 0), &d, &th, &ph);
    cr_expect_float_eq(th, -90.0, 1e-9);
    /* markers: flags at the corners, goal markers at the posts (the manual's Info example) */
    t3d_world(&w, NULL, 1);
    vec3_t f = s3d_marker_pos(&w.pr, 0), g = s3d_marker_pos(&w.pr, 7);
    cr_expect(f.x == -52 && f.y == -34 && f.z == 0, "1_l");
    cr_expect(g.x == 52 && fabs(g.y - 3.66) < 1e-12, "goal 2_r");
}

/* 20000 perceptions of the same scene: noisy minus exact values */
Test(percept, vision_noise_statistics, .timeout = 30)
{
    enum { N = 20000 };
    static double dd[N], dt[N], dp[N];
    t3d_world(&w, NULL, 5);
    int a = t3d_robot(&w, 0, "A", 1), b = t3d_robot(&w, 1, "B", 2);
    t3d_place(&w, a, -10, 5);
    t3d_place(&w, b, 15, -8);
    s3d_ball_place(&w, vec3(3, 2, 0.111), vec3(0, 0, 0));
    w.robot[a].calib = vec3(0, 0, 0); /* the constant part is tested below */
    shm3d_seen_sh_t seen[SHM3D_MAX_SEEN];
    double td, tt, tp;
    s3d_polar(0, w.robot[a].b.p, w.ball.p, &td, &tt, &tp);
    for (int i = 0; i < N; i++) {
        int n = s3d_percept_vision(&w, a, seen, SHM3D_MAX_SEEN);
        cr_assert_eq(n, 10, "8 markers, the ball, one robot");
        cr_assert_eq(seen[8].kind, SHM3D_SEEN_BALL);
        dd[i] = seen[8].dist - td;
        dt[i] = seen[8].theta - tt;
        dp[i] = seen[8].phi - tp;
    }
    static const double sigma[3] = { 0.0965, 0.1225, 0.1480 };
    double *x[3] = { dd, dt, dp };
    for (int k = 0; k < 3; k++) {
        double m, sd;
        stats(x[k], N, &m, &sd);
        /* floats in the snapshot: 1e-6 relative; sd within 3% (6 standard errors) */
        cr_expect(fabs(sd - sigma[k]) < 0.03 * sigma[k], "coordinate %d: sd %g, seed %g", k, sd, sigma[k]);
        cr_expect(fabs(m) < 5 * sigma[k] / sqrt(N), "coordinate %d: mean %g", k, m);
    }
    cr_expect_eq(seen[9].kind, SHM3D_SEEN_PLAYER);
    cr_expect_eq(seen[9].id, 2);
    cr_expect_eq(seen[9].side, 1);
}

/* The calibration error is drawn once per robot, uniform in [-0.005, 0.005] on each
 * axis: variance 0.005^2 / 3; and it stays for the match. */
Test(percept, calibration_error, .timeout = 30)
{
    enum { N = 30000 };
    static double x[N];
    t3d_world(&w, NULL, 3);
    double mx = 0;
    for (int i = 0; i < N; i++) {
        vec3_t c = s3d_percept_calib(&w.pr, &w.rng_noise);
        x[i] = c.y;
        mx = fmax(mx, fmax(fabs(c.x), fmax(fabs(c.y), fabs(c.z))));
    }
    double m, sd;
    stats(x, N, &m, &sd);
    cr_expect(mx <= 0.005);
    cr_expect(fabs(sd - 0.005 / sqrt(3)) < 0.02 * 0.005 / sqrt(3), "sd %g", sd);
    int a = t3d_robot(&w, 0, "A", 1);
    vec3_t c0 = w.robot[a].calib;
    cr_expect(vec3_len(c0) > 0, "drawn at init");
    t3d_steps(&w, 50);
    cr_expect(vec3_len(vec3_sub(w.robot[a].calib, c0)) == 0, "constant");
}

/* the text of a perception from a published snapshot */
Test(percept, message_format, .timeout = 30)
{
    static shm3d_snapshot_sh_t snap;
    t3d_world(&w, "soccer::VisionDistSigma=0 soccer::VisionAngleSigma=0 soccer::VisionLatSigma=0 "
                  "soccer::VisionCalibError=0", 1);
    int a = t3d_robot(&w, 0, "RoboLog", 7), b = t3d_robot(&w, 1, "Other", 1);
    t3d_place(&w, a, -10, 0);
    t3d_place(&w, b, 0, 10);
    w.robot[a].battery = 99.5;
    w.robot[a].temp = 23.25;
    s3d_publish_fill(&w, &snap, 0);
    cr_assert(snap.sense, "step 0 is a sense step");
    char buf[AGW3D_PERCEPT_LEN];
    int n = agw3d_percept(&snap, a, 1, &t3d_conf, buf, sizeof buf);
    cr_assert_gt(n, 0);
    cr_expect(strncmp(buf, "(GameState (unum 7) (team left) "
                           "(FieldLength 104) (FieldWidth 68) (FieldHeight 40) (GoalWidth 7.32) "
                           "(GoalDepth 2) (GoalHeight 0.5) (BorderSize 10) (FreeKickDistance 9.15) "
                           "(WaitBeforeKickOff 2) (AgentMass 75) (AgentRadius 0.22) "
                           "(AgentMaxSpeed 10) (BallRadius 0.111) (BallMass 0.425878) "
                           "(RuleGoalPauseTime 3) (RuleKickInPauseTime 1) (RuleHalfTime 300) "
                           "(time 0) (playmode BeforeKickOff)) "
                           "(AgentState (battery 99.5) (temp 23.25)) (Vision (Flag (id 1_l) (pol ",
                      strlen("(GameState (unum 7) (team left) "
                             "(FieldLength 104) (FieldWidth 68) (FieldHeight 40) (GoalWidth 7.32) "
                             "(GoalDepth 2) (GoalHeight 0.5) (BorderSize 10) (FreeKickDistance 9.15) "
                             "(WaitBeforeKickOff 2) (AgentMass 75) (AgentRadius 0.22) "
                             "(AgentMaxSpeed 10) (BallRadius 0.111) (BallMass 0.425878) "
                             "(RuleGoalPauseTime 3) (RuleKickInPauseTime 1) (RuleHalfTime 300) "
                             "(time 0) (playmode BeforeKickOff)) "
                             "(AgentState (battery 99.5) (temp 23.25)) (Vision (Flag (id 1_l) (pol ")) == 0,
              "%s", buf);
    /* the ball 10 m ahead (0.109 m lower: -0.6245 deg), the other robot at 45 deg to the
     * left, 14.142 m away, at the same height; atan(0.109 / 10) = 0.624499 deg */
    cr_expect(strstr(buf, " (Ball (pol 10.0006 0 -0.624499))") != NULL, "%s", buf);
    cr_expect(strstr(buf, " (Player (team Other) (id 1) (pol 14.1421 45 0)))") != NULL, "%s", buf);
    n = agw3d_percept(&snap, a, 0, &t3d_conf, buf, sizeof buf);
    static const char later[] = "(GameState (time 0) (playmode BeforeKickOff)) (AgentState";
    cr_expect(strncmp(buf, later, sizeof later - 1) == 0, "later GameStates are short: %s", buf);
    /* the right team sees the same scene turned: the ball straight behind the left robot */
    n = agw3d_percept(&snap, b, 1, &t3d_conf, buf, sizeof buf);
    cr_expect(strstr(buf, "(unum 1) (team right)") != NULL);
    cr_expect(strstr(buf, "(Player (team RoboLog) (id 7) (pol 14.1421 45 0))") != NULL, "%s", buf);
    cr_expect_eq(agw3d_percept(&snap, a, 1, &t3d_conf, buf, 100), -1, "too small a buffer");
}
