/* s3d_collide.c -- contacts of the 3D world: sphere against sphere (robots and ball)
 * with restitution and Coulomb friction applied as one impulse pair at the common
 * contact point, and sphere against the static geometry (goal posts and crossbars as
 * capsules, nets as thin boxes, the border walls and the ceiling as planes). Overlaps
 * are first undone by moving the bodies apart (by inverse mass), then the impulse acts
 * on the velocities only if the bodies approach. */
#include <math.h>
#include "s3d_world.h"

#define S3D_NET_THICK 0.02   /* m */
#define S3D_NET_DAMP  0.5    /* share of the tangential speed a net takes */
#define S3D_WALL_DAMP 0.2

double s3d_collide_impulse(s3d_body_t *a, s3d_body_t *b, vec3_t n, double e, double mu)
{
    /* the contact point on the line of centres, where the surfaces meet when they just
     * touch: with both arms parallel to n the normal impulse exerts no torque, and one
     * point for both bodies keeps the angular momentum of the pair */
    double s = a->r / (a->r + b->r);
    vec3_t c = vec3_madd(a->p, vec3_sub(b->p, a->p), s);
    vec3_t ra = vec3_sub(c, a->p), rb = vec3_sub(c, b->p);
    vec3_t va = vec3_add(a->v, vec3_cross(a->w, ra));
    vec3_t vb = vec3_add(b->v, vec3_cross(b->w, rb));
    vec3_t vrel = vec3_sub(vb, va);
    double vn = vec3_dot(vrel, n);
    if (vn >= 0.0)
        return 0.0;
    double ima = 1.0 / a->m, imb = 1.0 / b->m;
    double jn = -(1.0 + e) * vn / (ima + imb);
    vec3_t J = vec3_scale(n, jn);
    vec3_t vt = vec3_madd(vrel, n, -vn);
    double vtl = vec3_len(vt);
    if (mu > 0.0 && vtl > 1e-12) {
        /* the arms are normal to t: each adds |r|^2 / I to the tangential compliance */
        double kt = ima + imb + vec3_dot(ra, ra) / a->I + vec3_dot(rb, rb) / b->I;
        double jt = vtl / kt;
        if (jt > mu * jn)
            jt = mu * jn;
        J = vec3_madd(J, vt, -jt / vtl);
    }
    a->v = vec3_madd(a->v, J, -ima);
    b->v = vec3_madd(b->v, J, imb);
    a->w = vec3_madd(a->w, vec3_cross(ra, J), -1.0 / a->I);
    b->w = vec3_madd(b->w, vec3_cross(rb, J), 1.0 / b->I);
    return jn;
}

int s3d_collide_spheres(s3d_body_t *a, s3d_body_t *b, double e, double mu)
{
    vec3_t d = vec3_sub(b->p, a->p);
    double R = a->r + b->r;
    if (fabs(d.x) >= R || fabs(d.y) >= R || fabs(d.z) >= R)
        return 0;
    double dist = vec3_len(d);
    if (dist >= R)
        return 0;
    vec3_t n = dist > 1e-9 ? vec3_scale(d, 1.0 / dist) : vec3(1, 0, 0);
    double ima = 1.0 / a->m, imb = 1.0 / b->m, pen = R - dist;
    a->p = vec3_madd(a->p, n, -pen * ima / (ima + imb));
    b->p = vec3_madd(b->p, n, pen * imb / (ima + imb));
    s3d_collide_impulse(a, b, n, e, mu);
    return 1;
}

/* Closest point of segment a-b to p. */
static vec3_t seg_closest(vec3_t a, vec3_t b, vec3_t p)
{
    vec3_t ab = vec3_sub(b, a);
    double l2 = vec3_dot(ab, ab);
    double t = l2 > 0.0 ? vec3_dot(vec3_sub(p, a), ab) / l2 : 0.0;
    t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
    return vec3_madd(a, ab, t);
}

static double clampd(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }

/* Box contact: normal out of the box and penetration; 0 if apart. A centre inside the
 * box leaves through the nearest face. */
static int box_contact(const s3d_shape_t *s, vec3_t p, double r, vec3_t *n, double *pen)
{
    vec3_t q = vec3(clampd(p.x, s->a.x, s->b.x), clampd(p.y, s->a.y, s->b.y),
                    clampd(p.z, s->a.z, s->b.z));
    vec3_t d = vec3_sub(p, q);
    double dist = vec3_len(d);
    if (dist > 0.0) {
        if (dist >= r)
            return 0;
        *n = vec3_scale(d, 1.0 / dist);
        *pen = r - dist;
        return 1;
    }
    double face[6] = { p.x - s->a.x, s->b.x - p.x, p.y - s->a.y, s->b.y - p.y,
                       p.z - s->a.z, s->b.z - p.z };
    static const vec3_t normal[6] = { { -1, 0, 0 }, { 1, 0, 0 }, { 0, -1, 0 },
                                      { 0, 1, 0 }, { 0, 0, -1 }, { 0, 0, 1 } };
    int k = 0;
    for (int i = 1; i < 6; i++) {
        if (face[i] < face[k])
            k = i;
    }
    *n = normal[k];
    *pen = r + face[k];
    return 1;
}

static int shape_contact(const s3d_shape_t *s, vec3_t p, double r, vec3_t *n, double *pen)
{
    switch (s->kind) {
    case S3D_SHAPE_CAPSULE: {
        vec3_t c = seg_closest(s->a, s->b, p), d = vec3_sub(p, c);
        double dist = vec3_len(d);
        if (dist >= r + s->r)
            return 0;
        *n = dist > 1e-9 ? vec3_scale(d, 1.0 / dist) : vec3(0, 0, 1);
        *pen = r + s->r - dist;
        return 1;
    }
    case S3D_SHAPE_BOX:
        return box_contact(s, p, r, n, pen);
    case S3D_SHAPE_PLANE: {
        double h = vec3_dot(vec3_sub(p, s->a), s->b);
        if (h >= r)
            return 0;
        *n = s->b;
        *pen = r - h;
        return 1;
    }
    default:
        return 0;
    }
}

