/* s3d_phys.c -- the rigid-body integrator of the 3D world: semi-implicit Euler over
 * PhysicsSubsteps substeps per step (velocities from forces first, then positions), then
 * contacts resolved by position correction and impulses (s3d_collide.c). Forces:
 * gravity on everything; on the ball quadratic air drag and a running kick's force and
 * torque; on a robot touching the ground its drive force and the ground drag that
 * balances full drive at AgentMaxSpeed (the drag is integrated implicitly, so it is
 * stable for any step). The ball on the ground bounces with BallBounce, slides with
 * Coulomb friction that turns sliding into rolling, and rolls against a resistance of
 * BallRollFriction * g. */
#include <math.h>
#include "s3d_world.h"

#define S3D_BOUNCE_MIN    0.05   /* m/s: slower impacts on the ground do not bounce */
#define S3D_ROBOT_SPIN_DECAY 2.0 /* 1/s: robots' spin (from collisions) dies out */
#define S3D_BALL_ZSPIN_DECAY 1.0 /* 1/s: the ball's spin about z on the ground */
#define S3D_REST_SPEED    1e-3   /* m/s: a rolling ball slower than this stops */

/* Friction of the ball's contact point with the ground, given the normal impulse jn of
 * this substep: an impulse against the slip velocity u, at most enough to stop the
 * slip (then the ball rolls) and at most mu * jn. Returns 1 if the ball rolls after. */
static int ground_friction(const s3d_params_t *pr, s3d_body_t *b, double jn)
{
    /* contact point at -r z: its velocity u = v + w x (-r z) = (vx - r wy, vy + r wx) */
    double ux = b->v.x - b->r * b->w.y, uy = b->v.y + b->r * b->w.x;
    double u = sqrt(ux * ux + uy * uy);
    if (u < 1e-12)
        return 1;
    /* an impulse J (horizontal, against u) changes u by J (1/m + r^2/I) */
    double k = 1.0 / b->m + b->r * b->r / b->I;
    double j = u / k, jmax = pr->ball_slide * jn;
    int rolls = 1;
    if (j > jmax) {
        j = jmax;
        rolls = 0;
    }
    double jx = -j * ux / u, jy = -j * uy / u;
    b->v.x += jx / b->m;
    b->v.y += jy / b->m;
    /* torque of J at (0, 0, -r): (r jy, -r jx, 0) */
    b->w.x += b->r * jy / b->I;
    b->w.y -= b->r * jx / b->I;
    return rolls;
}

/* Rolling resistance: the speed falls by ball_roll * g * h, the spin follows. */
static void ground_roll(const s3d_params_t *pr, s3d_body_t *b, double h)
{
    double v = vec3_hlen(b->v);
    double dv = pr->ball_roll * pr->g * h;
    if (v <= dv || v < S3D_REST_SPEED) {
        b->v.x = b->v.y = 0.0;
    } else {
        b->v.x *= (v - dv) / v;
        b->v.y *= (v - dv) / v;
    }
    b->w.x = -b->v.y / b->r;
    b->w.y = b->v.x / b->r;
    b->w.z /= 1.0 + S3D_BALL_ZSPIN_DECAY * h;
}

int s3d_phys_ground(const s3d_params_t *pr, s3d_body_t *b, double h, int ball)
{
    if (b->p.z - b->r > S3D_CONTACT_EPS)
        return 0;
    int below = b->p.z <= b->r;
    if (below)
        b->p.z = b->r;
    if (!below || b->v.z > 0.0)
        return 1; /* just above, or leaving: touching, but the ground gives nothing */
    double vz = b->v.z;
    if (ball && -vz > S3D_BOUNCE_MIN)
        b->v.z = -pr->ball_bounce * vz;
    else
        b->v.z = 0.0;
    if (ball) {
        double jn = b->m * (b->v.z - vz); /* what the ground gave along z */
        int rolls = ground_friction(pr, b, jn);
        if (rolls && b->v.z == 0.0)
            ground_roll(pr, b, h);
    }
    return 1;
}

/* forces of one substep, as velocity changes */
static void phys_forces(s3d_world_t *w, double h)
{
    const s3d_params_t *pr = &w->pr;
    s3d_body_t *ball = &w->ball;
    ball->v.z -= pr->g * h;
    double sp = vec3_len(ball->v);
    if (pr->ball_drag > 0.0 && sp > 0.0) /* implicit in the speed: never reverses */
        ball->v = vec3_scale(ball->v, 1.0 / (1.0 + pr->ball_drag / ball->m * sp * h));
    if (w->kick.steps_left > 0) {
        ball->v = vec3_madd(ball->v, w->kick.force, h / ball->m);
        ball->w = vec3_madd(ball->w, w->kick.torque, h / ball->I);
    }
    for (int i = 0; i < SHM3D_MAX_AGENTS; i++) {
        s3d_robot_t *r = &w->robot[i];
        if (!r->present)
            continue;
        s3d_body_t *b = &r->b;
        b->v.z -= pr->g * h;
        if (r->touching) {
            b->v = vec3_madd(b->v, r->force, h / b->m);
            double k = 1.0 / (1.0 + pr->agent_drag * h / b->m);
            b->v.x *= k;
            b->v.y *= k;
        }
        double hv = vec3_hlen(b->v);
        if (hv > pr->agent_vmax) {
            b->v.x *= pr->agent_vmax / hv;
            b->v.y *= pr->agent_vmax / hv;
        }
        b->w = vec3_scale(b->w, 1.0 / (1.0 + S3D_ROBOT_SPIN_DECAY * h));
    }
}

static void phys_move(s3d_world_t *w, double h)
{
    w->ball.p = vec3_madd(w->ball.p, w->ball.v, h);
    for (int i = 0; i < SHM3D_MAX_AGENTS; i++) {
        if (w->robot[i].present)
            w->robot[i].b.p = vec3_madd(w->robot[i].b.p, w->robot[i].b.v, h);
    }
}

void s3d_phys_substep(s3d_world_t *w, double h)
{
    phys_forces(w, h);
    phys_move(w, h);
    s3d_collide_all(w);
    s3d_phys_ground(&w->pr, &w->ball, h, 1);
    for (int i = 0; i < SHM3D_MAX_AGENTS; i++) {
        s3d_robot_t *r = &w->robot[i];
        if (r->present)
            r->touching = s3d_phys_ground(&w->pr, &r->b, h, 0);
    }
}

void s3d_phys_step(s3d_world_t *w)
{
    int n = w->pr.substeps > 0 ? w->pr.substeps : 1;
    double h = w->pr.dt / n;
    for (int k = 0; k < n; k++)
        s3d_phys_substep(w, h);
}
