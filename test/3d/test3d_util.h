/* test3d_util.h -- helpers for the 3D unit tests: a world from the default
 * configuration (with overrides), robots put on the field through the effectors, and
 * the events the world emits, captured. */
#ifndef RCSS_TEST3D_UTIL_H
#define RCSS_TEST3D_UTIL_H

#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include "conf3d.h"
#include "playmode3d.h"
#include "s3d_world.h"

#define T3D_MAX_EVENTS 64

static conf3d_t t3d_conf;
static shm3d_event_sh_t t3d_events[T3D_MAX_EVENTS];
static int t3d_nevents;

static inline void t3d_emit(void *ctx, const shm3d_event_sh_t *ev)
{
    (void)ctx;
    if (t3d_nevents < T3D_MAX_EVENTS)
        t3d_events[t3d_nevents++] = *ev;
}

/* defaults, then "module::Name=value ..." overrides */
static inline void t3d_config(const char *overrides)
{
    char err[CONF_ERR_LEN];
    conf3d_defaults(&t3d_conf);
    if (overrides)
        cr_assert_eq(conf3d_parse_text(&t3d_conf, overrides, "test", err, sizeof err), 0, "%s", err);
}

static inline void t3d_world(s3d_world_t *w, const char *overrides, uint64_t seed)
{
    t3d_config(overrides);
    s3d_world_init(w, &t3d_conf, seed);
    w->emit = t3d_emit;
    t3d_nevents = 0;
}

/* a connection in slot with create + init; returns the slot */
static inline int t3d_robot(s3d_world_t *w, int slot, const char *team, int unum)
{
    w->conn[slot].active = 1;
    w->conn[slot].generation++;
    s3d_eff_create(w, slot);
    cr_assert_eq(s3d_eff_init(w, slot, unum, team), 0, "init %s %d", team, unum);
    return slot;
}

/* put robot slot at absolute x, y on the ground, at rest */
static inline void t3d_place(s3d_world_t *w, int slot, double x, double y)
{
    s3d_robot_t *r = &w->robot[slot];
    r->b.p = vec3(x, y, w->pr.agent_r);
    r->b.v = vec3(0, 0, 0);
    r->b.w = vec3(0, 0, 0);
    r->touching = 1;
}

static inline const char *t3d_last_error(void)
{
    for (int i = t3d_nevents - 1; i >= 0; i--) {
        if (t3d_events[i].kind == SHM3D_EV_AGENT_ERROR)
            return t3d_events[i].text;
    }
    return "";
}

static inline void t3d_steps(s3d_world_t *w, int n)
{
    for (int i = 0; i < n; i++)
        s3d_world_step(w);
}

#endif
