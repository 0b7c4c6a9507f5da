/* test_integrator.c -- the 3D rigid-body integrator (s3d_phys.c): free fall against the
 * closed form of semi-implicit Euler, the bounce, sliding turning into rolling, rolling
 * resistance, and a robot's drive against its ground drag. Expected values are derived
 * in the comments from the integrator's equations and the manual's constants. */
#include "test3d_util.h"

static s3d_world_t w;

/* No drag, no contacts: with substep h, semi-implicit Euler gives after n substeps
 * v_n = -g n h and z_n = z0 - g h^2 n (n + 1) / 2 (each substep adds the new velocity). */
Test(integrator, free_fall_is_semi_implicit_euler, .timeout = 30)
{
    t3d_world(&w, "soccer::BallDrag=0", 1);
    s3d_ball_place(&w, vec3(3, 4, 20), vec3(0, 0, 0));
    double h = w.pr.dt / w.pr.substeps, g = 9.81;
    int steps = 100, n = steps * w.pr.substeps; /* 1 s */
    t3d_steps(&w, steps);
    cr_expect_float_eq(w.ball.v.z, -g * n * h, 1e-9);
    cr_expect_float_eq(w.ball.p.z, 20.0 - g * h * h * n * (n + 1) / 2.0, 1e-9);
    /* the continuous value 20 - g/2 = 15.095 differs by g h t / 2 = 0.0098 m */
    cr_expect(fabs(w.ball.p.z - (20.0 - g / 2)) < 0.011);
    cr_expect_float_eq(w.ball.p.x, 3.0, 1e-12, "nothing pushes sideways");
    cr_expect_float_eq(w.ball.p.y, 4.0, 1e-12);
}

/* Dropped from 2 m (centre 2 m above the ground contact): it lands at
 * sqrt(2 g 2) = 6.26 m/s and leaves with BallBounce times that, so the next apex is
 * BallBounce^2 * 2 m = 0.72 m above the contact height, within the integrator's error. */
Test(integrator, bounce_height_is_restitution_squared, .timeout = 30)
{
    t3d_world(&w, "soccer::BallDrag=0", 1);
    double r = w.pr.ball_r;
    s3d_ball_place(&w, vec3(0, 0, r + 2.0), vec3(0, 0, 0));
    int bounced = 0;
    double apex = 0;
    for (int i = 0; i < 300; i++) {
        double vz = w.ball.v.z;
        s3d_world_step(&w);
        if (vz < 0 && w.ball.v.z > 0)
            bounced = 1;
        if (bounced && w.ball.p.z - r > apex)
            apex = w.ball.p.z - r;
        if (bounced && w.ball.v.z < 0)
            break;
    }
    cr_assert(bounced);
    cr_expect(fabs(apex - 0.36 * 2.0) < 0.02, "apex %g, expected 0.72", apex);
}

/* A ball pushed along the ground without spin slides until its contact point stops
 * slipping. Friction conserves the angular momentum about the contact point:
 * m v0 r = m v r + I v / r, so v = v0 / (1 + I / (m r^2)) = v0 / (1 + 2/3) = 0.6 v0 for
 * the shell ball. Rolling resistance off to see this alone. */
Test(integrator, sliding_becomes_rolling_at_three_fifths, .timeout = 30)
{
    t3d_world(&w, "soccer::BallDrag=0 soccer::BallRollFriction=0", 1);
    double r = w.pr.ball_r;
    s3d_ball_place(&w, vec3(0, 0, r), vec3(5, 0, 0));
    t3d_steps(&w, 200); /* sliding lasts v0 (1 - 0.6) / (mu g) = 0.51 s */
    cr_expect(fabs(w.ball.v.x - 3.0) < 1e-3, "v %g, expected 3", w.ball.v.x);
    cr_expect(fabs(w.ball.w.y * r - w.ball.v.x) < 1e-9, "rolling: w r = v");
    cr_expect_float_eq(w.ball.v.y, 0.0, 1e-12);
}

/* Rolling, the speed falls by BallRollFriction * g per second: 5 m/s becomes
 * 5 - 0.15 * 9.81 = 3.5285 m/s after 1 s, and the ball stops after
 * v0^2 / (2 * 0.15 * 9.81) = 8.495 m. */
Test(integrator, rolling_resistance, .timeout = 30)
{
    t3d_world(&w, "soccer::BallDrag=0", 1);
    double r = w.pr.ball_r, a = 0.15 * 9.81;
    s3d_ball_place(&w, vec3(0, 0, r), vec3(5, 0, 0));
    w.ball.w = vec3(0, 5 / r, 0); /* already rolling */
    t3d_steps(&w, 100);
    cr_expect(fabs(w.ball.v.x - (5 - a)) < 1e-6, "v %g, expected %g", w.ball.v.x, 5 - a);
    t3d_steps(&w, 400);
    cr_expect_float_eq(w.ball.v.x, 0.0, 1e-12, "stopped");
    cr_expect(fabs(w.ball.p.x - 25.0 / (2 * a)) < 0.03, "rolled %g m, expected %g", w.ball.p.x,
              25.0 / (2 * a));
    cr_expect_float_eq(w.ball.p.z, r, 1e-9, "stays on the ground");
}

/* Full drive (100 units, 750 N) against the ground drag k = 750 N / 10 m/s: the speed
 * approaches AgentMaxSpeed as v = vmax (1 - exp(-t k / m)), k / m = 1/s; after 1 s
 * 6.32 m/s, after 10 s 10 m/s. The error is off for the exact comparison. */
