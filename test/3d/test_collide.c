/* test_collide.c -- contacts of the 3D world (s3d_collide.c): the impulse between two
 * spheres conserves linear momentum always, angular momentum (orbital plus spin, about
 * any point) with friction too, and kinetic energy when it is elastic and frictionless;
 * restitution sets the separating speed; static shapes (posts, nets, walls) and the
 * ball in the goal. */
#include "test3d_util.h"
#include "rng.h"

static vec3_t rand_vec(rng_t *r, double k)
{
    return vec3(rng_uniform(r, -k, k), rng_uniform(r, -k, k), rng_uniform(r, -k, k));
}

static s3d_body_t body(double m, double radius, double I)
{
    s3d_body_t b;
    memset(&b, 0, sizeof b);
    b.m = m;
    b.r = radius;
    b.I = I;
    return b;
}

static vec3_t momentum(const s3d_body_t *a, const s3d_body_t *b)
{
    return vec3_add(vec3_scale(a->v, a->m), vec3_scale(b->v, b->m));
}

/* about the origin: p x m v + I w, summed */
static vec3_t ang_momentum(const s3d_body_t *a, const s3d_body_t *b)
{
    vec3_t la = vec3_add(vec3_cross(a->p, vec3_scale(a->v, a->m)), vec3_scale(a->w, a->I));
    vec3_t lb = vec3_add(vec3_cross(b->p, vec3_scale(b->v, b->m)), vec3_scale(b->w, b->I));
    return vec3_add(la, lb);
}

static double energy(const s3d_body_t *a, const s3d_body_t *b)
{
    return 0.5 * (a->m * vec3_dot(a->v, a->v) + a->I * vec3_dot(a->w, a->w)
                  + b->m * vec3_dot(b->v, b->v) + b->I * vec3_dot(b->w, b->w));
}

/* a robot and a ball just touching at a random contact direction, random motions */
static void touching_pair(rng_t *r, s3d_body_t *a, s3d_body_t *b)
{
    *a = body(75, 0.22, 0.4 * 75 * 0.22 * 0.22);
    *b = body(0.425878, 0.111, 2.0 / 3 * 0.425878 * 0.111 * 0.111);
    a->p = rand_vec(r, 30);
    vec3_t n = vec3_unit(rand_vec(r, 1));
    b->p = vec3_madd(a->p, n, a->r + b->r);
    a->v = rand_vec(r, 5);
    b->v = rand_vec(r, 15);
    a->w = rand_vec(r, 3);
    b->w = rand_vec(r, 60);
}

Test(collide, impulse_conserves_momenta, .timeout = 30)
{
    rng_t r;
    rng_seed(&r, 42);
    int hits = 0;
    for (int k = 0; k < 2000; k++) {
        s3d_body_t a, b;
        touching_pair(&r, &a, &b);
        vec3_t n = vec3_unit(vec3_sub(b.p, a.p));
        vec3_t p0 = momentum(&a, &b), l0 = ang_momentum(&a, &b);
        double jn = s3d_collide_impulse(&a, &b, n, 0.5, 0.3);
        hits += jn > 0;
        vec3_t p1 = momentum(&a, &b), l1 = ang_momentum(&a, &b);
        cr_assert(vec3_len(vec3_sub(p1, p0)) < 1e-9 * (1 + vec3_len(p0)), "momentum, case %d", k);
        cr_assert(vec3_len(vec3_sub(l1, l0)) < 1e-9 * (1 + vec3_len(l0)), "angular momentum, case %d", k);
    }
    cr_expect(hits > 500, "only %d approaching pairs", hits);
}

/* e = 1, no friction: no energy lost; the normal relative speed reverses exactly */
Test(collide, elastic_frictionless_conserves_energy, .timeout = 30)
{
    rng_t r;
    rng_seed(&r, 7);
    for (int k = 0; k < 2000; k++) {
        s3d_body_t a, b;
        touching_pair(&r, &a, &b);
        vec3_t n = vec3_unit(vec3_sub(b.p, a.p));
        double e0 = energy(&a, &b), vn0 = vec3_dot(vec3_sub(b.v, a.v), n);
        double jn = s3d_collide_impulse(&a, &b, n, 1.0, 0.0);
        double vn1 = vec3_dot(vec3_sub(b.v, a.v), n);
        cr_assert(fabs(energy(&a, &b) - e0) < 1e-9 * e0, "energy, case %d", k);
        if (jn > 0)
            cr_assert(fabs(vn1 + vn0) < 1e-9, "reversed, case %d", k);
        else
            cr_assert(vn0 >= 0, "separating pairs are left alone");
    }
}

/* restitution e: the normal relative speed after is -e times before; friction and an
 * inelastic contact only lose energy */
