/* vec3.h -- 3-D vectors for the 3D server (sim/3d, its gateways and tests): right-handed
 * frame with +x towards the right goal, +y towards the top touch line (seen from above),
 * +z up; lengths in metres. Pure inline functions, no state. */
#ifndef RCSS_VEC3_H
#define RCSS_VEC3_H

#include <math.h>

typedef struct vec3 {
    double x, y, z;
} vec3_t;

static inline vec3_t vec3(double x, double y, double z) { vec3_t v = { x, y, z }; return v; }
static inline vec3_t vec3_add(vec3_t a, vec3_t b) { return vec3(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline vec3_t vec3_sub(vec3_t a, vec3_t b) { return vec3(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline vec3_t vec3_scale(vec3_t a, double k) { return vec3(a.x * k, a.y * k, a.z * k); }
static inline double vec3_dot(vec3_t a, vec3_t b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline double vec3_len(vec3_t a) { return sqrt(vec3_dot(a, a)); }
static inline double vec3_hlen(vec3_t a) { return sqrt(a.x * a.x + a.y * a.y); }
static inline vec3_t vec3_cross(vec3_t a, vec3_t b)
{
    return vec3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
/* a + k * b */
static inline vec3_t vec3_madd(vec3_t a, vec3_t b, double k)
{
    return vec3(a.x + k * b.x, a.y + k * b.y, a.z + k * b.z);
}
/* Unit vector of a, or (0,0,0) for a zero vector. */
static inline vec3_t vec3_unit(vec3_t a)
{
    double l = vec3_len(a);
    return l > 0.0 ? vec3_scale(a, 1.0 / l) : vec3(0.0, 0.0, 0.0);
}
static inline vec3_t vec3_from(const double v[3]) { return vec3(v[0], v[1], v[2]); }
static inline void vec3_store(vec3_t a, double out[3])
{
    out[0] = a.x;
    out[1] = a.y;
    out[2] = a.z;
}

#endif
