/* s3d_percept.c -- the vision perceptor's measurements (docs/protocol/3d.md §3.1): polar
 * coordinates of the eight markers (corner flags, goal posts), the ball and the other
 * robots, from the camera at the centre of the robot plus its calibration error, in the
 * robot's team frame (0 degrees towards the opponent goal, latitude 0 horizontal), with
 * the manual's normal noise on each coordinate. No occlusion: every object is seen (the
 * manual: "not completely implemented yet"). The text is the agent gateway's. */
#include <math.h>
#include "s3d_world.h"

vec3_t s3d_marker_pos(const s3d_params_t *pr, int i)
{
    /* 1_l (-L/2, -W/2), 2_l (-L/2, +W/2), 1_r (+L/2, -W/2), 2_r (+L/2, +W/2); the goal
     * markers the same at +-GoalWidth/2 (the Info example, 3d.md §4.2) */
    double x = pr->field_len / 2, y = i < 4 ? pr->field_wid / 2 : pr->goal_w / 2;
    int k = i % 4;
    return vec3(k < 2 ? -x : x, k % 2 == 0 ? -y : y, 0.0);
}

void s3d_polar(int side, vec3_t cam, vec3_t p, double *dist, double *theta, double *phi)
{
    vec3_t d = s3d_to_team(side, vec3_sub(p, cam));
    *dist = vec3_len(d);
    *theta = atan2(d.y, d.x) * 180.0 / M_PI;
    *phi = atan2(d.z, vec3_hlen(d)) * 180.0 / M_PI;
}

vec3_t s3d_percept_calib(const s3d_params_t *pr, rng_t *rng)
{
    double e = pr->cal_err;
    double x = rng_uniform(rng, -e, e), y = rng_uniform(rng, -e, e), z = rng_uniform(rng, -e, e);
    return vec3(x, y, z);
}

/* One seen entry with dynamic noise. */
static void seen_put(s3d_world_t *w, int side, vec3_t cam, vec3_t p, shm3d_seen_sh_t *s)
{
    const s3d_params_t *pr = &w->pr;
    double d, th, ph;
    s3d_polar(side, cam, p, &d, &th, &ph);
    d += rng_normal(&w->rng_noise, 0.0, pr->vis_dist_sigma);
    th += rng_normal(&w->rng_noise, 0.0, pr->vis_ang_sigma);
    ph += rng_normal(&w->rng_noise, 0.0, pr->vis_lat_sigma);
    if (d < 0.0)
        d = 0.0;
    if (th > 180.0)
        th -= 360.0;
    else if (th < -180.0)
        th += 360.0;
    s->dist = (float)d;
    s->theta = (float)th;
    s->phi = (float)ph;
}

int s3d_percept_vision(s3d_world_t *w, int robot, shm3d_seen_sh_t *out, int max)
{
    const s3d_robot_t *me = &w->robot[robot];
    vec3_t cam = vec3_add(me->b.p, me->calib);
    int n = 0;
    for (int i = 0; i < 8 && n < max; i++, n++) {
        out[n].kind = i < 4 ? SHM3D_SEEN_FLAG : SHM3D_SEEN_GOAL;
        out[n].id = (int8_t)(i % 4);
        out[n].side = 0;
        seen_put(w, me->side, cam, s3d_marker_pos(&w->pr, i), &out[n]);
    }
    if (n < max) {
        out[n].kind = SHM3D_SEEN_BALL;
        out[n].id = 0;
        out[n].side = 0;
        seen_put(w, me->side, cam, w->ball.p, &out[n]);
        n++;
    }
    for (int i = 0; i < SHM3D_MAX_AGENTS && n < max; i++) {
        const s3d_robot_t *o = &w->robot[i];
        if (i == robot || !o->present)
            continue;
        out[n].kind = SHM3D_SEEN_PLAYER;
        out[n].id = (int8_t)o->unum;
        out[n].side = (int8_t)o->side;
        seen_put(w, me->side, cam, o->b.p, &out[n]);
        n++;
    }
    return n;
}