Test(collide, restitution_and_losses, .timeout = 30)
{
    rng_t r;
    rng_seed(&r, 9);
    for (int k = 0; k < 1000; k++) {
        s3d_body_t a, b;
        touching_pair(&r, &a, &b);
        vec3_t n = vec3_unit(vec3_sub(b.p, a.p));
        double e0 = energy(&a, &b), vn0 = vec3_dot(vec3_sub(b.v, a.v), n);
        double jn = s3d_collide_impulse(&a, &b, n, 0.25, 0.5);
        if (jn <= 0)
            continue;
        cr_assert(fabs(vec3_dot(vec3_sub(b.v, a.v), n) + 0.25 * vn0) < 1e-9, "case %d", k);
        cr_assert(energy(&a, &b) <= e0 * (1 + 1e-12), "no energy made, case %d", k);
    }
}

/* head-on, equal masses, elastic: they exchange velocities (the textbook case) */
Test(collide, equal_masses_exchange_velocities, .timeout = 30)
{
    s3d_body_t a = body(75, 0.22, 1.452), b = body(75, 0.22, 1.452);
    a.p = vec3(0, 0, 0.22);
    b.p = vec3(0.43, 0, 0.22); /* overlapping by 1 cm */
    a.v = vec3(2, 0, 0);
    cr_assert(s3d_collide_spheres(&a, &b, 1.0, 0.0));
    cr_expect_float_eq(a.v.x, 0.0, 1e-12);
    cr_expect_float_eq(b.v.x, 2.0, 1e-12);
    cr_expect_float_eq(b.p.x - a.p.x, 0.44, 1e-12, "pushed apart to touching");
    cr_expect_float_eq((a.p.x + b.p.x) / 2, 0.215, 1e-12, "equal masses move equally");
}

/* a ball against a post: the normal speed reverses times GoalBounce; a net takes the
 * ball's speed; a wall keeps it in the simulated space */
Test(collide, posts_nets_walls, .timeout = 30)
{
    static s3d_world_t w;
    t3d_world(&w, "soccer::BallDrag=0", 1);
    /* the right goal's post at y = -(3.66 + 0.06), x = 52: a ball flying at it along -y */
    double py = -(7.32 / 2 + 0.06);
    s3d_ball_place(&w, vec3(52, py + 0.5, 0.3), vec3(0, -10, 0));
    w.pr.g = 0;
    for (int i = 0; i < 10; i++)
        s3d_world_step(&w);
    cr_expect(fabs(w.ball.v.y - 6.0) < 1e-9, "bounced off the post at 0.6 * 10: %g", w.ball.v.y);
    /* into the net: slowed to NetBounce of the normal speed */
    s3d_ball_place(&w, vec3(53, 0, 0.3), vec3(10, 0, 0));
    for (int i = 0; i < 20; i++)
        s3d_world_step(&w);
    cr_expect(w.ball.p.x < 54.0 && w.ball.p.x > 52.0, "inside the goal: %g", w.ball.p.x);
    cr_expect(fabs(w.ball.v.x) <= 1.0 + 1e-9, "the net took the speed: %g", w.ball.v.x);
    /* over the side line towards the border wall at y = 34 + 10 */
    s3d_ball_place(&w, vec3(0, 43, 1), vec3(0, 20, 0));
    for (int i = 0; i < 20; i++)
        s3d_world_step(&w);
    cr_expect(w.ball.v.y < 0 && w.ball.p.y <= 44.0 - w.pr.ball_r + 1e-9, "back from the wall");
}

/* robots push each other (momentum shared) and barely notice the ball (75 kg against
 * 0.43 kg: "it should not be possible to move other robots by kicking the ball against
 * them") */
Test(collide, robots_and_ball, .timeout = 30)
{
    static s3d_world_t w;
    t3d_world(&w, "soccer::DriveErrorSigma=0 soccer::BallDrag=0", 1);
    int a = t3d_robot(&w, 0, "A", 1), b = t3d_robot(&w, 1, "B", 1);
    t3d_place(&w, a, -10, 20);
    t3d_place(&w, b, -9.55, 20);
    w.robot[a].b.v = vec3(3, 0, 0);
    s3d_world_step(&w);
    cr_expect(w.robot[b].b.v.x > 0.5, "pushed");
    cr_expect(w.robot[b].b.p.x - w.robot[a].b.p.x >= 0.44 - 1e-9, "no overlap");
    t3d_place(&w, b, 10, 20);
    s3d_ball_place(&w, vec3(9.5, 20, w.pr.ball_r), vec3(20, 0, 0));
    s3d_world_step(&w);
    cr_expect(w.robot[b].b.v.x < 0.3, "a 20 m/s ball moves a robot by %g m/s", w.robot[b].b.v.x);
    cr_expect(w.ball.v.x < 0, "the ball bounced back");
    cr_expect_eq(w.last_touch, b, "the touch is noted for the referee");
}
