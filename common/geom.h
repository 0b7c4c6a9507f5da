/* geom.h -- 2-D vectors and angles in the server's frame: origin at the centre spot,
 * +x to the right goal, +y down, angles in radians from +x towards +y. */
#ifndef RCSS_GEOM_H
#define RCSS_GEOM_H

#include <math.h>

typedef struct vec2 {
    double x, y;
} vec2_t;

static inline vec2_t vec2(double x, double y) { vec2_t v = { x, y }; return v; }
static inline vec2_t vec2_add(vec2_t a, vec2_t b) { return vec2(a.x + b.x, a.y + b.y); }
static inline vec2_t vec2_sub(vec2_t a, vec2_t b) { return vec2(a.x - b.x, a.y - b.y); }
static inline vec2_t vec2_scale(vec2_t a, double k) { return vec2(a.x * k, a.y * k); }
static inline double vec2_len(vec2_t a) { return sqrt(a.x * a.x + a.y * a.y); }
static inline double vec2_dot(vec2_t a, vec2_t b) { return a.x * b.x + a.y * b.y; }
static inline double vec2_angle(vec2_t a) { return (a.x == 0.0 && a.y == 0.0) ? 0.0 : atan2(a.y, a.x); }
static inline vec2_t vec2_polar(double r, double th) { return vec2(r * cos(th), r * sin(th)); }
/* by the constant, as the reference (Deg2Rad, Rad2Deg): the same last bit */
static inline double deg2rad(double d) { return d * (M_PI / 180.0); }
static inline double rad2deg(double r) { return r * (180.0 / M_PI); }

/* Normalise to [-pi, pi]. (fmod returns a itself when |a| < 2 pi: skipped then.) */
static inline double angle_norm(double a)
{
    if (!isfinite(a))
        return 0.0;
    if (!(fabs(a) < 2.0 * M_PI))
        a = fmod(a, 2.0 * M_PI);
    if (a > M_PI)
        a -= 2.0 * M_PI;
    else if (a < -M_PI)
        a += 2.0 * M_PI;
    return a;
}

/* Scale v so that |v| <= max. */
static inline vec2_t vec2_cap(vec2_t v, double max)
{
    double l = vec2_len(v);
    return (l > max && l > 0.0) ? vec2_scale(v, max / l) : v;
}

#endif