Test(integrator, drive_reaches_max_speed, .timeout = 30)
{
    t3d_world(&w, "soccer::DriveErrorSigma=0", 1);
    int s = t3d_robot(&w, 0, "A", 1);
    t3d_place(&w, s, -60, 20); /* 90 m to run: stays clear of the far wall */
    s3d_eff_drive(&w, s, vec3(100, 0, 0));
    t3d_steps(&w, 100);
    double v1 = w.robot[s].b.v.x;
    cr_expect(fabs(v1 - 10 * (1 - exp(-1.0))) < 0.05, "after 1 s: %g", v1);
    t3d_steps(&w, 900);
    cr_expect(fabs(w.robot[s].b.v.x - 10.0) < 0.01, "after 10 s: %g", w.robot[s].b.v.x);
    cr_expect_float_eq(w.robot[s].b.p.z, w.pr.agent_r, 1e-9, "on the ground");
    /* let go: the same drag stops it, "you cannot suddenly stop" (3d.md §2) */
    s3d_eff_drive(&w, s, vec3(0, 0, 0));
    t3d_steps(&w, 100);
    cr_expect(fabs(w.robot[s].b.v.x - 10.0 * exp(-1.0)) < 0.05, "coasting: %g", w.robot[s].b.v.x);
}

/* The right team's drive is in its own frame: +x towards the left goal. */
Test(integrator, right_team_drives_in_its_frame, .timeout = 30)
{
    t3d_world(&w, "soccer::DriveErrorSigma=0", 1);
    int s = t3d_robot(&w, 0, "A", 1);
    int t = t3d_robot(&w, 1, "B", 1);
    t3d_place(&w, s, -10, 10);
    t3d_place(&w, t, 10, 10);
    s3d_eff_drive(&w, s, vec3(50, 20, 0));
    s3d_eff_drive(&w, t, vec3(50, 20, 0));
    t3d_steps(&w, 50);
    cr_expect_float_eq(w.robot[t].b.v.x, -w.robot[s].b.v.x, 1e-9);
    cr_expect_float_eq(w.robot[t].b.v.y, -w.robot[s].b.v.y, 1e-9);
    cr_expect(w.robot[s].b.v.x > 0 && w.robot[s].b.v.y > 0);
}

/* The omnidrive works only on the ground: a robot in the air just falls. Up, full
 * drive gives 750 N against a weight of 75 * 9.81 = 735.75 N: it lifts, but only by
 * the contact margin before the drive stops working (the manual: "jump very little"). */
Test(integrator, drive_only_on_the_ground, .timeout = 30)
{
    t3d_world(&w, "soccer::DriveErrorSigma=0", 1);
    int s = t3d_robot(&w, 0, "A", 1);
    t3d_place(&w, s, 0, 20);
    w.robot[s].b.p.z = 2.0;
    w.robot[s].touching = 0;
    s3d_eff_drive(&w, s, vec3(100, 0, 0));
    t3d_steps(&w, 10);
    cr_expect_float_eq(w.robot[s].b.v.x, 0.0, 1e-12, "no drive in the air");
    cr_expect(w.robot[s].b.v.z < 0);
    t3d_steps(&w, 100); /* landed */
    cr_expect(w.robot[s].touching);
    cr_expect(w.robot[s].b.v.x > 1.0, "drives once down");
    t3d_place(&w, s, 0, 20);
    s3d_eff_drive(&w, s, vec3(0, 0, 100));
    double top = 0;
    for (int i = 0; i < 300; i++) {
        s3d_world_step(&w);
        if (w.robot[s].b.p.z - w.pr.agent_r > top)
            top = w.robot[s].b.p.z - w.pr.agent_r;
    }
    cr_expect(top > 0.0 && top < 0.01, "hop %g m", top);
}

/* The battery drains BatteryDrain % per second of full drive, half as fast at half
 * drive, not at all standing; the temperature rises by TempHeat per second minus the
 * cooling TempCool * (T - ambient). */
Test(integrator, battery_and_temperature, .timeout = 30)
{
    t3d_world(&w, NULL, 1);
    int s = t3d_robot(&w, 0, "A", 1);
    int t = t3d_robot(&w, 1, "A", 2);
    t3d_place(&w, s, -40, -20);
    t3d_place(&w, t, -40, 20);
    s3d_eff_drive(&w, s, vec3(0, -100, 0)); /* into the border wall: stays on the field */
    t3d_steps(&w, 1000);
    cr_expect(fabs(w.robot[s].battery - (100 - 0.15 * 10)) < 1e-6, "battery %g", w.robot[s].battery);
    cr_expect_float_eq(w.robot[t].battery, 100.0, 1e-12);
    /* dT/dt = 0.5 - 0.01 (T - 23): T = 23 + 50 (1 - exp(-0.01 t)), 4.76 after 10 s */
    cr_expect(fabs(w.robot[s].temp - (23 + 50 * (1 - exp(-0.1)))) < 0.01, "temp %g", w.robot[s].temp);
    cr_expect_float_eq(w.robot[t].temp, 23.0, 1e-12);
    w.robot[s].battery = 0.001;
    t3d_steps(&w, 10);
    cr_expect_float_eq(w.robot[s].battery, 0.0, 1e-12, "empty, not negative");
    vec3_t v0 = w.robot[s].b.v;
    s3d_eff_drive(&w, s, vec3(100, 0, 0));
    t3d_steps(&w, 50);
    cr_expect(w.robot[s].b.v.x <= v0.x + 1e-12, "an empty battery drives nothing");
}
