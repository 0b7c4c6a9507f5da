/* test_sim_util.h -- helpers shared by the sim unit tests: a world built from the default
 * configuration, players put on the pitch, command records. Header-only (static). */
#ifndef RCSS_TEST_SIM_UTIL_H
#define RCSS_TEST_SIM_UTIL_H

#include <math.h>
#include <string.h>
#include "conf.h"
#include "sim.h"

/* configuration shared by a test process (Criterion runs each test in its own process) */
static conf_t test_conf;

static inline void test_conf_set(const char *module, const char *name, const char *value)
{
    char err[CONF_ERR_LEN];
    conf_set(&test_conf, module, name, value, err, sizeof err);
}

/* a world as the process builds it: the world, then its referee (the process's) */
static inline void test_init(sim_world_t *w, const conf_t *c, const shm_ptypes_sh_t *types,
                             uint64_t seed)
{
    sim_world_init(w, c, types, seed);
    sim_referee_init(w, &sim_step_referees);
}

/* default configuration; noise_off sets player_rand, ball_rand and kick_rand to 0 */
static inline void test_world(sim_world_t *w, int noise_off, uint64_t seed)
{
    conf_defaults(&test_conf);
    if (noise_off) {
        test_conf.num[SP_player_rand] = 0.0;
        test_conf.num[SP_ball_rand] = 0.0;
        test_conf.num[SP_kick_rand] = 0.0;
    }
    test_init(w, &test_conf, NULL, seed);
}

/* enable player (side, unum) at (x, y) with the given body angle (deg) */
static inline sim_player_t *test_player(sim_world_t *w, int side, int unum, double x,
                                        double y, double body_deg)
{
    int idx = shm_player_index(side, unum);
    sim_player_enable(w, idx, side, unum, 0, 1);
    sim_player_t *p = &w->pl[idx];
    p->sh.x = x;
    p->sh.y = y;
    p->sh.body = body_deg * M_PI / 180.0;
    return p;
}

static inline shm_cmd_sh_t test_cmd(int kind, double d0, double d1)
{
    shm_cmd_sh_t c;
    memset(&c, 0, sizeof c);
    c.kind = (uint16_t)kind;
    c.d[0] = d0;
    c.d[1] = d1;
    c.i = kind == SHM_CMD_DASH ? 1 : 0;
    return c;
}

static inline void test_apply(sim_world_t *w, int side, int unum, int kind, double d0, double d1)
{
    shm_cmd_sh_t c = test_cmd(kind, d0, d1);
    sim_cmd_player(w, shm_player_index(side, unum), &c);
}

#endif