int s3d_collide_static(s3d_body_t *b, const s3d_shape_t *s)
{
    vec3_t n;
    double pen;
    if (!shape_contact(s, b->p, b->r, &n, &pen))
        return 0;
    b->p = vec3_madd(b->p, n, pen);
    double vn = vec3_dot(b->v, n);
    if (vn < 0.0) {
        vec3_t vt = vec3_madd(b->v, n, -vn);
        b->v = vec3_madd(vec3_scale(vt, 1.0 - s->damp), n, -s->bounce * vn);
    }
    return 1;
}

static int add_shape(s3d_shape_t *out, int *n, int max, int kind, vec3_t a, vec3_t b,
                     double r, double bounce, double damp)
{
    if (*n >= max)
        return -1;
    s3d_shape_t *s = &out[(*n)++];
    s->kind = kind;
    s->a = a;
    s->b = b;
    s->r = r;
    s->bounce = bounce;
    s->damp = damp;
    return 0;
}

/* One goal: dir -1 left (x0 = -L/2, the net behind it towards -x), +1 right. */
static void goal_shapes(const s3d_params_t *pr, int dir, s3d_shape_t *out, int *n, int max)
{
    double x0 = dir * pr->field_len / 2, xb = x0 + dir * pr->goal_d;
    double yp = pr->goal_w / 2 + pr->post_r, top = pr->goal_h + pr->post_r;
    double t = S3D_NET_THICK, xlo = xb < x0 ? xb : x0, xhi = xb < x0 ? x0 : xb;
    add_shape(out, n, max, S3D_SHAPE_CAPSULE, vec3(x0, -yp, 0), vec3(x0, -yp, top),
              pr->post_r, pr->goal_bounce, 0);
    add_shape(out, n, max, S3D_SHAPE_CAPSULE, vec3(x0, yp, 0), vec3(x0, yp, top),
              pr->post_r, pr->goal_bounce, 0);
    add_shape(out, n, max, S3D_SHAPE_CAPSULE, vec3(x0, -yp, top), vec3(x0, yp, top),
              pr->post_r, pr->goal_bounce, 0);
    /* back net, behind xb */
    add_shape(out, n, max, S3D_SHAPE_BOX, vec3(dir < 0 ? xb - t : xb, -yp, 0),
              vec3(dir < 0 ? xb : xb + t, yp, top), 0, pr->net_bounce, S3D_NET_DAMP);
    /* side nets outside the posts' line, roof on the crossbar */
    add_shape(out, n, max, S3D_SHAPE_BOX, vec3(xlo, -yp - t, 0), vec3(xhi, -yp, top), 0,
              pr->net_bounce, S3D_NET_DAMP);
    add_shape(out, n, max, S3D_SHAPE_BOX, vec3(xlo, yp, 0), vec3(xhi, yp + t, top), 0,
              pr->net_bounce, S3D_NET_DAMP);
    add_shape(out, n, max, S3D_SHAPE_BOX, vec3(xlo, -yp, top), vec3(xhi, yp, top + t), 0,
              pr->net_bounce, S3D_NET_DAMP);
}

int s3d_collide_build_shapes(const s3d_params_t *pr, s3d_shape_t *out, int max)
{
    int n = 0;
    double X = pr->field_len / 2 + pr->border, Y = pr->field_wid / 2 + pr->border;
    goal_shapes(pr, -1, out, &n, max);
    goal_shapes(pr, 1, out, &n, max);
    add_shape(out, &n, max, S3D_SHAPE_PLANE, vec3(-X, 0, 0), vec3(1, 0, 0), 0,
              pr->wall_bounce, S3D_WALL_DAMP);
    add_shape(out, &n, max, S3D_SHAPE_PLANE, vec3(X, 0, 0), vec3(-1, 0, 0), 0,
              pr->wall_bounce, S3D_WALL_DAMP);
    add_shape(out, &n, max, S3D_SHAPE_PLANE, vec3(0, -Y, 0), vec3(0, 1, 0), 0,
              pr->wall_bounce, S3D_WALL_DAMP);
    add_shape(out, &n, max, S3D_SHAPE_PLANE, vec3(0, Y, 0), vec3(0, -1, 0), 0,
              pr->wall_bounce, S3D_WALL_DAMP);
    add_shape(out, &n, max, S3D_SHAPE_PLANE, vec3(0, 0, pr->field_h), vec3(0, 0, -1), 0,
              pr->wall_bounce, S3D_WALL_DAMP);
    return n;
}

void s3d_collide_all(s3d_world_t *w)
{
    const s3d_params_t *pr = &w->pr;
    for (int i = 0; i < SHM3D_MAX_AGENTS; i++) {
        s3d_robot_t *a = &w->robot[i];
        if (!a->present)
            continue;
        for (int j = i + 1; j < SHM3D_MAX_AGENTS; j++) {
            if (w->robot[j].present)
                s3d_collide_spheres(&a->b, &w->robot[j].b, pr->agent_bounce, 0.0);
        }
        if (s3d_collide_spheres(&a->b, &w->ball, pr->ab_bounce, pr->ab_friction))
            a->touched = 1;
        for (int k = 0; k < w->nshapes; k++)
            s3d_collide_static(&a->b, &w->shape[k]);
    }
    for (int k = 0; k < w->nshapes; k++)
        s3d_collide_static(&w->ball, &w->shape[k]);
}
